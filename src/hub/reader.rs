//! The Hub protocol front end: `onca` (or `onca hub`) speaks Hub on stdin/stdout.
//!
//! Three parts, one thread each:
//!
//! * the reader (this module) reads lines with bounded memory ([`crate::hub::input`]), parses them
//!   into commands ([`crate::hub::command`]) and forwards them, in order, over a channel;
//! * the controller ([`crate::hub::session`]) owns the game, the searcher and the parameters and
//!   acts on each command; it answers `ping` and sets the stop and ponder-hit flags itself, even
//!   mid-search, because it never blocks while a search runs;
//! * the search runs on a worker thread started per `go`.
//!
//! Every line goes out through one [`crate::hub::output::Output`], which writes and flushes whole
//! lines under a lock. The dialect is described in `engine-protocol.md` at the repository root.
//!
//! `ping`, `stop` and `ponder-hit` are acted on by the controller rather than by the reader, for
//! ordering: when idle, `pong` comes after the replies to the commands sent before it (a host may
//! use `ping` as a barrier, e.g. after `init`), and a `stop` sent right behind a `go` always
//! reaches the search that `go` started, never one that has not started yet. The cost is nothing:
//! the controller only ever waits for input or for a search that has been told to stop.

use crate::hub::command::parse_command;
use crate::hub::input::{read_line, Line, MAX_LINE_BYTES};
use crate::hub::output::Output;
use crate::hub::session::{Incoming, Session};
use crossbeam::channel::{self, Sender};
use std::io::{BufReader, Read, Write};
use std::time::Instant;

/// Runs a Hub session on `input` and `output` until `quit` or end of input.
pub fn run(input: impl Read + Send + 'static, output: impl Write + Send + 'static) {
    run_with_params(input, output, &[]);
}

/// Like [`run`], after setting parameters given on the command line. Each argument is
/// `--name=value` (how lidraughts-bot passes its `engine_options`), `name=value`, or `--name` for
/// `true`; each one is handled exactly like `set-param name=<name> value=<value>`.
pub fn run_with_params(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    arguments: &[String],
) {
    let output = Output::new(Box::new(output));
    let (sender, receiver) = channel::unbounded();
    let reader = std::thread::Builder::new()
        .name("hub-reader".into())
        .spawn(move || read_commands(input, &sender));
    if let Err(why) = reader {
        output.error(&format!("cannot start the input thread: {why}"));
        return;
    }
    let mut session = Session::new(output);
    for argument in arguments {
        let (name, value) = parameter_argument(argument);
        session.set_param(name, value);
    }
    session.run(&receiver);
    // The reader may still be blocked on input after `quit`; the process exits without it.
}

/// Reads and forwards commands until end of input, `quit`, or the controller is gone.
fn read_commands(input: impl Read, sender: &Sender<Incoming>) {
    let mut reader = BufReader::new(input);
    loop {
        let incoming = match read_line(&mut reader, MAX_LINE_BYTES) {
            Ok(Line::Text(text)) => {
                log::debug!("hub << {text}");
                match parse_command(&text) {
                    Ok(Some(command)) => Incoming::Command(command, Instant::now()),
                    Ok(None) => {
                        log::debug!("hub: ignoring unknown or empty line");
                        continue;
                    }
                    Err(why) => Incoming::Error(why.to_string()),
                }
            }
            Ok(Line::TooLong(length)) => Incoming::Error(format!(
                "ignored a line of {length} bytes: lines are limited to {MAX_LINE_BYTES} bytes"
            )),
            Ok(Line::End) => Incoming::End,
            Err(why) => {
                log::debug!("hub: input failed: {why}");
                Incoming::End
            }
        };
        let last = matches!(
            incoming,
            Incoming::End | Incoming::Command(crate::hub::command::Command::Quit, _)
        );
        if sender.send(incoming).is_err() || last {
            return;
        }
    }
}

/// Splits a command-line parameter `--name=value` / `name=value` / `--name` (= `true`).
fn parameter_argument(argument: &str) -> (&str, &str) {
    let stripped = argument.trim().trim_start_matches('-');
    match stripped.split_once('=') {
        Some((name, value)) => (name.trim(), value.trim()),
        None => (stripped, "true"),
    }
}

#[cfg(test)]
mod tests {
    use super::parameter_argument;

    #[test]
    fn command_line_parameters_split_like_set_param() {
        assert_eq!(parameter_argument("--hash=128"), ("hash", "128"));
        assert_eq!(parameter_argument("threads=2"), ("threads", "2"));
        assert_eq!(parameter_argument("--ponder"), ("ponder", "true"));
        assert_eq!(parameter_argument("--x=a=b"), ("x", "a=b"));
    }
}

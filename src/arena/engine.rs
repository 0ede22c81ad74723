//! The host side of the Hub protocol: starting an engine process and talking to it safely.
//!
//! Used by anything that drives engines (the match runner first). Engines are untrusted: they may
//! print junk, never answer, or exit at any moment. So every engine gets a reader thread that
//! turns its standard output into lines on a channel, every wait has a deadline, junk lines are
//! logged and skipped, and the process is killed when the [`HubEngine`] is dropped. Engine
//! commands are split into words like a shell would (quotes and backslashes), but no shell runs.
//!
//! An [`EngineLog`] records the protocol traffic both ways and the engine's standard error, with
//! times, into whichever file it points at (the match runner switches it per game).

use crossbeam::channel::{self, Receiver, RecvTimeoutError};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest engine output line kept whole; longer lines are cut into pieces (junk either way).
const MAX_LINE_BYTES: u64 = 1 << 20;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// The process could not be started.
    Spawn(String),
    /// The engine closed its output or exited.
    Exited,
    /// No expected answer before the deadline.
    Timeout,
    /// Writing to the engine failed (it has most likely exited).
    Write(String),
    /// The host gave up waiting because the run is being stopped (see [`HubEngine::abandon_when`]).
    Interrupted,
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::Spawn(why) => write!(f, "cannot start engine: {why}"),
            HubError::Exited => f.write_str("engine exited"),
            HubError::Timeout => f.write_str("engine did not answer in time"),
            HubError::Write(why) => write!(f, "cannot write to engine: {why}"),
            HubError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for HubError {}

/// A parsed Hub line: a command word and its `name=value` arguments (a bare name has no value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubMessage {
    /// The first word of the line (`id`, `info`, `done`, ...).
    pub command: String,
    /// The arguments in line order: name and value, with quotes removed (`None` for a flag).
    pub arguments: Vec<(String, Option<String>)>,
}

impl HubMessage {
    /// The value of argument `name`, if present with a value.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.arguments
            .iter()
            .find(|(key, _)| key == name)
            .and_then(|(_, value)| value.as_deref())
    }
}

/// Parses one Hub line. Returns None for an empty line or an unterminated quote.
pub fn parse_message(line: &str) -> Option<HubMessage> {
    let mut chars = line.trim().chars().peekable();
    let command: String = chars.by_ref().take_while(|c| !c.is_whitespace()).collect();
    if command.is_empty() {
        return None;
    }
    let mut arguments = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            name.push(c);
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next_if_eq(&'=').is_none() {
            arguments.push((name, None));
            continue;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => value.push(c),
                    None => return None,
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                value.push(c);
            }
        }
        arguments.push((name, Some(value)));
    }
    Some(HubMessage { command, arguments })
}

/// A value as it must appear on the wire: bare if it can be, else quoted. Hub quotes have no
/// escapes, so a double quote inside a value becomes a single quote.
pub fn quote_value(value: &str) -> String {
    let bare =
        !value.is_empty() && !value.contains(|c: char| c.is_whitespace() || c == '=' || c == '"');
    if bare {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// Splits an engine command into words like a POSIX shell would: blanks separate words, single
/// quotes keep everything literally, double quotes keep blanks, a backslash escapes the next
/// character. No variables, globs or pipes: no shell is run.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(inner) => word.push(inner),
                        None => return Err(format!("unterminated ' in command '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(escaped) => word.push(escaped),
                            None => return Err(format!("command '{text}' ends with a backslash")),
                        },
                        Some(inner) => word.push(inner),
                        None => return Err(format!("unterminated \" in command '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(escaped) => word.push(escaped),
                    None => return Err(format!("command '{text}' ends with a backslash")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// A parameter an engine declared in its handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineParam {
    /// The `name=` of the `param` line, as used in `set-param`.
    pub name: String,
    /// The `value=` the engine reported (its current value), if any.
    pub value: Option<String>,
    /// The `type=` text (`int`, `bool`, `string`, `enum`, ...), if any; not interpreted.
    pub kind: Option<String>,
}

/// What the engine said about itself in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name=`; None if the engine sent no `id` line or no name in it.
    pub name: Option<String>,
    /// `id version=`, if given.
    pub version: Option<String>,
    /// `id author=`, if given.
    pub author: Option<String>,
    /// Every `param` line that had a name, in the order sent.
    pub params: Vec<EngineParam>,
}

/// The answer to `go think`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchAnswer {
    /// The move text exactly as sent (may be illegal; the referee checks it).
    pub best_move: String,
    /// The `ponder=` move text of the `done` line (the expected reply), if any; not checked.
    pub ponder: Option<String>,
    /// The `score=` text of the last `info` line that had one (verbatim, not parsed).
    pub score: Option<String>,
    /// The `depth=` text of the last `info` line that had one (verbatim, not parsed).
    pub depth: Option<String>,
}

/// Where one engine's traffic and standard error are written: a file that can be switched (one
/// per game) or none. Clones share the same destination.
///
/// The file is written by a thread of its own: a write that waits for the disk (the kernel
/// throttles writers while much data is waiting to be written, after a large build say) must not
/// hold up the lines that the referee times, or a healthy engine would lose a game on time.
#[derive(Clone, Default)]
pub struct EngineLog {
    sink: Arc<Mutex<Option<LogQueue>>>,
}

/// The writer thread's queue and when the current file was opened (None: no file).
struct LogQueue {
    queue: channel::Sender<LogMessage>,
    opened: Option<Instant>,
}

enum LogMessage {
    /// Write to this file from now on (flushing the previous one), then say so on the channel.
    Switch(Option<std::fs::File>, channel::Sender<()>),
    Line(String),
}

/// Writes the queued lines until every [`EngineLog`] clone is gone.
fn write_log(messages: Receiver<LogMessage>) {
    let mut file: Option<std::io::BufWriter<std::fs::File>> = None;
    for message in messages {
        match message {
            LogMessage::Switch(next, done) => {
                if let Some(previous) = file.as_mut() {
                    let _ = previous.flush();
                }
                file = next.map(std::io::BufWriter::new);
                let _ = done.send(());
            }
            LogMessage::Line(line) => {
                if let Some(file) = file.as_mut() {
                    let _ = writeln!(file, "{line}");
                }
            }
        }
    }
    if let Some(mut last) = file {
        let _ = last.flush();
    }
}

impl EngineLog {
    /// Sends the following lines to `file` (or nowhere with None). Returns once the previous
    /// file is flushed, so a finished game's log is complete (this waits between games only).
    pub fn switch_to(&self, file: Option<std::fs::File>) {
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if sink.is_none() {
            if file.is_none() {
                return;
            }
            let (queue, messages) = channel::unbounded();
            let started = thread::Builder::new()
                .name("engine-log".into())
                .spawn(move || write_log(messages));
            if let Err(error) = started {
                log::warn!("no engine log: cannot start its writer thread: {error}");
                return;
            }
            *sink = Some(LogQueue {
                queue,
                opened: None,
            });
        }
        if let Some(log) = sink.as_mut() {
            log.opened = file.is_some().then(Instant::now);
            let (done, flushed) = channel::bounded(1);
            if log.queue.send(LogMessage::Switch(file, done)).is_ok() {
                let _ = flushed.recv();
            }
        }
    }

    /// Writes `line` with the seconds since the file was opened and who spoke (`host`, `engine`
    /// or `stderr`). Logging never fails or delays the caller: a full disk loses log lines, not
    /// games.
    fn write(&self, who: &str, line: &str) {
        let sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(LogQueue {
            queue,
            opened: Some(opened),
        }) = sink.as_ref()
        {
            let seconds = opened.elapsed().as_secs_f64();
            let _ = queue.send(LogMessage::Line(format!("{seconds:9.3} {who:<6} {line}")));
        }
    }
}

/// Calls `each` with every line of `input` (trimmed, invalid UTF-8 replaced, lines longer than
/// [`MAX_LINE_BYTES`] cut into pieces) until the input ends or `each` returns false.
fn for_each_line(input: impl Read, mut each: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match (&mut reader)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if !each(String::from_utf8_lossy(&buffer).trim().to_string()) {
                    break;
                }
            }
        }
    }
}

/// A running engine process that speaks Hub.
pub struct HubEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
    log: EngineLog,
    /// When set, every wait ends at once with [`HubError::Interrupted`].
    abandon: Option<Arc<AtomicBool>>,
}

/// How often a wait looks at the abandon flag: the longest a stopped run waits for an engine.
const ABANDON_POLL: Duration = Duration::from_millis(50);

impl HubEngine {
    /// Starts `argv[0]` with the other words as arguments, standard error discarded.
    pub fn start(argv: &[String], label: &str) -> Result<HubEngine, HubError> {
        HubEngine::start_logged(argv, label, None)
    }

    /// [`HubEngine::start`], with the traffic and standard error written to `log` if given.
    pub fn start_logged(
        argv: &[String],
        label: &str,
        log: Option<EngineLog>,
    ) -> Result<HubEngine, HubError> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| HubError::Spawn("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|error| HubError::Spawn(format!("{program}: {error}")))?;
        let log = log.unwrap_or_default();
        if let Some(stderr) = child.stderr.take() {
            let stderr_log = log.clone();
            thread::Builder::new()
                .name(format!("hub-stderr-{label}"))
                .spawn(move || {
                    for_each_line(stderr, |line| {
                        stderr_log.write("stderr", &line);
                        true
                    })
                })
                .map_err(|error| HubError::Spawn(format!("stderr thread: {error}")))?;
        }
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| HubError::Spawn("no standard output pipe".into()))?;
        let (sender, lines) = channel::unbounded();
        let thread_label = label.to_string();
        let reader_log = log.clone();
        thread::Builder::new()
            .name(format!("hub-reader-{label}"))
            .spawn(move || {
                for_each_line(stdout, |line| {
                    log::debug!("{thread_label} > {line}");
                    reader_log.write("engine", &line);
                    sender.send(line).is_ok()
                });
                // Dropping the sender tells the host that the engine's output is closed.
            })
            .map_err(|error| HubError::Spawn(format!("reader thread: {error}")))?;
        Ok(HubEngine {
            child,
            stdin,
            lines,
            label: label.to_string(),
            log,
            abandon: None,
        })
    }

    /// Makes every later wait end with [`HubError::Interrupted`] as soon as `flag` is set, so
    /// that a run being stopped (a signal, a failed write of its results) need not wait for the
    /// engine's move.
    pub fn abandon_when(&mut self, flag: Arc<AtomicBool>) {
        self.abandon = Some(flag);
    }

    fn abandoned(&self) -> bool {
        self.abandon
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::SeqCst))
    }

    /// The label used in logs.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), HubError> {
        log::debug!("{} < {line}", self.label);
        self.log.write("host", line);
        let stdin = self.stdin.as_mut().ok_or(HubError::Exited)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|error| HubError::Write(error.to_string()))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, HubError> {
        loop {
            if self.abandoned() {
                return Err(HubError::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = if self.abandon.is_some() {
                left.min(ABANDON_POLL)
            } else {
                left
            };
            match self.lines.recv_timeout(slice) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) if slice < left => continue,
                Err(RecvTimeoutError::Timeout) => return Err(HubError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(HubError::Exited),
            }
        }
    }

    /// Reads until a line with command `command`, skipping (and logging) anything else.
    fn wait_for(&mut self, command: &str, deadline: Instant) -> Result<HubMessage, HubError> {
        loop {
            let line = self.read_line(deadline)?;
            match parse_message(&line) {
                Some(message) if message.command == command => return Ok(message),
                Some(message) if message.command == "error" => {
                    log::warn!("{}: error from engine: {line}", self.label)
                }
                _ => log::debug!(
                    "{}: skipped '{line}' while waiting for {command}",
                    self.label
                ),
            }
        }
    }

    /// `hub` and everything up to `wait`: the engine's id and parameters.
    pub fn handshake(&mut self, timeout: Duration) -> Result<EngineInfo, HubError> {
        let deadline = Instant::now() + timeout;
        self.send("hub")?;
        let mut info = EngineInfo::default();
        loop {
            let line = self.read_line(deadline)?;
            let Some(message) = parse_message(&line) else {
                continue;
            };
            match message.command.as_str() {
                "id" => {
                    info.name = message.get("name").map(str::to_string);
                    info.version = message.get("version").map(str::to_string);
                    info.author = message.get("author").map(str::to_string);
                }
                "param" => {
                    if let Some(name) = message.get("name") {
                        info.params.push(EngineParam {
                            name: name.to_string(),
                            value: message.get("value").map(str::to_string),
                            kind: message.get("type").map(str::to_string),
                        });
                    }
                }
                "wait" => return Ok(info),
                _ => log::debug!("{}: skipped '{line}' in handshake", self.label),
            }
        }
    }

    /// `set-param name=... value=...`.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        self.send(&format!(
            "set-param name={} value={}",
            quote_value(name),
            quote_value(value)
        ))
    }

    /// `init`, then waits for `ready`.
    pub fn init(&mut self, timeout: Duration) -> Result<(), HubError> {
        self.send("init")?;
        self.wait_for("ready", Instant::now() + timeout).map(|_| ())
    }

    /// Sends the position (start position as a Hub string plus every move since) and the limits,
    /// starts a search and waits for `done` until `deadline`.
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        level: &str,
        deadline: Instant,
    ) -> Result<SearchAnswer, HubError> {
        self.start_search(start, moves, level, "go think")?;
        self.wait_done(deadline)
    }

    /// Sends the position, the limits and `go` (`go think`, `go ponder`, ...) without waiting:
    /// [`HubEngine::wait_done`] collects the answer.
    pub fn start_search(
        &mut self,
        start: &str,
        moves: &[String],
        level: &str,
        go: &str,
    ) -> Result<(), HubError> {
        // Anything still queued (a second `done`, late `info`) belongs to an earlier exchange
        // and must not be taken as the answer to this search.
        while let Ok(line) = self.lines.try_recv() {
            log::debug!("{}: dropped stale '{line}'", self.label);
        }
        self.send(&format!(
            "pos pos={} moves=\"{}\"",
            quote_value(start),
            moves.join(" ")
        ))?;
        self.send(level)?;
        self.send(go)
    }

    /// Waits until `deadline` for the `done` of the running search, keeping the last `info`
    /// line's score and depth.
    pub fn wait_done(&mut self, deadline: Instant) -> Result<SearchAnswer, HubError> {
        let mut score = None;
        let mut depth = None;
        loop {
            let line = self.read_line(deadline)?;
            let Some(message) = parse_message(&line) else {
                log::debug!("{}: skipped '{line}' while thinking", self.label);
                continue;
            };
            match message.command.as_str() {
                "info" => {
                    score = message.get("score").map(str::to_string).or(score);
                    depth = message.get("depth").map(str::to_string).or(depth);
                }
                "done" => {
                    return Ok(SearchAnswer {
                        best_move: message.get("move").unwrap_or("").to_string(),
                        ponder: message.get("ponder").map(str::to_string),
                        score,
                        depth,
                    })
                }
                "error" => log::warn!("{}: error from engine: {line}", self.label),
                _ => log::debug!("{}: skipped '{line}' while thinking", self.label),
            }
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the process at once (for an engine that hangs).
    pub fn kill(mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HubEngine {
    /// Asks the engine to quit, gives it a moment, then kills it: no process outlives its host.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.send("quit");
            self.stdin = None;
            let patience = Instant::now() + Duration::from_millis(200);
            while Instant::now() < patience {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hub_lines() {
        let message = parse_message("  done move=26x17x22  ponder = 11-15 \r").expect("a message");
        assert_eq!(message.command, "done");
        assert_eq!(message.get("move"), Some("26x17x22"));
        assert_eq!(message.get("ponder"), Some("11-15"));
        let message = parse_message("param name=x value=\"a b\" type=string flag").expect("msg");
        assert_eq!(message.get("value"), Some("a b"));
        assert_eq!(message.arguments.last(), Some(&("flag".to_string(), None)));
        let message = parse_message("pos moves=\"\"").expect("msg");
        assert_eq!(message.get("moves"), Some(""));
        assert_eq!(parse_message("   "), None);
        assert_eq!(parse_message("info pv=\"22-18"), None);
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(quote_value("abc"), "abc");
        assert_eq!(quote_value(""), "\"\"");
        assert_eq!(quote_value("a b"), "\"a b\"");
        assert_eq!(quote_value("say \"x\""), "\"say 'x'\"");
    }

    #[test]
    fn splits_commands_like_a_shell() {
        assert_eq!(
            split_command("python3  'my dir/e.py' --x \"a b\" c\\ d").expect("valid"),
            vec!["python3", "my dir/e.py", "--x", "a b", "c d"]
        );
        assert_eq!(split_command("a ''").expect("valid"), vec!["a", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a\\").is_err());
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let argv = vec!["/nonexistent/engine-binary".to_string()];
        assert!(matches!(
            HubEngine::start(&argv, "x"),
            Err(HubError::Spawn(_))
        ));
    }
}

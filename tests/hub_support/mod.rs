//! Shared helpers for the integration tests that run the real `onca` binary: start it, talk to it
//! line by line, and fail (instead of hanging) when an expected line does not come in time; read
//! the address `onca serve` announces.

#![allow(dead_code)]

use onca::rules::movegen::legal_moves_in;
use onca::rules::moves::{find_hub_move, Move};
use onca::rules::position::Position;
use onca::rules::variant::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long any single expected line may take. Generous: the machine is shared. A hang fails the
/// test after this long instead of blocking the suite.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(60);

/// The Hub string of the start position.
pub const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// A running engine process.
pub struct Engine {
    child: Child,
    /// Bytes for the engine's stdin. A thread writes them, so that a hung engine that stops
    /// reading can never block the test itself (the next expected line times out instead).
    stdin: Option<Sender<Vec<u8>>>,
    lines: Receiver<String>,
    /// Everything received so far, for failure messages.
    pub transcript: Vec<String>,
}

/// The result of one `go`: the `info` lines and the `done` line.
pub struct Search {
    pub infos: Vec<String>,
    pub done: String,
}

impl Engine {
    /// Starts `onca hub`.
    pub fn start() -> Engine {
        Engine::start_with(&["hub"])
    }

    /// Starts `onca` with the given arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_onca"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start onca");
        let stdout = child.stdout.take().expect("stdout");
        let mut pipe = child.stdin.take().expect("stdin");
        let (stdin, chunks) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for chunk in chunks {
                if pipe.write_all(&chunk).and_then(|()| pipe.flush()).is_err() {
                    break;
                }
            }
            // Dropping the pipe here closes the engine's input.
        });
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_ref().expect("stdin is open");
        stdin
            .send(bytes.to_vec())
            .expect("the writer thread is alive");
    }

    /// Closes our end of the engine's standard input (after everything sent so far).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or a test failure after [`LINE_TIMEOUT`].
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.transcript.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no line from the engine in time; so far: {:#?}",
                    self.transcript
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "the engine closed its output; so far: {:#?}",
                    self.transcript
                )
            }
        }
    }

    /// The next line that is not `info`; the `info` lines before it are added to `infos`.
    pub fn recv_non_info(&mut self, infos: &mut Vec<String>) -> String {
        loop {
            let line = self.recv();
            if !line.starts_with("info") {
                return line;
            }
            infos.push(line);
        }
    }

    /// Reads until a line starting with `prefix`; panics on an `error` or `done` line first unless
    /// that is what is expected.
    pub fn expect(&mut self, prefix: &str) -> String {
        loop {
            let line = self.recv();
            if line.starts_with(prefix) {
                return line;
            }
            assert!(
                !line.starts_with("error") && !line.starts_with("done"),
                "expected '{prefix}', got '{line}'; transcript: {:#?}",
                self.transcript
            );
        }
    }

    /// Reads the `info` lines and the `done` of one search. Anything else fails the test.
    pub fn search_result(&mut self) -> Search {
        let mut infos = Vec::new();
        loop {
            let line = self.recv();
            if line.starts_with("info") {
                infos.push(line);
            } else if line.starts_with("done") {
                return Search { infos, done: line };
            } else {
                panic!(
                    "unexpected line during a search: '{line}'; transcript: {:#?}",
                    self.transcript
                );
            }
        }
    }

    /// `hub` ... `wait`, `init` ... `ready`.
    pub fn handshake(&mut self) {
        self.send("hub");
        self.expect("wait");
        self.send("init");
        self.expect("ready");
    }

    /// Sends `ping` and checks that `pong` is the next line (so nothing else was pending).
    pub fn barrier(&mut self) {
        self.send("ping");
        let line = self.recv();
        assert_eq!(line, "pong", "transcript: {:#?}", self.transcript);
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for onca") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit; transcript: {:#?}",
                self.transcript
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Everything the engine wrote on stderr (after it exited).
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        }
        text
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a reply line (bare or quoted).
pub fn field(line: &str, name: &str) -> Option<String> {
    let tokens = onca::hub::command::tokenize(line).ok()?;
    tokens.value(name).map(str::to_string)
}

/// The `move=` of a `done` line, checked to be legal in `position` (standard numbering).
pub fn done_move(done: &str, position: &Position) -> Move {
    done_move_in(Variant::Brazilian, done, position)
}

/// [`done_move`] under the rules of `variant`.
pub fn done_move_in(variant: Variant, done: &str, position: &Position) -> Move {
    assert!(done.starts_with("done move="), "not a done line: {done}");
    let text = field(done, "move").expect("move=");
    let legal = legal_moves_in(variant, position);
    find_hub_move(&legal, &text)
        .unwrap_or_else(|why| panic!("illegal done move '{text}' ({why}) in '{done}'"))
}

/// Checks the Hub rules for one search: at least one `info` with a score, fields in Scan's order,
/// quoted pv, and a legal `done` move with a legal ponder move if any.
pub fn check_search(search: &Search, position: &Position) -> Move {
    check_search_in(Variant::Brazilian, search, position)
}

/// [`check_search`] under the rules of `variant`.
pub fn check_search_in(variant: Variant, search: &Search, position: &Position) -> Move {
    assert!(
        search
            .infos
            .iter()
            .any(|info| field(info, "score").is_some()),
        "no info with a score before {}",
        search.done
    );
    for info in &search.infos {
        let names: Vec<&str> = info
            .split_whitespace()
            .skip(1)
            .filter_map(|token| token.split_once('=').map(|(name, _)| name))
            .filter(|name| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            })
            .collect();
        let order = ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"];
        assert!(
            names.starts_with(&order),
            "info fields out of Scan's order: {info}"
        );
        assert!(info.contains("pv=\""), "pv not quoted: {info}");
        let score: f64 = field(info, "score")
            .unwrap()
            .parse()
            .expect("numeric score");
        assert!(score.abs() <= 100.0, "score out of range: {info}");
    }
    let mv = done_move_in(variant, &search.done, position);
    let parts: Vec<&str> = search.done.split_whitespace().collect();
    assert!(parts.len() <= 3, "extra fields in {}", search.done);
    if let Some(ponder) = field(&search.done, "ponder") {
        assert!(parts[2].starts_with("ponder="), "{}", search.done);
        let after = position.play_in(variant, &mv);
        find_hub_move(&legal_moves_in(variant, &after), &ponder)
            .unwrap_or_else(|why| panic!("illegal ponder move in '{}': {why}", search.done));
    }
    mv
}

/// A small deterministic pseudo-random generator (xorshift) for self-play.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Analyses `fen` to `depth` plies and returns the last `info` line, checking the search's output
/// on the way.
pub fn analysis_last_info(engine: &mut Engine, fen: &str, depth: u32) -> String {
    engine.send(&format!("pos pos={fen}"));
    engine.send(&format!("level depth={depth}"));
    engine.send("go analyze");
    let search = engine.search_result();
    let position = onca::notation::fen::parse_position(fen).expect("valid position");
    check_search(&search, &position);
    search.infos.last().expect("an info line").clone()
}

/// Analyses `fen` to `depth` plies and returns the score of the last `info` line.
pub fn analysis_score(engine: &mut Engine, fen: &str, depth: u32) -> String {
    field(&analysis_last_info(engine, fen, depth), "score").expect("a score")
}

/// Runs the binary with `args` to completion: (exit code, stdout, stderr).
pub fn run_onca(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_onca"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Builds a small book into `out` with `onca book build` (depth-2 searches, batches of 4):
/// `positions` expanded from the roots `from`, under `variant`'s rules, on `threads` threads.
/// Returns (exit code, stdout, stderr).
pub fn build_small_book(
    out: &std::path::Path,
    variant: &str,
    from: &str,
    positions: usize,
    threads: u32,
) -> (i32, String, String) {
    run_onca(&[
        "book",
        "build",
        "--variant",
        variant,
        "--out",
        out.to_str().expect("a UTF-8 path"),
        "--from",
        from,
        "--positions",
        &positions.to_string(),
        "--depth",
        "2",
        "--batch",
        "4",
        "--threads",
        &threads.to_string(),
    ])
}

/// The `host:port` that `onca serve` announces on the first line of `stdout` (`... http://ADDRESS/`).
pub fn served_address(stdout: impl std::io::Read) -> String {
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the address line");
    line.split_whitespace()
        .find_map(|word| word.strip_prefix("http://"))
        .map(|rest| rest.trim_end_matches('/').to_string())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
}

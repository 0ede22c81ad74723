//! Faults around a Hub session, against the real binary: the host closing the engine's input
//! mid-search and mid-ponder, closing the engine's output (SIGPIPE), stopping to read for a while,
//! and the endgame tables or the book file truncated or deleted while a game runs. Each ends with
//! the engine answering with legal moves or exiting cleanly (status 0, nothing on stderr).
//! engine-protocol.md ("Faults") describes the behaviour these tests pin down.

mod hub_support;

use hub_support::{analysis_score, check_search, done_move, Engine, LINE_TIMEOUT, START};
use onca::egtb::generate::{self, Options};
use onca::notation::fen::parse_position;
use onca::rules::position::Position;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Waits for `child` to exit, failing the test after [`LINE_TIMEOUT`] (a hang).
fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + LINE_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().expect("wait for onca") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Everything on the engine's stderr after it exited.
fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut text);
    }
    text
}

fn spawn_hub() -> Child {
    Command::new(env!("CARGO_BIN_EXE_onca"))
        .arg("hub")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start onca")
}

/// Reads lines until one starts with `prefix`.
fn read_until(lines: &mut impl BufRead, prefix: &str) -> String {
    loop {
        let mut line = String::new();
        let read = lines
            .read_line(&mut line)
            .expect("read the engine's output");
        assert!(read > 0, "the engine closed its output before '{prefix}'");
        if line.starts_with(prefix) {
            return line.trim_end().to_string();
        }
    }
}

/// An engine without the book (so that a search runs: the book would answer at once) at the start
/// position with ten minutes on the clock.
fn engine_with_a_long_clock() -> Engine {
    let mut engine = Engine::start_with(&["hub", "--book="]);
    engine.handshake();
    engine.send(&format!("pos pos={START}"));
    engine.send("level time=600");
    engine
}

/// Closes the engine's input while it searches: the search stops at once, its best move so far is
/// written, then the engine exits cleanly and silently.
fn close_input_and_expect_a_done_then_exit(mut engine: Engine) {
    engine.close_input();
    let mut infos = Vec::new();
    let done = engine.recv_non_info(&mut infos);
    done_move(&done, &Position::start());
    assert!(engine.wait_exit().success());
    assert_eq!(engine.stderr(), "");
}

#[test]
fn end_of_input_mid_search_answers_then_exits() {
    let mut engine = engine_with_a_long_clock();
    engine.send("go think");
    engine.expect("info");
    close_input_and_expect_a_done_then_exit(engine);
}

#[test]
fn end_of_input_mid_ponder_answers_then_exits() {
    let mut engine = engine_with_a_long_clock();
    engine.send("go ponder");
    // `pong` comes while the ponder search runs (and writes no `done` before a hit or stop).
    engine.send("ping");
    engine.expect("pong");
    close_input_and_expect_a_done_then_exit(engine);
}

#[test]
fn closed_output_mid_search_ends_the_engine() {
    // The host stops listening during an endless analysis but keeps our input open: the next
    // write fails (SIGPIPE is ignored, the write returns EPIPE), the search stops and the engine
    // exits, instead of searching for nobody until its input closes.
    let mut child = spawn_hub();
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(input, "hub\nset-param name=book value=\"\"").expect("write");
    read_until(&mut output, "wait");
    writeln!(input, "pos pos={START}\nlevel infinite\ngo analyze").expect("write");
    read_until(&mut output, "info");
    drop(output);
    let status = wait_exit(&mut child);
    assert!(status.success(), "{status:?}");
    assert_eq!(stderr_of(&mut child), "");
    drop(input);
}

#[test]
fn closed_output_then_a_search_exits_cleanly() {
    let mut child = spawn_hub();
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(input, "hub").expect("write");
    read_until(&mut output, "wait");
    drop(output);
    // The answer to this search cannot be delivered: the engine notices and exits.
    writeln!(input, "pos pos={START}\nlevel depth=2\ngo think").expect("write");
    let status = wait_exit(&mut child);
    assert!(status.success(), "{status:?}");
    assert_eq!(stderr_of(&mut child), "");
    drop(input);
}

#[test]
fn a_host_that_stops_reading_can_still_stop_and_quit() {
    // Far more replies than a pipe holds, sent while the host reads nothing: the engine's input
    // is still read (so the host's writes never block), and once the host reads again every
    // reply comes, then the search's `done`, in order.
    const PINGS: usize = 30_000;
    let mut child = spawn_hub();
    let mut input = child.stdin.take().expect("stdin");
    let output = child.stdout.take().expect("stdout");
    let (sent, all_sent) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = format!("hub\ninit\npos pos={START}\nlevel infinite\ngo analyze\n");
        text.push_str(&"ping\n".repeat(PINGS));
        text.push_str("stop\nquit\n");
        let result = input
            .write_all(text.as_bytes())
            .and_then(|()| input.flush());
        let _ = sent.send(result.is_ok());
        // Our end of the engine's input stays open until the test reads everything.
        std::thread::sleep(LINE_TIMEOUT);
    });
    // The host's writes complete although it has read nothing.
    assert_eq!(all_sent.recv_timeout(LINE_TIMEOUT), Ok(true));
    let mut pongs = 0;
    let mut done = None;
    for line in BufReader::new(output).lines() {
        let line = line.expect("read");
        if line == "pong" {
            assert!(done.is_none(), "pong after done");
            pongs += 1;
        } else if line.starts_with("done") {
            done = Some(line);
        }
    }
    assert_eq!(pongs, PINGS);
    done_move(&done.expect("a done line"), &Position::start());
    assert!(wait_exit(&mut child).success());
}

/// Two kings against one, won by the tables.
const WON: &str = "W:WK1,K2:BK28";

/// Plays one `go` with a short time in `fen` and checks that the answer is legal.
fn legal_answer(engine: &mut Engine, fen: &str) {
    engine.send(&format!("pos pos={fen}"));
    engine.send("level move-time=0.1");
    engine.send("go think");
    let search = engine.search_result();
    check_search(&search, &parse_position(fen).expect("valid position"));
}

#[test]
fn endgame_tables_truncated_then_deleted_mid_game() {
    let tables = tempfile::Builder::new()
        .prefix("onca-faults-egtb-")
        .tempdir()
        .expect("temporary directory");
    let options = Options {
        max_pieces: 3,
        distance_pieces: 3,
        dir: tables.path().to_path_buf(),
    };
    generate::generate(&options, &mut |_| {}).expect("generation works");
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!(
        "set-param name=egtb-path value=\"{}\"",
        tables.path().display()
    ));
    engine.barrier();
    assert!(analysis_score(&mut engine, WON, 4).starts_with("89."));

    // Every table file cut to a few bytes under the running engine: it keeps the tables it read.
    for entry in std::fs::read_dir(tables.path()).expect("tables") {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(entry.expect("entry").path())
            .expect("open a table file");
        file.set_len(20).expect("truncate");
    }
    assert!(analysis_score(&mut engine, WON, 4).starts_with("89."));
    legal_answer(&mut engine, WON);

    // The next `init` sees the change, refuses the damaged files and says so; play goes on.
    engine.send("init");
    let error = engine.recv();
    assert!(
        error.starts_with("error message=") && error.contains("damaged"),
        "{error}"
    );
    engine.expect("ready");
    assert!(!analysis_score(&mut engine, WON, 4).starts_with("89."));
    legal_answer(&mut engine, WON);

    // The directory deleted: the next `init` says so; play goes on without tables.
    std::fs::remove_dir_all(tables.path()).expect("delete the tables");
    engine.send("init");
    let error = engine.recv();
    assert!(
        error.starts_with("error message=") && error.contains("cannot read"),
        "{error}"
    );
    engine.expect("ready");
    legal_answer(&mut engine, WON);
    engine.barrier();
    engine.send("quit");
    assert!(engine.wait_exit().success());
    assert_eq!(engine.stderr(), "");
}

#[test]
fn book_file_truncated_then_deleted_mid_game() {
    let dir = tempfile::Builder::new()
        .prefix("onca-faults-book-")
        .tempdir()
        .expect("temporary directory");
    let book = dir.path().join("book.onb");
    let built = hub_support::build_small_book(&book, "brazilian", "start", 8, 1);
    assert_eq!(built.0, 0, "book build failed: {}", built.2);
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("set-param name=book value=\"{}\"", book.display()));
    engine.barrier();
    legal_answer(&mut engine, START);

    // The book is read whole when the parameter is set: cutting or deleting the file changes
    // nothing for the running engine.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&book)
        .expect("open the book")
        .set_len(7)
        .expect("truncate");
    legal_answer(&mut engine, START);
    // Naming the damaged file again is refused with a message; the book read before stays.
    engine.send(&format!("set-param name=book value=\"{}\"", book.display()));
    let error = engine.recv();
    assert!(
        error.starts_with("error message=") && error.contains("book unchanged"),
        "{error}"
    );
    legal_answer(&mut engine, START);
    std::fs::remove_file(&book).expect("delete the book");
    engine.send("init");
    engine.expect("ready");
    legal_answer(&mut engine, START);

    // So is naming the deleted file.
    engine.send(&format!("set-param name=book value=\"{}\"", book.display()));
    let error = engine.recv();
    assert!(
        error.starts_with("error message=") && error.contains("book unchanged"),
        "{error}"
    );
    legal_answer(&mut engine, START);
    engine.send("quit");
    assert!(engine.wait_exit().success());
    assert_eq!(engine.stderr(), "");
}

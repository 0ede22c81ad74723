//! Hostile and sloppy input: CRLF, blanks, garbage, oversized lines, end of input mid-search.

mod hub_support;

use hub_support::{check_search, Engine, START};
use onca::rules::position::Position;

#[test]
fn crlf_and_blanks_are_accepted() {
    let mut engine = Engine::start();
    engine.send_raw(b"  hub  \r\n");
    engine.expect("wait");
    engine.send_raw(b"init\r\n");
    assert_eq!(engine.recv(), "ready");
    engine.send_raw(format!("pos  pos = {START}   moves = \"\" \r\n").as_bytes());
    engine.send_raw(b"level   depth =  2\r\n");
    engine.send_raw(b"\t go   think \r\n");
    check_search(&engine.search_result(), &Position::start());
    engine.send_raw(b"ping\r\n");
    assert_eq!(engine.recv(), "pong");
    engine.send_raw(b"quit\r\n");
    assert!(engine.wait_exit().success());
}

#[test]
fn end_of_input_mid_search_exits() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("pos pos={START}"));
    engine.send("level infinite");
    engine.send("go analyze");
    engine.close_input();
    assert!(engine.wait_exit().success());
}

#[test]
fn quit_mid_search_exits() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("pos pos={START}"));
    engine.send("go think");
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn garbage_and_oversized_lines_then_a_legal_move() {
    let mut engine = Engine::start();
    engine.send("hub");
    engine.expect("wait");
    let mut garbage: Vec<u8> = Vec::new();
    garbage.extend_from_slice(b"\x00\x01\x02 binary \xff\xfe junk\n");
    garbage.extend_from_slice(b"=== \"unterminated\n");
    garbage.extend_from_slice(b"\"\"\"\n");
    garbage.extend_from_slice(b"pos\n");
    garbage.extend_from_slice(b"level depth=abc time=\n");
    garbage.extend_from_slice(b"set-param\n");
    garbage.extend_from_slice(b"PING\n");
    garbage.extend_from_slice(b"info depth=3\n");
    garbage.extend_from_slice(b"\n\n   \n");
    // A line of 1.5 MB, then a `pos` line of just over 1 MB, then one with no newline until later.
    garbage.extend(std::iter::repeat_n(b'a', 1_500_000));
    garbage.push(b'\n');
    garbage.extend_from_slice(b"pos pos=");
    garbage.extend(std::iter::repeat_n(b'W', 1 << 20));
    garbage.push(b'\n');
    engine.send_raw(&garbage);
    engine.send("init");
    let mut errors = 0;
    loop {
        let line = engine.recv();
        if line == "ready" {
            break;
        }
        assert!(line.starts_with("error message=\""), "{line}");
        errors += 1;
    }
    // unterminated quote, pos, level, set-param, and the two oversized lines
    assert!(errors >= 5, "{:#?}", engine.transcript);
    engine.send(&format!("pos pos={START}"));
    engine.send("level depth=2");
    engine.send("go think");
    check_search(&engine.search_result(), &Position::start());
    engine.barrier();
}

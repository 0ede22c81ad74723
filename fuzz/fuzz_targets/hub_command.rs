//! Hub command lines: any line parses to a command, to nothing (unknown command) or to an error,
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::hub::command::{parse_command, tokenize};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = tokenize(&text);
    let _ = parse_command(&text);
});

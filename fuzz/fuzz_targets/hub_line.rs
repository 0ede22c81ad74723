//! Reading host lines with bounded memory: any byte stream splits into lines, too-long markers and
//! the end, with no line kept past the limit and every byte accounted for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::hub::input::{read_line, Line};
use std::io::{BufReader, Cursor};

fuzz_target!(|data: &[u8]| {
    // A small limit and buffer, so long lines and lines split across reads both happen.
    let limit = 16;
    let mut reader = BufReader::with_capacity(7, Cursor::new(data));
    let mut lines = 0usize;
    loop {
        match read_line(&mut reader, limit) {
            Ok(Line::Text(text)) => assert!(text.len() <= 3 * limit, "kept {} bytes", text.len()),
            Ok(Line::TooLong(length)) => assert!(length > limit),
            Ok(Line::End) => break,
            Err(error) => panic!("reading from memory failed: {error}"),
        }
        lines += 1;
        assert!(lines <= data.len(), "more lines than bytes");
    }
});

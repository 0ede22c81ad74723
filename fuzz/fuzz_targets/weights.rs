//! Weights files: any text is read or refused with a message, never a panic, and weights read
//! print back to text that reads as the same weights. Inputs whose first byte is odd get a
//! version-2 header and a valid checksum line around the rest, so the parser of version-2 lines
//! (pattern entries included) is reached too (a checksum would stop nearly every random file).
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::egtb::codec::{fnv1a, FNV_START};
use onca::eval::weights::{Weights, FORMAT_HEADER};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut text = String::from_utf8_lossy(rest).into_owned();
    if mode & 1 == 1 {
        let mut body = format!("{FORMAT_HEADER}\n{text}");
        if !body.ends_with('\n') {
            body.push('\n');
        }
        let checksum = fnv1a(FNV_START, body.as_bytes());
        text = format!("{body}checksum {checksum:016x}\n");
    }
    let Ok(weights) = Weights::parse_text(&text) else {
        return;
    };
    assert_eq!(Weights::parse_text(&weights.to_text()), Ok(weights));
});

//! FEN and Hub position strings: parsing never panics, and every position it accepts prints back
//! to text that parses to the same position (FEN and Hub form), and has a legal move list.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::notation::fen::{parse_position, to_fen, to_hub_position};
use onca::rules::movegen::legal_moves;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(position) = parse_position(text) else {
        return;
    };
    let fen = to_fen(&position);
    assert_eq!(
        parse_position(&fen).ok(),
        Some(position),
        "FEN round trip of {text:?}"
    );
    let hub = to_hub_position(&position);
    assert_eq!(
        parse_position(&hub).ok(),
        Some(position),
        "Hub round trip of {text:?}"
    );
    let _ = legal_moves(&position);
});

//! Weights files: any text is read or refused with a message, never a panic, and weights read
//! print back to text that reads as the same weights.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::eval::weights::Weights;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(weights) = Weights::parse_text(&text) else {
        return;
    };
    assert_eq!(Weights::parse_text(&weights.to_text()), Ok(weights));
});

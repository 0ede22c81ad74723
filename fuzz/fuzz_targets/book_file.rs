//! Book files: any bytes are checked or refused, never a panic. Half the inputs become a valid
//! header with the checksum made to match the fuzzer's entries, so the entry decoder and the
//! order check meet malformed entries behind a sound checksum.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::book::file::{decode, encode, ENTRY_BYTES, HEADER_BYTES};
use onca::book::Book;
use onca::egtb::codec::{fnv1a, FNV_START};
use onca::rules::position::Position;
use onca::rules::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        let _ = decode(rest);
        return;
    }
    let variant = if mode & 2 == 0 {
        Variant::Brazilian
    } else {
        Variant::Russian
    };
    let mut file = encode(variant, &mut []);
    let body = &rest[..rest.len() / ENTRY_BYTES * ENTRY_BYTES];
    file.extend_from_slice(body);
    file[16..24].copy_from_slice(&((body.len() / ENTRY_BYTES) as u64).to_le_bytes());
    let checksum = fnv1a(FNV_START, &file[HEADER_BYTES..]);
    file[32..40].copy_from_slice(&checksum.to_le_bytes());
    if let Ok((variant, entries)) = decode(&file) {
        let book = Book::from_entries(variant, entries);
        let _ = book.choose(&Position::start(), 1000, u64::from(mode));
    }
});

//! Endgame table files: any bytes are decoded or refused, never a panic. Half the inputs are
//! given a valid header and checksum around the fuzzed payload, so the payload decoder is reached
//! too (a checksum would stop nearly every random file at the header).
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::egtb::codec::{fnv1a, FNV_START};
use onca::egtb::index::Indexer;
use onca::egtb::store::{decode, Kind};
use onca::egtb::MaterialKey;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // Two small splits (a king against a king; two men against a king) and both kinds.
    let key = if mode & 2 == 0 {
        MaterialKey::new(0, 1, 0, 1)
    } else {
        MaterialKey::new(2, 0, 0, 1)
    };
    let kind = if mode & 4 == 0 { Kind::Wdl } else { Kind::Dtc };
    if mode & 1 == 0 {
        let _ = decode(rest, key, kind);
        return;
    }
    let mut file = Vec::with_capacity(44 + rest.len());
    file.extend_from_slice(b"ONCAEGTB");
    file.extend_from_slice(&1u32.to_le_bytes());
    file.push(if kind == Kind::Wdl { 1 } else { 2 });
    file.extend_from_slice(&[key.us_men, key.us_kings, key.them_men, key.them_kings]);
    file.extend_from_slice(&[0, 0, 0]);
    file.extend_from_slice(&Indexer::new(key).size().to_le_bytes());
    file.extend_from_slice(&(rest.len() as u64).to_le_bytes());
    let checksum = fnv1a(fnv1a(FNV_START, &file), rest);
    file.extend_from_slice(&checksum.to_le_bytes());
    file.extend_from_slice(rest);
    let _ = decode(&file, key, kind);
});

//! Endgame table files: any bytes are checked or refused, never a panic. Half the inputs become a
//! valid file whose payload is then damaged by the fuzzer's bytes, with the header's and the
//! payload's checksums made to match again, so the block decoder (a probe's single-block read
//! and the full decode) meets malformed blocks behind sound checksums.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::egtb::codec::{fnv1a, FNV_START};
use onca::egtb::index::Indexer;
use onca::egtb::store::{decode, encode, Kind, TableFile};
use onca::egtb::MaterialKey;

/// Where the payload checksum sits in the header (see `store`).
const PAYLOAD_CHECKSUM_AT: usize = 40;
/// Where the header checksum sits; it covers the bytes before it and the block offsets.
const HEADER_CHECKSUM_AT: usize = 48;
const HEADER_LEN: usize = 56;

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
    let count = Indexer::new(key).size() as usize;
    let symbols: Vec<u8> = (0..count)
        .map(|i| {
            rest.get(i / 64 % rest.len().max(1)).copied().unwrap_or(0) % (kind.max_symbol() + 1)
        })
        .collect();
    let Ok(mut file) = encode(key, kind, &symbols) else {
        return;
    };
    let offsets_len = 4 * (count.div_ceil(onca::egtb::codec::BLOCK) + 1);
    let payload_at = HEADER_LEN + offsets_len;
    let payload_len = file.len() - payload_at;
    if payload_len == 0 {
        return;
    }
    for pair in rest.chunks(2) {
        if let [at, value] = pair {
            let target = payload_at + usize::from(*at) * 31 % payload_len;
            file[target] = *value;
        }
    }
    let payload_checksum = fnv1a(FNV_START, &file[payload_at..]);
    file[PAYLOAD_CHECKSUM_AT..PAYLOAD_CHECKSUM_AT + 8]
        .copy_from_slice(&payload_checksum.to_le_bytes());
    let header_checksum = fnv1a(
        fnv1a(FNV_START, &file[..HEADER_CHECKSUM_AT]),
        &file[HEADER_LEN..payload_at],
    );
    file[HEADER_CHECKSUM_AT..HEADER_LEN].copy_from_slice(&header_checksum.to_le_bytes());
    if let Ok(table) = TableFile::check(&file[..], key, kind) {
        for index in (0..count as u64).step_by(97) {
            let _ = table.get(index);
        }
        let _ = table.symbols();
    }
});

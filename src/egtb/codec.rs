//! Compression of table payloads and their checksum.
//!
//! A payload is a sequence of small symbols (2 bits for win/draw/loss, 8 bits for distance codes).
//! It is cut into blocks of [`BLOCK`] symbols and each block is stored in whichever of two forms is
//! shorter: raw (the symbols bit-packed, so never more than 2 bits per WDL position plus one byte
//! per block) or run-length (varints of `(run - 1) << bits | symbol`). Endgame tables are long runs
//! of equal values (draws, whole regions won for one side), which the run-length form shrinks a lot;
//! the raw fallback bounds the worst case. No crate does this simple job better.
//!
//! The checksum is 64-bit FNV-1a: not cryptographic, but it catches truncation and bit rot.

/// Symbols per block.
pub const BLOCK: usize = 8192;

const RAW: u8 = 0;
const RUNS: u8 = 1;

/// A damaged payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// 64-bit FNV-1a over `bytes`, continuing from `state` (start with [`FNV_START`]).
pub fn fnv1a(mut state: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        state ^= u64::from(byte);
        state = state.wrapping_mul(0x0000_0100_0000_01B3);
    }
    state
}

/// The FNV-1a 64-bit offset basis: the `state` a checksum starts from.
pub const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u64, CodecError> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes
            .get(*at)
            .ok_or_else(|| CodecError("payload ends inside a run".into()))?;
        *at += 1;
        value |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(CodecError("run length too long".into()))
}

fn pack(symbols: &[u8], bits: u32, out: &mut Vec<u8>) {
    if bits == 8 {
        out.extend_from_slice(symbols);
        return;
    }
    let per_byte = (8 / bits) as usize;
    for group in symbols.chunks(per_byte) {
        let mut byte = 0u8;
        for (slot, &symbol) in group.iter().enumerate() {
            byte |= symbol << (slot as u32 * bits);
        }
        out.push(byte);
    }
}

fn packed_len(count: usize, bits: u32) -> usize {
    (count * bits as usize).div_ceil(8)
}

/// Compresses `symbols` (each below `2^bits`; `bits` is 2 or 8).
pub fn compress(symbols: &[u8], bits: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut runs = Vec::new();
    for block in symbols.chunks(BLOCK) {
        runs.clear();
        let mut start = 0;
        while start < block.len() {
            let symbol = block[start];
            let mut end = start + 1;
            while end < block.len() && block[end] == symbol {
                end += 1;
            }
            push_varint(
                &mut runs,
                (((end - start - 1) as u64) << bits) | u64::from(symbol),
            );
            start = end;
        }
        if runs.len() < packed_len(block.len(), bits) {
            out.push(RUNS);
            out.extend_from_slice(&runs);
        } else {
            out.push(RAW);
            pack(block, bits, &mut out);
        }
    }
    out
}

/// Restores `count` symbols from `payload`, refusing symbols above `max_symbol`, missing or extra
/// bytes, and malformed runs.
pub fn decompress(
    payload: &[u8],
    count: usize,
    bits: u32,
    max_symbol: u8,
) -> Result<Vec<u8>, CodecError> {
    let mut symbols = Vec::with_capacity(count);
    let mut at = 0;
    let mask = if bits == 8 { 0xFF } else { (1u64 << bits) - 1 };
    while symbols.len() < count {
        let block_len = (count - symbols.len()).min(BLOCK);
        let block_end = symbols.len() + block_len;
        let mode = *payload
            .get(at)
            .ok_or_else(|| CodecError(format!("payload truncated at symbol {}", symbols.len())))?;
        at += 1;
        match mode {
            RAW => {
                let len = packed_len(block_len, bits);
                let bytes = payload
                    .get(at..at + len)
                    .ok_or_else(|| CodecError("payload truncated in a raw block".into()))?;
                at += len;
                if bits == 8 {
                    symbols.extend_from_slice(bytes);
                } else {
                    let per_byte = (8 / bits) as usize;
                    for (i, &byte) in bytes.iter().enumerate() {
                        for slot in 0..per_byte {
                            if i * per_byte + slot < block_len {
                                symbols.push((byte >> (slot as u32 * bits)) & mask as u8);
                            }
                        }
                    }
                }
            }
            RUNS => {
                while symbols.len() < block_end {
                    let token = read_varint(payload, &mut at)?;
                    let symbol = (token & mask) as u8;
                    let run = (token >> bits) as usize + 1;
                    if run > block_end - symbols.len() {
                        return Err(CodecError("a run overflows its block".into()));
                    }
                    symbols.resize(symbols.len() + run, symbol);
                }
            }
            other => return Err(CodecError(format!("unknown block mode {other}"))),
        }
        if let Some(&bad) = symbols[block_end - block_len..]
            .iter()
            .find(|&&s| s > max_symbol)
        {
            return Err(CodecError(format!("invalid symbol {bad}")));
        }
    }
    if at != payload.len() {
        return Err(CodecError(format!(
            "{} unexpected bytes after the payload",
            payload.len() - at
        )));
    }
    Ok(symbols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_runs_and_noise() {
        let mut symbols = vec![1u8; 20_000];
        for (i, symbol) in symbols.iter_mut().enumerate().skip(9000).take(3000) {
            *symbol = ((i * 7919) % 3) as u8;
        }
        for bits in [2, 8] {
            let packed = compress(&symbols, bits);
            assert_eq!(
                decompress(&packed, symbols.len(), bits, 2),
                Ok(symbols.clone())
            );
        }
        let packed = compress(&symbols, 2);
        assert!(packed.len() < symbols.len() / 4 + symbols.len() / BLOCK + 2);
    }

    #[test]
    fn damage_is_refused() {
        let symbols: Vec<u8> = (0..10_000).map(|i| (i / 100 % 3) as u8).collect();
        let packed = compress(&symbols, 2);
        assert!(decompress(&packed[..packed.len() - 1], symbols.len(), 2, 2).is_err());
        let mut longer = packed.clone();
        longer.push(0);
        assert!(decompress(&longer, symbols.len(), 2, 2).is_err());
        assert!(decompress(&packed, symbols.len(), 2, 1).is_err());
    }
}

//! Compression of table payloads and their checksum.
//!
//! A payload is a sequence of small symbols (2 bits for win/draw/loss, 8 bits for distance codes).
//! It is cut into blocks of [`BLOCK`] symbols and each block is stored in whichever of two forms is
//! shorter: raw (the symbols bit-packed, so never more than 2 bits per WDL position plus one byte
//! per block) or run-length (varints of `(run - 1) << bits | symbol`). Endgame tables are long runs
//! of equal values (draws, whole regions won for one side), which the run-length form shrinks a lot;
//! the raw fallback bounds the worst case. Every block decodes on its own, so a probe reads one
//! block of a table file through the block offsets ([`Compressed::offsets`]) and never
//! the rest. No crate does this simple job better.
//!
//! The checksum is 64-bit FNV-1a: not cryptographic, but it catches truncation and bit rot.

/// Symbols per block: small enough that decoding a run-length block up to one position is quick.
pub const BLOCK: usize = 1024;

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

fn mask(bits: u32) -> u64 {
    if bits == 8 {
        0xFF
    } else {
        (1u64 << bits) - 1
    }
}

/// A compressed payload: the blocks one after another, and where each starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// Byte offset of each block in `payload`, then the payload's length (one more entry than
    /// there are blocks).
    pub offsets: Vec<u32>,
    /// The blocks.
    pub payload: Vec<u8>,
}

/// Compresses `symbols` (each below `2^bits`; `bits` is 2 or 8) into independent blocks. Fails
/// only if the payload would not fit 32-bit offsets (4 GiB).
pub fn compress(symbols: &[u8], bits: u32) -> Result<Compressed, CodecError> {
    let mut payload = Vec::new();
    let mut offsets = Vec::with_capacity(symbols.len() / BLOCK + 2);
    let mut runs = Vec::new();
    let offset = |payload: &Vec<u8>| {
        u32::try_from(payload.len()).map_err(|_| CodecError("payload larger than 4 GiB".into()))
    };
    for block in symbols.chunks(BLOCK) {
        offsets.push(offset(&payload)?);
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
            payload.push(RUNS);
            payload.extend_from_slice(&runs);
        } else {
            payload.push(RAW);
            pack(block, bits, &mut payload);
        }
    }
    offsets.push(offset(&payload)?);
    Ok(Compressed { offsets, payload })
}

/// Symbols in block `block` of a table of `count` symbols.
pub fn block_len(count: u64, block: u64) -> usize {
    (count - block * BLOCK as u64).min(BLOCK as u64) as usize
}

/// The symbol at position `at` of one block (`bytes`: the block, `len` its symbol count).
#[inline]
pub fn symbol_in_block(bytes: &[u8], len: usize, bits: u32, at: usize) -> Result<u8, CodecError> {
    let (&mode, body) = bytes
        .split_first()
        .ok_or_else(|| CodecError("empty block".into()))?;
    if at >= len {
        return Err(CodecError("position beyond its block".into()));
    }
    match mode {
        RAW => {
            if body.len() != packed_len(len, bits) {
                return Err(CodecError("raw block of the wrong length".into()));
            }
            if bits == 8 {
                return Ok(body[at]);
            }
            let per_byte = (8 / bits) as usize;
            let byte = body[at / per_byte];
            Ok((byte >> ((at % per_byte) as u32 * bits)) & mask(bits) as u8)
        }
        RUNS => {
            let mut read = 0;
            let mut covered = 0usize;
            loop {
                let token = read_varint(body, &mut read)?;
                covered += (token >> bits) as usize + 1;
                if covered > at {
                    return Ok((token & mask(bits)) as u8);
                }
            }
        }
        other => Err(CodecError(format!("unknown block mode {other}"))),
    }
}

/// Appends the `len` symbols of one block to `out`, refusing symbols above `max_symbol`, missing
/// or extra bytes, and malformed runs.
pub fn decode_block(
    bytes: &[u8],
    len: usize,
    bits: u32,
    max_symbol: u8,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    let (&mode, body) = bytes
        .split_first()
        .ok_or_else(|| CodecError("empty block".into()))?;
    let start = out.len();
    match mode {
        RAW => {
            if body.len() != packed_len(len, bits) {
                return Err(CodecError("raw block of the wrong length".into()));
            }
            if bits == 8 {
                out.extend_from_slice(body);
            } else {
                let per_byte = (8 / bits) as usize;
                for index in 0..len {
                    let byte = body[index / per_byte];
                    out.push((byte >> ((index % per_byte) as u32 * bits)) & mask(bits) as u8);
                }
            }
        }
        RUNS => {
            let mut read = 0;
            while out.len() - start < len {
                let token = read_varint(body, &mut read)?;
                let run = (token >> bits) as usize + 1;
                if run > len - (out.len() - start) {
                    return Err(CodecError("a run overflows its block".into()));
                }
                out.resize(out.len() + run, (token & mask(bits)) as u8);
            }
            if read != body.len() {
                return Err(CodecError("bytes left over after a block's runs".into()));
            }
        }
        other => return Err(CodecError(format!("unknown block mode {other}"))),
    }
    if let Some(&bad) = out[start..].iter().find(|&&s| s > max_symbol) {
        return Err(CodecError(format!("invalid symbol {bad}")));
    }
    Ok(())
}

/// Restores `count` symbols from a payload and its block offsets.
pub fn decompress(
    offsets: &[u32],
    payload: &[u8],
    count: u64,
    bits: u32,
    max_symbol: u8,
) -> Result<Vec<u8>, CodecError> {
    let blocks = count.div_ceil(BLOCK as u64);
    if offsets.len() as u64 != blocks + 1 {
        return Err(CodecError(format!(
            "{} block offsets for {blocks} blocks",
            offsets.len()
        )));
    }
    let mut symbols = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for block in 0..blocks as usize {
        let bytes = block_bytes(offsets, payload, block)?;
        decode_block(
            bytes,
            block_len(count, block as u64),
            bits,
            max_symbol,
            &mut symbols,
        )?;
    }
    if offsets.last().map(|&end| end as usize) != Some(payload.len()) {
        return Err(CodecError("bytes left over after the last block".into()));
    }
    Ok(symbols)
}

/// The bytes of block `block`, checked against the payload's bounds.
pub fn block_bytes<'a>(
    offsets: &[u32],
    payload: &'a [u8],
    block: usize,
) -> Result<&'a [u8], CodecError> {
    let start = *offsets
        .get(block)
        .ok_or_else(|| CodecError("block beyond the offsets".into()))? as usize;
    let end = *offsets
        .get(block + 1)
        .ok_or_else(|| CodecError("block beyond the offsets".into()))? as usize;
    payload
        .get(start..end)
        .ok_or_else(|| CodecError("block offsets outside the payload".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy() -> Vec<u8> {
        let mut symbols = vec![1u8; 20_000];
        for (i, symbol) in symbols.iter_mut().enumerate().skip(9000).take(3000) {
            *symbol = ((i * 7919) % 3) as u8;
        }
        symbols
    }

    #[test]
    fn round_trips_runs_and_noise_and_reads_single_symbols() {
        let symbols = noisy();
        for bits in [2, 8] {
            let packed = compress(&symbols, bits).expect("fits");
            let count = symbols.len() as u64;
            assert_eq!(
                decompress(&packed.offsets, &packed.payload, count, bits, 2),
                Ok(symbols.clone())
            );
            for (index, &expected) in symbols.iter().enumerate().step_by(7) {
                let block = index / BLOCK;
                let bytes = block_bytes(&packed.offsets, &packed.payload, block).expect("block");
                let len = block_len(count, block as u64);
                assert_eq!(
                    symbol_in_block(bytes, len, bits, index % BLOCK),
                    Ok(expected)
                );
            }
        }
        let packed = compress(&symbols, 2).expect("fits");
        assert!(packed.payload.len() < symbols.len() / 4 + symbols.len() / BLOCK + 2);
    }

    #[test]
    fn damage_is_refused() {
        let symbols: Vec<u8> = (0..10_000).map(|i| (i / 100 % 3) as u8).collect();
        let packed = compress(&symbols, 2).expect("fits");
        let count = symbols.len() as u64;
        let short = &packed.payload[..packed.payload.len() - 1];
        assert!(decompress(&packed.offsets, short, count, 2, 2).is_err());
        let mut longer = packed.payload.clone();
        longer.push(0);
        assert!(decompress(&packed.offsets, &longer, count, 2, 2).is_err());
        assert!(decompress(&packed.offsets, &packed.payload, count, 2, 1).is_err());
        assert!(decompress(&packed.offsets[1..], &packed.payload, count, 2, 2).is_err());
        assert!(symbol_in_block(&[9, 1, 2], 4, 2, 0).is_err());
        assert!(symbol_in_block(&[RUNS, 0x80], 4, 2, 3).is_err());
        assert!(symbol_in_block(&[], 4, 2, 0).is_err());
    }
}

//! The book file: a header, then fixed-size entries sorted by position key, so that a position's
//! moves are one binary search away.
//!
//! All integers are little-endian.
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..8 | magic `ONCABOOK` |
//! | 8..12 | format version (3) |
//! | 12..16 | entry size in bytes (24) |
//! | 16..24 | entry count |
//! | 24..32 | the start position's key (books are tied to our position keys) |
//! | 32..40 | FNV-1a checksum of all entry bytes |
//! | 40..56 | the variant whose rules the book's moves follow, by name (`brazilian`, `russian`), ASCII padded with zero bytes |
//!
//! Version 2 (the shipped book) has the same first 40 bytes and no variant field: it is read as
//! a Brazilian book, the only kind there was. Files are always written as version 3.
//!
//! Each entry: position key (u64), from and to square numbers (u8 each), depth (u16: plies of the
//! book tree below the move), captured squares (u32, bit n-1 for square n), score (i16,
//! hundredths of a man for the side to move, the backed-up minimax value of the move), then the
//! games learned from ([`learn`](super::learn)): wins, draws and losses of the side that played
//! the move (u16 each).
//!
//! A file is written under a temporary name and renamed, so a reader never sees half a book.

use super::learn::GameRecord;
use crate::egtb::codec::{fnv1a, FNV_START};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::path::Path;

/// The first eight bytes of every book file.
pub const MAGIC: &[u8; 8] = b"ONCABOOK";
/// The format version this engine writes (and reads).
pub const VERSION: u32 = 3;
/// The earlier version it still reads, as a Brazilian book.
pub const BRAZILIAN_ONLY_VERSION: u32 = 2;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 24;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 56;
/// Bytes of a version-2 header (no variant field).
pub const BRAZILIAN_ONLY_HEADER_BYTES: usize = 40;
/// Bytes of the variant's name field at the end of the header.
const VARIANT_BYTES: usize = HEADER_BYTES - BRAZILIAN_ONLY_HEADER_BYTES;

/// One book move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key ([`Position::key`]).
    pub key: u64,
    /// The move.
    pub mv: Move,
    /// Its backed-up value for the side to move, in hundredths of a man.
    pub score: i16,
    /// Plies of the book tree below the move (0: scored by a search only).
    pub depth: u16,
    /// Results of the games that played the move, for its side.
    pub record: GameRecord,
}

/// Captured squares as bits n-1 of square numbers n.
fn dense(set: Bitboard) -> u32 {
    set.squares()
        .fold(0, |bits, square| bits | 1 << (square.number() - 1))
}

fn from_dense(bits: u32) -> Bitboard {
    (1..=32)
        .filter(|n| bits & (1 << (n - 1)) != 0)
        .filter_map(Square::from_number)
        .collect()
}

impl Entry {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.push(self.mv.from.number() as u8);
        out.push(self.mv.to.number() as u8);
        out.extend_from_slice(&self.depth.to_le_bytes());
        out.extend_from_slice(&dense(self.mv.captured).to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        for count in [self.record.wins, self.record.draws, self.record.losses] {
            out.extend_from_slice(&count.to_le_bytes());
        }
    }

    fn decode(bytes: &[u8]) -> Option<Entry> {
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let key = u64::from_le_bytes(bytes[0..8].try_into().ok()?);
        let from = Square::from_number(u32::from(bytes[8]))?;
        let to = Square::from_number(u32::from(bytes[9]))?;
        let depth = u16_at(10);
        let captured = from_dense(u32::from_le_bytes(bytes[12..16].try_into().ok()?));
        let score = u16_at(16) as i16;
        Some(Entry {
            key,
            mv: Move { from, to, captured },
            score,
            depth,
            record: GameRecord {
                wins: u16_at(18),
                draws: u16_at(20),
                losses: u16_at(22),
            },
        })
    }
}

/// The whole file of a `variant` book of `entries`, which are sorted here by key (then best
/// score first).
pub fn encode(variant: Variant, entries: &mut [Entry]) -> Vec<u8> {
    entries.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.score.cmp(&a.score))
            .then(a.mv.from.number().cmp(&b.mv.from.number()))
            .then(a.mv.to.number().cmp(&b.mv.to.number()))
    });
    let mut body = Vec::with_capacity(entries.len() * ENTRY_BYTES);
    for entry in entries.iter() {
        entry.encode(&mut body);
    }
    let mut file = Vec::with_capacity(HEADER_BYTES + body.len());
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.extend_from_slice(&(ENTRY_BYTES as u32).to_le_bytes());
    file.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    file.extend_from_slice(&Position::start().key().to_le_bytes());
    file.extend_from_slice(&fnv1a(FNV_START, &body).to_le_bytes());
    let mut name = [0u8; VARIANT_BYTES];
    name[..variant.name().len()].copy_from_slice(variant.name().as_bytes());
    file.extend_from_slice(&name);
    file.extend_from_slice(&body);
    file
}

/// The variant named by a version-3 header's variant field.
fn read_variant(field: &[u8]) -> Result<Variant, String> {
    let end = field
        .iter()
        .position(|&byte| byte == 0)
        .unwrap_or(field.len());
    let (name, padding) = field.split_at(end);
    let name = std::str::from_utf8(name)
        .ok()
        .filter(|name| !name.is_empty() && padding.iter().all(|&byte| byte == 0))
        .ok_or("the header's variant field is malformed")?;
    name.parse::<Variant>()
        .map_err(|_| format!("a book of the variant '{name}', which this engine does not know"))
}

/// Reads and checks a whole file: magic, version, variant, sizes, keys, checksum, order. Returns
/// the book's variant (Brazilian for version 2) and its entries, sorted as written.
pub fn decode(bytes: &[u8]) -> Result<(Variant, Vec<Entry>), String> {
    if bytes.len() < BRAZILIAN_ONLY_HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err("not an Onça book (no ONCABOOK header)".into());
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let u64_at = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let version = u32_at(8);
    let (variant, header_bytes) = match version {
        VERSION if bytes.len() >= HEADER_BYTES => (
            read_variant(&bytes[BRAZILIAN_ONLY_HEADER_BYTES..HEADER_BYTES])?,
            HEADER_BYTES,
        ),
        VERSION => return Err("truncated: the header is cut short".into()),
        BRAZILIAN_ONLY_VERSION => (Variant::Brazilian, BRAZILIAN_ONLY_HEADER_BYTES),
        _ => {
            return Err(format!(
                "book format version {version}, this engine reads versions \
                 {BRAZILIAN_ONLY_VERSION} and {VERSION}"
            ))
        }
    };
    if u32_at(12) as usize != ENTRY_BYTES {
        return Err(format!(
            "entry size {} instead of {ENTRY_BYTES}",
            u32_at(12)
        ));
    }
    let count = u64_at(16);
    let body = &bytes[header_bytes..];
    if (body.len() as u64) != count.saturating_mul(ENTRY_BYTES as u64) {
        return Err(format!(
            "truncated or padded: {count} entries announced, {} bytes of entries",
            body.len()
        ));
    }
    if u64_at(24) != Position::start().key() {
        return Err("made with other position keys (another engine version)".into());
    }
    if fnv1a(FNV_START, body) != u64_at(32) {
        return Err("checksum mismatch (the file is damaged)".into());
    }
    let mut entries = Vec::with_capacity(count as usize);
    for (index, chunk) in body.chunks_exact(ENTRY_BYTES).enumerate() {
        let entry = Entry::decode(chunk).ok_or_else(|| format!("entry {index} is malformed"))?;
        if entries
            .last()
            .is_some_and(|last: &Entry| last.key > entry.key)
        {
            return Err(format!("entry {index} is out of order"));
        }
        entries.push(entry);
    }
    Ok((variant, entries))
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = std::path::PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary)?;
    // On disk before the rename: a crash then leaves the old book or the whole new one.
    std::io::Write::write_all(&mut file, bytes).and_then(|()| file.sync_all())?;
    drop(file);
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;

    fn sample() -> Vec<Entry> {
        let start = Position::start();
        let moves = legal_moves(&start);
        let after = start.play(&moves[0]);
        let mut entries: Vec<Entry> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| Entry {
                key: start.key(),
                mv,
                score: 10 - i as i16,
                depth: i as u16,
                record: GameRecord {
                    wins: i as u16,
                    draws: 300,
                    losses: 2,
                },
            })
            .collect();
        // A capture, to round-trip the captured squares.
        let capture =
            legal_moves(&crate::notation::fen::parse_position("W:W22:B18,11").expect("valid"))[0];
        entries.push(Entry {
            key: after.key(),
            mv: capture,
            score: -250,
            depth: 3,
            record: GameRecord::NONE,
        });
        entries
    }

    #[test]
    fn round_trips_naming_the_variant_and_sorts_by_key() {
        for variant in Variant::ALL {
            let mut entries = sample();
            let bytes = encode(variant, &mut entries);
            assert_eq!(bytes.len(), HEADER_BYTES + entries.len() * ENTRY_BYTES);
            assert_eq!(
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
                3
            );
            // The header names the variant in plain letters.
            let field = &bytes[BRAZILIAN_ONLY_HEADER_BYTES..HEADER_BYTES];
            assert!(field.starts_with(variant.name().as_bytes()));
            let (read_variant, read) = decode(&bytes).expect("a valid book");
            assert_eq!(read_variant, variant);
            assert_eq!(read, entries);
            assert!(read.windows(2).all(|pair| pair[0].key <= pair[1].key));
            assert!(read.iter().any(|entry| entry.mv.captured.is_not_empty()));
        }
    }

    /// The version-2 file of `entries`: version 3's bytes less the variant field.
    fn version_two(entries: &mut [Entry]) -> Vec<u8> {
        let mut bytes = encode(Variant::Brazilian, entries);
        bytes.drain(BRAZILIAN_ONLY_HEADER_BYTES..HEADER_BYTES);
        bytes[8..12].copy_from_slice(&BRAZILIAN_ONLY_VERSION.to_le_bytes());
        bytes
    }

    #[test]
    fn version_two_files_are_read_as_brazilian_books() {
        let mut entries = sample();
        let bytes = version_two(&mut entries);
        assert_eq!(
            bytes.len(),
            BRAZILIAN_ONLY_HEADER_BYTES + entries.len() * ENTRY_BYTES
        );
        assert_eq!(decode(&bytes), Ok((Variant::Brazilian, entries.clone())));
        // Written again, only the version and the variant field differ: the entries are the same
        // bytes, behind the same magic, sizes, keys and checksum.
        let rewritten = encode(Variant::Brazilian, &mut entries);
        assert_eq!(
            rewritten[HEADER_BYTES..],
            bytes[BRAZILIAN_ONLY_HEADER_BYTES..]
        );
        assert_eq!(rewritten[..8], bytes[..8]);
        assert_eq!(
            rewritten[12..BRAZILIAN_ONLY_HEADER_BYTES],
            bytes[12..BRAZILIAN_ONLY_HEADER_BYTES]
        );
    }

    #[test]
    fn an_unknown_or_malformed_variant_is_refused() {
        let bytes = encode(Variant::Russian, &mut sample());
        let with_field = |field: &[u8]| {
            let mut changed = bytes.clone();
            changed[BRAZILIAN_ONLY_HEADER_BYTES..HEADER_BYTES].fill(0);
            changed[BRAZILIAN_ONLY_HEADER_BYTES..BRAZILIAN_ONLY_HEADER_BYTES + field.len()]
                .copy_from_slice(field);
            decode(&changed).expect_err("refused")
        };
        assert!(with_field(b"pool").contains("'pool'"));
        assert!(with_field(b"").contains("malformed"));
        assert!(with_field(b"russian\0x").contains("malformed"));
        assert!(with_field(&[0xff, 0xfe]).contains("malformed"));
        assert!(decode(&bytes[..HEADER_BYTES - 1]).is_err());
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = encode(Variant::Brazilian, &mut sample());
        let refuse = |bytes: &[u8], why: &str| {
            let error = decode(bytes).expect_err("refused");
            assert!(error.contains(why), "{error}");
        };
        refuse(&bytes[..bytes.len() - 3], "truncated");
        refuse(&bytes[..10], "not an Onça book");
        let mut flipped = bytes.clone();
        let last = flipped.len() - 5;
        flipped[last] ^= 1;
        refuse(&flipped, "checksum");
        let mut version = bytes.clone();
        version[8] = 9;
        refuse(&version, "version 9");
        refuse(b"hello", "not an Onça book");
    }
}

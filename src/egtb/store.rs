//! Table files: one per material split and kind, with a header and a checksum.
//!
//! Layout (little-endian): magic `ONCAEGTB`, format version (u32), kind (u8: 1 win/draw/loss,
//! 2 distance codes), material key (4 bytes: our men, our kings, their men, their kings), 3 zero
//! bytes, number of positions (u64), payload length (u64), FNV-1a checksum of the header before it
//! and of the payload (u64), then the payload from [`super::codec`].
//!
//! Files are written under a temporary name, flushed to disk and renamed, so a table that exists
//! under its final name was written completely; the checksum catches later damage. Reading checks
//! everything and refuses a bad file with a message that names it and says what is wrong.

use super::codec::{self, FNV_START};
use super::index::Indexer;
use super::material::MaterialKey;
use anyhow::{bail, Context, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of every table file.
const MAGIC: &[u8; 8] = b"ONCAEGTB";
/// The format version written and the only one read; files of other versions are refused.
const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
const HEADER_LEN: usize = 44;
/// Header bytes covered by the checksum (all before it).
const CHECKED_HEADER_LEN: usize = 36;

/// What a table file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Win/draw/loss, 2-bit symbols.
    Wdl,
    /// Distance codes ([`super::value::Code`]), one byte each.
    Dtc,
}

impl Kind {
    const fn tag(self) -> u8 {
        match self {
            Kind::Wdl => 1,
            Kind::Dtc => 2,
        }
    }

    /// The file name extension, without the dot.
    const fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "wdl",
            Kind::Dtc => "dtc",
        }
    }

    const fn bits(self) -> u32 {
        match self {
            Kind::Wdl => 2,
            Kind::Dtc => 8,
        }
    }

    const fn max_symbol(self) -> u8 {
        match self {
            Kind::Wdl => 2,
            Kind::Dtc => 254,
        }
    }
}

/// The file name of the table of `key` and `kind`, e.g. `m0k2_m0k1.wdl`.
fn file_name(key: MaterialKey, kind: Kind) -> String {
    format!("{}.{}", key.name(), kind.extension())
}

/// Where the table of `key` and `kind` lives in the table directory `dir`.
pub fn path(dir: &Path, key: MaterialKey, kind: Kind) -> PathBuf {
    dir.join(file_name(key, kind))
}

fn header(key: MaterialKey, kind: Kind, count: u64, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut header = [0u8; HEADER_LEN];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12] = kind.tag();
    header[13..17].copy_from_slice(&[key.us_men, key.us_kings, key.them_men, key.them_kings]);
    header[20..28].copy_from_slice(&count.to_le_bytes());
    header[28..36].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    let checksum = codec::fnv1a(
        codec::fnv1a(FNV_START, &header[..CHECKED_HEADER_LEN]),
        payload,
    );
    header[36..44].copy_from_slice(&checksum.to_le_bytes());
    header
}

/// Writes a table (one symbol per index number) and returns the file size in bytes.
pub fn write(dir: &Path, key: MaterialKey, kind: Kind, symbols: &[u8]) -> Result<u64> {
    let payload = codec::compress(symbols, kind.bits());
    let header = header(key, kind, symbols.len() as u64, &payload);
    let target = path(dir, key, kind);
    let temporary = dir.join(format!("{}.tmp", file_name(key, kind)));
    let mut file = fs::File::create(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    file.write_all(&header)
        .and_then(|()| file.write_all(&payload))
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(file);
    fs::rename(&temporary, &target)
        .with_context(|| format!("cannot rename {} to its final name", temporary.display()))?;
    Ok((HEADER_LEN + payload.len()) as u64)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Reads and verifies the table of `key` and `kind` in `dir`; returns its symbols.
pub fn read(dir: &Path, key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    let path = path(dir, key, kind);
    let bytes = fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    decode(&bytes, key, kind).with_context(|| format!("refusing table {}", path.display()))
}

/// Verifies a table file's bytes.
pub fn decode(bytes: &[u8], key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    if bytes.len() < HEADER_LEN {
        bail!(
            "truncated: {} bytes, shorter than the {HEADER_LEN}-byte header",
            bytes.len()
        );
    }
    if &bytes[0..8] != MAGIC {
        bail!("not an Onça endgame table (bad magic)");
    }
    let mut version = [0u8; 4];
    version.copy_from_slice(&bytes[8..12]);
    let version = u32::from_le_bytes(version);
    if version != FORMAT_VERSION {
        bail!("format version {version}, this program reads version {FORMAT_VERSION}");
    }
    if bytes[12] != kind.tag() {
        bail!("holds another kind of table (tag {})", bytes[12]);
    }
    let stored = MaterialKey::new(bytes[13], bytes[14], bytes[15], bytes[16]);
    if stored != key {
        bail!("header says material {stored}, expected {key}");
    }
    let count = u64_at(bytes, 20);
    let expected = Indexer::new(key).size();
    if count != expected {
        bail!("header says {count} positions, material {key} has {expected}");
    }
    let payload_len = u64_at(bytes, 28);
    let actual = (bytes.len() - HEADER_LEN) as u64;
    if payload_len != actual {
        bail!("truncated or padded: payload of {actual} bytes, header says {payload_len}");
    }
    let payload = &bytes[HEADER_LEN..];
    let checksum = codec::fnv1a(
        codec::fnv1a(FNV_START, &bytes[..CHECKED_HEADER_LEN]),
        payload,
    );
    if checksum != u64_at(bytes, 36) {
        bail!("checksum mismatch: the file is damaged");
    }
    let count = usize::try_from(count).context("table too large for this machine")?;
    codec::decompress(payload, count, kind.bits(), kind.max_symbol())
        .map_err(|error| anyhow::anyhow!("bad payload: {error}"))
}

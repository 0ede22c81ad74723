//! Table files: one per material split and kind, with a header, block offsets and checksums,
//! laid out so that a probe decodes one block of the file's bytes.
//!
//! Layout (little-endian): magic `ONCAEGTB`, format version (u32), kind (u8: 1 win/draw/loss,
//! 2 distance codes), material key (4 bytes: our men, our kings, their men, their kings), variant
//! (u8: 0 Brazilian, 1 Russian; the byte was zero before Russian tables existed, so older Brazilian
//! files read as Brazilian), 2 zero bytes, number of positions (u64), symbols per block (u32), payload length (u64), FNV-1a
//! checksum of the payload (u64), FNV-1a checksum of everything before it and of the block
//! offsets (u64); then the block offsets (one u32 per block and the payload length, see
//! [`codec::Compressed`]), then the payload.
//!
//! Files are written under a temporary name, flushed to disk and renamed, so a table that exists
//! under its final name was written completely (a full disk or a killed run leaves at most a
//! `.tmp` file, which nothing reads). Opening a file ([`TableFile::open`]) checks the header, the
//! offsets and their checksum: quick, as it reads well under a thousandth of the file; the
//! payload's checksum and every block are checked by [`TableFile::verify`] (`onca egtb verify`)
//! and whenever a whole table is decoded. A bad file is refused with a message that names it and
//! says what is wrong; so is a file of another variant than the one asked for (`...: a Russian
//! table, not Brazilian`): every reading function takes the variant it expects (the names without
//! `_in` expect Brazilian).

use super::codec::{self, FNV_START};
use super::index::Indexer;
use super::material::MaterialKey;
use crate::rules::variant::Variant;
use anyhow::{bail, Context, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of every table file.
const MAGIC: &[u8; 8] = b"ONCAEGTB";
/// The format version written and the only one read; files of other versions are refused.
/// Version 1 (one run of blocks without offsets, loaded whole) was replaced by this one.
const FORMAT_VERSION: u32 = 2;
/// Bytes before the block offsets.
const HEADER_LEN: usize = 56;
/// Where the header's own checksum sits (it covers the bytes before it and the offsets).
const HEADER_CHECKSUM_AT: usize = 48;

/// Where the variant byte sits.
const VARIANT_AT: usize = 17;

/// The header byte that names `variant`.
const fn variant_tag(variant: Variant) -> u8 {
    match variant {
        Variant::Brazilian => 0,
        Variant::Russian => 1,
    }
}

/// The variant a header byte names, if any.
fn variant_of_tag(tag: u8) -> Option<Variant> {
    Variant::ALL
        .into_iter()
        .find(|&variant| variant_tag(variant) == tag)
}

/// The capitalised name of a variant, for messages: `Brazilian` or `Russian`.
pub const fn variant_title(variant: Variant) -> &'static str {
    match variant {
        Variant::Brazilian => "Brazilian",
        Variant::Russian => "Russian",
    }
}

/// The variant a table file's header names, read from its first bytes only (no other check):
/// `None` if the file cannot be read or is no table file of this format. For choosing which
/// variant to load a directory in, and for telling a file of the other variant from a damaged one.
pub fn peek_variant(path: &Path) -> Option<Variant> {
    use std::io::Read;
    let mut head = [0u8; VARIANT_AT + 1];
    fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    if &head[0..8] != MAGIC || u32_at(&head, 8) != FORMAT_VERSION {
        return None;
    }
    variant_of_tag(head[VARIANT_AT])
}

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

    /// Bits per symbol.
    pub const fn bits(self) -> u32 {
        match self {
            Kind::Wdl => 2,
            Kind::Dtc => 8,
        }
    }

    /// The largest valid symbol.
    pub const fn max_symbol(self) -> u8 {
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

/// Writes a Brazilian table (one symbol per index number) and returns the file size in bytes.
pub fn write(dir: &Path, key: MaterialKey, kind: Kind, symbols: &[u8]) -> Result<u64> {
    write_in(Variant::Brazilian, dir, key, kind, symbols)
}

/// [`write()`] for a table of `variant`.
pub fn write_in(
    variant: Variant,
    dir: &Path,
    key: MaterialKey,
    kind: Kind,
    symbols: &[u8],
) -> Result<u64> {
    let bytes = encode_in(variant, key, kind, symbols)?;
    let target = path(dir, key, kind);
    let temporary = dir.join(format!("{}.tmp", file_name(key, kind)));
    let mut file = fs::File::create(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(file);
    fs::rename(&temporary, &target)
        .with_context(|| format!("cannot rename {} to its final name", temporary.display()))?;
    Ok(bytes.len() as u64)
}

/// The bytes of a Brazilian table file holding `symbols`.
pub fn encode(key: MaterialKey, kind: Kind, symbols: &[u8]) -> Result<Vec<u8>> {
    encode_in(Variant::Brazilian, key, kind, symbols)
}

/// [`encode`] for a table of `variant`.
pub fn encode_in(
    variant: Variant,
    key: MaterialKey,
    kind: Kind,
    symbols: &[u8],
) -> Result<Vec<u8>> {
    let compressed = codec::compress(symbols, kind.bits()).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut bytes =
        Vec::with_capacity(HEADER_LEN + 4 * compressed.offsets.len() + compressed.payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.push(kind.tag());
    bytes.extend_from_slice(&[key.us_men, key.us_kings, key.them_men, key.them_kings]);
    bytes.extend_from_slice(&[variant_tag(variant), 0, 0]);
    bytes.extend_from_slice(&(symbols.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(codec::BLOCK as u32).to_le_bytes());
    bytes.extend_from_slice(&(compressed.payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&codec::fnv1a(FNV_START, &compressed.payload).to_le_bytes());
    let offsets: Vec<u8> = compressed
        .offsets
        .iter()
        .flat_map(|offset| offset.to_le_bytes())
        .collect();
    let checksum = codec::fnv1a(codec::fnv1a(FNV_START, &bytes), &offsets);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes.extend_from_slice(&offsets);
    bytes.extend_from_slice(&compressed.payload);
    Ok(bytes)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// A checked table file's bytes: header, offsets, payload.
pub struct TableFile<B> {
    bytes: B,
    kind: Kind,
    variant: Variant,
    count: u64,
    blocks: u64,
    payload_at: usize,
}

impl<B> std::fmt::Debug for TableFile<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableFile({:?}, {} positions)", self.kind, self.count)
    }
}

impl TableFile<Vec<u8>> {
    /// Reads the Brazilian table of `key` and `kind` in `dir` into memory and checks its header
    /// and offsets (see [`TableFile::open_in`]).
    pub fn open(dir: &Path, key: MaterialKey, kind: Kind) -> Result<TableFile<Vec<u8>>> {
        TableFile::open_in(Variant::Brazilian, dir, key, kind)
    }

    /// Reads the table of `variant`, `key` and `kind` in `dir` into memory and checks its header
    /// and offsets; a table of another variant is refused.
    ///
    /// The file is read whole rather than memory-mapped: a mapped file that another program
    /// truncates under a running engine kills the process (SIGBUS) at the next probe past the new
    /// end, whereas tables in memory stay as they were read whatever happens to the files; the
    /// host's next `init` notices the change and loads the directory again.
    pub fn open_in(
        variant: Variant,
        dir: &Path,
        key: MaterialKey,
        kind: Kind,
    ) -> Result<TableFile<Vec<u8>>> {
        let path = path(dir, key, kind);
        let bytes = fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        TableFile::check_in(variant, bytes, key, kind)
            .with_context(|| format!("refusing table {}", path.display()))
    }
}

impl<B: AsRef<[u8]>> TableFile<B> {
    /// Checks the header and the offsets of a Brazilian table file's bytes (not yet the payload).
    pub fn check(bytes: B, key: MaterialKey, kind: Kind) -> Result<TableFile<B>> {
        TableFile::check_in(Variant::Brazilian, bytes, key, kind)
    }

    /// [`TableFile::check`] for a table of `variant`: a table of another variant is refused
    /// (`a Russian table, not Brazilian`).
    pub fn check_in(
        variant: Variant,
        bytes: B,
        key: MaterialKey,
        kind: Kind,
    ) -> Result<TableFile<B>> {
        let data = bytes.as_ref();
        if data.len() < HEADER_LEN {
            bail!(
                "truncated: {} bytes, shorter than the {HEADER_LEN}-byte header",
                data.len()
            );
        }
        if &data[0..8] != MAGIC {
            bail!("not an Onça endgame table (bad magic)");
        }
        let version = u32_at(data, 8);
        if version != FORMAT_VERSION {
            bail!(
                "format version {version}, this program reads version {FORMAT_VERSION} \
                 (generate the tables again with `onca egtb generate`)"
            );
        }
        if data[12] != kind.tag() {
            bail!("holds another kind of table (tag {})", data[12]);
        }
        let stored = MaterialKey::new(data[13], data[14], data[15], data[16]);
        if stored != key {
            bail!("header says material {stored}, expected {key}");
        }
        let Some(stored_variant) = variant_of_tag(data[VARIANT_AT]) else {
            bail!("unknown variant tag {} in the header", data[VARIANT_AT]);
        };
        if stored_variant != variant {
            bail!(
                "a {} table, not {} (generated with --variant {stored_variant})",
                variant_title(stored_variant),
                variant_title(variant)
            );
        }
        let count = u64_at(data, 20);
        let expected = Indexer::new(key).size();
        if count != expected {
            bail!("header says {count} positions, material {key} has {expected}");
        }
        if u32_at(data, 28) as usize != codec::BLOCK {
            bail!(
                "blocks of {} symbols, expected {}",
                u32_at(data, 28),
                codec::BLOCK
            );
        }
        let blocks = count.div_ceil(codec::BLOCK as u64);
        let payload_len = u64_at(data, 32);
        let offsets_len = 4 * (blocks + 1);
        let payload_at = HEADER_LEN as u64 + offsets_len;
        if data.len() as u64 != payload_at + payload_len {
            bail!(
                "truncated or padded: {} bytes, the header says {}",
                data.len(),
                payload_at + payload_len
            );
        }
        let payload_at = payload_at as usize;
        let checksum = codec::fnv1a(
            codec::fnv1a(FNV_START, &data[..HEADER_CHECKSUM_AT]),
            &data[HEADER_LEN..payload_at],
        );
        if checksum != u64_at(data, HEADER_CHECKSUM_AT) {
            bail!("header checksum mismatch: the file is damaged");
        }
        let mut previous = 0;
        for block in 0..=blocks as usize {
            let offset = u32_at(data, HEADER_LEN + 4 * block);
            if offset < previous || (block == 0 && offset != 0) {
                bail!("block offsets out of order: the file is damaged");
            }
            previous = offset;
        }
        if u64::from(previous) != payload_len {
            bail!("block offsets do not end at the payload's end");
        }
        Ok(TableFile {
            bytes,
            kind,
            variant,
            count,
            blocks,
            payload_at,
        })
    }

    fn offset(&self, block: u64) -> usize {
        u32_at(self.bytes.as_ref(), HEADER_LEN + 4 * block as usize) as usize
    }

    /// The symbol of position `index`, decoded from its block alone; `None` past the end or in
    /// a damaged block.
    #[inline]
    pub fn get(&self, index: u64) -> Option<u8> {
        if index >= self.count {
            return None;
        }
        let block = index / codec::BLOCK as u64;
        let data = self.bytes.as_ref();
        let bytes = data
            .get(self.payload_at + self.offset(block)..self.payload_at + self.offset(block + 1))?;
        let len = codec::block_len(self.count, block);
        let symbol = codec::symbol_in_block(
            bytes,
            len,
            self.kind.bits(),
            (index % codec::BLOCK as u64) as usize,
        )
        .ok()?;
        (symbol <= self.kind.max_symbol()).then_some(symbol)
    }

    /// The variant whose rules the table's values follow.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Positions in the table.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Bytes of the file.
    pub fn len(&self) -> usize {
        self.bytes.as_ref().len()
    }

    /// Whether the file holds no bytes (never, for a checked file).
    pub fn is_empty(&self) -> bool {
        self.bytes.as_ref().is_empty()
    }

    fn payload(&self) -> &[u8] {
        &self.bytes.as_ref()[self.payload_at..]
    }

    /// Checks the payload's checksum and decodes every block: the full check.
    pub fn verify(&self) -> Result<()> {
        self.symbols().map(|_| ())
    }

    /// Every symbol, after the full check.
    pub fn symbols(&self) -> Result<Vec<u8>> {
        let data = self.bytes.as_ref();
        if codec::fnv1a(FNV_START, self.payload()) != u64_at(data, 40) {
            bail!("payload checksum mismatch: the file is damaged");
        }
        let offsets: Vec<u32> = (0..=self.blocks)
            .map(|block| self.offset(block) as u32)
            .collect();
        codec::decompress(
            &offsets,
            self.payload(),
            self.count,
            self.kind.bits(),
            self.kind.max_symbol(),
        )
        .map_err(|error| anyhow::anyhow!("bad payload: {error}"))
    }
}

/// Reads, fully checks and decodes the Brazilian table of `key` and `kind` in `dir`.
pub fn read(dir: &Path, key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    read_in(Variant::Brazilian, dir, key, kind)
}

/// [`read`] for a table of `variant` (one of another variant is refused).
pub fn read_in(variant: Variant, dir: &Path, key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    let path = path(dir, key, kind);
    TableFile::open_in(variant, dir, key, kind)?
        .symbols()
        .with_context(|| format!("refusing table {}", path.display()))
}

/// Fully checks a Brazilian table file's bytes and decodes them (compiled-in tables, tests).
pub fn decode(bytes: &[u8], key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    decode_in(Variant::Brazilian, bytes, key, kind)
}

/// [`decode`] for a table of `variant`.
pub fn decode_in(variant: Variant, bytes: &[u8], key: MaterialKey, kind: Kind) -> Result<Vec<u8>> {
    TableFile::check_in(variant, bytes, key, kind)?.symbols()
}

//! [`Tablebases`]: the loaded endgame tables, as the search and the command line use them.
//!
//! Table files are read into memory when loading (their headers and block offsets checked; the
//! files stay compressed, 179 MB for the six-piece set), so that nothing done to the files later
//! can fault a running engine (a memory-mapped file truncated under it would). A probe computes
//! the index, then decodes one block of the file (a few hundred bytes at most). Positions where the side to move must capture are stored
//! as "don't care" values that only serve the compression: a probe of such a position plays the
//! captures and probes the positions after them (one piece fewer each), so every answer is exact.
//! The search never probes with a capture pending.
//!
//! Values are perfect play **without** the move-count draw rules of [`crate::game::draw`] (and without
//! repetition): a table win may still be drawn by those rules if the winner dawdles. The search
//! should use a table win as a (large) win score and keep applying its own draw rules along the
//! line, and at the root play [`Tablebases::best_moves`], which shortens the distance to
//! conversion: in the tables with distances that distance restarts at each capture or promotion
//! just as the move-count rules do.
//!
//! Tables hold one variant's values (Brazilian and Russian tables differ wherever a capture could
//! take fewer than the most pieces or crown a man on its way), and [`Tablebases`] knows which:
//! it is loaded for one variant ([`Tablebases::load_in`]; files of the other are refused by name)
//! and every probe plays captures under that variant's rules. The search probes through the
//! `_for::<R>` forms, compiled per variant like the rest of it, after checking once, when it
//! starts, that the tables are of its variant; the other forms dispatch on the tables' variant.

use super::index::Indexer;
use super::material::{Canonical, MaterialKey};
use super::store;
use super::store::{Kind, TableFile};
use super::value::{Code, Wdl};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// Win/draw/loss values packed four to a byte.
#[derive(Clone, Debug)]
pub(crate) struct WdlTable {
    packed: Vec<u8>,
}

impl WdlTable {
    /// Packs symbols from [`Wdl::symbol`]. Only the low two bits of each are kept, and a 3 reads
    /// back as `None`.
    pub fn from_symbols(symbols: &[u8]) -> WdlTable {
        let packed = symbols
            .chunks(4)
            .map(|group| {
                group.iter().enumerate().fold(0u8, |byte, (slot, &symbol)| {
                    byte | (symbol & 3) << (2 * slot)
                })
            })
            .collect();
        WdlTable { packed }
    }

    /// The value at index number `index`; `None` past the end of the table.
    #[inline(always)]
    pub fn get(&self, index: u64) -> Option<Wdl> {
        let byte = *self.packed.get((index / 4) as usize)?;
        Wdl::from_symbol((byte >> (2 * (index % 4))) & 3)
    }

    /// Memory the packed values occupy, in bytes.
    pub fn bytes(&self) -> usize {
        self.packed.len()
    }
}

/// A table's symbols: decoded (just generated, or compiled in) or a table file's bytes.
#[derive(Clone, Debug)]
enum Symbols {
    /// Win/draw/loss values packed four to a byte.
    Packed(WdlTable),
    /// One distance code per byte.
    Bytes(Vec<u8>),
    /// A table file read from disk (shared between clones).
    File(Arc<TableFile<Vec<u8>>>),
}

impl Symbols {
    #[inline]
    fn wdl(&self, index: u64) -> Option<Wdl> {
        match self {
            Symbols::Packed(table) => table.get(index),
            Symbols::Bytes(bytes) => Wdl::from_symbol(*bytes.get(index as usize)?),
            Symbols::File(file) => Wdl::from_symbol(file.get(index)?),
        }
    }

    #[inline]
    fn code(&self, index: u64) -> Option<Code> {
        match self {
            Symbols::Packed(_) => None,
            Symbols::Bytes(bytes) => bytes.get(index as usize).map(|&code| Code(code)),
            Symbols::File(file) => file.get(index).map(Code),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Symbols::Packed(table) => table.bytes(),
            Symbols::Bytes(bytes) => bytes.len(),
            Symbols::File(file) => file.len(),
        }
    }
}

/// One material split.
#[derive(Clone, Debug)]
struct Table {
    indexer: Indexer,
    wdl: Symbols,
    /// Distance codes, when generated for this split.
    dtc: Option<Symbols>,
}

/// The value of a position with its distance to conversion when the tables have it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ProbeResult {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies until the game ends or the material changes, with best play by both sides (the winner
    /// hurrying, the loser delaying); `None` for draws and for tables stored without distances.
    pub plies: Option<u32>,
}

/// All loaded tables.
#[derive(Clone, Debug)]
pub struct Tablebases {
    tables: Vec<Option<Table>>,
    /// The rules the values follow.
    variant: Variant,
    max_pieces: u32,
    refused: Vec<String>,
    /// Of the refused files, those that are sound tables of another variant, and which.
    foreign: (usize, Option<Variant>),
    /// The table files [`Tablebases::load`] found: name, size and modification time.
    files: Vec<FileStamp>,
}

/// A table file as the directory listed it.
type FileStamp = (String, u64, Option<std::time::SystemTime>);

/// The table files of `dir` (`.wdl` and `.dtc`), sorted, with their sizes and times.
fn table_files(dir: &Path) -> Result<Vec<FileStamp>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read table directory {}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if !(name.ends_with(".wdl") || name.ends_with(".dtc")) {
            continue;
        }
        let meta = entry.metadata().ok();
        files.push((
            name,
            meta.as_ref().map_or(0, |meta| meta.len()),
            meta.and_then(|meta| meta.modified().ok()),
        ));
    }
    files.sort();
    Ok(files)
}

impl Default for Tablebases {
    fn default() -> Self {
        Tablebases::empty()
    }
}

/// Calls `$method::<R>($args)` with `R` the rule type of `$variant`.
macro_rules! by_variant {
    ($variant:expr, $self:ident . $method:ident ( $($arg:expr),* )) => {
        match $variant {
            Variant::Brazilian => $self.$method::<Brazilian>($($arg),*),
            Variant::Russian => $self.$method::<Russian>($($arg),*),
        }
    };
}

impl Tablebases {
    /// No Brazilian tables: every probe returns `None`.
    pub fn empty() -> Tablebases {
        Tablebases::empty_in(Variant::Brazilian)
    }

    /// No tables of `variant` (to be filled by [`Tablebases::insert`]).
    pub fn empty_in(variant: Variant) -> Tablebases {
        Tablebases {
            tables: vec![None; MaterialKey::DENSE_COUNT],
            variant,
            max_pieces: 0,
            refused: Vec::new(),
            foreign: (0, None),
            files: Vec::new(),
        }
    }

    /// The variant whose rules the tables follow.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// How many of the refused files are sound tables of another variant, and of which (the
    /// last one found): a directory of the wrong variant shows as every file refused this way.
    pub fn foreign(&self) -> (usize, Option<Variant>) {
        self.foreign
    }

    /// Whether the table files of `dir` are still the ones these tables were loaded from (same
    /// names, sizes and times): a host's `init` reloads when they are not.
    pub fn is_current(&self, dir: &Path) -> bool {
        table_files(dir).is_ok_and(|files| files == self.files)
    }

    /// Reads every Brazilian table file of `dir` (see [`Tablebases::load_in`]).
    pub fn load(dir: &Path) -> Result<Tablebases> {
        Tablebases::load_in(Variant::Brazilian, dir)
    }

    /// Reads the table files of `dir` in the variant most of them name (Brazilian when there are
    /// none): for a host that may play either variant and checks [`Tablebases::variant`] against
    /// each game's. The files of the other variant are refused as in [`Tablebases::load_in`].
    pub fn load_own_variant(dir: &Path) -> Result<Tablebases> {
        let (mut brazilian, mut russian) = (0usize, 0usize);
        for (name, _, _) in table_files(dir)? {
            match store::peek_variant(&dir.join(name)) {
                Some(Variant::Brazilian) => brazilian += 1,
                Some(Variant::Russian) => russian += 1,
                None => {}
            }
        }
        let variant = if russian > brazilian {
            Variant::Russian
        } else {
            Variant::Brazilian
        };
        Tablebases::load_in(variant, dir)
    }

    /// Reads every table file of `variant` in `dir`, checking each header and its block offsets
    /// (the payload is checked by [`crate::egtb::verify`] on request). Damaged or truncated files,
    /// and tables of another variant, are refused (logged and listed by [`Tablebases::refused`],
    /// each naming the file and why) and the rest is used. Fails only if the directory cannot be
    /// read.
    pub fn load_in(variant: Variant, dir: &Path) -> Result<Tablebases> {
        let entries = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read table directory {}", dir.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let name = entry?.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some((stem, extension)) = name.split_once('.') else {
                continue;
            };
            let kind = match extension {
                "wdl" => Kind::Wdl,
                "dtc" => Kind::Dtc,
                _ => continue,
            };
            if let Some(key) = MaterialKey::parse_name(stem) {
                files.push((key, kind));
            }
        }
        let loaded: Vec<_> = files
            .par_iter()
            .map(|&(key, kind)| (key, kind, TableFile::open_in(variant, dir, key, kind)))
            .collect();
        let mut tablebases = Tablebases::empty_in(variant);
        let mut distances = Vec::new();
        for (key, kind, result) in loaded {
            match (kind, result) {
                (Kind::Wdl, Ok(file)) => tablebases.insert_file(key, file),
                (Kind::Dtc, Ok(file)) => distances.push((key, file)),
                (_, Err(error)) => {
                    log::warn!("{error:#}");
                    let found = store::peek_variant(&store::path(dir, key, kind));
                    if let Some(other) = found.filter(|&other| other != variant) {
                        tablebases.foreign = (tablebases.foreign.0 + 1, Some(other));
                    }
                    tablebases.refused.push(format!("{error:#}"));
                }
            }
        }
        for (key, file) in distances {
            if tablebases.has(key) {
                tablebases.insert_distance_file(key, file);
            } else {
                log::warn!("distance table {key} without its win/draw/loss table");
            }
        }
        tablebases.update_max_pieces();
        tablebases.files = table_files(dir)?;
        Ok(tablebases)
    }

    /// Adds a table held in memory (generator use, compiled-in tables): win/draw/loss symbols
    /// and optionally distance codes.
    pub fn insert(&mut self, key: MaterialKey, symbols: &[u8], dtc: Option<Vec<u8>>) {
        if let Some(slot) = self.tables.get_mut(key.dense()) {
            *slot = Some(Table {
                indexer: Indexer::new(key),
                wdl: Symbols::Packed(WdlTable::from_symbols(symbols)),
                dtc: dtc.map(Symbols::Bytes),
            });
        }
        self.update_max_pieces();
    }

    /// Adds a win/draw/loss table file read from disk (its distances, if any, are added by
    /// [`Tablebases::load`]).
    pub fn insert_file(&mut self, key: MaterialKey, file: TableFile<Vec<u8>>) {
        if let Some(slot) = self.tables.get_mut(key.dense()) {
            *slot = Some(Table {
                indexer: Indexer::new(key),
                wdl: Symbols::File(Arc::new(file)),
                dtc: None,
            });
        }
        self.update_max_pieces();
    }

    /// Adds a distance table file read from disk to the loaded win/draw/loss table of `key`.
    pub fn insert_distance_file(&mut self, key: MaterialKey, file: TableFile<Vec<u8>>) {
        if let Some(table) = self.tables.get_mut(key.dense()).and_then(Option::as_mut) {
            table.dtc = Some(Symbols::File(Arc::new(file)));
        }
    }

    fn update_max_pieces(&mut self) {
        let mut complete = 1;
        for pieces in 2..=4 * super::material::MAX_PER_KIND as u32 {
            let all_there = MaterialKey::all_up_to(pieces)
                .iter()
                .filter(|key| key.pieces() == pieces)
                .all(|key| self.has(*key));
            if !all_there {
                break;
            }
            complete = pieces;
        }
        self.max_pieces = if complete >= 2 { complete } else { 0 };
    }

    /// Whether the win/draw/loss table of `key` is loaded.
    pub fn has(&self, key: MaterialKey) -> bool {
        key.is_valid() && matches!(self.tables.get(key.dense()), Some(Some(_)))
    }

    /// Whether the distance table of `key` is loaded.
    pub fn has_distances(&self, key: MaterialKey) -> bool {
        self.table(key).is_some_and(|table| table.dtc.is_some())
    }

    /// The largest piece count N such that every table with N pieces or fewer is loaded (0 when
    /// none is). Positions with more pieces may still be found in a loaded table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Messages for the files that [`Tablebases::load`] refused.
    pub fn refused(&self) -> &[String] {
        &self.refused
    }

    /// Number of loaded win/draw/loss tables and the bytes they occupy in memory
    /// (with their distances).
    pub fn memory(&self) -> (usize, usize) {
        self.tables
            .iter()
            .flatten()
            .fold((0, 0), |(count, bytes), table| {
                let dtc = table.dtc.as_ref().map_or(0, Symbols::bytes);
                (count + 1, bytes + table.wdl.bytes() + dtc)
            })
    }

    /// The keys of the loaded win/draw/loss tables, in generation order.
    pub fn keys(&self) -> Vec<MaterialKey> {
        let mut keys: Vec<MaterialKey> =
            MaterialKey::all_up_to(4 * super::material::MAX_PER_KIND as u32)
                .into_iter()
                .filter(|key| self.has(*key))
                .collect();
        keys.sort_by_key(|key| (key.pieces(), key.men(), *key));
        keys
    }

    fn table(&self, key: MaterialKey) -> Option<&Table> {
        if !key.is_valid() {
            return None;
        }
        self.tables.get(key.dense())?.as_ref()
    }

    /// The stored win/draw/loss of a position in stored orientation: exact unless the side to
    /// move must capture (then a "don't care" value; see the module documentation).
    #[inline]
    fn stored(&self, position: &Canonical) -> Option<Wdl> {
        if position.us_men | position.us_kings == 0 {
            return Some(Wdl::Loss); // nothing left to move
        }
        let table = self.table(position.key())?;
        table.wdl.wdl(table.indexer.index(position)?)
    }

    /// Win/draw/loss for the side to move, if the position's table (and, when it must capture,
    /// the tables after its captures) are loaded. `None` also for a position where the side not
    /// to move has no pieces (it cannot arise in a game). Under the tables' own rules.
    pub fn probe(&self, position: &Position) -> Option<Wdl> {
        by_variant!(self.variant, self.probe_for(position))
    }

    /// [`Tablebases::probe`] compiled for the rules `R`, which must be the tables' (the search
    /// checks once, before it starts probing).
    #[inline]
    pub fn probe_for<R: Rules>(&self, position: &Position) -> Option<Wdl> {
        debug_assert_eq!(R::VARIANT, self.variant, "tables probed under other rules");
        if movegen::has_capture(position) {
            return self.probe_captures::<R>(position);
        }
        self.stored(&Canonical::of(position))
    }

    /// [`Tablebases::probe_for`] of a position in stored orientation.
    pub(crate) fn probe_canonical_for<R: Rules>(&self, position: &Canonical) -> Option<Wdl> {
        let board = position.position();
        if movegen::has_capture(&board) {
            return self.probe_captures::<R>(&board);
        }
        self.stored(position)
    }

    /// The best value over the captures of a position that must capture.
    fn probe_captures<R: Rules>(&self, position: &Position) -> Option<Wdl> {
        let mut best = Wdl::Loss;
        for mv in movegen::legal_moves_for::<R>(position) {
            let value = self.probe_for::<R>(&position.play_for::<R>(&mv))?.negated();
            if value == Wdl::Win {
                return Some(Wdl::Win);
            }
            best = best.max(value);
        }
        Some(best)
    }

    /// The value with its distance to conversion (see [`ProbeResult`]). A position that must
    /// capture converts at once: its distance is one ply. Under the tables' own rules.
    pub fn probe_distance(&self, position: &Position) -> Option<ProbeResult> {
        by_variant!(self.variant, self.probe_distance_for(position))
    }

    /// [`Tablebases::probe_distance`] compiled for the rules `R`, which must be the tables'.
    #[inline]
    pub fn probe_distance_for<R: Rules>(&self, position: &Position) -> Option<ProbeResult> {
        debug_assert_eq!(R::VARIANT, self.variant, "tables probed under other rules");
        if movegen::has_capture(position) {
            let wdl = self.probe_captures::<R>(position)?;
            return Some(ProbeResult {
                wdl,
                plies: (wdl != Wdl::Draw).then_some(1),
            });
        }
        let canonical = Canonical::of(position);
        if canonical.us_men | canonical.us_kings == 0 {
            return Some(ProbeResult {
                wdl: Wdl::Loss,
                plies: Some(0),
            });
        }
        let table = self.table(canonical.key())?;
        let index = table.indexer.index(&canonical)?;
        let wdl = table.wdl.wdl(index)?;
        let plies = table
            .dtc
            .as_ref()
            .and_then(|codes| codes.code(index))
            .and_then(Code::plies);
        Some(ProbeResult { wdl, plies })
    }

    /// The moves that keep the best result, best first by the tables' own order: when winning,
    /// those that reach the conversion (capture, promotion or the end of the game) soonest; when
    /// losing, those that delay it longest; when drawing, every drawing move. Without distances
    /// (tables generated without them), a winning or losing side gets its converting moves
    /// (captures, promotions) if it has any, else every move that keeps the result.
    /// Returns `None` if a position after one of the moves is not in the loaded tables; an empty
    /// list if there is no legal move (a loss). Under the tables' own rules.
    pub fn best_moves(&self, position: &Position) -> Option<(ProbeResult, Vec<Move>)> {
        by_variant!(self.variant, self.best_moves_for(position))
    }

    /// [`Tablebases::best_moves`] compiled for the rules `R`, which must be the tables'.
    pub fn best_moves_for<R: Rules>(
        &self,
        position: &Position,
    ) -> Option<(ProbeResult, Vec<Move>)> {
        debug_assert_eq!(R::VARIANT, self.variant, "tables probed under other rules");
        let moves = movegen::legal_moves_for::<R>(position);
        let mut scored = Vec::with_capacity(moves.len());
        for mv in moves {
            let child = self.probe_distance_for::<R>(&position.play_for::<R>(&mv))?;
            let converts = mv.is_capture()
                || (!position.all_kings().contains(mv.from)
                    && position.side_to_move().promotion_row().contains(mv.to));
            let plies = if converts {
                Some(1)
            } else {
                child.plies.map(|plies| plies + 1)
            };
            scored.push((child.wdl.negated(), plies, mv));
        }
        let Some(best) = scored.iter().map(|(wdl, _, _)| *wdl).max() else {
            return Some((
                ProbeResult {
                    wdl: Wdl::Loss,
                    plies: Some(0),
                },
                Vec::new(),
            ));
        };
        scored.retain(|(wdl, _, _)| *wdl == best);
        scored.sort_by_key(|(_, _, mv)| mv.sort_key());
        let all_known = scored.iter().all(|(_, plies, _)| plies.is_some());
        // The distance the side to move wants: shortest when winning, longest when losing.
        let target = match best {
            Wdl::Draw => None,
            Wdl::Win if all_known => scored.iter().filter_map(|(_, plies, _)| *plies).min(),
            Wdl::Loss if all_known => scored.iter().filter_map(|(_, plies, _)| *plies).max(),
            // Without distances, converting is the only progress a winner can be sure of.
            Wdl::Win => Some(1).filter(|_| scored.iter().any(|(_, plies, _)| *plies == Some(1))),
            Wdl::Loss => None,
        };
        let keep: Vec<Move> = scored
            .iter()
            .filter(|(_, plies, _)| target.is_none() || *plies == target)
            .map(|(_, _, mv)| *mv)
            .collect();
        let plies = if all_known { target } else { None };
        Some((ProbeResult { wdl: best, plies }, keep))
    }
}

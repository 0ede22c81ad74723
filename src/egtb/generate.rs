//! The retrograde generator: computes every table up to a number of pieces and writes them.
//!
//! Tables are built in pairs: a split and its mirror (the same material with the other side to
//! move), because a quiet move of one lands in the other. Pairs are taken fewer pieces first, then
//! fewer men, so every table a capture or a promotion leads to is finished before it is needed.
//!
//! For a pair:
//! 1. Every position is examined with [`crate::rules::movegen`]: no legal move is a loss in 0 plies; a
//!    move into a finished table (capture or promotion) that the opponent loses is a win in 1 ply;
//!    when every move leaves the pair (always so when a capture is pending), the value is settled
//!    here.
//! 2. Level by level in plies, from each position whose value has just been settled, the positions
//!    that lead to it by one quiet move are found: candidate origins along the diagonals through
//!    empty squares, each confirmed by generating the candidate's legal moves (so the rules stay in
//!    the move generator). A predecessor of a loss in d is a win in d + 1 (if not settled before); a
//!    predecessor of a win in d is a loss in d + 1 when all its moves now lead to wins of at most d
//!    plies for the opponent.
//! 3. What stays unsettled is a draw.
//!
//! Distances are to conversion (see [`super::value`]); every value ignores the move-count draw
//! rules and repetition (perfect play to the end of the game).
//!
//! The generator is generic over the rules ([`Rules`]): [`generate_for`] builds Brazilian or
//! Russian tables with that variant's move generator (the two differ in the captures: the majority
//! rule, and crowning during a capture), and writes the variant into every file's header. A table
//! directory holds one variant: resuming into a directory of the other variant's tables is refused
//! rather than overwriting them.

use super::index::Indexer;
use super::material::{Canonical, MaterialKey};
use super::probe::Tablebases;
use super::store::{self, Kind};
use super::value::{Code, Wdl};
use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::movegen::{self, MoveList};
use crate::rules::position::{Color, Position};
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Every split with up to this many pieces.
    pub max_pieces: u32,
    /// Also store distances for splits with up to this many pieces.
    pub distance_pieces: u32,
    /// Directory the table files are written to and resumed from (created if missing).
    pub dir: PathBuf,
}

/// One generated (or found finished) table.
#[derive(Clone, Debug, Default)]
pub struct TableReport {
    /// The split the table holds; `None` only in a default-constructed report.
    pub key: Option<MaterialKey>,
    /// Positions in the table: the index numbers actually used (see [`Indexer::positions`]).
    pub positions: u64,
    /// Positions won for the side to move. For a resumed table the three counts are read from the
    /// file, which repeats a neighbour's value at unused index numbers, so they add up to the
    /// index size rather than to `positions`.
    pub wins: u64,
    /// Positions drawn (see `wins` for resumed tables).
    pub draws: u64,
    /// Positions lost for the side to move (see `wins` for resumed tables).
    pub losses: u64,
    /// Longest distance to conversion (plies) in the table; 0 if unknown (resumed table).
    pub longest: u32,
    /// Size of the win/draw/loss file in bytes.
    pub wdl_bytes: u64,
    /// Size of the distance file in bytes; 0 when the split is stored without distances.
    pub dtc_bytes: u64,
    /// Wall-clock seconds spent generating the table (its pair's time split evenly between the
    /// tables of the pair); 0 for a resumed table.
    pub seconds: f64,
    /// Found on disk from an earlier run rather than generated now.
    pub resumed: bool,
}

/// Where the generation stands, after each pair.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Tables finished so far, resumed ones included.
    pub tables_done: usize,
    /// Tables the whole run produces.
    pub tables_total: usize,
    /// Index numbers of the finished tables (index sizes, unused numbers included).
    pub positions_done: u64,
    /// Index numbers of every table of the run, counted like `positions_done`.
    pub positions_total: u64,
    /// Wall-clock seconds since the run started.
    pub elapsed_seconds: f64,
    /// Estimated seconds left (by positions still to do at the rate so far).
    pub eta_seconds: Option<f64>,
    /// The tables just finished.
    pub finished: Vec<TableReport>,
}

/// A position of a pair under work: which of the two tables and its index.
type Entry = (u8, u32);

struct Work {
    key: MaterialKey,
    indexer: Indexer,
    codes: Vec<AtomicU8>,
}

/// A pair under work, solved under the rules `R`.
struct Pair<'a, R: Rules> {
    sides: Vec<Work>,
    finished: &'a Tablebases,
    /// Set when a needed finished table is missing or a distance overflows the code.
    failure: Mutex<Option<String>>,
    failed: AtomicBool,
    rules: PhantomData<R>,
}

impl<R: Rules> Pair<'_, R> {
    fn partner(&self, side: usize) -> usize {
        if self.sides.len() == 1 {
            0
        } else {
            1 - side
        }
    }

    fn fail(&self, message: String) {
        self.failed.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = self.failure.lock() {
            slot.get_or_insert(message);
        }
    }

    /// The value of a position outside the pair, for its side to move.
    fn outside(&self, child: &Canonical) -> Wdl {
        match self.finished.probe_canonical_for::<R>(child) {
            Some(wdl) => wdl,
            None => {
                self.fail(format!("table {} is needed but missing", child.key()));
                Wdl::Draw
            }
        }
    }

    fn code(&self, side: usize, index: u64) -> Code {
        Code(self.sides[side].codes[index as usize].load(Ordering::Relaxed))
    }

    /// Step 1 for one position.
    fn initial_code(&self, side: usize, index: u64, list: &mut MoveList) -> Code {
        let Some(canonical) = self.sides[side].indexer.position(index) else {
            return Code::UNUSED;
        };
        let position = canonical.position();
        movegen::generate_for::<R>(&position, list);
        if list.is_empty() {
            return Code::loss(0).unwrap_or(Code::DRAW);
        }
        let inside = self.sides[self.partner(side)].key;
        let mut stays_inside = false;
        let mut best = Wdl::Loss;
        for mv in list.iter() {
            let child = Canonical::of(&position.play_for::<R>(mv));
            if child.key() == inside {
                stays_inside = true;
                continue;
            }
            let ours = self.outside(&child).negated();
            if ours == Wdl::Win {
                return Code::win(1).unwrap_or(Code::DRAW);
            }
            best = best.max(ours);
        }
        match (stays_inside, best) {
            (false, Wdl::Loss) => Code::loss(1).unwrap_or(Code::DRAW),
            _ => Code::DRAW, // undecided (or a draw for good)
        }
    }

    /// Whether every move of `position` (in table `side`) leads to a win of at most `plies` for
    /// the opponent.
    fn all_moves_lose(&self, side: usize, position: &Position, plies: u32) -> bool {
        let mut list = MoveList::new();
        movegen::generate_for::<R>(position, &mut list);
        let inside = self.partner(side);
        for mv in list.iter() {
            let child = Canonical::of(&position.play_for::<R>(mv));
            if child.key() == self.sides[inside].key {
                let Some(index) = self.sides[inside].indexer.index(&child) else {
                    return false;
                };
                let code = self.code(inside, index);
                if !(code.is_win() && code.plies().is_some_and(|p| p <= plies)) {
                    return false;
                }
            } else if self.outside(&child) != Wdl::Win {
                return false;
            }
        }
        true
    }

    /// Step 2 for one settled position: settles its predecessors, appending them to `next`.
    fn settle_predecessors(&self, (side, index): Entry, plies: u32, next: &mut Vec<Entry>) {
        let code = self.code(side as usize, u64::from(index));
        let Some(canonical) = self.sides[side as usize].indexer.position(u64::from(index)) else {
            return;
        };
        let position = canonical.position();
        let origin_side = self.partner(side as usize);
        let origin = &self.sides[origin_side];
        let white = position.pieces(Color::White);
        let black = position.pieces(Color::Black);
        let kings = position.all_kings();
        let empty = position.empty_squares();
        let mut list = MoveList::new();
        // Black (the side not to move) made the last move; try each piece's possible origins.
        for to in black {
            let king = kings.contains(to);
            for direction in Direction::ALL {
                let origins = Bitboard::ray_from(to, direction, empty) & empty;
                for from in origins {
                    if !king && Bitboard::WHITE_BACK_ROW.contains(from) {
                        continue; // a black man never stands on its promotion row
                    }
                    let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
                    let before_kings = if king { kings ^ moved } else { kings };
                    let before =
                        Position::from_parts(white, black ^ moved, before_kings, Color::Black);
                    // A pending capture rules every quiet move out; asking first is cheaper than
                    // listing the captures.
                    if movegen::has_capture(&before) {
                        continue;
                    }
                    movegen::generate_for::<R>(&before, &mut list);
                    let legal = list.iter().any(|mv| {
                        mv.from == from
                            && mv.to == to
                            && mv.captured.is_empty()
                            && Canonical::of(&before.play_for::<R>(mv)) == canonical
                    });
                    if !legal {
                        continue;
                    }
                    let before = Canonical::of(&before);
                    let Some(before_index) = origin.indexer.index(&before) else {
                        continue;
                    };
                    let slot = &origin.codes[before_index as usize];
                    if slot.load(Ordering::Relaxed) != Code::DRAW.0 {
                        continue;
                    }
                    let new_code = if code.is_loss() {
                        Code::win(plies + 1)
                    } else if self.all_moves_lose(origin_side, &before.position(), plies) {
                        Code::loss(plies + 1)
                    } else {
                        continue;
                    };
                    let Some(new_code) = new_code else {
                        self.fail(format!(
                            "distance {} exceeds the format in table {}",
                            plies + 1,
                            origin.key
                        ));
                        continue;
                    };
                    if slot
                        .compare_exchange(
                            Code::DRAW.0,
                            new_code.0,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        )
                        .is_ok()
                    {
                        next.push((origin_side as u8, before_index as u32));
                    }
                }
            }
        }
    }

    fn check(&self) -> Result<()> {
        if self.failed.load(Ordering::Relaxed) {
            let message = self
                .failure
                .lock()
                .ok()
                .and_then(|slot| slot.clone())
                .unwrap_or_else(|| "generation failed".into());
            bail!("{message}");
        }
        Ok(())
    }

    /// Runs steps 1-3 and returns the codes of each side.
    fn solve(self) -> Result<Vec<Vec<u8>>> {
        const CHUNK: usize = 4096;
        for side in 0..self.sides.len() {
            self.sides[side]
                .codes
                .par_chunks(CHUNK)
                .enumerate()
                .for_each(|(chunk, slots)| {
                    let mut list = MoveList::new();
                    for (offset, slot) in slots.iter().enumerate() {
                        let index = (chunk * CHUNK + offset) as u64;
                        slot.store(
                            self.initial_code(side, index, &mut list).0,
                            Ordering::Relaxed,
                        );
                    }
                });
        }
        self.check()?;
        let mut levels: Vec<Vec<Entry>> = vec![Vec::new(), Vec::new()];
        for (side, work) in self.sides.iter().enumerate() {
            let settled: Vec<(u32, Entry)> = work
                .codes
                .par_iter()
                .enumerate()
                .filter_map(|(index, slot)| {
                    let code = Code(slot.load(Ordering::Relaxed));
                    let plies = code.plies()?;
                    (code != Code::UNUSED).then_some((plies, (side as u8, index as u32)))
                })
                .collect();
            for (plies, entry) in settled {
                let plies = plies as usize;
                if levels.len() <= plies {
                    levels.resize_with(plies + 1, Vec::new);
                }
                levels[plies].push(entry);
            }
        }
        let mut plies = 0;
        while plies < levels.len() {
            let current = std::mem::take(&mut levels[plies]);
            let next: Vec<Entry> = current
                .par_chunks(256)
                .flat_map_iter(|entries| {
                    let mut next = Vec::new();
                    for &entry in entries {
                        self.settle_predecessors(entry, plies as u32, &mut next);
                    }
                    next
                })
                .collect();
            self.check()?;
            if !next.is_empty() {
                if levels.len() <= plies + 1 {
                    levels.push(Vec::new());
                }
                levels[plies + 1].extend(next);
            }
            plies += 1;
        }
        Ok(self
            .sides
            .into_iter()
            .map(|work| work.codes.into_iter().map(AtomicU8::into_inner).collect())
            .collect())
    }
}

/// Computes the Brazilian tables of `keys` (a split and its mirror, or one symmetric split) from
/// the finished ones; returns the codes of each.
pub fn solve_pair(keys: &[MaterialKey], finished: &Tablebases) -> Result<Vec<Vec<u8>>> {
    solve_pair_for::<Brazilian>(keys, finished)
}

/// [`solve_pair`] under the rules `R` (`finished` must hold tables of `R`).
pub fn solve_pair_for<R: Rules>(
    keys: &[MaterialKey],
    finished: &Tablebases,
) -> Result<Vec<Vec<u8>>> {
    if finished.variant() != R::VARIANT {
        bail!(
            "solving {} tables on top of {} ones",
            store::variant_title(R::VARIANT),
            store::variant_title(finished.variant())
        );
    }
    let mut sides = Vec::new();
    for &key in keys {
        let indexer = Indexer::new(key);
        if indexer.size() >= u64::from(u32::MAX) {
            bail!("table {key} is too large ({} positions)", indexer.size());
        }
        let codes = (0..indexer.size()).map(|_| AtomicU8::new(0)).collect();
        sides.push(Work {
            key,
            indexer,
            codes,
        });
    }
    Pair::<R> {
        sides,
        finished,
        failure: Mutex::new(None),
        failed: AtomicBool::new(false),
        rules: PhantomData,
    }
    .solve()
}

/// The codes as table files store them: positions where the side to move must capture become
/// unused ("don't care": probes play their captures instead of reading them), so the symbols
/// written for them extend the runs around them and the files shrink.
pub fn file_codes(key: MaterialKey, codes: &[u8]) -> Vec<u8> {
    const CHUNK: usize = 1 << 16;
    let indexer = Indexer::new(key);
    let mut stored = codes.to_vec();
    stored
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, slice)| {
            for (offset, code) in slice.iter_mut().enumerate() {
                let index = (chunk * CHUNK + offset) as u64;
                if let Some(canonical) = indexer.position(index) {
                    if movegen::has_capture(&canonical.position()) {
                        *code = Code::UNUSED.0;
                    }
                }
            }
        });
    stored
}

/// Win/draw/loss symbols for a table file; unused numbers repeat their neighbour so runs stay long.
pub fn wdl_symbols(codes: &[u8]) -> Vec<u8> {
    let mut previous = Wdl::Draw.symbol();
    codes
        .iter()
        .map(|&code| {
            if code != Code::UNUSED.0 {
                previous = Code(code).wdl().symbol();
            }
            previous
        })
        .collect()
}

/// Distance codes for a table file, unused numbers likewise filled.
pub fn distance_symbols(codes: &[u8]) -> Vec<u8> {
    let mut previous = Code::DRAW.0;
    codes
        .iter()
        .map(|&code| {
            if code != Code::UNUSED.0 {
                previous = code;
            }
            previous
        })
        .collect()
}

fn report(key: MaterialKey, codes: &[u8]) -> TableReport {
    let mut report = TableReport {
        key: Some(key),
        positions: 0,
        ..TableReport::default()
    };
    for &code in codes {
        let code = Code(code);
        if code == Code::UNUSED {
            continue;
        }
        report.positions += 1;
        match code.wdl() {
            Wdl::Win => report.wins += 1,
            Wdl::Draw => report.draws += 1,
            Wdl::Loss => report.losses += 1,
        }
        report.longest = report.longest.max(code.plies().unwrap_or(0));
    }
    report
}

/// Loads a finished pair from disk into `finished`, if every file it needs is there and sound
/// (`Ok(None)` otherwise: the pair is generated again). A table of another variant than
/// `finished`'s is an error: the directory belongs to that variant's tables.
fn resume(
    options: &Options,
    keys: &[MaterialKey],
    finished: &mut Tablebases,
) -> Result<Option<Vec<TableReport>>> {
    let variant = finished.variant();
    for &key in keys {
        for kind in [Kind::Wdl, Kind::Dtc] {
            let path = store::path(&options.dir, key, kind);
            if let Some(other) = store::peek_variant(&path).filter(|&other| other != variant) {
                bail!(
                    "{} is a {} table, not {}: generate {} tables in another directory",
                    path.display(),
                    store::variant_title(other),
                    store::variant_title(variant),
                    store::variant_title(variant)
                );
            }
        }
    }
    let Some(first) = keys.first() else {
        return Ok(None);
    };
    let with_distances = first.pieces() <= options.distance_pieces;
    let mut loaded = Vec::new();
    for &key in keys {
        let wdl = store::read_in(variant, &options.dir, key, Kind::Wdl);
        let dtc = with_distances.then(|| store::read_in(variant, &options.dir, key, Kind::Dtc));
        match (wdl, dtc) {
            (Ok(symbols), None) => loaded.push((key, symbols, None)),
            (Ok(symbols), Some(Ok(codes))) => loaded.push((key, symbols, Some(codes))),
            (Err(error), _) | (_, Some(Err(error))) => {
                if store::path(&options.dir, key, Kind::Wdl).exists() {
                    log::warn!("{error:#}; generating it again");
                }
                return Ok(None);
            }
        }
    }
    let mut reports = Vec::new();
    for (key, symbols, codes) in loaded {
        let mut report = TableReport {
            key: Some(key),
            resumed: true,
            ..TableReport::default()
        };
        for &symbol in &symbols {
            match Wdl::from_symbol(symbol) {
                Some(Wdl::Win) => report.wins += 1,
                Some(Wdl::Draw) => report.draws += 1,
                _ => report.losses += 1,
            }
        }
        report.positions = Indexer::new(key).positions();
        report.wdl_bytes = file_size(&store::path(&options.dir, key, Kind::Wdl));
        if codes.is_some() {
            report.dtc_bytes = file_size(&store::path(&options.dir, key, Kind::Dtc));
        }
        finished.insert(key, &symbols, codes);
        reports.push(report);
    }
    Ok(Some(reports))
}

fn file_size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |meta| meta.len())
}

/// The pairs to compute, in dependency order.
pub fn pairs(max_pieces: u32) -> Vec<Vec<MaterialKey>> {
    let mut pairs: Vec<Vec<MaterialKey>> = Vec::new();
    for key in MaterialKey::all_up_to(max_pieces) {
        if pairs.iter().flatten().any(|&done| done == key) {
            continue;
        }
        let mirror = key.mirrored();
        pairs.push(if mirror == key {
            vec![key]
        } else {
            vec![key, mirror]
        });
    }
    pairs
}

/// Every table of `R`'s variant up to `max_pieces`, computed in memory (no files): the tables
/// [`crate::egtb::builtin`] gives a search without a directory. Distances are kept for all of
/// them, as the files keep them up to 4 pieces.
pub fn in_memory_for<R: Rules>(max_pieces: u32) -> Result<Tablebases> {
    let mut finished = Tablebases::empty_in(R::VARIANT);
    for keys in pairs(max_pieces) {
        let codes = solve_pair_for::<R>(&keys, &finished)?;
        for (&key, codes) in keys.iter().zip(codes) {
            finished.insert(key, &wdl_symbols(&codes), Some(codes));
        }
    }
    Ok(finished)
}

/// Generates (or resumes) every Brazilian table up to `options.max_pieces`, calling `progress`
/// after each pair. Returns the reports of all tables and the loaded result.
pub fn generate(
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Vec<TableReport>, Tablebases)> {
    generate_for::<Brazilian>(options, progress)
}

/// [`generate`] for the tables of `variant`, chosen at run time.
pub fn generate_in(
    variant: Variant,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Vec<TableReport>, Tablebases)> {
    match variant {
        Variant::Brazilian => generate_for::<Brazilian>(options, progress),
        Variant::Russian => generate_for::<Russian>(options, progress),
    }
}

/// [`generate`] under the rules `R`: the tables of `R`'s variant, named so in their headers.
pub fn generate_for<R: Rules>(
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Vec<TableReport>, Tablebases)> {
    std::fs::create_dir_all(&options.dir)?;
    let pairs = pairs(options.max_pieces);
    let tables_total = pairs.iter().map(Vec::len).sum();
    let size = |key: &MaterialKey| Indexer::new(*key).size();
    let positions_total: u64 = pairs.iter().flatten().map(size).sum();
    let started = Instant::now();
    let mut finished = Tablebases::empty_in(R::VARIANT);
    let mut reports = Vec::new();
    let mut tables_done = 0;
    let mut positions_done = 0;
    let mut generated_positions = 0u64;
    let mut generated_seconds = 0.0f64;
    for keys in pairs {
        let pair_started = Instant::now();
        let pair_positions: u64 = keys.iter().map(size).sum();
        let finished_now = match resume(options, &keys, &mut finished)? {
            Some(resumed) => resumed,
            None => {
                let codes = solve_pair_for::<R>(&keys, &finished)?;
                let seconds = pair_started.elapsed().as_secs_f64() / keys.len() as f64;
                let mut done = Vec::new();
                for (&key, codes) in keys.iter().zip(codes) {
                    let mut table = report(key, &codes);
                    table.seconds = seconds;
                    let symbols = wdl_symbols(&codes);
                    let stored = file_codes(key, &codes);
                    let variant = R::VARIANT;
                    table.wdl_bytes = store::write_in(
                        variant,
                        &options.dir,
                        key,
                        Kind::Wdl,
                        &wdl_symbols(&stored),
                    )?;
                    let distances = if key.pieces() <= options.distance_pieces {
                        table.dtc_bytes = store::write_in(
                            variant,
                            &options.dir,
                            key,
                            Kind::Dtc,
                            &distance_symbols(&stored),
                        )?;
                        Some(codes)
                    } else {
                        None
                    };
                    finished.insert(key, &symbols, distances);
                    done.push(table);
                }
                generated_positions += pair_positions;
                generated_seconds += pair_started.elapsed().as_secs_f64();
                done
            }
        };
        tables_done += keys.len();
        positions_done += pair_positions;
        let remaining = positions_total - positions_done;
        let eta_seconds = (generated_positions > 0)
            .then(|| generated_seconds / generated_positions as f64 * remaining as f64);
        progress(&Progress {
            tables_done,
            tables_total,
            positions_done,
            positions_total,
            elapsed_seconds: started.elapsed().as_secs_f64(),
            eta_seconds,
            finished: finished_now.clone(),
        });
        reports.extend(finished_now);
    }
    Ok((reports, finished))
}

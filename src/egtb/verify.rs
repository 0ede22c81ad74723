//! Independent check of loaded tables: every stored value must equal what one ply of search over
//! the real legal moves ([`crate::rules::movegen`]) gives from the stored values of the positions after
//! each move. With the distances stored this fixes the tables completely (given correct smaller
//! tables): a wrong win would need a distance that cannot decrease, a wrong draw a move it ignores.
//! Positions where the side to move must capture hold no stored value (probes play the captures),
//! so they are not counted. Large tables can be checked on a sample: every n-th position.
//! The moves are those of the tables' variant ([`Tablebases::variant`]): the check is compiled
//! per variant (`_for::<R>`), the plain forms choosing the copy by the tables.

use super::index::Indexer;
use super::material::{Canonical, MaterialKey};
use super::probe::Tablebases;
use super::value::Wdl;
use crate::rules::movegen;
use crate::rules::position::Position;
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use rayon::prelude::*;

/// The outcome of checking one table.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Positions checked (unused index numbers are skipped).
    pub positions: u64,
    /// Positions whose stored value (or distance, when checked) differs from one ply of search,
    /// or whose value or children are missing from the tables.
    pub mismatches: u64,
    /// Up to a few positions that disagree, as FEN.
    pub examples: Vec<String>,
    /// Whether distances were checked too.
    pub with_distances: bool,
}

/// What one ply of search gives for `position` under the tables' rules: value and distance (when
/// all needed distances are known). `None` if a position after a move is not in the tables.
pub fn backed_up(tables: &Tablebases, position: &Position) -> Option<(Wdl, Option<u32>)> {
    match tables.variant() {
        Variant::Brazilian => backed_up_for::<Brazilian>(tables, position),
        Variant::Russian => backed_up_for::<Russian>(tables, position),
    }
}

/// [`backed_up`] under the rules `R` (the tables' own).
pub fn backed_up_for<R: Rules>(
    tables: &Tablebases,
    position: &Position,
) -> Option<(Wdl, Option<u32>)> {
    let moves = movegen::legal_moves_for::<R>(position);
    if moves.is_empty() {
        return Some((Wdl::Loss, Some(0)));
    }
    let inside = Canonical::of(position).key().mirrored();
    let mut best: Option<(Wdl, Option<u32>)> = None;
    for mv in &moves {
        let child = position.play_for::<R>(mv);
        let probed = tables.probe_distance_for::<R>(&child)?;
        let plies = if Canonical::of(&child).key() != inside {
            Some(1)
        } else {
            probed.plies.map(|plies| plies + 1)
        };
        let ours = (probed.wdl.negated(), plies);
        let rank = |(wdl, plies): (Wdl, Option<u32>)| -> (Wdl, i64) {
            let plies = i64::from(plies.unwrap_or(0));
            match wdl {
                Wdl::Win => (wdl, -plies),
                Wdl::Loss => (wdl, plies),
                Wdl::Draw => (wdl, 0),
            }
        };
        if best.is_none_or(|old| rank(ours) > rank(old)) {
            best = Some(ours);
        }
    }
    best.map(|(wdl, plies)| (wdl, if wdl == Wdl::Draw { None } else { plies }))
}

/// Checks every `every`-th position of the table `key` (which must be loaded; `every` = 1 checks
/// them all) against the moves of the tables' variant.
pub fn verify_table(tables: &Tablebases, key: MaterialKey, every: u64) -> VerifyReport {
    match tables.variant() {
        Variant::Brazilian => verify_table_for::<Brazilian>(tables, key, every),
        Variant::Russian => verify_table_for::<Russian>(tables, key, every),
    }
}

/// [`verify_table`] under the rules `R` (the tables' own).
pub fn verify_table_for<R: Rules>(
    tables: &Tablebases,
    key: MaterialKey,
    every: u64,
) -> VerifyReport {
    let every = every.max(1);
    let indexer = Indexer::new(key);
    let with_distances = tables.has_distances(key) && tables.has_distances(key.mirrored());
    const CHUNK: u64 = 1 << 14;
    let chunks: Vec<VerifyReport> = (0..indexer.size().div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let start = chunk * CHUNK;
            let mut report = VerifyReport::default();
            let first = start.div_ceil(every) * every;
            for index in (first..(start + CHUNK).min(indexer.size())).step_by(every as usize) {
                let Some(canonical) = indexer.position(index) else {
                    continue;
                };
                let position = canonical.position();
                if movegen::has_capture(&position) {
                    continue;
                }
                report.positions += 1;
                let stored = tables.probe_distance_for::<R>(&position);
                let expected = backed_up_for::<R>(tables, &position);
                let agrees = match (stored, expected) {
                    (Some(stored), Some((wdl, plies))) => {
                        stored.wdl == wdl && (!with_distances || stored.plies == plies)
                    }
                    _ => false,
                };
                if !agrees {
                    report.mismatches += 1;
                    if report.examples.len() < 3 {
                        report
                            .examples
                            .push(crate::notation::fen::to_fen(&position));
                    }
                }
            }
            report
        })
        .collect();
    chunks.into_iter().fold(
        VerifyReport {
            with_distances,
            ..VerifyReport::default()
        },
        |mut total, chunk| {
            total.positions += chunk.positions;
            total.mismatches += chunk.mismatches;
            for example in chunk.examples {
                if total.examples.len() < 3 {
                    total.examples.push(example);
                }
            }
            total
        },
    )
}

//! The endgame tables a game gets without a table directory: every table of up to
//! [`BUILTIN_PIECES`] pieces of its variant, computed in memory once per process.
//!
//! Without tables the evaluation misplays the smallest endings: it trades into a lone king
//! against two pieces, which the rules draw, where three pieces against one, or two against two,
//! were won. The tables of up to four pieces fix most of that (at 60,000 nodes a move against the
//! round-2 binary: +49 Elo without tables, +61 with three pieces, +78 with four, +75 with five;
//! against the same engine without them, +11 at that depth and +6 at 0.1 s a move).
//! They take about 5 s of one core to compute and 10 MB to hold, so they are computed rather
//! than shipped, on a thread of their own, and only once a game comes near an ending
//! ([`PREPARE_AT_PIECES`]): short games and one-off searches never pay for them. Until they are
//! ready the search goes without, as it did before.

use crate::egtb::generate::in_memory_for;
use crate::egtb::Tablebases;
use crate::rules::position::Position;
use crate::rules::variant::{Brazilian, Russian, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The largest endings the built-in tables cover (pieces of both sides together).
pub const BUILTIN_PIECES: u32 = 4;

/// A search whose root has at most this many pieces starts the computation: it takes a few
/// seconds, and by then the game can reach the tables' endings within a search's horizon.
pub const PREPARE_AT_PIECES: u32 = 16;

/// One variant's tables: whether their computation has started, and the result once done.
struct Slot {
    started: AtomicBool,
    tables: OnceLock<Arc<Tablebases>>,
}

static SLOTS: [Slot; 2] = [
    Slot {
        started: AtomicBool::new(false),
        tables: OnceLock::new(),
    },
    Slot {
        started: AtomicBool::new(false),
        tables: OnceLock::new(),
    },
];

fn slot(variant: Variant) -> &'static Slot {
    match variant {
        Variant::Brazilian => &SLOTS[0],
        Variant::Russian => &SLOTS[1],
    }
}

/// The built-in tables of `variant`, if they have been computed.
pub fn ready(variant: Variant) -> Option<Arc<Tablebases>> {
    slot(variant).tables.get().cloned()
}

/// Starts computing the built-in tables of `variant` on a thread of its own (once per process;
/// later calls do nothing). The thread uses one core, so that a game in progress, and an
/// opponent on the same machine, keep the others.
pub fn prepare(variant: Variant) {
    let slot = slot(variant);
    if slot.started.swap(true, Ordering::AcqRel) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name(format!("builtin tables ({variant})"))
        .spawn(move || {
            let tables = compute(variant);
            let _ = slot.tables.set(Arc::new(tables));
        });
    if let Err(why) = spawned {
        log::warn!("built-in endgame tables: no thread to compute them ({why}); playing without");
        let _ = slot.tables.set(Arc::new(Tablebases::empty_in(variant)));
    }
}

/// The built-in tables for a search from `root` in `variant`: starts computing them once the
/// root is near an ending ([`PREPARE_AT_PIECES`]), and gives them once they are ready (`None`
/// until then: the search goes without).
pub fn for_root(variant: Variant, root: &Position) -> Option<Arc<Tablebases>> {
    if root.occupied().count() <= PREPARE_AT_PIECES {
        prepare(variant);
    }
    ready(variant)
}

/// The built-in tables of `variant`, computed first if they are not yet (about 5 s of one core,
/// once per process): for one-off searches that must not depend on when the tables arrive.
pub fn wait(variant: Variant) -> Arc<Tablebases> {
    prepare(variant);
    Arc::clone(slot(variant).tables.wait())
}

/// Computes the tables of `variant` on one thread; empty tables (and a log line) if that fails.
fn compute(variant: Variant) -> Tablebases {
    let started = std::time::Instant::now();
    let computed = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|pool| {
            pool.install(|| match variant {
                Variant::Brazilian => in_memory_for::<Brazilian>(BUILTIN_PIECES),
                Variant::Russian => in_memory_for::<Russian>(BUILTIN_PIECES),
            })
        });
    match computed {
        Ok(tables) => {
            log::info!(
                "built-in endgame tables ({variant}, up to {BUILTIN_PIECES} pieces) ready in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            tables
        }
        Err(why) => {
            log::warn!("built-in endgame tables ({variant}): {why:#}; playing without");
            Tablebases::empty_in(variant)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::Wdl;
    use crate::notation::fen::parse_position;

    #[test]
    fn the_built_in_tables_know_the_small_endings_of_each_variant() {
        for variant in Variant::ALL {
            let tables = wait(variant);
            assert!(ready(variant).is_some_and(|ready| Arc::ptr_eq(&ready, &tables)));
            assert_eq!(tables.variant(), variant);
            assert_eq!(tables.max_pieces(), BUILTIN_PIECES);
            // Three kings against one off the long diagonal win; a king against a king draws.
            let hunt = parse_position("W:WK4,K11,K26:BK14").expect("valid position");
            assert_eq!(tables.probe(&hunt), Some(Wdl::Win), "{variant}");
            let kings = parse_position("W:WK4:BK14").expect("valid position");
            assert_eq!(tables.probe(&kings), Some(Wdl::Draw), "{variant}");
            // Five pieces (with nothing to capture) are beyond them.
            let five = parse_position("W:W29,30,31:B1,2").expect("valid position");
            assert_eq!(tables.probe(&five), None);
        }
    }
}

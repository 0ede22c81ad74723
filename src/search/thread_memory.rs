//! What one search thread keeps from one search to the next: its move-ordering tables, its cache of
//! static evaluations and their corrections, and the buffer its principal variations are built in.
//!
//! Allocating and filling these at every search cost about 70 microseconds per thread, more than a
//! whole search of a position the tables solve, and a helper thread's share of it made two threads
//! slower than one there. The [`crate::search::searcher::Searcher`] keeps one per thread instead.

use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::square::Square;
use crate::search::correction::Corrections;
use crate::search::eval_cache::EvalCache;
use crate::search::ordering::{Ordering, MAX_PLY};

/// The principal variation found below each ply: row `ply` holds the line from that ply on (its
/// length is kept by the search, entries past it are stale).
pub(crate) type PvTable = [[Move; MAX_PLY]; MAX_PLY];

/// A placeholder for the PV table's entries before any line is written there.
const NO_MOVE: Move = Move {
    from: Square::from_board_bit(0),
    to: Square::from_board_bit(0),
    captured: Bitboard::EMPTY,
};

/// The state one search thread keeps across searches.
pub(crate) struct ThreadMemory {
    pub(crate) ordering: Ordering,
    pub(crate) evals: EvalCache,
    pub(crate) corrections: Corrections,
    pub(crate) pv: Box<PvTable>,
}

impl ThreadMemory {
    pub(crate) fn new() -> ThreadMemory {
        ThreadMemory {
            ordering: Ordering::new(),
            evals: EvalCache::new(),
            corrections: Corrections::new(),
            pv: Box::new([[NO_MOVE; MAX_PLY]; MAX_PLY]),
        }
    }

    /// Forgets the previous game: ordering statistics, cached evaluations and corrections.
    pub(crate) fn clear(&mut self) {
        self.ordering.clear();
        self.evals.clear();
        self.corrections.clear();
    }
}

//! What the search shares with its callers and its threads: the stop and ponder flags
//! ([`SearchControl`]), how to search ([`SearchSettings`]), progress lines ([`Report`]) and the
//! final answer ([`SearchResult`]).
//!
//! These types sit below the searcher, the worker threads and the time manager, which all use
//! them, so that none of those three needs another's module for them.

use crate::eval::score::Score;
use crate::game::draw::DrawRules;
use crate::rules::moves::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// Flags shared between the search and the thread that controls it.
#[derive(Debug)]
pub struct SearchControl {
    stopped: AtomicBool,
    pondering: AtomicBool,
    /// Nanoseconds after `epoch` at which the last ponder hit arrived, plus one (0 = none).
    ponder_hit_at: AtomicU64,
    epoch: Instant,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl SearchControl {
    /// Flags for a search that is neither stopped nor pondering, with no ponder hit.
    pub fn new() -> Self {
        SearchControl {
            stopped: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponder_hit_at: AtomicU64::new(0),
            epoch: Instant::now(),
        }
    }

    /// Asks the search to return as soon as possible (it still returns a legal move).
    pub fn stop(&self) {
        self.stopped.store(true, AtomicOrdering::Release);
    }

    /// Whether [`SearchControl::stop`] was called since the last [`SearchControl::reset`].
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(AtomicOrdering::Acquire)
    }

    /// While pondering, clock limits do not apply: the search runs until stopped or a ponder hit.
    pub fn set_pondering(&self, pondering: bool) {
        self.pondering.store(pondering, AtomicOrdering::Release);
    }

    /// Whether the search is pondering (set by [`SearchControl::set_pondering`], cleared by a
    /// ponder hit or a reset).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(AtomicOrdering::Acquire)
    }

    /// The opponent played the expected move: the clock starts now and normal limits apply.
    pub fn ponder_hit(&self) {
        self.ponder_hit_at(Instant::now());
    }

    /// Like [`SearchControl::ponder_hit`], with the clock started at `at` (when the host's
    /// `ponder-hit` was read).
    pub fn ponder_hit_at(&self, at: Instant) {
        let nanos = at
            .saturating_duration_since(self.epoch)
            .as_nanos()
            .min(u128::from(u64::MAX - 1)) as u64;
        self.ponder_hit_at.store(nanos + 1, AtomicOrdering::Release);
        self.pondering.store(false, AtomicOrdering::Release);
    }

    /// When the last ponder hit arrived, if any since the last reset.
    pub fn ponder_hit_time(&self) -> Option<Instant> {
        match self.ponder_hit_at.load(AtomicOrdering::Acquire) {
            0 => None,
            n => Some(self.epoch + Duration::from_nanos(n - 1)),
        }
    }

    /// Clears every flag before a new search.
    pub fn reset(&self) {
        self.stopped.store(false, AtomicOrdering::Release);
        self.pondering.store(false, AtomicOrdering::Release);
        self.ponder_hit_at.store(0, AtomicOrdering::Release);
    }
}

/// The `skill` of full strength in the front ends (Hub, the browser board): a skill below it is
/// [`SearchSettings::skill`] `Some(skill)`.
pub const FULL_SKILL: u32 = 20;

/// How to search, as opposed to how long ([`Limits`](crate::search::limits::Limits)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchSettings {
    /// Search threads, 1 or more (Lazy SMP).
    pub threads: usize,
    /// Root lines to report, 1 or more.
    pub multipv: usize,
    /// Time kept back per move for communication delays.
    pub move_overhead: Duration,
    /// `None` = full strength; `Some(0..=19)` plays weaker, 0 weakest.
    pub skill: Option<u32>,
    /// Play a single legal move at once (game play); analysis searches it anyway.
    pub instant_single_reply: bool,
    /// Which draw rules the search knows about.
    pub draw_rules: DrawRules,
    /// When the root position is in the endgame databases, search only the moves that keep its
    /// value and hurry the conversion ([`Tablebases::best_moves`](crate::egtb::Tablebases::best_moves)): game play. Analysis turns it
    /// off to see every move.
    pub table_root_moves: bool,
    /// What a draw costs the side to move at the root, in [`Score`] units: above zero the
    /// engine plays on rather than settle for a draw (or a database draw) it could avoid.
    /// Meant for game play against weaker opponents (measured level against the round-2
    /// binary, so zero by default); analysis keeps it at zero, so that a drawn line reads 0.00.
    pub contempt: Score,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(50),
            skill: None,
            instant_single_reply: true,
            draw_rules: DrawRules::default(),
            table_root_moves: true,
            contempt: Score::DRAW,
        }
    }
}

/// One line of search progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Report {
    /// Nominal depth of the completed iteration, in plies (0: no legal move at the root).
    pub depth: u32,
    /// Deepest ply this line reached, quiescence and extensions included (at least `depth`).
    pub seldepth: u32,
    /// 1-based index of this line among the multi-PV lines.
    pub multipv: usize,
    /// Value of the line for the side to move at the root.
    pub score: Score,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Positions whose value came from the endgame tables so far.
    pub tbhits: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, starting with the root move (empty: no legal move).
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (it has lost).
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// Value of `best` for the side to move.
    pub score: Score,
    /// Depth of the iteration `best` comes from, in plies (0: no completed iteration).
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Positions whose value came from the endgame tables.
    pub tbhits: u64,
}

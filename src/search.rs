//! The search API: limits in, reports out, a best move back.
//!
//! [`Searcher`] owns the transposition table and runs [`Searcher::search`] on the caller's thread.
//! [`SearchControl`] is shared with whoever may stop the search (the protocol's reader thread):
//! plain atomics, so `stop` and `ponder_hit` never wait.

use crate::draw::DrawRules;
use crate::game::Game;
use crate::limits::Limits;
use crate::movegen;
use crate::moves::Move;
use crate::position::{Color, Position};
use crate::score::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
        self.stopped.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    /// While pondering, clock limits do not apply: the search runs until stopped or a ponder hit.
    pub fn set_pondering(&self, pondering: bool) {
        self.pondering.store(pondering, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the clock starts now and normal limits apply.
    pub fn ponder_hit(&self) {
        let nanos = self
            .epoch
            .elapsed()
            .as_nanos()
            .min(u128::from(u64::MAX - 1)) as u64;
        self.ponder_hit_at.store(nanos + 1, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
    }

    /// When the last ponder hit arrived, if any since the last reset.
    pub fn ponder_hit_time(&self) -> Option<Instant> {
        match self.ponder_hit_at.load(Ordering::Acquire) {
            0 => None,
            n => Some(self.epoch + Duration::from_nanos(n - 1)),
        }
    }

    /// Clears every flag before a new search.
    pub fn reset(&self) {
        self.stopped.store(false, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
        self.ponder_hit_at.store(0, Ordering::Release);
    }
}

/// How to search, as opposed to how long ([`Limits`]).
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
        }
    }
}

/// One line of search progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of this line among the multi-PV lines.
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (it has lost).
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// The search engine: owns the transposition table across searches.
pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { hash_mb }
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {}

    /// Searches the current position of `game` until a limit is reached or `control` stops it.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        settings: &SearchSettings,
        control: &SearchControl,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let _ = (self.hash_mb, settings);
        let started = Instant::now();
        let root = *game.current();
        let moves = movegen::legal_moves(&root);
        let mut result = SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score: if moves.is_empty() {
                Score::loss_in(0)
            } else {
                Score::DRAW
            },
            depth: 0,
            nodes: 0,
        };
        if moves.is_empty() {
            report(&Report {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: result.score,
                nodes: 0,
                elapsed: started.elapsed(),
                pv: Vec::new(),
            });
            return result;
        }
        let max_depth = limits.depth.unwrap_or(64).max(1);
        let mut nodes = 0u64;
        let deadline = limits.move_time.map(|t| started + t);
        for depth in 1..=max_depth {
            let mut best = None;
            let mut alpha = -Score::INFINITE;
            let mut aborted = false;
            for mv in &moves {
                let child = root.play(mv);
                let score = -simple(
                    &child,
                    depth - 1,
                    1,
                    -Score::INFINITE,
                    -alpha,
                    &mut nodes,
                    control,
                    deadline,
                    limits.nodes,
                    &mut aborted,
                );
                if aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some(*mv);
                }
            }
            if aborted {
                break;
            }
            result.best = best;
            result.score = alpha;
            result.depth = depth;
            result.nodes = nodes;
            report(&Report {
                depth,
                seldepth: depth,
                multipv: 1,
                score: alpha,
                nodes,
                elapsed: started.elapsed(),
                pv: best.into_iter().collect(),
            });
            if limits.is_unbounded() && control.is_stopped() {
                break;
            }
        }
        result.nodes = nodes;
        result
    }
}

/// Placeholder material evaluation (replaced by `crate::eval`).
fn material(position: &Position) -> Score {
    let us = position.side_to_move();
    let value = |color: Color| {
        position.men(color).count() as i32 * 100 + position.kings(color).count() as i32 * 300
    };
    Score(value(us) - value(us.opponent()))
}

#[allow(clippy::too_many_arguments)]
fn simple(
    position: &Position,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    nodes: &mut u64,
    control: &SearchControl,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: &mut bool,
) -> Score {
    *nodes += 1;
    if *nodes % 1024 == 0
        && (control.is_stopped()
            || deadline.is_some_and(|d| Instant::now() >= d)
            || node_limit.is_some_and(|n| *nodes >= n))
    {
        *aborted = true;
    }
    if *aborted {
        return Score::DRAW;
    }
    let mut list = movegen::MoveList::new();
    movegen::generate(position, &mut list);
    if list.is_empty() {
        return Score::loss_in(ply);
    }
    if depth == 0 && !list[0].is_capture() {
        return material(position);
    }
    let mut best = -Score::INFINITE;
    for mv in &list {
        let score = -simple(
            &position.play(mv),
            depth.saturating_sub(1),
            ply + 1,
            -beta,
            -alpha,
            nodes,
            control,
            deadline,
            node_limit,
            aborted,
        );
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

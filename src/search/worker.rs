//! One search thread: iterative deepening with aspiration windows around a principal variation
//! search (negamax PVS), and the quiescence search.
//!
//! * Draws: repetition (inside the tree and against the game, any earlier occurrence counts) and
//!   the move-count rules, through [`crate::game::draw`], as `settings.draw_rules` switches them.
//! * No legal move is a loss; wins and losses are scored by distance in plies.
//! * Quiescence: while the side to move must capture, every capture is searched (no stand-pat,
//!   capturing is compulsory). In a quiet position the side to move stands pat on the evaluation,
//!   unless the opponent threatens a capture: then (a limited number of times per line) all quiet
//!   moves are searched, because standing pat would ignore the threat.
//! * Ordering, reductions and extensions follow [`SearchParams`]; nothing prunes on a null move
//!   (draughts is full of zugzwang).
//!
//! Threads share the transposition table, the node counter, the abort flag and the deepest
//! completed iteration (Lazy SMP, see [`crate::search::threads`]); only the main thread (id 0)
//! looks at the clock.

use crate::egtb::{Tablebases, Wdl};
use crate::eval::evaluate::{can_capture, evaluate_with};
use crate::eval::score::Score;
use crate::eval::weights::Weights;
use crate::game::draw::{self, DrawCounters};
use crate::rules::movegen::{self, MoveList};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::variant::Rules;
use crate::search::control::{Report, SearchControl, SearchSettings};
use crate::search::correction::Corrections;
use crate::search::eval_cache::EvalCache;
use crate::search::iteration::{Completed, DeepestIteration, RootMove};
use crate::search::limits::Limits;
use crate::search::ordering::{
    mark_unchecked, pick_next, pick_next_checked, MoveScores, Ordering, MAX_PLY,
};
use crate::search::params::SearchParams;
use crate::search::thread_memory::{PvTable, ThreadMemory};
use crate::search::time::{Progress, TimeManager};
use crate::search::tt::{Bound, Hit, PackedMove, Table};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

/// Nodes between two looks at the clock and the shared flags.
const POLL_INTERVAL: u64 = 1024;
/// How long the main thread searches alone. Starting a helper and waiting for it to stop costs a
/// few tenths of a millisecond; searches that end sooner than this (positions the tables or a
/// forced line decide) are faster on one thread.
pub(crate) const HELPER_DELAY: Duration = Duration::from_millis(1);

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub(crate) table: &'a Table,
    pub(crate) control: &'a SearchControl,
    /// Raised when the search must end (limit reached or stopped from outside).
    pub(crate) abort: AtomicBool,
    /// Nodes searched by all threads, flushed every [`POLL_INTERVAL`] nodes.
    pub(crate) nodes: AtomicU64,
    /// Positions scored by the endgame tables, all threads.
    pub(crate) tbhits: AtomicU64,
    pub(crate) limits: Limits,
    pub(crate) settings: SearchSettings,
    pub(crate) params: SearchParams,
    pub(crate) time: TimeManager,
    pub(crate) start: Instant,
    pub(crate) root: Position,
    pub(crate) root_counters: DrawCounters,
    /// Earlier game positions the root could repeat, oldest first.
    pub(crate) history_keys: Vec<u64>,
    /// The root moves to search (all legal moves, or the databases' best ones).
    pub(crate) root_moves: Vec<Move>,
    /// Endgame databases probed below the root (empty: none).
    pub(crate) tablebases: &'a Tablebases,
    /// Pieces in the largest loaded table (0: none, or tables of another variant than the search's,
    /// which are then never probed); positions with more are not probed.
    pub(crate) table_pieces: u32,
    /// The evaluation's weights (the built-in ones or weights loaded at run time).
    pub(crate) eval: &'a Weights,
    /// Whether the root and all its children are in the databases and probed (deeper searches add
    /// nothing).
    pub(crate) root_in_tables: bool,
    /// Material whose positions are not probed (see [`crate::search::searcher::Searcher::search`]: a won
    /// root without distances in game play).
    pub(crate) unprobed_material: Option<Material>,
    /// Lines the main thread searches and reports.
    pub(crate) multipv: usize,
    /// Deepest iteration.
    pub(crate) max_depth: u32,
    /// The deepest iteration any thread has completed.
    pub(crate) deepest: DeepestIteration,
}

impl Shared<'_> {
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.load(AtomicOrdering::Relaxed)
    }

    pub(crate) fn raise_abort(&self) {
        self.abort.store(true, AtomicOrdering::Release);
    }
}

/// The plies a short move-count rule of [`crate::game::draw`] allows after the last capture or
/// promotion in `position`, if one can apply: a lone king faces at most two pieces, or three
/// pieces not all kings (it may reach the long diagonal). `Some(0)` when the side facing the lone
/// king has no king yet: the rule starts with its first promotion, which the distance to
/// conversion does not see past, so no table win is trusted there.
#[inline]
fn short_rule_limit(position: &Position) -> Option<u32> {
    let white = position.pieces(Color::White);
    let black = position.pieces(Color::Black);
    let kings = position.all_kings();
    let (lone, other) = match (white.count(), black.count()) {
        (1, _) => (white, black),
        (_, 1) => (black, white),
        _ => return None,
    };
    if (lone & kings).is_empty() {
        return None;
    }
    let others = other.count();
    let other_kings = (other & kings).count();
    if others > 3 || (others == 3 && other_kings == 3) {
        None
    } else if other_kings == 0 {
        Some(0)
    } else {
        Some(10)
    }
}

/// Whether the quiet move `mv` of `side` crowns a man.
#[inline(always)]
fn crowns(position: &Position, side: Color, mv: &Move) -> bool {
    !mv.is_capture() && position.men(side).contains(mv.from) && side.promotion_row().contains(mv.to)
}

/// The reduction of the logarithmic late-move-reduction formula (an option, off by default).
/// Kept out of line: inlined, the compiler hoists `ln(depth)` out of the move loop and pays for a
/// logarithm at every node even with the option off.
#[inline(never)]
fn logarithmic_reduction(depth: i32, index: usize) -> i32 {
    let reduction = (f64::from(depth).ln() * (index as f64).ln() / 2.0 + 0.5) as i32;
    reduction.clamp(1, (depth - 2).max(1))
}

/// The piece counts of a position: white men, white kings, black men, black kings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Material([u32; 4]);

impl Material {
    pub(crate) fn of(position: &Position) -> Material {
        Material([
            position.men(Color::White).count(),
            position.kings(Color::White).count(),
            position.men(Color::Black).count(),
            position.kings(Color::Black).count(),
        ])
    }
}

/// The state of one search thread, searching under the rules `R` (chosen once for the whole
/// search: each variant gets its own compiled copy of the tree search).
pub(crate) struct Worker<'s, 'a, R: Rules> {
    shared: &'s Shared<'a>,
    id: usize,
    params: SearchParams,
    ordering: &'s mut Ordering,
    nodes: u64,
    flushed: u64,
    /// Local node budget (exact for a single thread).
    node_limit: u64,
    aborted: bool,
    /// The current iteration was abandoned because another thread completed its depth.
    superseded: bool,
    seldepth: usize,
    root_depth: i32,
    pv: &'s mut PvTable,
    pv_len: [usize; MAX_PLY],
    evals: &'s mut EvalCache,
    corrections: &'s mut Corrections,
    /// Keys from the oldest repeatable game position to the current node, each with the number of
    /// reversible plies that led to it.
    path: Vec<(u64, u32)>,
    root_moves: Vec<RootMove>,
    /// The last completed iteration.
    pub(crate) completed: Option<Completed>,
    /// A root move that beat the first move in an iteration that was then aborted.
    pub(crate) partial_best: Option<RootMove>,
    /// Whether a ProbCut verification search is under way on this thread (no nested ProbCut, as
    /// in Scan: its subtree is searched without that pruning).
    in_probcut: bool,
    /// The move played at each ply of the current line (`played[ply]` leads from ply to ply + 1),
    /// for counter moves.
    played: [Option<Move>; MAX_PLY],
    /// The static evaluation of the node at each ply of the current line (`None`: not
    /// evaluated, a capture node or the root), for `lmr_improving`.
    static_evals: [Option<Score>; MAX_PLY],
    /// The main thread's way of starting the helper threads once the search has run for
    /// [`HELPER_DELAY`] (taken when called).
    start_helpers: Option<&'s mut dyn FnMut()>,
    rules: PhantomData<R>,
}

impl<'s, 'a, R: Rules> Worker<'s, 'a, R> {
    pub(crate) fn new(shared: &'s Shared<'a>, id: usize, memory: &'s mut ThreadMemory) -> Self {
        let mut path = Vec::with_capacity(shared.history_keys.len() + MAX_PLY + 1);
        for (run, &key) in shared.history_keys.iter().enumerate() {
            path.push((key, run as u32));
        }
        path.push((shared.root.key(), shared.history_keys.len() as u32));
        let node_limit = match (shared.limits.nodes, shared.settings.threads) {
            (Some(limit), 1) => limit.max(1),
            _ => u64::MAX,
        };
        let root_moves = shared
            .root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -Score::INFINITE,
                previous: -Score::INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        Worker {
            shared,
            id,
            params: shared.params,
            ordering: &mut memory.ordering,
            nodes: 0,
            flushed: 0,
            node_limit,
            aborted: false,
            superseded: false,
            seldepth: 0,
            root_depth: 1,
            pv: &mut memory.pv,
            pv_len: [0; MAX_PLY],
            evals: &mut memory.evals,
            corrections: &mut memory.corrections,
            path,
            root_moves,
            completed: None,
            partial_best: None,
            in_probcut: false,
            played: [None; MAX_PLY],
            static_evals: [None; MAX_PLY],
            start_helpers: None,
            rules: PhantomData,
        }
    }

    /// Gives the main thread the call that starts the helpers: it makes it at its first poll
    /// after [`HELPER_DELAY`], and not at all if the search ends sooner.
    pub(crate) fn set_helper_start(&mut self, start: &'s mut dyn FnMut()) {
        self.start_helpers = Some(start);
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Moves the local node count into the shared counter.
    pub(crate) fn flush_nodes(&mut self) {
        let fresh = self.nodes - self.flushed;
        if fresh > 0 {
            self.shared.nodes.fetch_add(fresh, AtomicOrdering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Whether the whole search must end (not just the current iteration).
    fn search_ended(&self) -> bool {
        self.shared.abort.load(AtomicOrdering::Acquire) || self.shared.control.is_stopped()
    }

    /// Whether another thread's iteration may replace this thread's. The main thread's own lines
    /// matter when several are wanted (helpers search only the best one).
    fn may_be_superseded(&self) -> bool {
        !self.is_main() || self.shared.multipv == 1
    }

    /// Takes over `done`, another thread's completed iteration: its best move goes first with its
    /// score, so the next iteration orders and centres its window on it.
    fn adopt(&mut self, done: &Completed) {
        let Some(best) = done.lines.first() else {
            return;
        };
        for root_move in &mut self.root_moves {
            root_move.score = -Score::INFINITE;
        }
        if let Some(index) = self.root_moves.iter().position(|line| line.mv == best.mv) {
            self.root_moves[index] = best.clone();
            self.root_moves[..=index].rotate_right(1);
        }
        self.completed = Some(done.clone());
    }

    fn abort_all(&mut self) {
        self.aborted = true;
        self.shared.raise_abort();
    }

    #[cold]
    fn poll(&mut self) {
        self.flush_nodes();
        let shared = self.shared;
        if self.search_ended() {
            self.aborted = true;
            return;
        }
        if self.may_be_superseded() && shared.deepest.depth() >= self.root_depth as u32 {
            self.aborted = true;
            self.superseded = true;
            return;
        }
        if self.start_helpers.is_some() && shared.start.elapsed() >= HELPER_DELAY {
            if let Some(start) = self.start_helpers.take() {
                start();
            }
        }
        if self.is_main() && shared.time.hard_expired(shared.control) {
            self.abort_all();
            return;
        }
        if let Some(limit) = shared.limits.nodes {
            if shared.total_nodes() >= limit {
                self.abort_all();
            }
        }
    }

    /// Bookkeeping on entering a node at `ply`: clears its PV, counts it (which may end the
    /// search) and tracks the selective depth. `false` when the search is unwinding.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize) -> bool {
        self.pv_len[ply] = 0;
        if self.aborted {
            return false;
        }
        self.count_node();
        if self.aborted {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        true
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.abort_all();
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
    }

    /// Whether the current node repeats an earlier position reachable by reversible moves.
    #[inline(always)]
    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let (key, run) = self.path[n - 1];
        let run = run as usize;
        let mut back = 2;
        while back <= run && back < n {
            if self.path[n - 1 - back].0 == key {
                return true;
            }
            back += 2;
        }
        false
    }

    #[inline(always)]
    fn push(&mut self, before: &Position, mv: &Move, key: u64) {
        let run = if draw::is_reversible(before, mv) {
            self.path.last().map_or(0, |&(_, run)| run) + 1
        } else {
            0
        };
        self.path.push((key, run));
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = mv;
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let child_len = child_len.min(MAX_PLY - 1);
        if child_len > 0 {
            line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The line stored at `ply` (after a search returned there).
    fn line(&self, ply: usize) -> &[Move] {
        &self.pv[ply][..self.pv_len[ply]]
    }

    /// Runs iterative deepening until a limit or the abort flag ends it. The main thread reports
    /// each completed iteration through `report`.
    pub(crate) fn iterate(&mut self, mut report: Option<&mut dyn FnMut(&Report)>) {
        let shared = self.shared;
        let multipv = if self.is_main() {
            shared.multipv.clamp(1, self.root_moves.len().max(1))
        } else {
            1
        };
        let helper_offset = u32::from(self.id % 2 == 1);
        let mut progress = Progress::default();
        let mut last_best: Option<(Move, Score)> = None;
        let mut depth = 0;
        loop {
            // Never repeat a depth some thread has completed; odd helpers stay a ply ahead. A
            // main thread whose own lines matter goes through every depth itself.
            let follows_others = self.may_be_superseded();
            let deepest = if follows_others {
                shared.deepest.depth()
            } else {
                depth
            };
            if deepest >= shared.max_depth {
                break;
            }
            depth = (depth + 1).max(deepest + 1 + helper_offset);
            // A depth half the other threads are already searching is left to them.
            while follows_others
                && depth < shared.max_depth
                && shared.deepest.crowded(depth, self.id)
            {
                depth += 1;
            }
            depth = depth.min(shared.max_depth);
            shared.deepest.announce(self.id, depth);
            self.root_depth = depth as i32;
            self.partial_best = None;
            for root_move in &mut self.root_moves {
                root_move.previous = root_move.score;
            }
            for pv_index in 0..multipv {
                self.search_line(depth, pv_index);
                if self.aborted {
                    break;
                }
                self.root_moves[..=pv_index].sort_by_key(|line| std::cmp::Reverse(line.score));
            }
            if self.aborted {
                if !self.superseded || self.search_ended() {
                    break;
                }
                self.aborted = false;
                self.superseded = false;
                self.partial_best = None;
                match shared.deepest.lines() {
                    Some(done) => self.adopt(&done),
                    None => continue,
                }
            } else {
                let lines = self.root_moves[..multipv].to_vec();
                let completed = Completed { depth, lines };
                shared.deepest.publish(&completed);
                self.completed = Some(completed);
            }
            let Some(completed) = &self.completed else {
                continue;
            };
            let (completed_depth, best) = match completed.lines.first() {
                Some(line) => (completed.depth, (line.mv, line.score)),
                None => continue,
            };
            if let Some(report) = report.as_deref_mut() {
                self.report_completed(report);
            }
            if !self.is_main() {
                continue;
            }
            match last_best {
                Some((mv, score)) => {
                    progress.stable_iterations = if mv == best.0 {
                        progress.stable_iterations + 1
                    } else {
                        0
                    };
                    progress.score_drop = (score.0 - best.1 .0).max(0);
                }
                None => progress = Progress::default(),
            }
            last_best = Some(best);
            if self.should_stop_after_iteration(completed_depth, best.1, progress, multipv) {
                break;
            }
        }
        shared.deepest.announce(self.id, 0);
    }

    /// Decides between iterations whether the main thread should stop.
    fn should_stop_after_iteration(
        &self,
        depth: u32,
        score: Score,
        progress: Progress,
        multipv: usize,
    ) -> bool {
        let shared = self.shared;
        if shared.limits.infinite || shared.control.is_pondering() {
            return false;
        }
        if shared.time.soft_expired(shared.control, progress) {
            return true;
        }
        // A proven result needs no deeper search (unless several lines are wanted).
        if multipv == 1 && !shared.limits.is_unbounded() {
            if let Some(plies) = score.plies_to_win() {
                return plies.unsigned_abs() < depth;
            }
            // At a root in the databases every child is probed: deeper iterations repeat the second
            // one (the first sends the children straight to quiescence, past the draw checks).
            if shared.root_in_tables && depth >= 2 {
                return true;
            }
        }
        false
    }

    fn report_completed(&self, report: &mut dyn FnMut(&Report)) {
        let Some(completed) = &self.completed else {
            return;
        };
        let nodes = self.shared.total_nodes() + (self.nodes - self.flushed);
        let elapsed = self.shared.start.elapsed();
        // Skill searches extra candidate lines; only the lines the user asked for are reported.
        let wanted = self.shared.settings.multipv.max(1);
        for (index, line) in completed.lines.iter().enumerate().take(wanted) {
            report(&Report {
                depth: completed.depth,
                seldepth: line.seldepth.max(completed.depth),
                multipv: index + 1,
                score: line.score,
                nodes,
                tbhits: self.shared.tbhits.load(AtomicOrdering::Relaxed),
                elapsed,
                pv: line.pv.clone(),
            });
        }
    }

    /// Searches root line `pv_index` to `depth` with aspiration windows.
    fn search_line(&mut self, depth: u32, pv_index: usize) {
        let previous = self.root_moves[pv_index].previous;
        let mut delta = self.params.aspiration_window;
        let use_window = depth >= self.params.aspiration_depth
            && previous != -Score::INFINITE
            && previous.is_heuristic();
        let (mut alpha, mut beta) = if use_window {
            (
                Score((previous.0 - delta).max(-Score::INFINITE.0)),
                Score((previous.0 + delta).min(Score::INFINITE.0)),
            )
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        loop {
            self.seldepth = 0;
            let score = self.root_search(depth as i32, alpha, beta, pv_index);
            if self.aborted {
                return;
            }
            self.root_moves[pv_index..].sort_by_key(|line| std::cmp::Reverse(line.score));
            if score <= alpha {
                beta = Score((alpha.0 + beta.0) / 2);
                alpha = Score((score.0 - delta).max(-Score::INFINITE.0));
            } else if score >= beta {
                beta = Score((score.0 + delta).min(Score::INFINITE.0));
            } else {
                return;
            }
            delta += delta / 2;
            if delta > 600 {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }

    /// Searches the root moves from `pv_index` on; returns the best score.
    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_index: usize) -> Score {
        let root = self.shared.root;
        let counters = self.shared.root_counters;
        let mut best = -Score::INFINITE;
        self.count_node();
        for index in pv_index..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            let child = root.play_for::<R>(&mv);
            let child_counters = counters.after(&root, &mv, &child);
            self.push(&root, &mv, child.key());
            self.played[0] = Some(mv);
            let score = if index == pv_index {
                -self.search(&child, child_counters, depth - 1, -beta, -alpha, 1)
            } else {
                let mut score =
                    -self.search(&child, child_counters, depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && score < beta {
                    score = -self.search(&child, child_counters, depth - 1, -beta, -alpha, 1);
                }
                score
            };
            self.path.pop();
            if self.aborted {
                break;
            }
            let seldepth = self.seldepth as u32;
            if index == pv_index || score > alpha {
                let mut pv = vec![mv];
                pv.extend_from_slice(self.line(1));
                let root_move = &mut self.root_moves[index];
                root_move.score = score;
                root_move.pv = pv;
                root_move.seldepth = seldepth;
            } else {
                self.root_moves[index].score = -Score::INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if index > pv_index && pv_index == 0 {
                    self.partial_best = Some(self.root_moves[index].clone());
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The value of a draw (by the rules or by the databases) to the side to move in
    /// `position`: with contempt, the root's side scores it below zero and its opponent above.
    fn draw_score(&self, position: &Position) -> Score {
        let contempt = self.shared.settings.contempt;
        if position.side_to_move() == self.shared.root.side_to_move() {
            -contempt
        } else {
            contempt
        }
    }

    /// The principal variation search below the root.
    fn search(
        &mut self,
        position: &Position,
        counters: DrawCounters,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        if depth <= 0 {
            return self.quiescence(
                position,
                alpha,
                beta,
                ply,
                self.params.quiescence_threat_plies,
            );
        }
        let pv_node = beta.0 - alpha.0 > 1;
        if !self.enter_node(ply) {
            return Score::DRAW;
        }
        let rules = &self.shared.settings.draw_rules;
        if rules.repetition && self.is_repetition() {
            return self.draw_score(position);
        }
        if rules.move_count && draw::move_count_draw_for::<R>(rules, position, &counters).is_some()
        {
            return self.draw_score(position);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_with(position, self.shared.eval);
        }
        // After the draw checks: a rule draw outranks the databases' value.
        if let Some(score) = self.probe_tables(position, ply, Some(&counters)) {
            return score;
        }
        // Mate distance pruning: no line from here beats a win in the next ply.
        alpha = alpha.max(Score::loss_in(ply as u32));
        beta = beta.min(Score::win_in(ply as u32 + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = position.key();
        let mut hit = self.shared.table.probe(key);
        if self.params.internal_iterative_deepening
            && pv_node
            && depth >= 6
            && hit.is_none_or(|hit| hit.mv.is_none())
        {
            // No move to try first: a shallower search finds one.
            self.search(position, counters, depth - 2, alpha, beta, ply);
            if self.aborted {
                return Score::DRAW;
            }
            hit = self.shared.table.probe(key);
        }
        let table_move = hit.map_or(PackedMove::NONE, |hit| hit.mv);
        if let Some(hit) = hit {
            if !pv_node && hit.depth >= depth {
                let score = hit.score.from_table(ply as u32);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // Internal iterative reductions (off by default, see `SearchParams::iir_depth`).
        if !pv_node
            && self.params.iir_depth > 0
            && depth >= self.params.iir_depth
            && table_move.is_none()
        {
            depth -= 1;
        }

        let mut list = MoveList::new();
        movegen::generate_for::<R>(position, &mut list);
        let count = list.len();
        if count == 0 {
            return Score::loss_in(ply as u32);
        }
        if self.params.loss_distance_pruning {
            // With a move to play, the earliest loss is two plies away.
            let earliest_loss = Score::loss_in(ply as u32 + 2);
            if earliest_loss >= beta {
                return earliest_loss;
            }
        }
        if !pv_node {
            if let Some(score) = self.reverse_futility(position, &list, depth, beta) {
                return score;
            }
            if let Some(score) = self.probcut(position, counters, depth, beta, ply) {
                return score;
            }
        }
        if count == 1 && self.params.single_reply_extension && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        let side = position.side_to_move();
        let moves = list.as_mut_slice();
        let mut scores = MoveScores::new();
        let last_move = if ply > 0 { self.played[ply - 1] } else { None };
        let counter_move = last_move
            .filter(|_| self.params.counter_moves)
            .and_then(|last| self.ordering.counter_move(side, &last));
        let continuation_of = last_move.filter(|_| self.params.continuation_history);
        self.ordering.score_moves(
            moves,
            &mut scores,
            table_move,
            counter_move,
            continuation_of.as_ref(),
            side,
            ply,
        );
        // Children of depth 1 or more probe the table first thing: ask for all their clusters
        // now, so that the memory loads overlap each other and the work before each probe (issued
        // only when a child was played, the prefetch left much of the load's latency exposed).
        if depth >= 2 {
            for mv in moves.iter() {
                self.shared.table.prefetch(position.key_after::<R>(mv));
            }
        }
        let capture_node = moves[0].is_capture();
        // Only nodes that reduce (depth 3 or more) ask whether they improve, and their
        // grandparents are as deep.
        let node_eval = (!capture_node
            && ((self.params.lmr_improving && depth >= 3) || self.params.correction_history))
            .then(|| self.raw_eval(position));
        // Recorded at PV nodes too: their children compare with it.
        let improving = !self.params.lmr_improving || self.is_improving(node_eval, ply) || pv_node;
        // With `order_safe_first`, the moves ordered by history are checked for letting the
        // opponent capture when the move loop reaches them: most nodes cut off after a move or
        // two, so most moves are never checked.
        let safe_first =
            self.params.order_safe_first && !capture_node && depth >= self.params.order_safe_depth;
        if safe_first {
            mark_unchecked(&mut scores);
        }
        let singular = (pv_node || self.params.singular_non_pv)
            && count > 1
            && hit.is_some_and(|hit| self.is_singular(position, counters, moves, hit, depth, ply));
        if self.aborted {
            return Score::DRAW;
        }

        let mut best = -Score::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried = 0usize;
        let reducible_position = position.occupied().count() > self.params.lmr_min_pieces;
        for index in 0..count {
            let mv = if safe_first {
                pick_next_checked(moves, &mut scores, index, |mv| {
                    !can_capture(&position.play_unkeyed::<R>(mv), side.opponent())
                })
            } else {
                pick_next(moves, &mut scores, index)
            };
            if self.params.late_move_pruning
                && !pv_node
                && !capture_node
                && depth <= self.params.lmp_depth
                && index >= (self.params.lmp_base + depth * depth) as usize
                && best.0 > -Score::WIN_BOUND
            {
                break;
            }
            let child = position.play_for::<R>(&mv);
            let new_depth = if index == 0 && singular {
                depth
            } else {
                depth - 1
            };
            let child_counters = counters.after(position, &mv, &child);
            self.push(position, &mv, child.key());
            self.played[ply] = Some(mv);
            let score = if index == 0 {
                -self.search(&child, child_counters, new_depth, -beta, -alpha, ply + 1)
            } else {
                let reduction = if self.params.late_move_reductions
                    && !capture_node
                    && depth >= 3
                    && index >= self.params.lmr_full_moves
                    && !self.ordering.is_killer(ply, &mv)
                    && !(self.params.lmr_keep_promotions && crowns(position, side, &mv))
                    && !(self.params.lmr_keep_forcing && can_capture(&child, side.opponent()))
                    && reducible_position
                {
                    let base = if self.params.lmr_logarithmic {
                        logarithmic_reduction(depth, index)
                    } else if index >= self.params.lmr_deep_index
                        && depth >= self.params.lmr_deep_depth
                    {
                        2
                    } else {
                        1
                    };
                    let threshold = self.params.lmr_history_threshold;
                    let adjustment = if threshold > 0 {
                        let history = self.ordering.history(side, &mv);
                        if history > threshold {
                            -1
                        } else if history < -threshold {
                            1
                        } else {
                            0
                        }
                    } else {
                        0
                    };
                    let reduction = if pv_node {
                        base - self.params.lmr_pv_discount
                    } else {
                        base
                    } + adjustment
                        + i32::from(!improving);
                    reduction.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut score = -self.search(
                    &child,
                    child_counters,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                );
                if score > alpha && reduction > 0 {
                    score = -self.search(
                        &child,
                        child_counters,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, child_counters, new_depth, -beta, -alpha, ply + 1);
                }
                score
            };
            self.path.pop();
            if self.aborted {
                return Score::DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if alpha >= beta {
                        if !capture_node {
                            let tried = &moves[..index];
                            let counter_of = last_move.filter(|_| self.params.counter_moves);
                            self.ordering.reward_cutoff(
                                side,
                                ply,
                                depth,
                                &mv,
                                &tried[..quiets_tried.min(index)],
                                counter_of.as_ref(),
                                continuation_of.as_ref(),
                            );
                        }
                        break;
                    }
                }
            }
            if !capture_node {
                quiets_tried += 1;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Correction history: an exact score, or a bound beyond the corrected evaluation, says
        // which way (and at least how far) the evaluation was off; a bound short of it says
        // nothing.
        if let Some(raw) = node_eval.filter(|_| self.corrects(position)) {
            let corrected = self.corrections.corrected(position, raw);
            let informative = match bound {
                Bound::Lower => best > corrected,
                Bound::Upper => best < corrected,
                Bound::Exact => true,
            };
            if informative && best.0.abs() < Score::MAX_HEURISTIC {
                self.corrections.learn(position, best.0 - raw.0, depth);
            }
        }
        let packed = best_move.map_or(PackedMove::NONE, |mv| PackedMove::pack(&mv));
        self.shared
            .table
            .store(key, packed, best.to_table(ply as u32), depth, bound);
        best
    }

    /// Reverse futility pruning at a shallow non-PV node: in a quiet position (neither side can
    /// capture; `moves` are the node's legal moves), a static evaluation that beats beta by a
    /// margin per ply of depth stands for the search. Returns the fail-high score (less the
    /// margin), or `None` to search the node.
    fn reverse_futility(
        &mut self,
        position: &Position,
        moves: &MoveList,
        depth: i32,
        beta: Score,
    ) -> Option<Score> {
        let params = &self.params;
        if !params.reverse_futility
            || depth > params.reverse_futility_depth
            || beta.0.abs() >= Score::MAX_HEURISTIC
            || position.occupied().count() <= params.exact_endgame_pieces
            || moves.iter().next().is_some_and(Move::is_capture)
            || can_capture(position, position.side_to_move().opponent())
        {
            return None;
        }
        let margin = depth * params.reverse_futility_margin;
        let stand_pat = self.static_eval(position);
        (stand_pat.0 - margin >= beta.0).then(|| Score(stand_pat.0 - margin))
    }

    /// Records the static evaluation of the node at `ply` (none at a capture node) and says
    /// whether it is better than the last one recorded for the same side, two or four plies
    /// before; `true` when there is nothing to compare.
    fn is_improving(&mut self, eval: Option<Score>, ply: usize) -> bool {
        self.static_evals[ply] = eval;
        let Some(eval) = eval else {
            return true;
        };
        let earlier = [2, 4]
            .iter()
            .filter(|&&back| ply >= back)
            .find_map(|&back| self.static_evals[ply - back]);
        earlier.is_none_or(|earlier| eval > earlier)
    }

    /// The static evaluation of `position`, through this thread's evaluation cache, with the
    /// correction history's correction when it is on.
    fn static_eval(&mut self, position: &Position) -> Score {
        let raw = self.raw_eval(position);
        if self.corrects(position) {
            self.corrections.corrected(position, raw)
        } else {
            raw
        }
    }

    /// Whether the correction history applies to `position` (not in the endings the evaluation's
    /// endgame knowledge scores).
    fn corrects(&self, position: &Position) -> bool {
        self.params.correction_history
            && position.occupied().count() > self.params.exact_endgame_pieces
    }

    /// The static evaluation of `position`, through this thread's evaluation cache.
    fn raw_eval(&mut self, position: &Position) -> Score {
        let eval = self.shared.eval;
        self.evals
            .get_or_insert(position.key(), || evaluate_with(position, eval))
    }

    /// ProbCut at a non-PV node: when a shallow null-window search already beats beta by a margin
    /// that grows with depth, the full search would very likely fail high too. Returns the
    /// fail-high score (less the margin), or `None` to search the node normally.
    fn probcut(
        &mut self,
        position: &Position,
        counters: DrawCounters,
        depth: i32,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        let params = &self.params;
        // Not in endings of a few pieces (the endgame tables' range; Scan, whose ProbCut this is,
        // has bitbases there): their wins are exact races and hunts that a shallow search
        // misjudges. With ProbCut there the engine drew a won three-kings hunt
        // (tests/endgame_hunt.rs) and missed a forced win of the suite (tests/search_wins.rs).
        if !params.probcut
            || self.in_probcut
            || depth < params.probcut_depth
            || beta.0.abs() >= Score::MAX_HEURISTIC
            || position.occupied().count() <= params.exact_endgame_pieces
            || (params.probcut_quiet_only
                && can_capture(position, position.side_to_move().opponent()))
        {
            return None;
        }
        let margin = depth * params.probcut_margin;
        let probe_beta = Score(beta.0 + margin);
        let probe_depth = (depth * params.probcut_percent / 100).max(1);
        self.in_probcut = true;
        let score = self.search(
            position,
            counters,
            probe_depth,
            Score(probe_beta.0 - 1),
            probe_beta,
            ply,
        );
        self.in_probcut = false;
        (!self.aborted && score >= probe_beta).then(|| Score(score.0 - margin))
    }

    /// Singular extension test (at PV nodes; at all nodes with `singular_non_pv`): whether every
    /// move but the table move fails low, four plies shallower, against the table score less a
    /// margin. The table entry must be a lower or exact bound from a search at most three plies
    /// shallower, and its move legal here.
    fn is_singular(
        &mut self,
        position: &Position,
        counters: DrawCounters,
        moves: &[Move],
        hit: Hit,
        depth: i32,
        ply: usize,
    ) -> bool {
        let params = &self.params;
        if !params.singular_extension
            || depth < params.singular_depth
            || hit.bound == Bound::Upper
            || hit.depth < depth - 3
            || !moves.iter().any(|mv| hit.mv.matches(mv))
        {
            return false;
        }
        let table_score = hit.score.from_table(ply as u32);
        if table_score.0.abs() >= Score::MAX_HEURISTIC {
            return false;
        }
        let target = Score(table_score.0 - params.singular_margin);
        let reduced = depth - 4;
        for mv in moves.iter().filter(|mv| !hit.mv.matches(mv)) {
            let child = position.play_for::<R>(mv);
            let child_counters = counters.after(position, mv, &child);
            self.push(position, mv, child.key());
            self.played[ply] = Some(*mv);
            let score = -self.search(
                &child,
                child_counters,
                reduced - 1,
                -target,
                Score(1 - target.0),
                ply + 1,
            );
            self.path.pop();
            if self.aborted || score >= target {
                return false;
            }
        }
        true
    }

    /// The databases' value of `position` (`ply` plies from the root) as a score, if the position
    /// is in the loaded tables. Memory access only; a quick piece count first keeps the cost nil
    /// in the middle game and without tables.
    ///
    /// The tables ignore the move-count rules. In the small king endings those rules end within
    /// 10 plies of the last capture or promotion (see [`short_rule_limit`]), so a win there counts
    /// only if its distance to the conversion fits in the plies left by `counters` (unknown in
    /// quiescence: then not at all); otherwise the search goes on without the tables' word.
    #[inline(always)]
    fn probe_tables(
        &self,
        position: &Position,
        ply: usize,
        counters: Option<&DrawCounters>,
    ) -> Option<Score> {
        let shared = self.shared;
        if position.occupied().count() > shared.table_pieces {
            return None;
        }
        if shared.unprobed_material == Some(Material::of(position)) {
            return None;
        }
        // Capture positions hold no stored value (the tables play their captures to answer);
        // the search resolves the capture itself.
        if movegen::has_capture(position) {
            return None;
        }
        let tables = shared.tablebases;
        let rules = &shared.settings.draw_rules;
        let guarded = rules.move_count && self.params.egtb_rule_guard;
        let wdl = match short_rule_limit(position).filter(|_| guarded) {
            None => tables.probe_for::<R>(position)?,
            Some(limit) => {
                let probed = tables.probe_distance_for::<R>(position)?;
                if probed.wdl != Wdl::Draw {
                    let left = limit.saturating_sub(counters?.plies_since_material_change);
                    if limit == 0 || probed.plies? > left {
                        return None;
                    }
                }
                probed.wdl
            }
        };
        shared.tbhits.fetch_add(1, AtomicOrdering::Relaxed);
        Some(match wdl {
            Wdl::Win => Score::db_win_in(ply as u32),
            Wdl::Draw => self.draw_score(position),
            Wdl::Loss => Score::db_loss_in(ply as u32),
        })
    }

    /// Resolves captures (and, a few times per line, capture threats) before evaluating.
    fn quiescence(
        &mut self,
        position: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_plies: u32,
    ) -> Score {
        self.evals.prefetch(position.key());
        if !self.enter_node(ply) {
            return Score::DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_with(position, self.shared.eval);
        }
        if let Some(score) = self.probe_tables(position, ply, None) {
            return score;
        }
        let mut list = MoveList::new();
        let forced = movegen::generate_captures_for::<R>(position, &mut list);
        if !forced {
            if !movegen::has_quiet_move(position) {
                return Score::loss_in(ply as u32);
            }
            let stand_pat = self.static_eval(position);
            let side = position.side_to_move();
            if threat_plies == 0 || !can_capture(position, side.opponent()) {
                // No threat (or no budget left to answer one): stand pat, unless promotions or
                // sacrifices are searched here.
                if stand_pat >= beta {
                    return stand_pat;
                }
                let promotions = self.params.quiescence_promotions;
                let sacrifices = self.params.quiescence_sacrifices
                    && threat_plies > 0
                    && position.all_kings().is_empty();
                if !promotions && !sacrifices {
                    return stand_pat;
                }
                movegen::generate_quiet(position, &mut list);
                list.retain(|mv| {
                    (promotions && crowns(position, side, mv))
                        || (sacrifices && movegen::has_capture(&position.play_unkeyed::<R>(mv)))
                });
                if list.is_empty() {
                    return stand_pat;
                }
                // The side to move may still decline every one of them.
                alpha = alpha.max(stand_pat);
                // Promotions are finite (each spends a man); sacrifices spend the line's budget.
                let budget = if sacrifices {
                    threat_plies - 1
                } else {
                    threat_plies
                };
                return self.quiescence_moves(position, &list, stand_pat, alpha, beta, ply, budget);
            }
            movegen::generate_quiet(position, &mut list);
        }
        let next_threat_plies = if forced {
            threat_plies
        } else {
            threat_plies - 1
        };
        self.quiescence_moves(
            position,
            &list,
            -Score::INFINITE,
            alpha,
            beta,
            ply,
            next_threat_plies,
        )
    }

    /// Searches `list` in quiescence, starting from `best` (what the side to move has without
    /// these moves).
    #[allow(clippy::too_many_arguments)]
    fn quiescence_moves(
        &mut self,
        position: &Position,
        list: &MoveList,
        mut best: Score,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        next_threat_plies: u32,
    ) -> Score {
        for mv in list.iter() {
            let child = position.play_for::<R>(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, next_threat_plies);
            if self.aborted {
                return Score::DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::variant::Brazilian;

    fn limit(text: &str) -> Option<u32> {
        short_rule_limit(&parse_position(text).expect("valid test position"))
    }

    #[test]
    fn safe_first_ordering_puts_moves_that_let_the_opponent_capture_last() {
        let position = parse_position("W:W18,19,22,25,26,28,29,30,31,32:B2,3,4,5,6,8,10,11,12,13")
            .expect("valid test position");
        let mut list = MoveList::new();
        movegen::generate_for::<Brazilian>(&position, &mut list);
        let moves = list.as_mut_slice();
        let opponent = position.side_to_move().opponent();
        let is_unsafe = |mv: &Move| can_capture(&position.play_for::<Brazilian>(mv), opponent);
        // The unsafe moves get the best ordering scores, all distinct.
        let score = |i: usize, mv: &Move| {
            if is_unsafe(mv) {
                1000 + i as i32
            } else {
                i as i32
            }
        };
        let mut scores: Vec<i32> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| score(i, mv))
            .collect();
        let mut expected: Vec<(bool, i32, Move)> = moves
            .iter()
            .zip(&scores)
            .map(|(mv, &score)| (is_unsafe(mv), -score, *mv))
            .collect();
        assert!(expected.iter().any(|e| e.0) && expected.iter().any(|e| !e.0));
        // Safe moves first, then by score, highest first.
        expected.sort_by_key(|&(unsafe_move, negated, _)| (unsafe_move, negated));
        mark_unchecked(&mut scores);
        let order: Vec<Move> = (0..moves.len())
            .map(|index| pick_next_checked(moves, &mut scores, index, |mv| !is_unsafe(mv)))
            .collect();
        let expected: Vec<Move> = expected.into_iter().map(|(_, _, mv)| mv).collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn short_rule_endings_are_the_lone_king_ones() {
        // Lone king against one or two pieces with a king, or three not all kings: 10 plies.
        assert_eq!(limit("W:WK1,K2:BK28"), Some(10));
        assert_eq!(limit("B:WK1,9:BK28"), Some(10));
        assert_eq!(limit("W:WK1,K2,9:BK28"), Some(10));
        // The strong side has no king yet: the rule starts at its promotion.
        assert_eq!(limit("W:W22,23,24:BK5"), Some(0));
        // Three kings against one (30 plies, the tables agree), four pieces, no lone king.
        assert_eq!(limit("W:WK1,K2,K3:BK28"), None);
        assert_eq!(limit("W:WK1,K2,K3,9:BK28"), None);
        assert_eq!(limit("W:WK1,K2:BK28,K27"), None);
        // A lone man is not a lone king.
        assert_eq!(limit("W:WK1,K2:B12"), None);
    }
}

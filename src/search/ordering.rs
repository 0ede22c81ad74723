//! Move ordering: the table move first, then killers, the counter move and the history heuristic
//! for quiet moves.
//!
//! Captures need little ordering (they are all forced and all take the same number of pieces), so
//! the tables here serve quiet moves: two killer moves per ply (quiet moves that recently refuted a
//! sibling), a counter move per side and opponent's move (the quiet move that last refuted it), and
//! a history score per side, origin and destination, updated with a "gravity" rule that keeps
//! values bounded. `pick_next_checked` lets the search demote the history-ordered moves that
//! fail a check of its own (the `order-safe-first` switch), checking each only when it is
//! about to be searched.

use crate::rules::movegen::MAX_MOVES;
use crate::rules::moves::Move;
use crate::rules::position::Color;
use crate::rules::square::BIT_SLOTS;
use crate::search::tt::PackedMove;
use arrayvec::ArrayVec;

/// The ordering scores of a node's moves, in move-list order: a fixed-capacity list on the stack,
/// written once per move (zeroing room for [`MAX_MOVES`] scores at every node costs more than
/// scoring the few moves there are).
pub(crate) type MoveScores = ArrayVec<i32, MAX_MOVES>;

/// Deepest ply the search tables cover.
pub(crate) const MAX_PLY: usize = 128;

const HISTORY_LIMIT: i32 = 16_384;
const TABLE_MOVE_SCORE: i32 = 1 << 30;
const KILLER_SCORES: [i32; 2] = [1 << 29, (1 << 29) - 1];
const COUNTER_MOVE_SCORE: i32 = (1 << 29) - 2;

/// A table indexed by side, then the origin and destination bits of a move.
type ByMove<T> = [[[T; BIT_SLOTS]; BIT_SLOTS]; 2];

/// Ordering state of one search thread.
pub(crate) struct Ordering {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: ByMove<i32>,
    /// For each side, the quiet move that last refuted each opponent move.
    counters: ByMove<Option<Move>>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering::new()
    }
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering {
            killers: [[None; 2]; MAX_PLY],
            history: [[[0; BIT_SLOTS]; BIT_SLOTS]; 2],
            counters: [[[None; BIT_SLOTS]; BIT_SLOTS]; 2],
        }
    }

    /// Forgets killers and history (new game).
    pub(crate) fn clear(&mut self) {
        *self = Ordering::new();
    }

    /// Halves the history between searches so old evidence fades, and drops the killers.
    pub(crate) fn age(&mut self) {
        for side in &mut self.history {
            for row in side.iter_mut() {
                for value in row.iter_mut() {
                    *value /= 2;
                }
            }
        }
        self.killers = [[None; 2]; MAX_PLY];
    }

    #[inline(always)]
    pub(crate) fn is_killer(&self, ply: usize, mv: &Move) -> bool {
        let killers = &self.killers[ply.min(MAX_PLY - 1)];
        killers[0].as_ref() == Some(mv) || killers[1].as_ref() == Some(mv)
    }

    /// The history score of `side`'s quiet move `mv`.
    #[inline(always)]
    pub(crate) fn history(&self, side: Color, mv: &Move) -> i32 {
        self.history[side as usize][mv.from.bit() as usize][mv.to.bit() as usize]
    }

    /// The quiet move that last refuted the opponent's move `last`, for `side` to play.
    #[inline(always)]
    pub(crate) fn counter_move(&self, side: Color, last: &Move) -> Option<Move> {
        self.counters[side as usize][last.from.bit() as usize][last.to.bit() as usize]
    }

    /// Scores each move for ordering, higher first: entry i of `scores` (emptied first) belongs to
    /// `moves[i]`.
    #[inline]
    pub(crate) fn score_moves(
        &self,
        moves: &[Move],
        scores: &mut MoveScores,
        table_move: PackedMove,
        counter_move: Option<Move>,
        side: Color,
        ply: usize,
    ) {
        let killers = &self.killers[ply.min(MAX_PLY - 1)];
        let history = &self.history[side as usize];
        scores.clear();
        scores.extend(moves.iter().map(|mv| {
            if table_move.matches(mv) {
                TABLE_MOVE_SCORE
            } else if mv.is_capture() {
                // Taking kings first.
                (mv.captured.count() as i32) << 20
            } else if killers[0].as_ref() == Some(mv) {
                KILLER_SCORES[0]
            } else if killers[1].as_ref() == Some(mv) {
                KILLER_SCORES[1]
            } else if counter_move.as_ref() == Some(mv) {
                COUNTER_MOVE_SCORE
            } else {
                history[mv.from.bit() as usize][mv.to.bit() as usize]
            }
        }));
    }

    /// Rewards the quiet move that caused a cut-off (as killer, as the counter move of the
    /// opponent's `previous` move, in the history) and penalises the quiet moves tried before it.
    pub(crate) fn reward_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: &Move,
        tried_before: &[Move],
        previous: Option<&Move>,
    ) {
        if let Some(last) = previous {
            self.counters[side as usize][last.from.bit() as usize][last.to.bit() as usize] =
                Some(*best);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY - 1)];
        if killers[0].as_ref() != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(*best);
        }
        let bonus = (depth * depth).min(400);
        let history = &mut self.history[side as usize];
        update(
            &mut history[best.from.bit() as usize][best.to.bit() as usize],
            bonus,
        );
        for mv in tried_before {
            update(
                &mut history[mv.from.bit() as usize][mv.to.bit() as usize],
                -bonus,
            );
        }
    }
}

#[inline(always)]
fn update(value: &mut i32, bonus: i32) {
    *value += bonus - *value * bonus.abs() / HISTORY_LIMIT;
}

/// Moves the best-scored remaining move to `index` (selection sort step) and returns it.
#[inline(always)]
pub(crate) fn pick_next(moves: &mut [Move], scores: &mut [i32], index: usize) -> Move {
    // The first of the highest scores, with the best score kept in hand rather than read back.
    let remaining = &scores[index..moves.len()];
    let mut best = index;
    let mut best_score = remaining[0];
    for (offset, &score) in remaining.iter().enumerate().skip(1) {
        if score > best_score {
            best = index + offset;
            best_score = score;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

/// Taken off the ordering score of a move that fails [`pick_next_checked`]'s check: more than
/// any history score, so such moves come after the ones that pass.
const FAILED_CHECK_PENALTY: i32 = 1 << 20;

/// The scores of the moves ordered by history alone (not the table move, killers, counter move
/// or captures), which [`pick_next_checked`] checks: their range, doubled.
const CHECKED_BAND: i32 = 2 * HISTORY_LIMIT + 1;

/// Marks the history-ordered moves of `scores` as still to be checked by [`pick_next_checked`]:
/// each such score is doubled (the order stays) and made odd, an even score meaning checked.
pub(crate) fn mark_unchecked(scores: &mut [i32]) {
    for score in scores
        .iter_mut()
        .filter(|score| score.abs() <= HISTORY_LIMIT)
    {
        *score = *score * 2 + 1;
    }
}

/// [`pick_next`] after [`mark_unchecked`]: the best move by ordering score, where a history-ordered
/// move for which `passes` is false loses [`FAILED_CHECK_PENALTY`]. A move is checked when it first
/// comes out on top, so that only the moves the search reaches are checked (a check can only
/// lower a score, so a checked move on top is the true best).
#[inline]
pub(crate) fn pick_next_checked(
    moves: &mut [Move],
    scores: &mut [i32],
    index: usize,
    mut passes: impl FnMut(&Move) -> bool,
) -> Move {
    loop {
        let mv = pick_next(moves, scores, index);
        let score = &mut scores[index];
        if score.abs() > CHECKED_BAND || *score & 1 == 0 {
            return mv;
        }
        *score -= 1;
        if passes(&mv) {
            return mv;
        }
        *score -= 2 * FAILED_CHECK_PENALTY;
    }
}

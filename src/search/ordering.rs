//! Move ordering: the table move first, then killers, the counter move and the history heuristic
//! for quiet moves.
//!
//! Captures need little ordering (they are all forced and all take the same number of pieces), so
//! the tables here serve quiet moves: two killer moves per ply (quiet moves that recently refuted a
//! sibling), a counter move per side and opponent's move (the quiet move that last refuted it), a
//! history score per side, origin and destination, and a continuation history (the same, per
//! destination of the opponent's last move), each updated with a "gravity" rule that keeps
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
/// The range of a quiet move's ordering score without killers: its history plus its
/// continuation history.
const QUIET_LIMIT: i32 = 2 * HISTORY_LIMIT;
const TABLE_MOVE_SCORE: i32 = 1 << 30;
const KILLER_SCORES: [i32; 2] = [1 << 29, (1 << 29) - 1];
const COUNTER_MOVE_SCORE: i32 = (1 << 29) - 2;

/// A table indexed by side, then the origin and destination bits of a move.
type ByMove<T> = [[[T; BIT_SLOTS]; BIT_SLOTS]; 2];

/// History scores (within [`HISTORY_LIMIT`]) by the origin and destination bits of a move.
type HistoryTable = [[i16; BIT_SLOTS]; BIT_SLOTS];

/// The continuation scores when the continuation history does not count.
static NO_CONTINUATION: HistoryTable = [[0; BIT_SLOTS]; BIT_SLOTS];

/// Ordering state of one search thread.
pub(crate) struct Ordering {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: [HistoryTable; 2],
    /// For each side, the quiet move that last refuted each opponent move.
    counters: ByMove<Option<Move>>,
    /// For each side, the history of its quiet moves as replies to an opponent move ending on
    /// each square (boxed: 171 KB).
    continuation: Box<[[HistoryTable; BIT_SLOTS]; 2]>,
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
            continuation: Box::new([[[[0; BIT_SLOTS]; BIT_SLOTS]; BIT_SLOTS]; 2]),
        }
    }

    /// Forgets killers and history (new game).
    pub(crate) fn clear(&mut self) {
        *self = Ordering::new();
    }

    /// Halves the histories between searches so old evidence fades, and drops the killers.
    pub(crate) fn age(&mut self) {
        for value in self.history.iter_mut().flatten().flatten() {
            *value /= 2;
        }
        for value in self.continuation.iter_mut().flatten().flatten().flatten() {
            *value /= 2;
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
        i32::from(self.history[side as usize][mv.from.bit() as usize][mv.to.bit() as usize])
    }

    /// The quiet move that last refuted the opponent's move `last`, for `side` to play.
    #[inline(always)]
    pub(crate) fn counter_move(&self, side: Color, last: &Move) -> Option<Move> {
        self.counters[side as usize][last.from.bit() as usize][last.to.bit() as usize]
    }

    /// Scores each move for ordering, higher first: entry i of `scores` (emptied first) belongs to
    /// `moves[i]`. `previous` is the opponent's last move when the continuation history counts.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn score_moves(
        &self,
        moves: &[Move],
        scores: &mut MoveScores,
        table_move: PackedMove,
        counter_move: Option<Move>,
        previous: Option<&Move>,
        side: Color,
        ply: usize,
    ) {
        let killers = &self.killers[ply.min(MAX_PLY - 1)];
        let history = &self.history[side as usize];
        // Without a previous move the continuation scores are all zero (read from a zero table
        // rather than tested for at every move).
        let continuation = previous.map_or(&NO_CONTINUATION, |last| {
            &self.continuation[side as usize][last.to.bit() as usize]
        });
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
                let (from, to) = (mv.from.bit() as usize, mv.to.bit() as usize);
                i32::from(history[from][to]) + i32::from(continuation[from][to])
            }
        }));
    }

    /// Rewards the quiet move that caused a cut-off (as killer, as the counter move of the
    /// opponent's `counter_of` move, in the history, in the continuation history of the opponent's
    /// `continuation_of` move) and penalises the quiet moves tried before it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reward_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: &Move,
        tried_before: &[Move],
        counter_of: Option<&Move>,
        continuation_of: Option<&Move>,
    ) {
        if let Some(last) = counter_of {
            self.counters[side as usize][last.from.bit() as usize][last.to.bit() as usize] =
                Some(*best);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY - 1)];
        if killers[0].as_ref() != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(*best);
        }
        let bonus = (depth * depth).min(400);
        reward(&mut self.history[side as usize], best, tried_before, bonus);
        if let Some(last) = continuation_of {
            let replies = &mut self.continuation[side as usize][last.to.bit() as usize];
            reward(replies, best, tried_before, bonus);
        }
    }
}

/// Raises `best`'s score in `table` by `bonus` and lowers those of the moves `tried_before` it.
#[inline(always)]
fn reward(table: &mut HistoryTable, best: &Move, tried_before: &[Move], bonus: i32) {
    update(
        &mut table[best.from.bit() as usize][best.to.bit() as usize],
        bonus,
    );
    for mv in tried_before {
        update(
            &mut table[mv.from.bit() as usize][mv.to.bit() as usize],
            -bonus,
        );
    }
}

/// Moves a history score by `bonus`, less in proportion to how far it already is in that
/// direction, so that it stays within [`HISTORY_LIMIT`].
#[inline(always)]
fn update(value: &mut i16, bonus: i32) {
    let old = i32::from(*value);
    *value = (old + bonus - old * bonus.abs() / HISTORY_LIMIT) as i16;
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
const CHECKED_BAND: i32 = 2 * QUIET_LIMIT + 1;

/// Marks the history-ordered moves of `scores` as still to be checked by [`pick_next_checked`]:
/// each such score is doubled (the order stays) and made odd, an even score meaning checked.
pub(crate) fn mark_unchecked(scores: &mut [i32]) {
    for score in scores.iter_mut().filter(|score| score.abs() <= QUIET_LIMIT) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::{generate, MoveList};
    use crate::rules::position::Position;

    /// The start position's quiet moves for White, and Black's after White's first one.
    fn opening_moves() -> (Vec<Move>, Vec<Move>) {
        let start = Position::start();
        let mut list = MoveList::new();
        generate(&start, &mut list);
        let white: Vec<Move> = list.iter().copied().collect();
        let after = start.play(&white[0]);
        let mut list = MoveList::new();
        generate(&after, &mut list);
        (white, list.iter().copied().collect())
    }

    fn scores_of(ordering: &Ordering, moves: &[Move], previous: Option<&Move>) -> Vec<i32> {
        let mut scores = MoveScores::new();
        ordering.score_moves(
            moves,
            &mut scores,
            PackedMove::NONE,
            None,
            previous,
            Color::White,
            5,
        );
        scores.to_vec()
    }

    #[test]
    fn continuation_history_favours_a_cutoff_move_only_after_the_same_reply_square() {
        let (white, black) = opening_moves();
        let rewarded = black[0];
        let other = *black
            .iter()
            .find(|mv| mv.to != rewarded.to)
            .expect("Black has moves to two squares");
        let mut ordering = Ordering::new();
        // White's second move refuted Black's `rewarded` after the first was tried.
        ordering.reward_cutoff(
            Color::White,
            0,
            10,
            &white[1],
            &white[..1],
            None,
            Some(&rewarded),
        );
        let lead = |scores: Vec<i32>| scores[1] - scores[0];
        let plain = lead(scores_of(&ordering, &white, None));
        let after_rewarded = lead(scores_of(&ordering, &white, Some(&rewarded)));
        let after_other = lead(scores_of(&ordering, &white, Some(&other)));
        assert!(plain > 0, "the plain history rewards the cut-off move");
        assert!(after_rewarded > plain, "{after_rewarded} <= {plain}");
        assert_eq!(after_other, plain);
        // Ageing halves both histories.
        ordering.age();
        let aged = lead(scores_of(&ordering, &white, Some(&rewarded)));
        assert!(
            aged > 0 && aged < after_rewarded,
            "{aged} against {after_rewarded}"
        );
    }
}

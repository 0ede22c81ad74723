//! Correction history: how far the search has found the static evaluation off, by each side's
//! men structure, learned during the search and added to the evaluation where the search stands
//! on it (quiescence's stand pat).
//!
//! After a quiet node's search, the difference between its score and its static evaluation is
//! folded into two entries: one keyed by White's men, one by Black's, each also by the side to
//! move. A position's correction is the mean of its two entries. A move changes one side's men
//! (or none), so a leaf shares one key with the node above it and the structures the search has
//! already judged carry their error to the leaves below them.
//!
//! Off by default (`SearchParams::correction_history`): it lost in self-play at 0.1 s a move (the
//! table in [`crate::search::params`]).

use crate::eval::score::Score;
use crate::rules::position::{Color, Position};

/// Entries per (side to move, structure colour) table, a power of two.
const ENTRIES: usize = 1 << 14;
/// Score units are kept in 1/GRAIN steps, so small weights still move an entry.
const GRAIN: i32 = 64;
/// The largest correction, in score units (half a man).
const LIMIT: i32 = 50;

/// One thread's correction tables.
pub(crate) struct Corrections {
    /// `[side to move][structure colour][hash of that colour's men]`, in 1/GRAIN score units.
    tables: Box<[[[i16; ENTRIES]; 2]; 2]>,
}

/// The entry of `structure`'s men in `position`: a multiplicative hash of their bitboard.
fn slot(position: &Position, structure: Color) -> usize {
    let men = position.men(structure).0;
    (men.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl Corrections {
    /// Tables that correct nothing yet.
    pub(crate) fn new() -> Corrections {
        Corrections {
            tables: Box::new([[[0; ENTRIES]; 2]; 2]),
        }
    }

    /// Forgets every correction (new game).
    pub(crate) fn clear(&mut self) {
        *self.tables = [[[0; ENTRIES]; 2]; 2];
    }

    /// The correction for `position`, in score units from the side to move's view.
    #[inline(always)]
    pub(crate) fn of(&self, position: &Position) -> i32 {
        let table = &self.tables[position.side_to_move() as usize];
        let white = i32::from(table[0][slot(position, Color::White)]);
        let black = i32::from(table[1][slot(position, Color::Black)]);
        (white + black) / (2 * GRAIN)
    }

    /// `position`'s static evaluation `eval` with its correction added (kept a heuristic score).
    #[inline(always)]
    pub(crate) fn corrected(&self, position: &Position, eval: Score) -> Score {
        Score::heuristic(eval.0 + self.of(position))
    }

    /// Folds `error` (search score less static evaluation, side to move's view) of a search
    /// `depth` plies deep into `position`'s entries: deeper searches weigh more.
    pub(crate) fn learn(&mut self, position: &Position, error: i32, depth: i32) {
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(16);
        let table = &mut self.tables[position.side_to_move() as usize];
        for (colour, structure) in [Color::White, Color::Black].into_iter().enumerate() {
            let entry = &mut table[colour][slot(position, structure)];
            let old = i32::from(*entry);
            *entry = ((old * (256 - weight) + target * weight) / 256) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    fn position(text: &str) -> Position {
        parse_position(text).expect("valid test position")
    }

    #[test]
    fn learning_moves_the_correction_toward_the_error_and_no_further_than_the_limit() {
        let mut corrections = Corrections::new();
        let white_to_move = position("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12");
        assert_eq!(corrections.of(&white_to_move), 0);
        corrections.learn(&white_to_move, 40, 15);
        let once = corrections.of(&white_to_move);
        assert!(
            0 < once && once < 40,
            "one deep search moves it part of the way: {once}"
        );
        for _ in 0..200 {
            corrections.learn(&white_to_move, 400, 15);
        }
        let saturated = corrections.of(&white_to_move);
        assert!((LIMIT - 2..=LIMIT).contains(&saturated), "{saturated}");
        corrections.clear();
        assert_eq!(corrections.of(&white_to_move), 0);
        corrections.learn(&white_to_move, 40, 0);
        assert!(
            corrections.of(&white_to_move) < once,
            "a shallow search weighs less"
        );
    }

    #[test]
    fn a_correction_reaches_the_positions_sharing_one_structure_with_the_same_side_to_move() {
        let mut corrections = Corrections::new();
        let learned = position("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12");
        for _ in 0..200 {
            corrections.learn(&learned, 40, 15);
        }
        let full = corrections.of(&learned);
        assert!(full > 30, "{full}");
        // Black moved a man: White's structure (half of the correction) is the same.
        let black_moved = position("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,16");
        let shared = corrections.of(&black_moved);
        assert!(
            (full / 2 - 1..=full / 2 + 1).contains(&shared),
            "{shared} of {full}"
        );
        // The same men with Black to move: a table of its own.
        let black_to_move = position("B:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12");
        assert_eq!(corrections.of(&black_to_move), 0);
    }
}

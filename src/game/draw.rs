//! Draw rules: threefold repetition and the move-count rules, kept together so they can be switched.
//!
//! We follow lidraughts' Brazilian rules (FMJD 8x8 rules 7.2.3-7.2.8, see RULES.md):
//!
//! * both sides have kings and the last 30 plies were king moves without capture;
//! * three or more kings against a lone king: 30 plies since the material last changed;
//! * a lone king against at most two pieces, one of them a king: 10 plies;
//! * a lone king on the long diagonal against three pieces including a king: once it has stood
//!   there, as the only piece on the diagonal, after 10 plies of this material (5 moves each;
//!   lidraughts counts them from the start of the material balance, so leaving the diagonal and
//!   coming back does not restart the count);
//! * both sides have kings and 4-5 pieces are left: 60 plies without capture or promotion;
//!   6-7 pieces: 120 plies.
//!
//! "Since the material last changed" counts plies since the last capture or promotion, which is
//! when any of these endgames can begin.

use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};

/// Which draw rules apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRules {
    /// Threefold repetition of a position with the same side to move.
    pub repetition: bool,
    /// The move-count rules listed in the module documentation.
    pub move_count: bool,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetition: true,
            move_count: true,
        }
    }
}

/// Why a game is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawReason {
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// Both sides have kings and the last 30 plies were king moves without capture.
    KingMoves,
    /// Three or more kings against a lone king, 30 plies after the material last changed.
    ThreeKingsAgainstKing,
    /// A lone king against at most two pieces, one of them a king, 10 plies after the material
    /// last changed.
    SmallKingEndgame,
    /// A lone king held the long diagonal against three pieces including a king, for 10 plies of
    /// this material (see [`long_diagonal_defence`]).
    LongDiagonalDefence,
    /// Both sides have kings and no capture or promotion for 60 plies with 4-5 pieces left, or
    /// 120 plies with 6-7.
    FewPieces,
}

impl DrawReason {
    /// A short human-readable description (used in PDN termination tags and logs).
    pub fn describe(self) -> &'static str {
        match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::KingMoves => "15 moves with kings only",
            DrawReason::ThreeKingsAgainstKing => "three kings against a lone king for 15 moves",
            DrawReason::SmallKingEndgame => "lone king against two pieces for 5 moves",
            DrawReason::LongDiagonalDefence => "lone king on the long diagonal for 5 moves",
            DrawReason::FewPieces => "king endgame without progress",
        }
    }
}

/// The plies that the move-count rules count, as of one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DrawCounters {
    /// Consecutive plies made by kings without capture.
    pub king_only_plies: u32,
    /// Plies since the last capture or promotion.
    pub plies_since_material_change: u32,
    /// Plies since the last capture or promotion after which a lone king held the long diagonal
    /// against three pieces (see [`long_diagonal_defence`]).
    pub long_diagonal_plies: u32,
}

impl DrawCounters {
    /// The counters after `mv` is played in `before`, giving `after` (inlined: the search calls it
    /// for every move it plays).
    #[inline]
    pub fn after(self, before: &Position, mv: &Move, after: &Position) -> DrawCounters {
        let king_moved = before.all_kings().contains(mv.from);
        let promoted = !king_moved && before.side_to_move().promotion_row().contains(mv.to);
        let capture = mv.is_capture();
        let diagonal_before = if capture || promoted {
            0
        } else {
            self.long_diagonal_plies
        };
        DrawCounters {
            long_diagonal_plies: diagonal_before + u32::from(long_diagonal_defence(after)),
            king_only_plies: if king_moved && !capture {
                self.king_only_plies + 1
            } else {
                0
            },
            plies_since_material_change: if capture || promoted {
                0
            } else {
                self.plies_since_material_change + 1
            },
        }
    }
}

/// Whether a lone king stands on the long diagonal, the only piece there, against exactly three
/// pieces including a king (the material of FMJD rule 7.2.7).
#[inline]
pub fn long_diagonal_defence(position: &Position) -> bool {
    let white = position.pieces(Color::White);
    let black = position.pieces(Color::Black);
    let kings = position.all_kings();
    let (lone, other) = match (white.count(), black.count()) {
        (1, 3) => (white, black),
        (3, 1) => (black, white),
        _ => return false,
    };
    (lone & kings & Bitboard::LONG_DIAGONAL).is_not_empty()
        && (other & kings).is_not_empty()
        && (position.occupied() & Bitboard::LONG_DIAGONAL).count() == 1
}

/// Whether a move can be part of a repetition: only king moves without capture are reversible.
pub fn is_reversible(before: &Position, mv: &Move) -> bool {
    !mv.is_capture() && before.all_kings().contains(mv.from)
}

/// The move-count rule that draws `position`, if any.
pub fn move_count_draw(
    rules: &DrawRules,
    position: &Position,
    counters: &DrawCounters,
) -> Option<DrawReason> {
    if !rules.move_count {
        return None;
    }
    let white = position.pieces(Color::White);
    let black = position.pieces(Color::Black);
    let kings = position.all_kings();
    let both_have_kings = (white & kings).is_not_empty() && (black & kings).is_not_empty();
    if !both_have_kings {
        return None;
    }
    if counters.king_only_plies >= 30 {
        return Some(DrawReason::KingMoves);
    }
    let quiet = counters.plies_since_material_change;
    let (lone, other) = if white.count() == 1 {
        (white, black)
    } else if black.count() == 1 {
        (black, white)
    } else {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    };
    if lone.is_not_empty() {
        // The lone piece is a king (both sides have kings).
        let other_kings = (other & kings).count();
        let others = other.count();
        if others <= 2 && quiet >= 10 {
            return Some(DrawReason::SmallKingEndgame);
        }
        if counters.long_diagonal_plies >= 10 && long_diagonal_defence(position) {
            return Some(DrawReason::LongDiagonalDefence);
        }
        if others >= 3 && other_kings == others && quiet >= 30 {
            return Some(DrawReason::ThreeKingsAgainstKing);
        }
    }
    let total = (white | black).count();
    match total {
        4 | 5 if quiet >= 60 => Some(DrawReason::FewPieces),
        6 | 7 if quiet >= 120 => Some(DrawReason::FewPieces),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::movegen::legal_moves;
    use crate::rules::moves::find_hub_move;

    /// The counters and the draw verdict after `text` is played in `fen` with `before`.
    fn play(fen: &str, text: &str, before: DrawCounters) -> (DrawCounters, Option<DrawReason>) {
        let position = parse_position(fen).expect("valid position");
        let mv = find_hub_move(&legal_moves(&position), text).expect("legal move");
        let after = position.play(&mv);
        let counters = before.after(&position, &mv, &after);
        (
            counters,
            move_count_draw(&DrawRules::default(), &after, &counters),
        )
    }

    #[test]
    fn the_long_diagonal_defence_needs_five_moves_on_the_diagonal() {
        let late = DrawCounters {
            plies_since_material_change: 20,
            ..DrawCounters::default()
        };
        // The lone king reaches the diagonal late in the ending: the count only starts now.
        let (counters, draw) = play("B:WK1,K2,K3:BK21", "21-25", late);
        assert_eq!(counters.long_diagonal_plies, 1);
        assert_eq!(draw, None);
        // After ten plies on it, the ending is drawn.
        let held = DrawCounters {
            long_diagonal_plies: 9,
            ..late
        };
        let (counters, draw) = play("B:WK1,K2,K3:BK21", "21-25", held);
        assert_eq!(counters.long_diagonal_plies, 10);
        assert_eq!(draw, Some(DrawReason::LongDiagonalDefence));
        // A hunting king on the diagonal too (h8): the lone king does not hold it.
        let (counters, draw) = play("B:WK1,K2,K4:BK21", "21-25", held);
        assert_eq!(counters.long_diagonal_plies, 9);
        assert_eq!(draw, None);
        // A capture starts a new count.
        let (counters, _) = play("W:WK1,K2,K3,K14:BK21,18", "14x23x18", held);
        assert_eq!(counters.long_diagonal_plies, 0);
    }
}

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
//!
//! Russian draughts: lidraughts applies the very same set. Its `Russian` variant holds these rules
//! (FMJD-64 rules 7.2.3-7.2.8, the Russian federation's rules, cited there) and its `Brazilian`
//! variant calls Russian's for its draw counts, so [`MoveCountLimits::RUSSIAN`] equals
//! [`MoveCountLimits::BRAZILIAN`]; they are kept apart so that either can change alone. (An older
//! lidraughts had 30 and 60 plies for the 4-5 and 6-7 piece endings, and only when every piece
//! was a king; the current one counts 60 and 120 plies, the rule's 30 and 60 moves, as here.)
//! The counters need nothing per variant: a Russian man crowned in the middle of a capture has
//! captured, which resets every count that a promotion resets.

use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::variant::{Rules, Variant};

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

/// The counts, in plies, after which the move-count rules draw (the module documentation lists
/// the rules).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveCountLimits {
    /// Both sides have kings: consecutive king moves without capture.
    pub king_moves: u32,
    /// Three or more kings against a lone king: plies since the material last changed.
    pub three_kings_against_king: u32,
    /// A lone king against at most two pieces, one of them a king: plies since the material last
    /// changed.
    pub small_king_endgame: u32,
    /// A lone king holding the long diagonal against three pieces: plies of this material with
    /// the king on the diagonal.
    pub long_diagonal_defence: u32,
    /// Both sides have kings, 4 or 5 pieces on the board: plies without capture or promotion.
    pub four_or_five_pieces: u32,
    /// Both sides have kings, 6 or 7 pieces on the board: plies without capture or promotion.
    pub six_or_seven_pieces: u32,
}

impl MoveCountLimits {
    /// lidraughts' Brazilian counts (FMJD 8x8 rules 7.2.4-7.2.8).
    pub const BRAZILIAN: MoveCountLimits = MoveCountLimits {
        king_moves: 30,
        three_kings_against_king: 30,
        small_king_endgame: 10,
        long_diagonal_defence: 10,
        four_or_five_pieces: 60,
        six_or_seven_pieces: 120,
    };

    /// lidraughts' Russian counts: the same rules, which its Brazilian variant borrows (see the
    /// module documentation). One set, named twice, so that a variant's counts can part later.
    pub const RUSSIAN: MoveCountLimits = MoveCountLimits::BRAZILIAN;

    /// The counts of `variant`.
    pub const fn of(variant: Variant) -> MoveCountLimits {
        match variant {
            Variant::Brazilian => MoveCountLimits::BRAZILIAN,
            Variant::Russian => MoveCountLimits::RUSSIAN,
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

/// The move-count rule that draws `position` in Brazilian draughts, if any.
#[inline]
pub fn move_count_draw(
    rules: &DrawRules,
    position: &Position,
    counters: &DrawCounters,
) -> Option<DrawReason> {
    move_count_draw_with(&MoveCountLimits::BRAZILIAN, rules, position, counters)
}

/// [`move_count_draw`] under the rules `R` (the search's copy: the limits are constants).
#[inline]
pub fn move_count_draw_for<R: Rules>(
    rules: &DrawRules,
    position: &Position,
    counters: &DrawCounters,
) -> Option<DrawReason> {
    move_count_draw_with(&MoveCountLimits::of(R::VARIANT), rules, position, counters)
}

/// [`move_count_draw`] in the variant chosen at run time.
pub fn move_count_draw_in(
    variant: Variant,
    rules: &DrawRules,
    position: &Position,
    counters: &DrawCounters,
) -> Option<DrawReason> {
    move_count_draw_with(&MoveCountLimits::of(variant), rules, position, counters)
}

/// The move-count rule that draws `position` with the counts `limits`, if any.
#[inline]
pub fn move_count_draw_with(
    limits: &MoveCountLimits,
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
    if counters.king_only_plies >= limits.king_moves {
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
        if others <= 2 && quiet >= limits.small_king_endgame {
            return Some(DrawReason::SmallKingEndgame);
        }
        if counters.long_diagonal_plies >= limits.long_diagonal_defence
            && long_diagonal_defence(position)
        {
            return Some(DrawReason::LongDiagonalDefence);
        }
        if others >= 3 && other_kings == others && quiet >= limits.three_kings_against_king {
            return Some(DrawReason::ThreeKingsAgainstKing);
        }
    }
    let total = (white | black).count();
    match total {
        4 | 5 if quiet >= limits.four_or_five_pieces => Some(DrawReason::FewPieces),
        6 | 7 if quiet >= limits.six_or_seven_pieces => Some(DrawReason::FewPieces),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::movegen::{legal_moves, legal_moves_for};
    use crate::rules::moves::find_hub_move;
    use crate::rules::variant::Russian;

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

    /// [`play`] under the Russian rules and draw counts.
    fn play_russian(
        fen: &str,
        text: &str,
        before: DrawCounters,
    ) -> (DrawCounters, Option<DrawReason>) {
        let position = parse_position(fen).expect("valid position");
        let mv = find_hub_move(&legal_moves_for::<Russian>(&position), text).expect("legal move");
        let after = position.play_for::<Russian>(&mv);
        let counters = before.after(&position, &mv, &after);
        let draw = move_count_draw_in(Variant::Russian, &DrawRules::default(), &after, &counters);
        (counters, draw)
    }

    /// Counters `plies` plies into an ending in which nothing has been captured or promoted.
    fn quiet_for(plies: u32) -> DrawCounters {
        DrawCounters {
            plies_since_material_change: plies,
            ..DrawCounters::default()
        }
    }

    #[test]
    fn the_brazilian_counts_are_lidraughts_fmjd_ones() {
        let limits = MoveCountLimits::of(Variant::Brazilian);
        assert_eq!(limits, MoveCountLimits::BRAZILIAN);
        assert_eq!(
            (limits.king_moves, limits.three_kings_against_king),
            (30, 30)
        );
        assert_eq!(
            (limits.small_king_endgame, limits.long_diagonal_defence),
            (10, 10)
        );
        assert_eq!(
            (limits.four_or_five_pieces, limits.six_or_seven_pieces),
            (60, 120)
        );
    }

    #[test]
    fn russian_uses_the_counts_lidraughts_gives_its_russian_variant() {
        assert_eq!(
            MoveCountLimits::of(Variant::Russian),
            MoveCountLimits::RUSSIAN
        );
        // lidraughts' Brazilian borrows its Russian draw rules, so the two are equal.
        assert_eq!(MoveCountLimits::RUSSIAN, MoveCountLimits::BRAZILIAN);
    }

    #[test]
    fn russian_fifteen_king_moves_each_draw() {
        // Eight pieces, kings on both sides: only the king-move rule can apply.
        let fen = "W:WK1,9,10,11:BK32,20,21,22";
        let kings_only = |plies| DrawCounters {
            king_only_plies: plies,
            ..quiet_for(plies)
        };
        let (counters, draw) = play_russian(fen, "1-5", kings_only(28));
        assert_eq!((counters.king_only_plies, draw), (29, None));
        let (counters, draw) = play_russian(fen, "1-5", kings_only(29));
        assert_eq!(
            (counters.king_only_plies, draw),
            (30, Some(DrawReason::KingMoves))
        );
        // A man's move starts the count again.
        let (counters, draw) = play_russian(fen, "9-5", kings_only(29));
        assert_eq!((counters.king_only_plies, draw), (0, None));
    }

    #[test]
    fn russian_lone_king_endings_draw_after_their_counts() {
        // Three kings against one: 15 moves.
        let (_, draw) = play_russian("W:WK1,K2,K3:BK32", "1-5", quiet_for(28));
        assert_eq!(draw, None);
        let (_, draw) = play_russian("W:WK1,K2,K3:BK32", "1-5", quiet_for(29));
        assert_eq!(draw, Some(DrawReason::ThreeKingsAgainstKing));
        // Two kings against one: 5 moves.
        let (_, draw) = play_russian("W:WK1,K2:BK32", "1-5", quiet_for(8));
        assert_eq!(draw, None);
        let (_, draw) = play_russian("W:WK1,K2:BK32", "1-5", quiet_for(9));
        assert_eq!(draw, Some(DrawReason::SmallKingEndgame));
    }

    #[test]
    fn russian_king_endings_without_progress_draw_after_30_and_60_moves() {
        // Five pieces: 30 moves (60 plies).
        let five = "W:WK1,9:BK32,20,21";
        assert_eq!(play_russian(five, "1-5", quiet_for(58)).1, None);
        assert_eq!(
            play_russian(five, "1-5", quiet_for(59)).1,
            Some(DrawReason::FewPieces)
        );
        // Seven pieces: 60 moves (120 plies).
        let seven = "W:WK1,9,10:BK32,20,21,22";
        assert_eq!(play_russian(seven, "1-5", quiet_for(118)).1, None);
        assert_eq!(
            play_russian(seven, "1-5", quiet_for(119)).1,
            Some(DrawReason::FewPieces)
        );
    }

    #[test]
    fn a_russian_crowning_in_the_middle_of_a_capture_resets_the_counts() {
        // 10x3 over 7 crowns the man, which goes on as a king over 8 to 12 (or 16).
        let before = DrawCounters {
            king_only_plies: 20,
            plies_since_material_change: 50,
            long_diagonal_plies: 0,
        };
        let (counters, draw) = play_russian("W:W10,K29:B7,8,K32", "10x12x7x8", before);
        assert_eq!(counters, DrawCounters::default());
        assert_eq!(draw, None);
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

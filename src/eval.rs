//! Static evaluation: a small, fast, symmetric handcrafted evaluation.
//!
//! Every term is computed for White from White's side of the board and for Black from Black's side
//! (through tables built from rotated squares), so `evaluate(p) == evaluate(p.color_flipped())`.
//! The result is seen from the side to move, in [`Score`] units (100 = one man). Terms:
//!
//! * material: men and kings (a king is worth about three men);
//! * men's advancement, blended from an opening table to an endgame table by the number of pieces
//!   left (advancing early weakens, advancing late promotes);
//! * centre men (opening weight) and back-row guards (while the opponent has no king);
//! * kings on the long diagonal;
//! * runaway men: a man with no enemy man in the cone in front of it;
//! * drawish endings (a king against at most two pieces) are scaled towards zero.
//!
//! Every weight is a named constant in [`weights`]; a later tuner replaces them.

use crate::bitboard::{Bitboard, Direction};
use crate::position::{Color, Position};
use crate::score::Score;
use crate::square::Square;

/// All evaluation weights, in [`Score`] units.
pub mod weights {
    /// A man.
    pub const MAN: i32 = 100;
    /// A king (flying kings dominate the 8x8 board: about three men).
    pub const KING: i32 = 300;
    /// Bonus per man by rows advanced (0 = own back row, 6 = one step from promotion), opening.
    pub const ADVANCE_OPENING: [i32; 8] = [0, 0, 2, 4, 6, 9, 14, 0];
    /// The same, endgame (few pieces left): advancing is what wins.
    pub const ADVANCE_ENDGAME: [i32; 8] = [0, 6, 12, 20, 30, 42, 60, 0];
    /// A man on one of the four central squares (d4, f4, c5, e5 from White's side), opening.
    pub const CENTRE_OPENING: i32 = 8;
    /// A man on the wider centre ring (files c-f, rows 3-6 from own side), opening.
    pub const NEAR_CENTRE_OPENING: i32 = 3;
    /// A man on the a/h file (can be attacked from one side only but is passive), opening.
    pub const EDGE_OPENING: i32 = -4;
    /// A man still guarding the back row against promotion (c1, e1 for White), while the opponent
    /// has no king, weighted by the opening phase.
    pub const BACK_GUARD: i32 = 12;
    /// A king on the long diagonal a1-h8.
    pub const KING_LONG_DIAGONAL: i32 = 20;
    /// A man with no enemy man ahead of it in its cone, by rows advanced (opponent without kings).
    pub const RUNAWAY: [i32; 8] = [0, 0, 0, 6, 14, 28, 50, 0];
    /// Pieces on the board at the start: the opening end of the phase scale.
    pub const PHASE_PIECES: i32 = 24;
    /// Divisor of the score when the stronger side has at most two pieces against a king.
    pub const DRAWISH_DIVISOR: i32 = 8;
}

use weights::*;

/// Padded bit indices used by the tables (bits 0..=34, ghost bits unused).
const BITS: usize = 35;

/// Per-square man bonus tables for one colour, indexed by padded bit: (opening, endgame).
struct ManTables {
    opening: [i32; BITS],
    endgame: [i32; BITS],
    runaway: [i32; BITS],
    /// Squares in front of a man of this colour (its promotion cone), as raw bits.
    cone: [u64; BITS],
}

/// Rows advanced by a man of `color` on `square` (0 = own back row).
const fn advancement(square: Square, color: Color) -> usize {
    match color {
        Color::White => 7 - square.row() as usize,
        Color::Black => square.row() as usize,
    }
}

const fn man_tables(color: Color) -> ManTables {
    let mut tables = ManTables {
        opening: [0; BITS],
        endgame: [0; BITS],
        runaway: [0; BITS],
        cone: [0; BITS],
    };
    let mut number = 1;
    while number <= 32 {
        let square = match Square::from_number(number) {
            Some(square) => square,
            None => unreachable!(),
        };
        // Seen from this colour's side: the square as White would see it.
        let own = match color {
            Color::White => square,
            Color::Black => square.rotated(),
        };
        let advanced = advancement(square, color);
        let file = own.file();
        let row_from_own = 7 - own.row(); // 0 = own back row
        let mut opening = ADVANCE_OPENING[advanced];
        let endgame = ADVANCE_ENDGAME[advanced];
        let central = file >= 2 && file <= 5 && (row_from_own == 3 || row_from_own == 4);
        let near_centre = file >= 2 && file <= 5 && row_from_own >= 2 && row_from_own <= 5;
        if central {
            opening += CENTRE_OPENING;
        } else if near_centre {
            opening += NEAR_CENTRE_OPENING;
        }
        if file == 0 || file == 7 {
            opening += EDGE_OPENING;
        }
        let bit = square.bit() as usize;
        tables.opening[bit] = opening;
        tables.endgame[bit] = endgame;
        tables.runaway[bit] = RUNAWAY[advanced];
        tables.cone[bit] = cone(square, color);
        number += 1;
    }
    tables
}

/// The squares ahead of a man of `color` on `square` that an enemy man could use to stop it: the
/// widening triangle up to the promotion row.
const fn cone(square: Square, color: Color) -> u64 {
    let (left, right) = match color {
        Color::White => (Direction::UpLeft, Direction::UpRight),
        Color::Black => (Direction::DownLeft, Direction::DownRight),
    };
    let mut front = Bitboard::from_square(square).0;
    let mut reach = 0u64;
    while front != 0 {
        let spread = Bitboard(front);
        front = spread.step(left).0 | spread.step(right).0;
        reach |= front;
    }
    reach
}

const WHITE_MEN: ManTables = man_tables(Color::White);
const BLACK_MEN: ManTables = man_tables(Color::Black);

/// Back-row guard squares: c1 and e1 for White (30, 31), f8 and d8 for Black (3, 2).
const WHITE_GUARDS: Bitboard = Bitboard::from_numbers(&[30, 31]);
const BLACK_GUARDS: Bitboard = Bitboard::from_numbers(&[2, 3]);

/// Terms for one colour (White or Black), from that colour's point of view: (opening, endgame).
#[inline(always)]
fn side_terms(
    position: &Position,
    color: Color,
    tables: &ManTables,
    guards: Bitboard,
) -> (i32, i32) {
    let them = color.opponent();
    let men = position.men(color);
    let kings = position.kings(color);
    let enemy_men = position.men(them).0;
    let enemy_has_kings = position.kings(them).is_not_empty();
    let mut opening = 0;
    let mut endgame = 0;
    for square in men {
        let bit = square.bit() as usize;
        opening += tables.opening[bit];
        endgame += tables.endgame[bit];
        if !enemy_has_kings && tables.runaway[bit] != 0 && tables.cone[bit] & enemy_men == 0 {
            opening += tables.runaway[bit];
            endgame += tables.runaway[bit];
        }
    }
    if !enemy_has_kings {
        opening += (men & guards).count() as i32 * BACK_GUARD;
    }
    let long_diagonal = (kings & Bitboard::LONG_DIAGONAL).count() as i32 * KING_LONG_DIAGONAL;
    let material = men.count() as i32 * MAN + kings.count() as i32 * KING + long_diagonal;
    (opening + material, endgame + material)
}

/// The static evaluation of `position` from the side to move's point of view.
#[inline]
pub fn evaluate(position: &Position) -> Score {
    let (white_opening, white_endgame) =
        side_terms(position, Color::White, &WHITE_MEN, WHITE_GUARDS);
    let (black_opening, black_endgame) =
        side_terms(position, Color::Black, &BLACK_MEN, BLACK_GUARDS);
    let pieces = (position.occupied().count() as i32).min(PHASE_PIECES);
    let opening = white_opening - black_opening;
    let endgame = white_endgame - black_endgame;
    let mut white_view = (opening * pieces + endgame * (PHASE_PIECES - pieces)) / PHASE_PIECES;
    white_view = scale_drawish(position, white_view);
    let us = match position.side_to_move() {
        Color::White => white_view,
        Color::Black => -white_view,
    };
    Score::heuristic(us)
}

/// Pulls the score towards a draw in endings the stronger side cannot win: a king against at most
/// two pieces (also drawn by the move-count rules in 5 moves).
#[inline(always)]
fn scale_drawish(position: &Position, white_view: i32) -> i32 {
    let (stronger, weaker) = if white_view > 0 {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    if position.kings(weaker).is_not_empty() && position.pieces(stronger).count() <= 2 {
        white_view / DRAWISH_DIVISOR
    } else {
        white_view
    }
}

/// Whether `color` could capture if it were its turn (used to see threats in quiescence).
#[inline]
pub fn can_capture(position: &Position, color: Color) -> bool {
    let victims = position.pieces(color.opponent());
    let empty = position.empty_squares();
    let men = position.men(color);
    let kings = position.kings(color);
    for direction in Direction::ALL {
        let back = direction.opposite();
        let launch = (empty.step(back) & victims).step(back);
        if (launch & men).is_not_empty() {
            return true;
        }
        if kings.is_not_empty()
            && (((launch & empty).ray(back, empty) | launch) & kings).is_not_empty()
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_position;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), Score(0));
    }

    #[test]
    fn material_counts() {
        let up = parse_position("W:W21,22,23:B1,2").expect("valid");
        assert!(evaluate(&up).0 > 50);
        let flipped = up.color_flipped();
        assert_eq!(evaluate(&flipped), evaluate(&up));
    }

    #[test]
    fn threats_are_seen_for_either_side() {
        // White man on 22, black man on 18 with 15 empty: White to move can capture, and so
        // could Black (18x25 over 22 if 25 is empty).
        let position = parse_position("W:W22:B18").expect("valid");
        assert!(can_capture(&position, Color::White));
        assert!(can_capture(&position, Color::Black));
        let quiet = parse_position("W:W29:B1").expect("valid");
        assert!(!can_capture(&quiet, Color::White));
        assert!(!can_capture(&quiet, Color::Black));
    }
}

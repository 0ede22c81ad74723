//! Squares of the 8x8 board and their numbering.
//!
//! Only the 32 dark squares exist. They are numbered 1..=32 as in RULES.md: 1 = b8 at Black's back
//! row (top-left from White's side), 32 = g1 at White's back row. Internally a square is stored as
//! its bit index in the padded layout of [`crate::rules::bitboard`]: one unused "ghost" bit follows every
//! two rows, so that each diagonal step is the same shift everywhere and never wraps.

use std::fmt;

/// Number of playable squares.
pub const SQUARE_COUNT: usize = 32;

/// Slots in a table indexed by padded bit ([`Square::bit`] is below this): such a table skips
/// the division that [`Square::index`] makes, at the cost of three unused slots.
pub const BIT_SLOTS: usize = 35;

/// A playable square, stored as its bit index in the padded bitboard layout.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with the given standard number (1..=32), if it exists.
    pub const fn from_number(number: u32) -> Option<Square> {
        if number < 1 || number > 32 {
            return None;
        }
        let n = number - 1;
        Some(Square((n + n / 8) as u8))
    }

    /// The square at a padded bit index; `None` for ghost bits and indices off the board.
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit > 34 || bit % 9 == 8 {
            return None;
        }
        Some(Square(bit as u8))
    }

    /// The square at a bit index already known to be a playable square (a member of
    /// [`crate::rules::bitboard::Bitboard::BOARD`]); skips the check that [`Square::from_bit`] makes.
    #[inline(always)]
    pub(crate) const fn from_board_bit(bit: u32) -> Square {
        debug_assert!(bit <= 34 && bit % 9 != 8);
        Square(bit as u8)
    }

    /// The standard number, 1..=32.
    pub const fn number(self) -> u32 {
        let bit = self.0 as u32;
        bit - bit / 9 + 1
    }

    /// Index 0..32 (number - 1), for tables indexed by square.
    pub const fn index(self) -> usize {
        (self.number() - 1) as usize
    }

    /// The bit index in the padded layout.
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// Row from the top, 0 (Black's back row, squares 1-4) to 7 (White's back row, 29-32).
    pub const fn row(self) -> u32 {
        (self.number() - 1) / 4
    }

    /// File (column) 0 = a ... 7 = h.
    pub const fn file(self) -> u32 {
        let position_in_row = (self.number() - 1) % 4;
        // Even rows from the top (8th, 6th, ...) start on file b; odd rows start on file a.
        2 * position_in_row + self.row().is_multiple_of(2) as u32
    }

    /// The dark square at a file (0 = a) and rank (1..=8), if it is dark.
    pub const fn from_file_rank(file: u32, rank: u32) -> Option<Square> {
        if file > 7 || rank < 1 || rank > 8 {
            return None;
        }
        let row = 8 - rank;
        let row_starts_on_b = row.is_multiple_of(2);
        if (file % 2 == 1) != row_starts_on_b {
            return None; // a light square
        }
        Square::from_number(row * 4 + file / 2 + 1)
    }

    /// Algebraic name such as `a1` or `h8`.
    pub fn algebraic(self) -> String {
        let file = (b'a' + self.file() as u8) as char;
        format!("{}{}", file, 8 - self.row())
    }

    /// All 32 squares in numbering order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).filter_map(Square::from_number)
    }

    /// The same square seen from the other side of the board (rotated 180 degrees).
    pub const fn rotated(self) -> Square {
        match Square::from_number(33 - self.number()) {
            Some(square) => square,
            None => self,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_skip_ghosts() {
        for n in 1..=32 {
            let square = Square::from_number(n).expect("valid number");
            assert_eq!(square.number(), n);
            assert_eq!(Square::from_bit(square.bit()), Some(square));
        }
        assert_eq!(Square::from_number(0), None);
        assert_eq!(Square::from_number(33), None);
        for ghost in [8, 17, 26, 35] {
            assert_eq!(Square::from_bit(ghost), None);
        }
    }

    #[test]
    fn algebraic_names_follow_rules_md() {
        let name = |n| Square::from_number(n).map(Square::algebraic);
        assert_eq!(name(1).as_deref(), Some("b8"));
        assert_eq!(name(4).as_deref(), Some("h8"));
        assert_eq!(name(5).as_deref(), Some("a7"));
        assert_eq!(name(29).as_deref(), Some("a1"));
        assert_eq!(name(32).as_deref(), Some("g1"));
        assert_eq!(name(22).as_deref(), Some("c3"));
        for square in Square::all() {
            assert_eq!(
                Square::from_file_rank(square.file(), 8 - square.row()),
                Some(square)
            );
        }
        assert_eq!(Square::from_file_rank(0, 8), None, "a8 is light");
    }
}

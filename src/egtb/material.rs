//! Material splits and the stored orientation of a position.
//!
//! Tables only hold positions with the side to move playing "up the board" as White does: a
//! position with Black to move is first turned into the same game seen from the other side
//! (colours swapped, board rotated 180 degrees). A [`MaterialKey`] counts men and kings of the
//! side to move ("us") and of the other side ("them"). Squares are handled here as 32-bit masks in
//! standard numbering (bit `n - 1` is square `n`), where the 180-degree rotation is a bit reversal.

use crate::rules::bitboard::Bitboard;
use crate::rules::position::{Color, Position};
use std::fmt;

/// The most pieces of one kind a key can describe (keeps the dense key space small).
pub const MAX_PER_KIND: u8 = 7;

/// Men and kings of the side to move and of the other side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct MaterialKey {
    /// Men of the side to move.
    pub us_men: u8,
    /// Kings of the side to move.
    pub us_kings: u8,
    /// Men of the other side.
    pub them_men: u8,
    /// Kings of the other side.
    pub them_kings: u8,
}

impl MaterialKey {
    /// The key with these counts, in field order; not checked (see [`MaterialKey::is_valid`]).
    pub const fn new(us_men: u8, us_kings: u8, them_men: u8, them_kings: u8) -> MaterialKey {
        MaterialKey {
            us_men,
            us_kings,
            them_men,
            them_kings,
        }
    }

    /// Pieces of both sides, men and kings.
    pub const fn pieces(self) -> u32 {
        (self.us_men + self.us_kings + self.them_men + self.them_kings) as u32
    }

    /// Men of both sides: the pieces that may still promote.
    pub const fn men(self) -> u32 {
        (self.us_men + self.them_men) as u32
    }

    /// The same material with the other side to move.
    pub const fn mirrored(self) -> MaterialKey {
        MaterialKey::new(self.them_men, self.them_kings, self.us_men, self.us_kings)
    }

    /// Both sides have a piece and no kind exceeds [`MAX_PER_KIND`] (and men fit on their 28
    /// squares, which they always do at these counts).
    pub const fn is_valid(self) -> bool {
        self.us_men + self.us_kings >= 1
            && self.them_men + self.them_kings >= 1
            && self.us_men <= MAX_PER_KIND
            && self.us_kings <= MAX_PER_KIND
            && self.them_men <= MAX_PER_KIND
            && self.them_kings <= MAX_PER_KIND
    }

    /// A dense number below [`MaterialKey::DENSE_COUNT`], for table arrays.
    pub(crate) const fn dense(self) -> usize {
        let base = MAX_PER_KIND as usize + 1;
        ((self.us_men as usize * base + self.us_kings as usize) * base + self.them_men as usize)
            * base
            + self.them_kings as usize
    }

    /// Number of dense slots: every [`MaterialKey::dense`] value is below it.
    pub(crate) const DENSE_COUNT: usize = (MAX_PER_KIND as usize + 1).pow(4);

    /// Every valid split with `2..=max_pieces` pieces, in generation order: fewer pieces first,
    /// then fewer men (a promotion turns a man into a king, a capture removes pieces, so every
    /// table a move can reach comes earlier), then the key itself for a stable order.
    pub fn all_up_to(max_pieces: u32) -> Vec<MaterialKey> {
        let top = (max_pieces.min(4 * MAX_PER_KIND as u32)) as u8;
        let mut keys = Vec::new();
        for us_men in 0..=top.min(MAX_PER_KIND) {
            for us_kings in 0..=top.min(MAX_PER_KIND) {
                for them_men in 0..=top.min(MAX_PER_KIND) {
                    for them_kings in 0..=top.min(MAX_PER_KIND) {
                        let key = MaterialKey::new(us_men, us_kings, them_men, them_kings);
                        if key.is_valid() && key.pieces() <= max_pieces {
                            keys.push(key);
                        }
                    }
                }
            }
        }
        keys.sort_by_key(|key| (key.pieces(), key.men(), *key));
        keys
    }

    /// The file stem of this table, e.g. `m1k2_m0k1` (us: one man, two kings; them: one king).
    pub fn name(self) -> String {
        format!(
            "m{}k{}_m{}k{}",
            self.us_men, self.us_kings, self.them_men, self.them_kings
        )
    }

    /// Reads a name written by [`MaterialKey::name`].
    pub fn parse_name(name: &str) -> Option<MaterialKey> {
        let bytes = name.as_bytes();
        if bytes.len() != 9 || &name[0..1] != "m" || &name[2..3] != "k" || &name[4..6] != "_m" {
            return None;
        }
        if &name[7..8] != "k" {
            return None;
        }
        let digit = |i: usize| -> Option<u8> {
            let c = bytes[i];
            c.is_ascii_digit().then_some(c - b'0')
        };
        let key = MaterialKey::new(digit(1)?, digit(3)?, digit(6)?, digit(8)?);
        key.is_valid().then_some(key)
    }
}

impl fmt::Display for MaterialKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

/// A position in stored orientation: "us" is to move and plays up the board. Masks use standard
/// numbering (bit `n - 1` is square `n`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Canonical {
    /// Men of the side to move, which plays up the board (towards squares 1-4).
    pub us_men: u32,
    /// Kings of the side to move.
    pub us_kings: u32,
    /// Men of the other side, which play down the board (towards squares 29-32).
    pub them_men: u32,
    /// Kings of the other side.
    pub them_kings: u32,
}

/// The 32 playable squares of a padded bitboard as a standard-numbered mask.
#[inline(always)]
pub const fn compact(set: Bitboard) -> u32 {
    let bits = set.0;
    ((bits & 0xFF)
        | ((bits >> 9) & 0xFF) << 8
        | ((bits >> 18) & 0xFF) << 16
        | ((bits >> 27) & 0xFF) << 24) as u32
}

/// The inverse of [`compact`].
#[inline(always)]
pub const fn expand(mask: u32) -> Bitboard {
    let bits = mask as u64;
    Bitboard(
        (bits & 0xFF)
            | ((bits >> 8) & 0xFF) << 9
            | ((bits >> 16) & 0xFF) << 18
            | ((bits >> 24) & 0xFF) << 27,
    )
}

impl Canonical {
    /// The stored orientation of `position`.
    #[inline]
    pub fn of(position: &Position) -> Canonical {
        let kings = position.all_kings();
        let white = position.pieces(Color::White);
        let black = position.pieces(Color::Black);
        match position.side_to_move() {
            Color::White => Canonical {
                us_men: compact(white - kings),
                us_kings: compact(white & kings),
                them_men: compact(black - kings),
                them_kings: compact(black & kings),
            },
            Color::Black => Canonical {
                us_men: compact(black - kings).reverse_bits(),
                us_kings: compact(black & kings).reverse_bits(),
                them_men: compact(white - kings).reverse_bits(),
                them_kings: compact(white & kings).reverse_bits(),
            },
        }
    }

    /// The material split: how many pieces of each kind the masks hold.
    pub const fn key(&self) -> MaterialKey {
        MaterialKey::new(
            self.us_men.count_ones() as u8,
            self.us_kings.count_ones() as u8,
            self.them_men.count_ones() as u8,
            self.them_kings.count_ones() as u8,
        )
    }

    /// The position with White ("us") to move.
    pub fn position(&self) -> Position {
        Position::from_parts(
            expand(self.us_men | self.us_kings),
            expand(self.them_men | self.them_kings),
            expand(self.us_kings | self.them_kings),
            Color::White,
        )
    }

    /// Every occupied square, as a standard-numbered mask.
    pub const fn occupied(&self) -> u32 {
        self.us_men | self.us_kings | self.them_men | self.them_kings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn compact_and_expand_are_inverse() {
        for mask in [0u32, 1, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678] {
            assert_eq!(compact(expand(mask)), mask);
        }
        assert_eq!(expand(u32::MAX), Bitboard::BOARD);
    }

    #[test]
    fn black_to_move_is_rotated() {
        let position = parse_position("B:W32,K5:B1").expect("valid");
        let canonical = Canonical::of(&position);
        // Black's man on 1 becomes our man on 32; White's man on 32 their man on 1.
        assert_eq!(canonical.us_men, 1 << 31);
        assert_eq!(canonical.them_men, 1);
        assert_eq!(canonical.them_kings, 1 << (32 - 5));
        assert_eq!(canonical.position(), position.color_flipped());
    }

    #[test]
    fn names_round_trip() {
        for key in MaterialKey::all_up_to(5) {
            assert_eq!(MaterialKey::parse_name(&key.name()), Some(key));
        }
        assert_eq!(MaterialKey::parse_name("m1k2_m0k"), None);
        assert_eq!(MaterialKey::parse_name("m0k0_m0k1"), None);
    }
}

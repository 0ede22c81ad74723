//! The position: who stands where and who is to move, as a small `Copy` value.
//!
//! Three bitboards (white pieces, black pieces, kings of either colour) and the side to move, plus
//! a Zobrist key kept up to date by [`Position::play`]. Playing a move returns a new position; the
//! move must be legal (see [`crate::rules::movegen`]), which the caller guarantees. Text forms (FEN and Hub
//! strings) live in the notation module (`notation::fen`).

use crate::rules::bitboard::Bitboard;
use crate::rules::moves::Move;
use crate::rules::square::Square;
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use crate::rules::zobrist;

/// A player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Starts on squares 21-32 and moves up the board, towards squares 1-4; moves first.
    White,
    /// Starts on squares 1-12 and moves down the board, towards squares 29-32.
    Black,
}

impl Color {
    /// The player who moves after this one.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The row where this colour's men become kings.
    pub const fn promotion_row(self) -> Bitboard {
        match self {
            Color::White => Bitboard::BLACK_BACK_ROW,
            Color::Black => Bitboard::WHITE_BACK_ROW,
        }
    }

    /// The row just before [`Color::promotion_row`]: a man of this colour captures a piece
    /// standing there only by jumping onto the promotion row or from it, so a capture by a man
    /// takes a piece from this row exactly when the man reached the far row during the move.
    pub const fn row_before_promotion(self) -> Bitboard {
        match self {
            Color::White => Bitboard::from_numbers(&[5, 6, 7, 8]),
            Color::Black => Bitboard::from_numbers(&[25, 26, 27, 28]),
        }
    }
}

/// A piece: colour and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Whether it is a king (moves and captures at a distance, in all four directions) rather than
    /// a man.
    pub king: bool,
}

impl Piece {
    /// 0 white man, 1 black man, 2 white king, 3 black king.
    pub const fn index(self) -> usize {
        (self.color as usize) + 2 * (self.king as usize)
    }
}

/// A board position with the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
    key: u64,
}

impl Position {
    /// The initial position: Black men on 1-12, White men on 21-32, White to move.
    pub fn start() -> Position {
        let black = Bitboard::from_numbers(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        let white = Bitboard::from_numbers(&[21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]);
        Position::from_parts(white, black, Bitboard::EMPTY, Color::White)
    }

    /// Builds a position from its sets. The caller ensures the sets are disjoint and that `kings`
    /// is a subset of the pieces; the notation module (`notation::fen`) validates text input before calling this.
    pub fn from_parts(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Position {
        debug_assert!((white & black).is_empty());
        debug_assert!((kings - (white | black)).is_empty());
        let mut position = Position {
            white,
            black,
            kings,
            side,
            key: 0,
        };
        position.key = position.computed_key();
        position
    }

    /// The player whose turn it is.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// Every piece of `color`, men and kings.
    #[inline(always)]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The men of `color`: its pieces that are not kings.
    #[inline(always)]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces(color) - self.kings
    }

    /// The kings of `color`.
    #[inline(always)]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.pieces(color) & self.kings
    }

    /// Kings of both colours.
    #[inline(always)]
    pub const fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Every square holding a piece of either colour.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    /// Every playable square with no piece on it.
    #[inline(always)]
    pub fn empty_squares(&self) -> Bitboard {
        !self.occupied()
    }

    /// The Zobrist key, maintained incrementally.
    #[inline(always)]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let king = self.kings.contains(square);
        if self.white.contains(square) {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.black.contains(square) {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// The key computed from scratch; equal to [`Position::key`] for every reachable position.
    pub fn computed_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::SIDE
        } else {
            0
        };
        for square in self.occupied() {
            if let Some(piece) = self.piece_at(square) {
                key ^= zobrist::PIECE_SQUARE[piece.index()][square.bit() as usize];
            }
        }
        key
    }

    /// The position after a legal Brazilian move of the side to move.
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> Position {
        self.play_for::<Brazilian>(mv)
    }

    /// The position after a legal move of the side to move under the rules `R`.
    #[inline(always)]
    pub fn play_for<R: Rules>(&self, mv: &Move) -> Position {
        let mut next = self.play_unkeyed::<R>(mv);
        next.key = self.key_after::<R>(mv);
        next
    }

    /// The position after a legal move in the variant chosen at run time (for the layers above
    /// the search, which play a move at a time).
    pub fn play_in(&self, variant: Variant, mv: &Move) -> Position {
        match variant {
            Variant::Brazilian => self.play_for::<Brazilian>(mv),
            Variant::Russian => self.play_for::<Russian>(mv),
        }
    }

    /// [`Position::play_for`] without the Zobrist key, which keeps the parent's value: for perft,
    /// which never reads keys.
    #[inline(always)]
    pub(crate) fn play_unkeyed<R: Rules>(&self, mv: &Move) -> Position {
        let us = self.side;
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);
        let (_, becomes_king) = self.kingship::<R>(mv);

        let mut next = *self;
        if mv.captured.is_not_empty() {
            match us.opponent() {
                Color::White => next.white = self.white - mv.captured,
                Color::Black => next.black = self.black - mv.captured,
            }
            next.kings = next.kings - mv.captured;
        }
        // Remove first, then add: a king's capture may end on its own starting square.
        match us {
            Color::White => next.white = (next.white - from) | to,
            Color::Black => next.black = (next.black - from) | to,
        }
        next.kings = next.kings - from;
        if becomes_king {
            next.kings |= to;
        }
        next.side = us.opponent();
        next
    }

    /// [`Position::play_unkeyed`] for a quiet move from `from` to `to` of a piece of the side to
    /// move `us` that the caller knows to be a king or a man: no capture to remove and no [`Move`] to
    /// read, for perft's last-but-one ply. Kept apart from `play_unkeyed` on purpose: calling
    /// that with a quiet `Move` cost perft 4% more instructions, and a body shared by both cost
    /// perft 6% and the search 1%.
    #[inline(always)]
    pub(crate) fn play_quiet_unkeyed(
        &self,
        us: Color,
        from: Square,
        to: Square,
        is_king: bool,
    ) -> Position {
        debug_assert_eq!(us, self.side);
        let from = Bitboard::from_square(from);
        let to = Bitboard::from_square(to);
        let path = from | to;
        let mut next = *self;
        match us {
            Color::White => next.white ^= path,
            Color::Black => next.black ^= path,
        }
        if is_king {
            next.kings ^= path;
        } else {
            next.kings |= to & us.promotion_row();
        }
        next.side = us.opponent();
        next
    }

    /// Whether the piece a legal move of the side to move plays is a king before the move, and
    /// after it. A man is crowned where the move ends on the far row; under rules that crown
    /// during a capture also when it passed the far row on the way, which the move tells by the
    /// pieces it took (see [`Color::row_before_promotion`]).
    #[inline(always)]
    pub(crate) fn kingship<R: Rules>(&self, mv: &Move) -> (bool, bool) {
        let was_king = self.kings.contains(mv.from);
        let crowned_on_the_way = R::CROWNS_DURING_CAPTURE
            && (mv.captured & self.side.row_before_promotion()).is_not_empty();
        let becomes_king =
            was_king || self.side.promotion_row().contains(mv.to) || crowned_on_the_way;
        (was_king, becomes_king)
    }

    /// The Zobrist key of the position after a legal move, without playing it.
    #[inline(always)]
    pub(crate) fn key_after<R: Rules>(&self, mv: &Move) -> u64 {
        self.key ^ self.key_change::<R>(mv)
    }

    /// What a legal move of the side to move changes in the Zobrist key.
    #[inline(always)]
    fn key_change<R: Rules>(&self, mv: &Move) -> u64 {
        let us = self.side;
        let (was_king, becomes_king) = self.kingship::<R>(mv);
        let mover = Piece {
            color: us,
            king: was_king,
        };
        let landed = Piece {
            color: us,
            king: becomes_king,
        };
        let mut change = zobrist::SIDE
            ^ zobrist::PIECE_SQUARE[mover.index()][mv.from.bit() as usize]
            ^ zobrist::PIECE_SQUARE[landed.index()][mv.to.bit() as usize];
        for square in mv.captured {
            let victim = Piece {
                color: us.opponent(),
                king: self.kings.contains(square),
            };
            change ^= zobrist::PIECE_SQUARE[victim.index()][square.bit() as usize];
        }
        change
    }

    /// The same game seen from the other side: colours swapped, board rotated 180 degrees, the
    /// other side to move. Evaluation and search must treat both alike.
    pub fn color_flipped(&self) -> Position {
        let rotate = |set: Bitboard| -> Bitboard { set.squares().map(Square::rotated).collect() };
        Position::from_parts(
            rotate(self.black),
            rotate(self.white),
            rotate(self.kings),
            self.side.opponent(),
        )
    }
}

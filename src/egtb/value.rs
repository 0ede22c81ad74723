//! Results of table positions: [`Wdl`] for the side to move, and the one-byte code the generator
//! and the distance tables use, which adds the distance to conversion.
//!
//! Distance to conversion (DTC) counts plies until the game ends or the material changes (a
//! capture or a promotion), with the winner hurrying and the loser delaying. It restarts at every
//! conversion, exactly like the move-count draw rules of [`crate::game::draw`], which is why it is the
//! distance a winning side must keep short.

use std::fmt;

/// Win, draw or loss for the side to move, with perfect play and no move-count draw rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses against best play (at once if it has no legal move).
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move can force a win.
    Win,
}

impl Wdl {
    /// The value for the other side.
    pub const fn negated(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The 2-bit symbol stored in WDL tables.
    pub const fn symbol(self) -> u8 {
        self as u8
    }

    /// The value of a stored symbol (the inverse of [`Wdl::symbol`]); `None` for 3 and above.
    pub const fn from_symbol(symbol: u8) -> Option<Wdl> {
        match symbol {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// One position's result with its distance to conversion, packed in a byte:
/// `0` undecided (a draw once generation ends), `1..=127` a loss in `code - 1` plies,
/// `128..=254` a win in `code - 127` plies, `255` an unused index number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Code(pub u8);

impl Code {
    /// Undecided while generating; a draw once generation ends.
    pub const DRAW: Code = Code(0);
    /// An index number no position has (a man of each side on the same square).
    pub const UNUSED: Code = Code(255);
    /// The longest loss distance a code holds.
    pub const MAX_LOSS: u32 = 126;
    /// The longest win distance a code holds.
    pub const MAX_WIN: u32 = 127;

    /// A loss in `plies`, if the code can hold it.
    pub const fn loss(plies: u32) -> Option<Code> {
        if plies <= Code::MAX_LOSS {
            Some(Code(1 + plies as u8))
        } else {
            None
        }
    }

    /// A win in `plies` (at least one), if the code can hold it.
    pub const fn win(plies: u32) -> Option<Code> {
        if plies >= 1 && plies <= Code::MAX_WIN {
            Some(Code(127 + plies as u8))
        } else {
            None
        }
    }

    /// The result without the distance; undecided and unused codes read as draws.
    pub const fn wdl(self) -> Wdl {
        match self.0 {
            1..=127 => Wdl::Loss,
            128..=254 => Wdl::Win,
            _ => Wdl::Draw,
        }
    }

    /// Plies to conversion for wins and losses, `None` for draws.
    pub const fn plies(self) -> Option<u32> {
        match self.0 {
            1..=127 => Some(self.0 as u32 - 1),
            128..=254 => Some(self.0 as u32 - 127),
            _ => None,
        }
    }

    /// Whether the code is a win, in any number of plies.
    pub const fn is_win(self) -> bool {
        matches!(self.0, 128..=254)
    }

    /// Whether the code is a loss, in any number of plies (0: no legal move).
    pub const fn is_loss(self) -> bool {
        matches!(self.0, 1..=127)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for plies in 0..=Code::MAX_LOSS {
            let code = Code::loss(plies).expect("fits");
            assert_eq!((code.wdl(), code.plies()), (Wdl::Loss, Some(plies)));
        }
        for plies in 1..=Code::MAX_WIN {
            let code = Code::win(plies).expect("fits");
            assert_eq!((code.wdl(), code.plies()), (Wdl::Win, Some(plies)));
        }
        assert_eq!(Code::win(0), None);
        assert_eq!(Code::loss(127), None);
        assert_eq!(Code::DRAW.wdl(), Wdl::Draw);
        for symbol in 0..3 {
            assert_eq!(Wdl::from_symbol(symbol).map(Wdl::symbol), Some(symbol));
        }
    }
}

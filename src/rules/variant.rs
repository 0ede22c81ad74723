//! The rule variants the move generator knows: Brazilian and Russian draughts.
//!
//! The two share the board, the start position, the men's and kings' moves and the way captured
//! pieces stay on the board until the move ends. They differ in two capture rules:
//!
//! * **Brazilian**: only the sequences that capture the most pieces are legal (the majority rule),
//!   and a man that crosses the far row in the middle of a capture stays a man.
//! * **Russian**: any capture sequence may be chosen, but a sequence once started must be
//!   completed (a king must land where it can go on capturing, if there is such a square); a man
//!   that reaches the far row during a capture is crowned at once and continues as a king.
//!
//! The hot paths (move generation, playing a move, perft) take the variant as a type parameter
//! implementing [`Rules`], so each variant gets its own compiled copy with the differences folded
//! away as constants: Brazilian play pays nothing for Russian's existence. The runtime [`Variant`]
//! is for the layers above (command line, protocol), which choose a copy once, at the top.

use std::fmt;
use std::str::FromStr;

/// The capture rules of one variant, as constants read at compile time.
pub trait Rules: Copy + Send + Sync + 'static {
    /// The runtime name of these rules.
    const VARIANT: Variant;
    /// Whether only the captures taking the most pieces are legal (Brazilian); otherwise the
    /// player chooses freely among the complete capture sequences (Russian).
    const MAJORITY_CAPTURE: bool;
    /// Whether a man reaching the far row in the middle of a capture is crowned there and goes on
    /// capturing as a king (Russian); otherwise it is crowned only if the move ends there.
    const CROWNS_DURING_CAPTURE: bool;
}

/// Brazilian draughts: the international (FMJD 10x10) rules on the 8x8 board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Brazilian;

impl Rules for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    const MAJORITY_CAPTURE: bool = true;
    const CROWNS_DURING_CAPTURE: bool = false;
}

/// Russian draughts: free choice of capture, crowning during a capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Russian;

impl Rules for Russian {
    const VARIANT: Variant = Variant::Russian;
    const MAJORITY_CAPTURE: bool = false;
    const CROWNS_DURING_CAPTURE: bool = true;
}

/// A variant chosen at run time (from the command line or a protocol message).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// See [`Brazilian`].
    #[default]
    Brazilian,
    /// See [`Russian`].
    Russian,
}

impl Variant {
    /// Every variant, in a fixed order.
    pub const ALL: [Variant; 2] = [Variant::Brazilian, Variant::Russian];

    /// The lower-case name used on the command line: `brazilian` or `russian`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a variant name could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected brazilian or russian)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads `brazilian` or `russian`, in any letter case.
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        let wanted = text.trim();
        Variant::ALL
            .into_iter()
            .find(|variant| variant.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownVariant(wanted.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_the_same_variant() {
        for variant in Variant::ALL {
            assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
        }
        assert_eq!("Russian".parse::<Variant>(), Ok(Variant::Russian));
        assert!("international".parse::<Variant>().is_err());
    }

    #[test]
    fn the_rule_types_name_their_variant() {
        assert_eq!(Brazilian::VARIANT, Variant::Brazilian);
        assert_eq!(Russian::VARIANT, Variant::Russian);
        assert_eq!(Variant::default(), Variant::Brazilian);
    }
}

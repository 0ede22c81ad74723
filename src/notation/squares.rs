//! How game files name squares: algebraic names (`c3`, a1 bottom left, the PDN standard for
//! Brazilian draughts) or numbers in one of the two numberings in use: 1 = b8 (Hub, lidraughts,
//! our internal numbering) or 1 = a1 (Russian books, pydraughts 0.6's public board). The PDN
//! `GameType` tag names the game in its first field (26 Brazilian, 25 Russian draughts) and the
//! notation in its fifth (`A0`, `N2`, `N0`).

use crate::rules::moves::parse_square;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// The square names of a PDN file (the notation field of its `GameType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SquareNotation {
    /// `A0`: algebraic names, a1 in White's bottom-left corner (`GameType "26"` means this).
    #[default]
    Algebraic,
    /// `N2`: numbers with 1 = b8 ... 4 = h8, 29 = a1 ... 32 = g1 (Hub, lidraughts).
    HubNumbers,
    /// `N0`: numbers with 1 = a1, 2 = c1 ... 5 = b2 ... 32 = h8 (rows from White's side).
    A1Numbers,
}

/// The game type number of Brazilian draughts in PDN.
pub const BRAZILIAN_GAME_TYPE: u32 = 26;
/// The game type number of Russian draughts in PDN.
pub const RUSSIAN_GAME_TYPE: u32 = 25;

/// The PDN game type number of `variant`.
pub const fn game_type_number(variant: Variant) -> u32 {
    match variant {
        Variant::Brazilian => BRAZILIAN_GAME_TYPE,
        Variant::Russian => RUSSIAN_GAME_TYPE,
    }
}

impl SquareNotation {
    /// The notations, in the order `--help` lists them.
    pub const ALL: [SquareNotation; 3] = [
        SquareNotation::Algebraic,
        SquareNotation::HubNumbers,
        SquareNotation::A1Numbers,
    ];

    /// The `GameType` tag value that announces this notation: the short form `26` for the
    /// standard's default, the full form otherwise.
    pub fn game_type(self) -> &'static str {
        match self {
            SquareNotation::Algebraic => "26",
            SquareNotation::HubNumbers => "26,W,8,8,N2,0",
            SquareNotation::A1Numbers => "26,W,8,8,N0,0",
        }
    }

    /// The `GameType` tag value that announces this notation in a game of `variant`: the
    /// Brazilian values of [`SquareNotation::game_type`], or the same with 25 for Russian.
    pub fn game_type_in(self, variant: Variant) -> String {
        let brazilian = self.game_type();
        match variant {
            Variant::Brazilian => brazilian.to_string(),
            Variant::Russian => brazilian.replacen(
                &BRAZILIAN_GAME_TYPE.to_string(),
                &RUSSIAN_GAME_TYPE.to_string(),
                1,
            ),
        }
    }

    /// Reads a `GameType` tag value's notation (see [`read_game_type`]).
    pub fn from_game_type(text: &str) -> Result<SquareNotation, String> {
        read_game_type(text).map(|(_, notation)| notation)
    }
}

/// Reads a `GameType` tag value: `26` (Brazilian) or `25` (Russian) alone or as
/// `N,W,8,8,X,0` with notation field `A0`, `N2` or `N0`. Other game types (another game, another
/// board) are refused with the reason.
pub fn read_game_type(text: &str) -> Result<(Variant, SquareNotation), String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let number: Option<u32> = fields[0].parse().ok();
    let Some(variant) = Variant::ALL
        .into_iter()
        .find(|&variant| number == Some(game_type_number(variant)))
    else {
        return Err(format!(
            "GameType '{text}' is neither Brazilian ({BRAZILIAN_GAME_TYPE}) nor Russian \
         ({RUSSIAN_GAME_TYPE}) draughts"
        ));
    };
    let notation = match fields.as_slice() {
        [_] => Ok(SquareNotation::Algebraic),
        [_, _, width, height, notation, _] => {
            if (*width, *height) != ("8", "8") {
                return Err(format!("GameType '{text}': the board must be 8 by 8"));
            }
            match notation.to_ascii_uppercase().as_str() {
                "A0" => Ok(SquareNotation::Algebraic),
                "N2" => Ok(SquareNotation::HubNumbers),
                "N0" => Ok(SquareNotation::A1Numbers),
                other => Err(format!(
                    "GameType '{text}': notation '{other}' is not supported (A0, N2 or N0)"
                )),
            }
        }
        _ => Err(format!(
            "GameType '{text}': expected 26, 25 or <26|25>,W,8,8,<notation>,0"
        )),
    }?;
    Ok((variant, notation))
}

impl SquareNotation {
    /// The square's name in this notation.
    pub fn name(self, square: Square) -> String {
        match self {
            SquareNotation::Algebraic => square.algebraic(),
            SquareNotation::HubNumbers | SquareNotation::A1Numbers => {
                self.number(square).to_string()
            }
        }
    }

    /// The square's number in this notation's numbering (the Hub numbering for algebraic
    /// files, whose numbers are read that way).
    pub fn number(self, square: Square) -> u32 {
        match self {
            SquareNotation::A1Numbers => flip_rows(square.number()),
            SquareNotation::Algebraic | SquareNotation::HubNumbers => square.number(),
        }
    }

    /// The square numbered `number` in this notation's numbering.
    pub fn square_of_number(self, number: u32) -> Option<Square> {
        match self {
            SquareNotation::A1Numbers if (1..=32).contains(&number) => {
                Square::from_number(flip_rows(number))
            }
            SquareNotation::A1Numbers => None,
            SquareNotation::Algebraic | SquareNotation::HubNumbers => Square::from_number(number),
        }
    }

    /// Reads a square: an algebraic name in any notation, or a number in this notation's
    /// numbering. Algebraic files take numbers in the Hub numbering, as earlier Onça files and
    /// most numeric Brazilian files without a notation field use it.
    pub fn read(self, text: &str) -> Result<Square, String> {
        let text = text.trim();
        let numeric = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if self == SquareNotation::A1Numbers && numeric {
            return text
                .parse::<u32>()
                .ok()
                .and_then(|number| self.square_of_number(number))
                .ok_or_else(|| format!("square '{text}' is not between 1 and 32"));
        }
        parse_square(text)
    }
}

/// Between the two numberings: rows counted from the other side, files in the same order.
/// Square `n` of one numbering is square `flip_rows(n)` of the other (the map is its own
/// inverse).
const fn flip_rows(number: u32) -> u32 {
    let row = (number - 1) / 4;
    let in_row = (number - 1) % 4;
    (7 - row) * 4 + in_row + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(number: u32) -> Square {
        Square::from_number(number).expect("a square")
    }

    #[test]
    fn the_three_notations_name_the_corners_as_published() {
        let a1 = square(29);
        let h8 = square(4);
        let b8 = square(1);
        assert_eq!(SquareNotation::Algebraic.name(a1), "a1");
        assert_eq!(SquareNotation::HubNumbers.name(a1), "29");
        assert_eq!(SquareNotation::A1Numbers.name(a1), "1");
        assert_eq!(SquareNotation::A1Numbers.name(square(30)), "2");
        assert_eq!(SquareNotation::A1Numbers.name(square(25)), "5");
        assert_eq!(SquareNotation::A1Numbers.name(h8), "32");
        assert_eq!(SquareNotation::A1Numbers.name(b8), "29");
        for notation in SquareNotation::ALL {
            for square in Square::all() {
                assert_eq!(notation.read(&notation.name(square)), Ok(square));
                assert_eq!(notation.read(&square.algebraic()), Ok(square));
            }
        }
        assert!(SquareNotation::A1Numbers.read("33").is_err());
        assert!(
            SquareNotation::Algebraic.read("b1").is_err(),
            "light square"
        );
    }

    #[test]
    fn game_types_name_their_notation() {
        for notation in SquareNotation::ALL {
            assert_eq!(
                SquareNotation::from_game_type(notation.game_type()),
                Ok(notation)
            );
        }
        assert_eq!(
            SquareNotation::from_game_type("26,W,8,8,A0,0"),
            Ok(SquareNotation::Algebraic)
        );
        assert!(SquareNotation::from_game_type("20").is_err());
        for notation in SquareNotation::ALL {
            for variant in Variant::ALL {
                assert_eq!(
                    read_game_type(&notation.game_type_in(variant)),
                    Ok((variant, notation))
                );
            }
        }
        assert_eq!(
            read_game_type("25"),
            Ok((Variant::Russian, SquareNotation::Algebraic))
        );
        assert_eq!(
            SquareNotation::HubNumbers.game_type_in(Variant::Russian),
            "25,W,8,8,N2,0"
        );
        assert!(SquareNotation::from_game_type("26,W,10,10,N2,0").is_err());
        assert!(SquareNotation::from_game_type("26,W,8,8,N1,0").is_err());
        assert!(SquareNotation::from_game_type("26,W,8").is_err());
        assert!(SquareNotation::from_game_type("").is_err());
    }
}

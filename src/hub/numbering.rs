//! The two square numberings that Hub hosts use for moves on 8x8, and the switch between them.
//!
//! `Standard` is our own numbering (1 = b8 ... 32 = g1, see [`crate::rules::square`]); pydraughts 0.5
//! and the Hub GUI use it for positions and moves. pydraughts 0.6 keeps it for positions but writes
//! and reads moves in a rank-mirrored numbering (1 = a1, 2 = c1, ... 32 = h8): `Mirrored`. Nothing
//! in a move list tells the two apart, so the host chooses with the `move-numbering` parameter.
//! Positions are never mirrored.

use crate::rules::moves::Move;
use crate::rules::square::Square;

/// How square numbers in move text are read and written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MoveNumbering {
    /// Our own numbering: 1 = b8, 2 = d8, ... 32 = g1 (pydraughts 0.5, the Hub GUI).
    #[default]
    Standard,
    /// Rank-mirrored: 1 = a1, 2 = c1, ... 32 = h8 (pydraughts 0.6 moves).
    Mirrored,
}

impl MoveNumbering {
    /// The parameter value naming this numbering.
    pub fn name(self) -> &'static str {
        match self {
            MoveNumbering::Standard => "standard",
            MoveNumbering::Mirrored => "mirrored",
        }
    }

    /// Reads a parameter value (`standard` or `mirrored`, any case).
    pub fn from_name(name: &str) -> Option<MoveNumbering> {
        match name.to_ascii_lowercase().as_str() {
            "standard" => Some(MoveNumbering::Standard),
            "mirrored" => Some(MoveNumbering::Mirrored),
            _ => None,
        }
    }

    /// A square number in this numbering as seen in our standard numbering (and back: the map is
    /// its own inverse). Numbers outside 1..=32 are returned unchanged so that the move parser
    /// can report them.
    pub fn convert_number(self, number: u32) -> u32 {
        match self {
            MoveNumbering::Standard => number,
            MoveNumbering::Mirrored => mirror_number(number),
        }
    }

    /// Rewrites a move text of the host (`9-13`, `9x18x14`) into standard numbering. Everything
    /// that is not a run of digits (separators, algebraic squares, garbage) is kept as it is.
    pub fn move_text_to_standard(self, text: &str) -> String {
        if self == MoveNumbering::Standard {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len() + 4);
        let mut digits = String::new();
        let mut previous_alphabetic = false;
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush_digits(self, &mut digits, previous_alphabetic, &mut out);
            previous_alphabetic = c.is_ascii_alphabetic() && c != 'x' && c != 'X';
            out.push(c);
        }
        flush_digits(self, &mut digits, previous_alphabetic, &mut out);
        out
    }

    /// Writes a move in this numbering: `from-to` or `fromxto` followed by the captured squares in
    /// ascending order of this numbering.
    pub fn format_move(self, mv: &Move) -> String {
        let number = |square: Square| self.convert_number(square.number());
        if !mv.is_capture() {
            return format!("{}-{}", number(mv.from), number(mv.to));
        }
        let mut captured: Vec<u32> = mv.captured.squares().map(number).collect();
        captured.sort_unstable();
        let mut text = format!("{}x{}", number(mv.from), number(mv.to));
        for square in captured {
            text.push('x');
            text.push_str(&square.to_string());
        }
        text
    }
}

/// Converts a pending digit run. Digits right after a file letter belong to an algebraic square
/// (`c3`) and stay as they are.
fn flush_digits(numbering: MoveNumbering, digits: &mut String, algebraic: bool, out: &mut String) {
    if digits.is_empty() {
        return;
    }
    match digits.parse::<u32>() {
        Ok(number) if !algebraic => out.push_str(&numbering.convert_number(number).to_string()),
        _ => out.push_str(digits),
    }
    digits.clear();
}

/// Rank-mirror of a square number: row r (1-based, from the top) becomes row 9 - r, the position
/// inside the row stays.
fn mirror_number(number: u32) -> u32 {
    if !(1..=32).contains(&number) {
        return number;
    }
    let row = (number - 1) / 4;
    let within = (number - 1) % 4;
    (7 - row) * 4 + within + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;

    #[test]
    fn mirror_is_an_involution_matching_the_host_formula() {
        for n in 1..=32u32 {
            let r = n.div_ceil(4);
            let i = n - 4 * (r - 1);
            assert_eq!(mirror_number(n), 4 * (8 - r) + i, "square {n}");
            assert_eq!(mirror_number(mirror_number(n)), n);
        }
        assert_eq!(mirror_number(0), 0);
        assert_eq!(mirror_number(33), 33);
    }

    #[test]
    fn first_white_moves_read_in_mirrored_numbering() {
        let mirrored = MoveNumbering::Mirrored;
        assert_eq!(mirrored.move_text_to_standard("9-13"), "21-17");
        assert_eq!(mirrored.move_text_to_standard("12-16"), "24-20");
        assert_eq!(mirrored.move_text_to_standard("9x18x14"), "21x14x18");
        assert_eq!(mirrored.move_text_to_standard("c3-d4"), "c3-d4");
        assert_eq!(mirrored.move_text_to_standard("40-13"), "40-17");
        assert_eq!(
            MoveNumbering::Standard.move_text_to_standard("9-13"),
            "9-13"
        );
    }

    #[test]
    fn format_round_trips_through_reading() {
        let start = Position::start();
        for mv in legal_moves(&start) {
            for numbering in [MoveNumbering::Standard, MoveNumbering::Mirrored] {
                let text = numbering.format_move(&mv);
                assert_eq!(numbering.move_text_to_standard(&text), mv.to_string());
            }
        }
        assert_eq!(
            MoveNumbering::from_name("MIRRORED"),
            Some(MoveNumbering::Mirrored)
        );
        assert_eq!(MoveNumbering::from_name("rotated"), None);
    }
}

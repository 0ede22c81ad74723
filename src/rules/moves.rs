//! A move as the rules identify it: origin, destination and the set of captured squares.
//!
//! Two capture routes with the same origin, destination and captured set lead to the same position
//! and are one move (RULES.md). This module also reads and writes Hub move notation: `22-18` for a
//! quiet move, `26x17x22` for a capture (origin, destination, then every captured square, ascending
//! on output and in any order on input). PDN move text lives in the notation module (`notation::pdn`).

use crate::rules::bitboard::Bitboard;
use crate::rules::square::Square;
use std::fmt;

/// A move: from, to and captured squares. `from == to` is possible for a king's round trip.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The square the moving piece starts on.
    pub from: Square,
    /// The square it ends on (the same as `from` after a king's round trip).
    pub to: Square,
    /// The squares of every piece it captures; empty for a quiet move.
    pub captured: Bitboard,
}

impl Move {
    /// Whether the move captures at least one piece.
    pub const fn is_capture(&self) -> bool {
        self.captured.is_not_empty()
    }

    /// Sort key giving the order of `onca moves`: from, to, then captured squares ascending.
    pub fn sort_key(&self) -> (u32, u32, Vec<u32>) {
        (
            self.from.number(),
            self.to.number(),
            self.captured.squares().map(Square::number).collect(),
        )
    }

    /// The move in Hub notation.
    pub fn hub(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    /// Hub notation: `22-18`, or `26x17x22` with captured squares ascending.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured.is_empty() {
            write!(f, "{}-{}", self.from, self.to)
        } else {
            write!(f, "{}x{}", self.from, self.to)?;
            for square in self.captured {
                write!(f, "x{square}")?;
            }
            Ok(())
        }
    }
}

/// The squares written in a move text, before matching it against the legal moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveText {
    /// The squares in the order written, at least two: the origin first. What follows depends on
    /// the notation: Hub text gives the destination then the captured squares, PDN text the
    /// landing squares with the destination last.
    pub squares: Vec<Square>,
    /// Whether the squares were separated by `x`, `X` or `:` (a capture) rather than `-`.
    pub capture: bool,
}

/// Why a move text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveTextError(pub String);

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveTextError {}

/// Splits `22-18` or `26x17x22` into its squares. Squares may be numbers (1-32) or algebraic
/// (`c3`). A quiet move has exactly two squares; a capture two or more.
pub fn parse_move_text(text: &str) -> Result<MoveText, MoveTextError> {
    parse_move_text_with(text, parse_square)
}

/// [`parse_move_text`] with the squares read by `read_square` (a game file's notation).
pub fn parse_move_text_with(
    text: &str,
    read_square: impl Fn(&str) -> Result<Square, String>,
) -> Result<MoveText, MoveTextError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveTextError("empty move".into()));
    }
    let capture = text.contains(['x', 'X', ':']);
    let quiet = text.contains('-');
    if capture && quiet {
        return Err(MoveTextError(format!("move '{text}' mixes '-' and 'x'")));
    }
    if !capture && !quiet {
        return Err(MoveTextError(format!(
            "move '{text}' has no separator: write 22-18 or 26x17x22"
        )));
    }
    let separators: &[char] = if capture { &['x', 'X', ':'] } else { &['-'] };
    let squares = text
        .split(separators)
        .map(|field| {
            read_square(field).map_err(|why| MoveTextError(format!("move '{text}': {why}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return Err(MoveTextError(format!(
            "move '{text}' needs a from and a to square"
        )));
    }
    Ok(MoveText { squares, capture })
}

/// Reads a square as a number 1..=32 or an algebraic dark square such as `a1`.
pub fn parse_square(field: &str) -> Result<Square, String> {
    let field = field.trim();
    if field.is_empty() {
        return Err("missing square".into());
    }
    if field.bytes().all(|b| b.is_ascii_digit()) {
        return field
            .parse::<u32>()
            .ok()
            .and_then(Square::from_number)
            .ok_or_else(|| format!("square '{field}' is not between 1 and 32"));
    }
    let bytes = field.as_bytes();
    if bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_digit() {
        let file = u32::from(bytes[0].to_ascii_lowercase()).wrapping_sub(u32::from(b'a'));
        let rank = u32::from(bytes[1] - b'0');
        return Square::from_file_rank(file, rank)
            .ok_or_else(|| format!("'{field}' is not a dark square of the 8x8 board"));
    }
    Err(format!("'{field}' is not a square (use 1-32 or a1..h8)"))
}

/// Finds the legal move that a Hub move text names: from and to must match, and for a capture the
/// listed captured squares (any order) must be exactly the captured set. A capture written with
/// only from and to (`26x17`) is accepted when exactly one legal move fits it.
pub fn find_hub_move(legal: &[Move], text: &str) -> Result<Move, MoveTextError> {
    let parsed = parse_move_text(text)?;
    let from = parsed.squares[0];
    let to = parsed.squares[1];
    let listed: Bitboard = parsed.squares[2..].iter().copied().collect();
    if parsed.squares.len() > 2 && listed.count() as usize != parsed.squares.len() - 2 {
        return Err(MoveTextError(format!(
            "move '{text}' lists a captured square twice"
        )));
    }
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| mv.from == from && mv.to == to && mv.is_capture() == parsed.capture)
        .filter(|mv| parsed.squares.len() == 2 || mv.captured == listed)
        .collect();
    match candidates.as_slice() {
        [single] => Ok(*single),
        [] => Err(MoveTextError(format!("illegal move '{}'", text.trim()))),
        _ => Err(MoveTextError(format!(
            "ambiguous move '{}': list the captured squares",
            text.trim()
        ))),
    }
}

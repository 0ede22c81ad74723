//! PDN move text: `c3-d4` for quiet moves and `c3xe5` for captures (or `22-18` and `26x17` in a
//! numeric notation), with intermediate landing squares (`b4xd6xf4`) written only when from and
//! to alone would not tell two legal moves apart.

use crate::notation::squares::SquareNotation;
use crate::rules::movegen::{self, CaptureRoute};
use crate::rules::moves::{parse_move_text_with, Move, MoveTextError};
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// The PDN text of a legal Brazilian move in `position`, squares named in `notation`.
pub fn write_move(position: &Position, mv: &Move, notation: SquareNotation) -> String {
    write_move_in(Variant::Brazilian, position, mv, notation)
}

/// The PDN text of a legal move of `variant` in `position`, squares named in `notation` (the
/// variant decides which other moves it must be told apart from).
pub fn write_move_in(
    variant: Variant,
    position: &Position,
    mv: &Move,
    notation: SquareNotation,
) -> String {
    let name = |square: Square| notation.name(square);
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let legal = movegen::legal_moves_in(variant, position);
    let ambiguous = legal
        .iter()
        .any(|other| other != mv && other.from == mv.from && other.to == mv.to);
    if !ambiguous {
        return format!("{}x{}", name(mv.from), name(mv.to));
    }
    let route = movegen::capture_routes_in(variant, position)
        .into_iter()
        .find(|route| route.mv == *mv);
    let mut text = name(mv.from);
    match route {
        Some(CaptureRoute { landings, .. }) => {
            for square in landings {
                text.push_str(&format!("x{}", name(square)));
            }
        }
        None => text.push_str(&format!("x{}", name(mv.to))),
    }
    text
}

/// Finds the legal Brazilian move named by PDN move text in `notation`: from, optional
/// intermediate landing squares, to.
pub fn read_move(
    position: &Position,
    text: &str,
    notation: SquareNotation,
) -> Result<Move, MoveTextError> {
    read_move_in(Variant::Brazilian, position, text, notation)
}

/// [`read_move`] among the legal moves of `variant`.
pub fn read_move_in(
    variant: Variant,
    position: &Position,
    text: &str,
    notation: SquareNotation,
) -> Result<Move, MoveTextError> {
    let parsed = parse_move_text_with(text, |field| notation.read(field))?;
    let squares = &parsed.squares;
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let legal = movegen::legal_moves_in(variant, position);
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| mv.from == from && mv.to == to && mv.is_capture() == parsed.capture)
        .collect();
    let chosen: Vec<Move> = if squares.len() > 2 && candidates.len() > 1 {
        let stops = &squares[1..];
        let mut matching: Vec<Move> = movegen::capture_routes_in(variant, position)
            .into_iter()
            .filter(|route| {
                candidates.contains(&route.mv) && passes_through(&route.landings, stops)
            })
            .map(|route| route.mv)
            .collect();
        matching.dedup();
        matching
    } else {
        candidates
    };
    match chosen.as_slice() {
        [single] => Ok(*single),
        [] => Err(MoveTextError(format!("illegal move '{}'", text.trim()))),
        _ => Err(MoveTextError(format!(
            "ambiguous move '{}': add the landing squares",
            text.trim()
        ))),
    }
}

/// Whether `stops` appear in `landings` in order (a PDN text may leave some landings out).
fn passes_through(landings: &[Square], stops: &[Square]) -> bool {
    let mut remaining = landings.iter();
    stops
        .iter()
        .all(|stop| remaining.any(|landing| landing == stop))
}

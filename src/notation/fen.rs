//! Position text: FEN (`W:W21,22,K5:B1-12`) and Hub position strings (`W` + 32 characters).
//!
//! FEN fields may come in either order, squares may be numbers or algebraic (`Wa1,c3`), ranges
//! (`1-12`, also `K1-3`) and a `K` prefix for kings are allowed, and the PDN wrapper (`[FEN "..."]`)
//! and a trailing `.` are tolerated. Every error says which field and which text is wrong and why.
//! Impossible positions are refused: a square given twice, a white man on 1-4 or a black man on
//! 29-32 (it would have been promoted).

use crate::notation::squares::SquareNotation;
use crate::rules::bitboard::Bitboard;
use crate::rules::position::{Color, Piece, Position};
use crate::rules::square::Square;
use std::fmt;

/// Why a position text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

fn error(message: String) -> PositionError {
    PositionError(message)
}

/// Reads a position given either as FEN or as a Hub position string.
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    let text = text.trim();
    if text.contains(':') {
        parse_fen(text)
    } else {
        parse_hub_position(text)
    }
}

/// Reads a Hub position string: `W` or `B`, then 32 characters `w b W B e` for squares 1..32.
pub fn parse_hub_position(text: &str) -> Result<Position, PositionError> {
    let text = text.trim();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(error(format!(
            "Hub position must be 33 characters (side + 32 squares), got {}",
            chars.len()
        )));
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        other => {
            return Err(error(format!(
                "Hub position: side to move must be 'W' or 'B', got '{other}'"
            )))
        }
    };
    let mut white = Bitboard::EMPTY;
    let mut black = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for (square, &c) in Square::all().zip(&chars[1..]) {
        let set = Bitboard::from_square(square);
        match c {
            'w' => white |= set,
            'b' => black |= set,
            'W' => {
                white |= set;
                kings |= set;
            }
            'B' => {
                black |= set;
                kings |= set;
            }
            'e' | '.' => {}
            other => {
                return Err(error(format!(
                    "Hub position: square {square} has '{other}'; expected one of w b W B e"
                )))
            }
        }
    }
    checked(white, black, kings, side)
}

/// Reads a FEN such as `W:W21,22,K5:B1-12` (numbers in the Hub numbering, or algebraic).
pub fn parse_fen(text: &str) -> Result<Position, PositionError> {
    parse_fen_in(text, SquareNotation::HubNumbers)
}

/// Reads a FEN whose numbered squares are in `notation`'s numbering (algebraic squares are
/// read in every notation), as a PDN file's `FEN` tag under its `GameType`.
pub fn parse_fen_in(text: &str, notation: SquareNotation) -> Result<Position, PositionError> {
    let mut text = text.trim();
    if let Some(inner) = text
        .strip_prefix("[FEN")
        .and_then(|rest| rest.strip_suffix(']'))
    {
        text = inner.trim();
    }
    text = text.trim_matches('"').trim().trim_end_matches('.');
    let mut fields = text.split(':').map(str::trim);
    let side = match fields.next() {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        Some(other) => {
            return Err(error(format!(
                "FEN: first field must be the side to move 'W' or 'B', got '{other}'"
            )))
        }
        None => return Err(error("FEN is empty".into())),
    };
    let mut sets = [None, None];
    let mut kings = Bitboard::EMPTY;
    for field in fields {
        if field.is_empty() {
            continue;
        }
        let mut chars = field.chars();
        let first = chars.next();
        let list = chars.as_str();
        let color = match first {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => {
                return Err(error(format!(
                    "FEN: piece field '{field}' must start with 'W' or 'B'"
                )))
            }
        };
        let slot = &mut sets[color as usize];
        if slot.is_some() {
            return Err(error(format!("FEN: pieces of {color:?} are given twice")));
        }
        let (pieces, field_kings) = parse_piece_list(list, color, notation)?;
        kings |= field_kings;
        *slot = Some(pieces);
    }
    let white = sets[Color::White as usize].unwrap_or_default();
    let black = sets[Color::Black as usize].unwrap_or_default();
    if let Some(square) = (white & black).first() {
        return Err(error(format!(
            "FEN: square {square} holds both a white and a black piece"
        )));
    }
    checked(white, black, kings, side)
}

/// Reads `21,22,K5,1-12` into (pieces, kings).
fn parse_piece_list(
    list: &str,
    color: Color,
    notation: SquareNotation,
) -> Result<(Bitboard, Bitboard), PositionError> {
    let mut pieces = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for item in list
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let (is_king, body) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, item),
        };
        let range = parse_square_range(body, notation)
            .map_err(|why| error(format!("FEN: {color:?} piece '{item}': {why}")))?;
        for square in range {
            if pieces.contains(square) {
                return Err(error(format!(
                    "FEN: {color:?} square {square} is given twice"
                )));
            }
            pieces |= Bitboard::from_square(square);
            if is_king {
                kings |= Bitboard::from_square(square);
            }
        }
    }
    Ok((pieces, kings))
}

/// Reads `5`, `a1` or a range `1-12` (of numbers in `notation`'s numbering).
fn parse_square_range(text: &str, notation: SquareNotation) -> Result<Vec<Square>, String> {
    match text.split_once('-') {
        None => Ok(vec![notation.read(text)?]),
        Some((low, high)) => {
            let low = notation.number(notation.read(low)?);
            let high = notation.number(notation.read(high)?);
            if low > high {
                return Err(format!("range {low}-{high} runs backwards"));
            }
            Ok((low..=high)
                .filter_map(|number| notation.square_of_number(number))
                .collect())
        }
    }
}

/// Refuses positions that cannot arise in a game, then builds the position.
fn checked(
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
) -> Result<Position, PositionError> {
    if let Some(square) = ((white - kings) & Bitboard::BLACK_BACK_ROW).first() {
        return Err(error(format!(
            "white man on square {square}: a white man on 1-4 would have been promoted"
        )));
    }
    if let Some(square) = ((black - kings) & Bitboard::WHITE_BACK_ROW).first() {
        return Err(error(format!(
            "black man on square {square}: a black man on 29-32 would have been promoted"
        )));
    }
    Ok(Position::from_parts(white, black, kings, side))
}

/// The position as FEN with numeric squares and no ranges, e.g. `W:W21,22,K5:B1,2`.
pub fn to_fen(position: &Position) -> String {
    to_fen_in(position, SquareNotation::HubNumbers)
}

/// The position as FEN with squares named in `notation`: numbers in ascending order, algebraic
/// names rank by rank from a1 (`W:Wa1,c1,b2:Bb8`).
pub fn to_fen_in(position: &Position, notation: SquareNotation) -> String {
    let order = match notation {
        SquareNotation::Algebraic => SquareNotation::A1Numbers,
        numbers => numbers,
    };
    let side = match position.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    };
    let list = |color: Color| -> String {
        let mut squares: Vec<Square> = position.pieces(color).squares().collect();
        squares.sort_by_key(|&square| order.number(square));
        squares
            .into_iter()
            .map(|square| {
                let prefix = if position.all_kings().contains(square) {
                    "K"
                } else {
                    ""
                };
                format!("{prefix}{}", notation.name(square))
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{side}:W{}:B{}", list(Color::White), list(Color::Black))
}

/// The position as a Hub string: side, then one of `w b W B e` per square 1..32.
pub fn to_hub_position(position: &Position) -> String {
    let mut text = String::with_capacity(33);
    text.push(match position.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for square in Square::all() {
        text.push(position.piece_at(square).map_or('e', piece_letter));
    }
    text
}

/// A piece's letter in Hub position strings: `w b` for men, `W B` for kings.
pub fn piece_letter(piece: Piece) -> char {
    match (piece.color, piece.king) {
        (Color::White, false) => 'w',
        (Color::Black, false) => 'b',
        (Color::White, true) => 'W',
        (Color::Black, true) => 'B',
    }
}

/// Positions print as FEN in debug output (test failures, logs): the form people can paste back.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_fen(self))
    }
}

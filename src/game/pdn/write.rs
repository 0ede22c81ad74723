//! Writing games as PDN text in the standard's form: the tags (the seven-tag roster first when the
//! caller gives them), `Result` as `2-0`, `1-1` or `0-2`, a `GameType` naming the notation, a
//! `FEN` tag in the same notation when the game does not start from the initial position, and
//! numbered move text with lines of at most 79 characters. Annotated games carry a comment and a
//! NAG after any move.

use super::{PdnGame, SquareNotation};
use crate::notation::fen;
use crate::notation::pdn;
use crate::rules::position::{Color, Position};

/// What an annotated game says about one move: a NAG (`!`, `?!`, `?`, `??`) written right after
/// it and a comment in braces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// Written glued to the move (`c3-d4?`).
    pub nag: Option<&'static str>,
    /// Written after the move in braces (braces inside are replaced).
    pub comment: Option<String>,
}

/// Writes one game as PDN text in `notation`, ending with a blank line.
pub fn write_game(game: &PdnGame, notation: SquareNotation) -> String {
    write_annotated(game, notation, None, &[])
}

/// Writes one game with a comment before the first move (`intro`) and `notes[i]` after move `i`
/// (missing notes write nothing).
pub fn write_annotated(
    game: &PdnGame,
    notation: SquareNotation,
    intro: Option<&str>,
    notes: &[MoveNote],
) -> String {
    let mut text = String::new();
    let derived = ["Result", "GameType", "FEN"];
    for (name, value) in game
        .tags
        .iter()
        .filter(|(name, _)| !derived.contains(&name.as_str()))
    {
        text.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    }
    text.push_str(&format!("[Result \"{}\"]\n", game.result.pdn()));
    text.push_str(&format!(
        "[GameType \"{}\"]\n",
        notation.game_type_in(game.variant)
    ));
    if game.start != Position::start() {
        text.push_str(&format!(
            "[FEN \"{}\"]\n",
            fen::to_fen_in(&game.start, notation)
        ));
    }
    text.push('\n');
    let mut tokens = Vec::new();
    if let Some(intro) = intro {
        tokens.extend(comment_tokens(intro));
    }
    let mut position = game.start;
    let mut number = 1;
    for (index, mv) in game.moves.iter().enumerate() {
        let note = notes.get(index);
        let mut text = pdn::write_move_in(game.variant, &position, mv, notation);
        if let Some(nag) = note.and_then(|note| note.nag) {
            text.push_str(nag);
        }
        // A move number stays on the line of its move. Black's move does not repeat its number
        // after a comment (as PGN does): pydraughts 0.6.7's reader fails on repeated numbers.
        match position.side_to_move() {
            Color::White => tokens.push(format!("{number}. {text}")),
            Color::Black if index == 0 => tokens.push(format!("{number}... {text}")),
            Color::Black => tokens.push(text),
        }
        if let Some(comment) = note.and_then(|note| note.comment.as_deref()) {
            tokens.extend(comment_tokens(comment));
        }
        if position.side_to_move() == Color::Black {
            number += 1;
        }
        position = position.play_in(game.variant, mv);
    }
    tokens.push(game.result.pdn().to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// A comment as words, the first opening the brace and the last closing it, so the line breaker
/// can wrap it; braces inside would end it early and become parentheses.
fn comment_tokens(comment: &str) -> Vec<String> {
    let cleaned: String = comment
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .collect();
    let mut words: Vec<String> = cleaned.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return Vec::new();
    }
    words[0].insert(0, '{');
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

/// A tag value as the reader takes it back: `"` and `\` escaped with a backslash, and line
/// breaks (which a value cannot hold) replaced by spaces.
fn tag_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' | '\r' => escaped.push(' '),
            other => escaped.push(other),
        }
    }
    escaped
}

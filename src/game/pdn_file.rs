//! PDN game files: writing whole games (tags, move text, result) and reading them back.
//!
//! Games are written the way draughts GUIs and lidraughts read them: the seven-tag roster, a
//! `Result` of `2-0`, `1-1` or `0-2`, `GameType "26"` (Brazilian), a `FEN` tag when the game does
//! not start from the initial position, and numbered move text in PDN notation from
//! [`crate::notation::pdn`]. The reader accepts what such files contain: comments `{...}`, variations
//! `(...)`, NAGs, move numbers glued to moves, `1-0`/`0-1`/`1/2-1/2` results, and checks every
//! move with our move generator.

use crate::game::record::Game;
use crate::notation::fen;
use crate::notation::pdn;
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use std::fmt;

/// How a game ended, as the `Result` tag says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won (`2-0`; `1-0` is read too).
    WhiteWins,
    /// Black won (`0-2`; `0-1` is read too).
    BlackWins,
    /// A draw (`1-1`; `1/2-1/2` and `0-0` are read too).
    Draw,
    /// Unfinished or unknown (`*`).
    Unknown,
}

impl GameResult {
    /// The PDN result text used for draughts.
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token, also in the chess style some tools write.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text.trim() {
            "2-0" | "1-0" => Some(GameResult::WhiteWins),
            "0-2" | "0-1" => Some(GameResult::BlackWins),
            "1-1" | "1/2-1/2" | "0-0" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// One game: its tags (in file order), start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags other than `Result`, `GameType` and `FEN`, which the writer derives from the fields.
    /// The reader keeps every tag it finds here, those three included.
    pub tags: Vec<(String, String)>,
    /// The start position: the `FEN` tag's, or the initial position without one.
    pub start: Position,
    /// The moves played from `start`, each checked legal when read.
    pub moves: Vec<Move>,
    /// The result: the one in the move text, else the `Result` tag's, else
    /// [`GameResult::Unknown`].
    pub result: GameResult,
}

impl PdnGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A PDN text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError(pub String);

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PdnError {}

/// Writes one game as PDN text ending with a blank line.
pub fn write_game(game: &PdnGame) -> String {
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
    text.push_str("[GameType \"26\"]\n");
    if game.start != Position::start() {
        text.push_str(&format!("[FEN \"{}\"]\n", fen::to_fen(&game.start)));
    }
    text.push('\n');
    let mut tokens = Vec::new();
    let mut position = game.start;
    let mut number = 1;
    for (index, mv) in game.moves.iter().enumerate() {
        // A move number stays on the line of its move.
        let text = pdn::write_move(&position, mv);
        match position.side_to_move() {
            Color::White => tokens.push(format!("{number}. {text}")),
            Color::Black if index == 0 => tokens.push(format!("{number}... {text}")),
            Color::Black => tokens.push(text),
        }
        if position.side_to_move() == Color::Black {
            number += 1;
        }
        position = position.play(mv);
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

/// Tag values cannot hold a double quote or a line break; replace them.
fn tag_value(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '\n' | '\r' => ' ',
            other => other,
        })
        .collect()
}

/// Reads every game of a PDN text.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut in_movetext = false;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') && !in_comment(&movetext) {
            if in_movetext {
                games.push(finish_game(&tags, &movetext, games.len() + 1)?);
                tags.clear();
                movetext.clear();
                in_movetext = false;
            }
            tags.push(
                parse_tag(line)
                    .ok_or_else(|| PdnError(format!("line {}: bad tag '{line}'", index + 1)))?,
            );
        } else if !line.is_empty() {
            in_movetext = true;
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if in_movetext || !tags.is_empty() {
        games.push(finish_game(&tags, &movetext, games.len() + 1)?);
    }
    Ok(games)
}

/// Whether a `{` comment is still open at the end of `text`.
fn in_comment(text: &str) -> bool {
    text.rfind('{') > text.rfind('}')
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.to_string()))
}

fn finish_game(
    tags: &[(String, String)],
    movetext: &str,
    number: usize,
) -> Result<PdnGame, PdnError> {
    let error = |message: String| PdnError(format!("game {number}: {message}"));
    let tag = |name: &str| {
        tags.iter()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.as_str())
    };
    let start = match tag("FEN") {
        Some(text) => fen::parse_position(text).map_err(|e| error(format!("FEN tag: {e}")))?,
        None => Position::start(),
    };
    let mut result = tag("Result")
        .and_then(GameResult::parse)
        .unwrap_or(GameResult::Unknown);
    let mut game = Game::new(start);
    for token in movetext_tokens(movetext) {
        if let Some(parsed) = GameResult::parse(&token) {
            result = parsed;
            break;
        }
        // Move numbers: `12.`, `12...`, or glued to the move as `12.22-18`.
        let body = token.rsplit('.').next().unwrap_or("");
        let body = body.trim_end_matches(['!', '?']);
        if body.is_empty() || body.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let mv = pdn::read_move(game.current(), body)
            .map_err(|e| error(format!("move {} '{body}': {e}", game.moves().len() + 1)))?;
        game.play(mv);
    }
    Ok(PdnGame {
        tags: tags.to_vec(),
        start,
        moves: game.moves().to_vec(),
        result,
    })
}

/// Splits move text into tokens, dropping comments, variations and NAGs.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut comment = false;
    let mut variation_depth = 0usize;
    let flush = |current: &mut String, tokens: &mut Vec<String>| {
        if !current.is_empty() && !current.starts_with('$') {
            tokens.push(std::mem::take(current));
        }
        current.clear();
    };
    for c in text.chars() {
        if comment {
            comment = c != '}';
            continue;
        }
        match c {
            '{' => {
                flush(&mut current, &mut tokens);
                comment = true;
            }
            '(' => {
                flush(&mut current, &mut tokens);
                variation_depth += 1;
            }
            ')' => {
                current.clear();
                variation_depth = variation_depth.saturating_sub(1);
            }
            _ if variation_depth > 0 => {}
            c if c.is_whitespace() => flush(&mut current, &mut tokens),
            c => current.push(c),
        }
    }
    flush(&mut current, &mut tokens);
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen;

    /// Plays from `start`, preferring captures and then promotions, until the game ends or
    /// `plies` moves are made.
    fn eventful_game(start: Position, plies: usize) -> Vec<Move> {
        let mut position = start;
        let mut moves = Vec::new();
        for _ in 0..plies {
            let mut legal = movegen::legal_moves(&position);
            if legal.is_empty() {
                break;
            }
            legal.sort_by_key(|mv| {
                let promotes = !position.all_kings().contains(mv.from)
                    && position.side_to_move().promotion_row().contains(mv.to);
                (!mv.is_capture(), !promotes, mv.sort_key())
            });
            let mv = legal[0];
            moves.push(mv);
            position = position.play(&mv);
        }
        moves
    }

    #[test]
    fn round_trip_with_captures_promotions_and_fen() {
        let start = fen::parse_position("B:W6,7,18,22,23,K32:B10,14,15,26").expect("valid FEN");
        let moves = eventful_game(start, 30);
        let mut position = start;
        let (mut captures, mut promotions) = (0, 0);
        for mv in &moves {
            let kings_before = position.all_kings().count();
            captures += usize::from(mv.is_capture());
            position = position.play(mv);
            promotions += usize::from(position.all_kings().count() > kings_before);
        }
        assert!(
            captures >= 2 && promotions >= 1,
            "{captures} captures, {promotions} promotions"
        );
        let game = PdnGame {
            tags: vec![
                ("Event".into(), "round \"trip\"".into()),
                ("White".into(), "A".into()),
                ("Black".into(), "B".into()),
                ("Termination".into(), "illegal move".into()),
            ],
            start,
            moves: moves.clone(),
            result: GameResult::BlackWins,
        };
        let text = write_game(&game);
        assert!(text.contains("[GameType \"26\"]"), "{text}");
        assert!(
            text.contains("[FEN \"B:W6,7,18,22,23,K32:B10,14,15,26\"]"),
            "{text}"
        );
        assert!(text.contains("1... "), "black starts: {text}");
        let read = read_games(&format!("{text}{text}")).expect("our own output reads back");
        assert_eq!(read.len(), 2);
        for back in read {
            assert_eq!(back.start, start);
            assert_eq!(back.moves, moves);
            assert_eq!(back.result, GameResult::BlackWins);
            assert_eq!(back.tag("Event"), Some("round 'trip'"));
            assert_eq!(back.tag("Termination"), Some("illegal move"));
        }
    }

    #[test]
    fn initial_position_has_no_fen_tag_and_reads_other_styles() {
        let text = "[White \"x\"]\n[Result \"1-0\"]\n\n1.22-18 {a comment 11-15} 11-15 (2. 18x11) \
                    2. 18x11 $1 8x15 1/2-1/2\n";
        let games = read_games(text).expect("valid PDN");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].result, GameResult::Draw);
        let written = write_game(&PdnGame {
            tags: vec![],
            ..games[0].clone()
        });
        assert!(!written.contains("FEN"), "{written}");
        assert!(
            written.contains("1. 22-18 11-15 2. 18x11 8x15 1-1"),
            "{written}"
        );
    }

    #[test]
    fn bad_pdn_is_an_error_not_a_panic() {
        assert!(read_games("1. 21-14 11-15").is_err());
        assert!(read_games("[FEN \"W:W99\"]\n1. 22-18").is_err());
        assert!(read_games("[Broken\n").is_err());
        assert_eq!(read_games("").expect("empty is fine").len(), 0);
    }
}

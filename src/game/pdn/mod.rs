//! PDN game files: a game as tags, start position, moves and result ([`PdnGame`]), written by
//! [`mod@write`] in the PDN standard's form and read back, from any file, by [`read`].
//!
//! The standard expands `GameType "26"` (Brazilian draughts) to `26,W,8,8,A0,0`: algebraic move
//! text with a1 in White's bottom-left corner. Numeric files must name their numbering in the
//! GameType's notation field ([`SquareNotation`]).

pub mod read;
pub mod write;

pub use crate::notation::squares::SquareNotation;
pub use read::{read_games, PdnError, PdnReader};
pub use write::write_game;

use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;

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

/// One game: its variant, tags (in file order), start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The rules the game was played by: the `GameType` tag's game number (26 Brazilian, 25
    /// Russian; Brazilian without the tag).
    pub variant: Variant,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
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
            variant: Variant::Brazilian,
            tags: vec![
                ("Event".into(), "round \"trip\"".into()),
                // A value ending in a backslash once wrote `"...\"]`, which reads as unclosed.
                ("Site".into(), "C:\\games\\".into()),
                ("Round".into(), "one\ntwo".into()),
                ("White".into(), "A".into()),
                ("Black".into(), "B".into()),
                ("Termination".into(), "illegal move".into()),
            ],
            start,
            moves: moves.clone(),
            result: GameResult::BlackWins,
        };
        let text = write_game(&game, SquareNotation::HubNumbers);
        assert!(text.contains("[GameType \"26,W,8,8,N2,0\"]"), "{text}");
        assert!(
            text.contains("[FEN \"B:W6,7,18,22,23,K32:B10,14,15,26\"]"),
            "{text}"
        );
        assert!(text.contains("1... "), "black starts: {text}");
        let mut both = text.clone();
        for notation in SquareNotation::ALL {
            both.push_str(&write_game(&game, notation));
        }
        let algebraic = write_game(&game, SquareNotation::Algebraic);
        assert!(algebraic.contains("[GameType \"26\"]"), "{algebraic}");
        assert!(
            algebraic.contains("[FEN \"B:WKg1,c3,e3,d4,c7,e7:Bd2,c5,e5,d6\"]"),
            "{algebraic}"
        );
        let read = read_games(&both).expect("our own output reads back");
        assert_eq!(read.len(), 4);
        for back in read {
            assert_eq!(back.start, start);
            assert_eq!(back.moves, moves);
            assert_eq!(back.result, GameResult::BlackWins);
            assert_eq!(back.tag("Event"), Some("round \"trip\""));
            assert_eq!(back.tag("Site"), Some("C:\\games\\"));
            assert_eq!(back.tag("Round"), Some("one two"));
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
        let written = write_game(
            &PdnGame {
                tags: vec![],
                ..games[0].clone()
            },
            SquareNotation::HubNumbers,
        );
        assert!(!written.contains("FEN"), "{written}");
        assert!(
            written.contains("1. 22-18 11-15 2. 18x11 8x15 1-1"),
            "{written}"
        );
        let standard = write_game(&games[0], SquareNotation::Algebraic);
        assert!(
            standard.contains("1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-1"),
            "{standard}"
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

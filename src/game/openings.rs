//! Opening ballots for engine matches: the built-in Brazilian 3-move ballots, the unbalanced set
//! made from them, and our file format.
//!
//! A ballot file has one opening per line: either a list of moves from the initial position in Hub
//! notation (`21-17 9-13 25-21`; a capture may omit its captured squares when only one legal move
//! fits) or a position as FEN or Hub string. Everything after `#` is a comment and blank lines are
//! skipped. Every move is checked with our move generator when the file is read, so a bad line is
//! reported with its line number instead of reaching an engine.
//!
//! Ballots are read under the rules of a variant. The Brazilian ballots serve Russian matches
//! too: every one of them is legal under Russian rules (a test checks it), since they are three
//! moves long and none crowns a man in a capture or gives a capture choice the two rules decide
//! differently.

use crate::game::record::Game;
use crate::notation::fen;
use crate::rules::movegen;
use crate::rules::moves::{find_hub_move, Move};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use std::fmt;

/// The built-in ballots: the IDF 64 Brazilian move-sequence ballots (see the file's header).
pub const BRAZILIAN_BALLOTS: &str = include_str!("../../data/openings/brazilian.txt");

/// The built-in unbalanced openings: each a ballot plus one move that leaves one side between 0.6
/// and 1.2 men ahead by a 14-ply search (written by `scripts/unbalanced-ballots`). Self-play
/// from the ballots draws about 95% of its games; from these, the side ahead converts often
/// enough that a match tells two engines apart in fewer games (README, Measurements: 0.26 to
/// 0.56 times as many in two tests).
pub const BRAZILIAN_UNBALANCED: &str = include_str!("../../data/openings/brazilian-unbalanced.txt");

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// What the line says about itself (its comment), or the line number if it has none.
    pub label: String,
    /// The position the opening starts from: the initial position for a move line, or the
    /// position a FEN or Hub line gives.
    pub start: Position,
    /// The ballot moves played from `start`, all legal (empty for a position line).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The initial position with no moves.
    pub fn initial() -> Opening {
        Opening {
            label: "initial position".into(),
            start: Position::start(),
            moves: Vec::new(),
        }
    }

    /// The Brazilian game record after the opening moves.
    pub fn game(&self) -> Game {
        self.game_in(Variant::Brazilian)
    }

    /// The game record of `variant` after the opening moves (read under that variant's rules).
    pub fn game_in(&self, variant: Variant) -> Game {
        let mut game = Game::in_variant(variant, self.start);
        for mv in &self.moves {
            game.play(*mv);
        }
        game
    }
}

/// A line of a ballot file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number in the ballot text.
    pub line: usize,
    /// What is wrong with the line (a bad position, an illegal move, a finished game).
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// Reads every opening of a ballot file's text under Brazilian rules.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    parse_openings_in(Variant::Brazilian, text)
}

/// Reads every opening of a ballot file's text under the rules of `variant`.
pub fn parse_openings_in(variant: Variant, text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let (body, comment) = match raw.split_once('#') {
            Some((body, comment)) => (body.trim(), comment.trim()),
            None => (raw.trim(), ""),
        };
        if body.is_empty() {
            continue;
        }
        let label = if comment.is_empty() {
            format!("line {line}")
        } else {
            comment.to_string()
        };
        let opening =
            parse_line(variant, body, label).map_err(|message| OpeningError { line, message })?;
        openings.push(opening);
    }
    Ok(openings)
}

/// Reads one non-empty line body: a position or a move list.
fn parse_line(variant: Variant, body: &str, label: String) -> Result<Opening, String> {
    if looks_like_position(body) {
        let start = fen::parse_position(body).map_err(|error| error.to_string())?;
        if movegen::legal_moves_in(variant, &start).is_empty() {
            return Err(format!("position '{body}' has no legal move"));
        }
        return Ok(Opening {
            label,
            start,
            moves: Vec::new(),
        });
    }
    let start = Position::start();
    let mut game = Game::in_variant(variant, start);
    let mut moves = Vec::new();
    for text in body.split_whitespace() {
        let legal = game.legal_moves();
        let mv = find_hub_move(&legal, text)
            .map_err(|error| format!("move {} ('{text}'): {error}", moves.len() + 1))?;
        game.play(mv);
        moves.push(mv);
    }
    if game.legal_moves().is_empty() {
        return Err("the opening ends the game (no legal move left)".into());
    }
    Ok(Opening {
        label,
        start,
        moves,
    })
}

/// A FEN has a colon; a Hub string is 33 characters starting with the side to move.
fn looks_like_position(body: &str) -> bool {
    body.contains(':')
        || (body.len() == 33 && body.starts_with(['W', 'B', 'w', 'b']) && !body.contains(' '))
}

/// Where a match takes its openings from: `ballots` (the built-in list), `unbalanced` (the
/// built-in unbalanced set), `start` (the initial position only) or a ballot file, read under
/// Brazilian rules.
pub fn load(spec: &str) -> Result<Vec<Opening>, String> {
    load_in(Variant::Brazilian, spec)
}

/// [`load`] under the rules of `variant` (the built-in ballots serve both variants).
pub fn load_in(variant: Variant, spec: &str) -> Result<Vec<Opening>, String> {
    let openings = match spec {
        "ballots" | "brazilian" => parse_openings_in(variant, BRAZILIAN_BALLOTS)
            .map_err(|error| format!("built-in ballots ({variant} rules): {error}"))?,
        "unbalanced" => parse_openings_in(variant, BRAZILIAN_UNBALANCED)
            .map_err(|error| format!("built-in unbalanced openings ({variant} rules): {error}"))?,
        "start" | "initial" => vec![Opening::initial()],
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("cannot read openings file '{path}': {error}"))?;
            parse_openings_in(variant, &text)
                .map_err(|error| format!("openings file '{path}' ({variant} rules): {error}"))?
        }
    };
    if openings.is_empty() {
        return Err(format!("no openings in '{spec}'"));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many different move lists `openings` hold.
    fn distinct_move_lines(openings: &[Opening]) -> usize {
        let mut lines: Vec<Vec<_>> = openings
            .iter()
            .map(|opening| opening.moves.iter().map(Move::sort_key).collect())
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines.len()
    }

    #[test]
    fn reads_moves_positions_and_comments() {
        let text = "# a comment line\n\n21-17 9-13 # I-2\nW:W21-32:B1-12\n22-18 11-15 18x11\n";
        let openings = parse_openings(text).expect("valid ballots");
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].label, "I-2");
        assert_eq!(openings[0].moves.len(), 2);
        assert_eq!(openings[1].label, "line 4");
        assert!(openings[1].moves.is_empty());
        // 18x11 written without its captured square is accepted because it is the only fit.
        assert_eq!(openings[2].moves[2].to_string(), "18x11x15");
    }

    #[test]
    fn bad_lines_name_their_line_number() {
        let error = parse_openings("21-17\n21-17 21-17\n").expect_err("second line is illegal");
        assert_eq!(error.line, 2);
        assert!(error.message.contains("move 2"), "{}", error.message);
        let error = parse_openings("\nW:W99:B1\n").expect_err("bad FEN");
        assert_eq!(error.line, 2);
    }

    #[test]
    fn every_builtin_ballot_is_legal_and_distinct() {
        let openings = parse_openings(BRAZILIAN_BALLOTS).expect("built-in ballots are legal");
        assert_eq!(openings.len(), 342);
        let mut keys: Vec<(u64, usize)> = openings
            .iter()
            .map(|opening| (opening.game().current().key(), opening.moves.len()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        // The table itself has two transpositions (I-13 = XVII-8 and XXI-5 = XXI-11): different
        // move orders to one position. Everything else is distinct.
        assert_eq!(keys.len(), openings.len() - 2);
        assert_eq!(
            distinct_move_lines(&openings),
            openings.len(),
            "two ballots have the same moves"
        );
        assert!(openings.iter().all(|opening| opening.moves.len() <= 6));
    }

    #[test]
    fn every_unbalanced_opening_is_a_ballot_and_one_more_move() {
        let ballots = parse_openings(BRAZILIAN_BALLOTS).expect("built-in ballots are legal");
        // Reading checks every move against the move generator.
        let unbalanced = load("unbalanced").expect("unbalanced openings are legal");
        assert_eq!(unbalanced.len(), 215);
        for opening in &unbalanced {
            let (_, ballot) = opening.moves.split_last().expect("at least one move");
            assert!(
                ballots.iter().any(|known| known.moves == ballot),
                "{}: not a ballot plus one move",
                opening.label
            );
        }
        assert_eq!(
            distinct_move_lines(&unbalanced),
            unbalanced.len(),
            "two openings have the same moves"
        );
    }

    #[test]
    fn the_builtin_ballots_are_legal_in_russian_and_reach_the_same_positions() {
        let brazilian = parse_openings(BRAZILIAN_BALLOTS).expect("legal in Brazilian");
        let russian =
            parse_openings_in(Variant::Russian, BRAZILIAN_BALLOTS).expect("legal in Russian");
        assert_eq!(russian, brazilian);
        for opening in &russian {
            let game = opening.game_in(Variant::Russian);
            assert_eq!(game.variant(), Variant::Russian);
            assert_eq!(
                game.current(),
                opening.game().current(),
                "{}",
                opening.label
            );
        }
    }
}

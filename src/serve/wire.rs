//! The JSON shapes of the page's API: the game a request carries ([`GameRequest`]), and positions,
//! moves and scores as the page draws them. Squares travel as their numbers 1..32 (1 = b8, the
//! numbering of the rest of the engine); moves also carry their PDN text in both notations, so the
//! page never needs the rules. A game names its variant (`brazilian`, the default, or `russian`);
//! its moves, routes and texts are those of that variant's rules.

use crate::eval::score::Score;
use crate::game::record::Game;
use crate::notation::fen;
use crate::notation::pdn::write_move_in;
use crate::notation::squares::SquareNotation;
use crate::rules::movegen::{self, CaptureRoute};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::serve::guard::ApiError;
use serde::{Deserialize, Serialize};

/// The longest game a request may carry, in plies (far beyond any real game; bounds the work of
/// one request).
pub const MAX_PLIES: usize = 2000;

/// A game as the page sends it: the start position and the moves played from it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GameRequest {
    /// FEN or Hub position string of the start; absent or null: the initial position.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from the start, in Hub notation (`22-18`, `26x17x22`).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The rules: `brazilian` (absent or null) or `russian`.
    #[serde(default)]
    pub variant: Option<String>,
}

impl GameRequest {
    /// Replays the game, refusing a bad start position, an illegal move or an endless game with a
    /// message that names the culprit.
    pub fn replay(&self) -> Result<Game, ApiError> {
        if self.moves.len() > MAX_PLIES {
            return Err(ApiError::bad_request(format!(
                "a game of {} plies is longer than the {MAX_PLIES} accepted",
                self.moves.len()
            )));
        }
        let start = match self.fen.as_deref().map(str::trim) {
            None | Some("") => Position::start(),
            Some(text) => fen::parse_position(text)
                .map_err(|why| ApiError::bad_request(format!("bad position '{text}': {why}")))?,
        };
        let variant = match self.variant.as_deref().map(str::trim) {
            None | Some("") => Variant::Brazilian,
            Some(text) => text
                .parse()
                .map_err(|why| ApiError::bad_request(format!("{why}")))?,
        };
        let mut game = Game::in_variant(variant, start);
        for (index, text) in self.moves.iter().enumerate() {
            game.play_text(text).map_err(|why| {
                ApiError::bad_request(format!(
                    "move {} '{text}' cannot be played in {} ({why})",
                    index + 1,
                    fen::to_fen(game.current())
                ))
            })?;
        }
        Ok(game)
    }
}

/// `"white"` or `"black"`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One square of the board, for drawing it.
#[derive(Clone, Debug, Serialize)]
pub struct SquareJson {
    /// 1..32.
    pub number: u32,
    /// Algebraic name (`a1`).
    pub name: String,
    /// 0 = a ... 7 = h.
    pub file: u32,
    /// 0 = the first row (White's back row) ... 7.
    pub rank: u32,
}

impl SquareJson {
    /// The square's numbers and coordinates.
    pub fn of(square: Square) -> SquareJson {
        SquareJson {
            number: square.number(),
            name: square.algebraic(),
            file: square.file(),
            rank: 7 - square.row(),
        }
    }
}

/// A piece on a square.
#[derive(Clone, Debug, Serialize)]
pub struct PieceJson {
    /// Its square's number.
    pub square: u32,
    /// `"white"` or `"black"`.
    pub color: &'static str,
    /// Whether it is a king.
    pub king: bool,
}

/// A position: FEN, side to move and pieces.
#[derive(Clone, Debug, Serialize)]
pub struct PositionJson {
    /// The position in FEN (numbered squares).
    pub fen: String,
    /// Who moves.
    pub side: &'static str,
    /// Every piece.
    pub pieces: Vec<PieceJson>,
}

impl PositionJson {
    /// The position as the page draws it.
    pub fn of(position: &Position) -> PositionJson {
        let pieces = Square::all()
            .filter_map(|square| {
                position.piece_at(square).map(|piece| PieceJson {
                    square: square.number(),
                    color: color_name(piece.color),
                    king: piece.king,
                })
            })
            .collect();
        PositionJson {
            fen: fen::to_fen(position),
            side: color_name(position.side_to_move()),
            pieces,
        }
    }
}

/// A legal move, with its texts and every route that plays it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveJson {
    /// Hub notation: the move's identity in requests.
    pub hub: String,
    /// PDN text with algebraic square names.
    pub algebraic: String,
    /// PDN text with square numbers.
    pub numeric: String,
    /// Origin.
    pub from: u32,
    /// Destination.
    pub to: u32,
    /// The captured pieces' squares, ascending.
    pub captured: Vec<u32>,
    /// Each route that plays the move: the squares visited, origin first, destination last.
    pub routes: Vec<Vec<u32>>,
    /// Whether the moving man becomes a king.
    pub promotes: bool,
}

impl MoveJson {
    /// Every move of `moves`, all legal in `position` under `variant`, described for the page
    /// (the capture routes of the position are found once for all of them).
    pub fn all(variant: Variant, position: &Position, moves: &[Move]) -> Vec<MoveJson> {
        let routes = if moves.iter().any(Move::is_capture) {
            movegen::capture_routes_in(variant, position)
        } else {
            Vec::new()
        };
        moves
            .iter()
            .map(|mv| MoveJson::with_routes(variant, position, mv, &routes))
            .collect()
    }

    /// `mv`, legal in `position` under `variant`, described for the page.
    pub fn of(variant: Variant, position: &Position, mv: &Move) -> MoveJson {
        MoveJson::all(variant, position, std::slice::from_ref(mv))
            .pop()
            .expect("one move in, one description out")
    }

    /// `mv` with its routes among the position's `routes`.
    fn with_routes(
        variant: Variant,
        position: &Position,
        mv: &Move,
        routes: &[CaptureRoute],
    ) -> MoveJson {
        let routes: Vec<Vec<u32>> = if mv.is_capture() {
            routes
                .iter()
                .filter(|route| route.mv == *mv)
                .map(route_squares)
                .collect()
        } else {
            vec![vec![mv.from.number(), mv.to.number()]]
        };
        let was_man = position.piece_at(mv.from).is_some_and(|piece| !piece.king);
        let after = position.play_in(variant, mv);
        let promotes = was_man && after.piece_at(mv.to).is_some_and(|p| p.king);
        MoveJson {
            hub: mv.hub(),
            algebraic: write_move_in(variant, position, mv, SquareNotation::Algebraic),
            numeric: write_move_in(variant, position, mv, SquareNotation::HubNumbers),
            from: mv.from.number(),
            to: mv.to.number(),
            captured: mv.captured.squares().map(Square::number).collect(),
            routes,
            promotes,
        }
    }
}

fn route_squares(route: &CaptureRoute) -> Vec<u32> {
    std::iter::once(route.mv.from)
        .chain(route.landings.iter().copied())
        .map(Square::number)
        .collect()
}

/// A line of moves of `variant` from `position` in both PDN notations, space separated (illegal
/// tails, which the search never gives, are cut off).
pub fn line_texts(variant: Variant, position: &Position, line: &[Move]) -> (String, String) {
    let mut algebraic = Vec::new();
    let mut numeric = Vec::new();
    let mut at = *position;
    for mv in line {
        if !movegen::legal_moves_in(variant, &at).contains(mv) {
            break;
        }
        algebraic.push(write_move_in(variant, &at, mv, SquareNotation::Algebraic));
        numeric.push(write_move_in(variant, &at, mv, SquareNotation::HubNumbers));
        at = at.play_in(variant, mv);
    }
    (algebraic.join(" "), numeric.join(" "))
}

/// The move number label of the move played from `position` in a game that started at `start`
/// after `plies` moves: `"12."` for White's move, `"12..."` for Black's.
pub fn move_label(start: &Position, plies: usize, position: &Position) -> String {
    // Move 1 is the first move of the start position, whoever has it.
    let black_started = start.side_to_move() == Color::Black;
    let half = plies + usize::from(black_started);
    let number = half / 2 + 1;
    match position.side_to_move() {
        Color::White => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

/// The value the page shows as a score and plots: men from White's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreJson {
    /// `+0.35`, `White wins in 7 plies`, `Black wins (tables)`.
    pub text: String,
    /// Men from White's point of view, clamped to [-`SCORE_CAP`, `SCORE_CAP`]; forced results at
    /// the cap.
    pub white: f64,
}

/// The bound of [`ScoreJson::white`], in men: beyond it the bar and graph say nothing more.
pub const SCORE_CAP: f64 = 10.0;

impl ScoreJson {
    /// `score`, the value for `side` (the side to move where it was found), for the page.
    pub fn of(score: Score, side: Color) -> ScoreJson {
        let white_score = if side == Color::White { score } else { -score };
        let winner = if white_score > Score::DRAW {
            "White"
        } else {
            "Black"
        };
        let cap = if white_score > Score::DRAW {
            SCORE_CAP
        } else {
            -SCORE_CAP
        };
        match (white_score.plies_to_win(), white_score.db_plies()) {
            (Some(plies), _) => ScoreJson {
                text: format!("{winner} wins in {} plies", plies.abs()),
                white: cap,
            },
            (None, Some(_)) => ScoreJson {
                text: format!("{winner} wins (tables)"),
                white: cap,
            },
            (None, None) => {
                let men = white_score.men();
                ScoreJson {
                    text: format!("{men:+.2}"),
                    white: men.clamp(-SCORE_CAP, SCORE_CAP),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_from_whites_side() {
        let half_man = Score(Score::MAN / 2);
        assert_eq!(ScoreJson::of(half_man, Color::White).text, "+0.50");
        assert_eq!(ScoreJson::of(half_man, Color::Black).text, "-0.50");
        let won = ScoreJson::of(Score::win_in(7), Color::Black);
        assert_eq!(won.text, "Black wins in 7 plies");
        assert_eq!(won.white, -SCORE_CAP);
        let table = ScoreJson::of(Score::db_loss_in(3), Color::Black);
        assert_eq!(table.text, "White wins (tables)");
    }

    #[test]
    fn labels_count_moves_from_the_start_position() {
        let start = Position::start();
        let after_one = start.play(&movegen::legal_moves(&start)[0]);
        assert_eq!(move_label(&start, 0, &start), "1.");
        assert_eq!(move_label(&start, 1, &after_one), "1...");
        let black_start = fen::parse_position("B:W21-32:B1-12").expect("a valid FEN");
        assert_eq!(move_label(&black_start, 0, &black_start), "1...");
    }

    #[test]
    fn replay_names_the_illegal_move() {
        let request = GameRequest {
            fen: None,
            moves: vec!["22-18".into(), "22-17".into()],
            variant: None,
        };
        let error = request.replay().expect_err("22-17 is not Black's move");
        assert!(
            error.message.contains("move 2 '22-17'"),
            "{}",
            error.message
        );
    }
}

//! `GET /api/board` (the squares, so the page need not know the numbering) and `POST /api/game`
//! (a game replayed: every position, the moves with their texts and paths, the legal moves of the
//! last position and the result once the game is over).

use crate::game::draw::DrawRules;
use crate::game::pdn::GameResult;
use crate::game::record::{Game, Outcome};
use crate::notation::fen;
use crate::rules::position::{Color, Position};
use crate::rules::square::Square;
use crate::serve::app::AppState;
use crate::serve::guard::{ApiError, ApiJson};
use crate::serve::wire::{move_label, GameRequest, MoveJson, PositionJson, SquareJson};
use axum::extract::State;
use axum::Json;
use serde::Serialize;

/// The board's squares and the initial position.
#[derive(Serialize)]
pub struct BoardJson {
    squares: Vec<SquareJson>,
    start_fen: String,
    /// The rules the page starts with (`onca serve --variant`).
    variant: &'static str,
}

/// `GET /api/board`.
pub async fn board(State(state): State<AppState>) -> Json<BoardJson> {
    Json(BoardJson {
        squares: Square::all().map(SquareJson::of).collect(),
        start_fen: fen::to_fen(&Position::start()),
        variant: state.variant.name(),
    })
}

/// One position of a replayed game and the move that led to it.
#[derive(Serialize)]
pub struct PlyJson {
    #[serde(flatten)]
    position: PositionJson,
    /// The move that led here (none for the start).
    #[serde(rename = "move")]
    played: Option<MoveJson>,
    /// The move number of `played` (`"3."`, `"3..."`).
    label: Option<String>,
}

/// How the game ended.
#[derive(Serialize)]
pub struct OutcomeJson {
    /// `2-0`, `0-2` or `1-1` (PDN).
    pub result: &'static str,
    /// Why, in words.
    pub reason: String,
}

impl OutcomeJson {
    /// The result and its reason.
    pub fn of(outcome: Outcome) -> OutcomeJson {
        match outcome {
            Outcome::Win(winner) => {
                let (result, loser) = match winner {
                    Color::White => (GameResult::WhiteWins, "Black"),
                    Color::Black => (GameResult::BlackWins, "White"),
                };
                OutcomeJson {
                    result: result.pdn(),
                    reason: format!("{loser} has no legal move"),
                }
            }
            Outcome::Draw(reason) => OutcomeJson {
                result: GameResult::Draw.pdn(),
                reason: reason.describe().to_string(),
            },
        }
    }
}

/// A replayed game.
#[derive(Serialize)]
pub struct GameJson {
    variant: &'static str,
    start_fen: String,
    plies: Vec<PlyJson>,
    legal: Vec<MoveJson>,
    outcome: Option<OutcomeJson>,
}

/// `POST /api/game`.
pub async fn game(ApiJson(request): ApiJson<GameRequest>) -> Result<Json<GameJson>, ApiError> {
    let game = request.replay()?;
    Ok(Json(describe(&game)))
}

/// Everything the page shows of `game`.
pub fn describe(game: &Game) -> GameJson {
    let start = *game.start();
    let mut plies = vec![PlyJson {
        position: PositionJson::of(&start),
        played: None,
        label: None,
    }];
    let mut position = start;
    for (index, mv) in game.moves().iter().enumerate() {
        let described = MoveJson::of(game.variant(), &position, mv);
        let label = move_label(&start, index, &position);
        position = position.play_in(game.variant(), mv);
        plies.push(PlyJson {
            position: PositionJson::of(&position),
            played: Some(described),
            label: Some(label),
        });
    }
    let outcome = game.outcome(&DrawRules::default());
    let legal = match outcome {
        Some(_) => Vec::new(),
        None => MoveJson::all(game.variant(), &position, &game.legal_moves()),
    };
    GameJson {
        variant: game.variant().name(),
        start_fen: fen::to_fen(&start),
        plies,
        legal,
        outcome: outcome.map(OutcomeJson::of),
    }
}

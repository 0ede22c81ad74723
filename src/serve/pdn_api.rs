//! `POST /api/pdn/import` (a PDN file's games, read by the engine's reader and returned as start
//! positions and Hub moves) and `POST /api/pdn/export` (a game written as PDN).

use crate::game::pdn::read::read_games;
use crate::game::pdn::write::write_game;
use crate::game::pdn::{GameResult, PdnGame};
use crate::notation::fen;
use crate::notation::squares::SquareNotation;
use crate::serve::guard::{ApiError, ApiJson};
use crate::serve::wire::GameRequest;
use axum::Json;
use serde::{Deserialize, Serialize};

/// A PDN file's text.
#[derive(Deserialize)]
pub struct ImportRequest {
    text: String,
}

/// One imported game.
#[derive(Serialize)]
pub struct ImportedGame {
    /// `brazilian` or `russian`, from the game's `GameType` (26 or 25).
    variant: &'static str,
    tags: Vec<(String, String)>,
    fen: String,
    moves: Vec<String>,
    result: &'static str,
}

/// The games of the file, in order.
#[derive(Serialize)]
pub struct ImportJson {
    games: Vec<ImportedGame>,
}

/// `POST /api/pdn/import`.
pub async fn import(
    ApiJson(request): ApiJson<ImportRequest>,
) -> Result<Json<ImportJson>, ApiError> {
    let games = read_games(&request.text).map_err(|why| ApiError::bad_request(why.to_string()))?;
    if games.is_empty() {
        return Err(ApiError::bad_request("the text holds no PDN game"));
    }
    let games = games
        .into_iter()
        .map(|game| ImportedGame {
            variant: game.variant.name(),
            fen: fen::to_fen(&game.start),
            moves: game.moves.iter().map(|mv| mv.hub()).collect(),
            result: game.result.pdn(),
            tags: game.tags,
        })
        .collect();
    Ok(Json(ImportJson { games }))
}

/// A game to write, with its tags, result and notation.
#[derive(Deserialize)]
pub struct ExportRequest {
    #[serde(flatten)]
    game: GameRequest,
    #[serde(default)]
    tags: Vec<(String, String)>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    notation: Option<String>,
}

/// The PDN text.
#[derive(Serialize)]
pub struct ExportJson {
    text: String,
}

/// `POST /api/pdn/export`.
pub async fn export(
    ApiJson(request): ApiJson<ExportRequest>,
) -> Result<Json<ExportJson>, ApiError> {
    let game = request.game.replay()?;
    let result = match request.result.as_deref() {
        None => GameResult::Unknown,
        Some(text) => GameResult::parse(text)
            .ok_or_else(|| ApiError::bad_request(format!("'{text}' is not a PDN result")))?,
    };
    let notation = match request.notation.as_deref() {
        None | Some("algebraic") => SquareNotation::Algebraic,
        Some("numeric") => SquareNotation::HubNumbers,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "notation '{other}': expected algebraic or numeric"
            )))
        }
    };
    // The writer derives these three from the game itself.
    let tags = request
        .tags
        .into_iter()
        .filter(|(name, _)| !matches!(name.as_str(), "Result" | "GameType" | "FEN"))
        .collect();
    let pdn = PdnGame {
        variant: game.variant(),
        tags,
        start: *game.start(),
        moves: game.moves().to_vec(),
        result,
    };
    Ok(Json(ExportJson {
        text: write_game(&pdn, notation),
    }))
}

//! `POST /api/review`: the whole-game analysis of `onca analyze --pdn` for the page's graph,
//! streamed as server-sent events: `progress` after each position searched, then `review` with
//! every ply's value (White's view), the search's best move, the move's class and a summary per
//! side. Dropping the stream stops the review, like a search.

use crate::analysis::review::{review_game, ReviewConfig, SideSummary, Thresholds};
use crate::eval::score::Score;
use crate::notation::pdn::write_move;
use crate::notation::squares::SquareNotation;
use crate::rules::position::Color;
use crate::search::control::{SearchControl, SearchSettings};
use crate::search::limits::Limits;
use crate::serve::app::AppState;
use crate::serve::guard::{ApiError, ApiJson};
use crate::serve::search_api::{event_stream, json_event, lease, spawn_search, MAX_DEPTH};
use crate::serve::wire::{move_label, GameRequest, ScoreJson};
use axum::extract::State;
use axum::response::sse::{Event, Sse};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::Stream;

/// Depth of each position's search when the request names no limit (a quick review).
pub const DEFAULT_DEPTH: u32 = 8;
/// The longest search per position a request may ask for.
const MAX_MOVE_TIME: Duration = Duration::from_secs(60);

/// The game to review and how deeply.
#[derive(Deserialize)]
pub struct ReviewRequest {
    #[serde(flatten)]
    game: GameRequest,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    movetime_ms: Option<u64>,
}

impl ReviewRequest {
    fn limits(&self) -> Result<Limits, ApiError> {
        match (self.depth, self.movetime_ms) {
            (Some(depth), _) if !(1..=MAX_DEPTH).contains(&depth) => Err(ApiError::bad_request(
                format!("depth {depth}: expected 1 to {MAX_DEPTH}"),
            )),
            (_, Some(ms)) if ms == 0 || Duration::from_millis(ms) > MAX_MOVE_TIME => Err(
                ApiError::bad_request("movetime_ms: expected 1 ms to 1 minute per position"),
            ),
            (depth, Some(ms)) => Ok(Limits {
                depth,
                move_time: Some(Duration::from_millis(ms)),
                ..Limits::default()
            }),
            (depth, None) => Ok(Limits {
                depth: Some(depth.unwrap_or(DEFAULT_DEPTH)),
                ..Limits::default()
            }),
        }
    }
}

#[derive(Serialize)]
struct ProgressJson {
    done: usize,
    total: usize,
}

#[derive(Serialize)]
struct ReviewedPly {
    ply: usize,
    label: String,
    #[serde(rename = "move")]
    played: String,
    algebraic: String,
    numeric: String,
    /// The value after the move, White's view.
    white: f64,
    score: ScoreJson,
    best: Option<String>,
    best_algebraic: Option<String>,
    best_numeric: Option<String>,
    class: &'static str,
    loss: f64,
    only_move: bool,
}

#[derive(Serialize)]
struct SummaryJson {
    moves: usize,
    best: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    missed_wins: usize,
    thrown_draws: usize,
    average_loss: f64,
}

impl SummaryJson {
    fn of(summary: SideSummary) -> SummaryJson {
        SummaryJson {
            moves: summary.moves,
            best: summary.best,
            inaccuracies: summary.inaccuracies,
            mistakes: summary.mistakes,
            blunders: summary.blunders,
            missed_wins: summary.missed_wins,
            thrown_draws: summary.thrown_draws,
            average_loss: summary.average_loss,
        }
    }
}

#[derive(Serialize)]
struct Summaries {
    white: SummaryJson,
    black: SummaryJson,
}

#[derive(Serialize)]
struct ReviewJson {
    plies: Vec<ReviewedPly>,
    start_white: f64,
    summary: Summaries,
    /// Whether the review stopped before the last move (only when the page went away).
    complete: bool,
}

/// `POST /api/review`.
pub async fn review(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = request.game.replay()?;
    let limits = request.limits()?;
    let mut lease = lease(&state, None).await?;
    let config = ReviewConfig {
        limits,
        settings: SearchSettings {
            threads: lease.threads(),
            ..SearchSettings::default()
        },
        thresholds: Thresholds::DEFAULT,
    };
    let (sender, receiver) = mpsc::unbounded_channel();
    let control = Arc::new(SearchControl::new());
    let reviewing = Arc::clone(&control);
    spawn_search("serve-review", move || {
        let start = *game.start();
        let moves = game.moves().to_vec();
        let progress_sender = sender.clone();
        let review = review_game(
            lease.searcher_for(game.variant(), game.current()),
            game.variant(),
            start,
            &moves,
            &config,
            &reviewing,
            &mut |done, total| {
                let _ = progress_sender.send(json_event("progress", &ProgressJson { done, total }));
            },
        );
        drop(lease);
        let white_scores = review.white_scores();
        let mut position = start;
        let mut plies = Vec::with_capacity(review.plies.len());
        for (index, ply) in review.plies.iter().enumerate() {
            let after = white_scores.get(index + 1).copied().unwrap_or(Score::DRAW);
            let score = ScoreJson::of(after, Color::White);
            let name = |notation| write_move(&position, &ply.played, notation);
            let best_name = |notation| ply.best.map(|best| write_move(&position, &best, notation));
            plies.push(ReviewedPly {
                ply: index + 1,
                label: move_label(&start, index, &position),
                played: ply.played.hub(),
                algebraic: name(SquareNotation::Algebraic),
                numeric: name(SquareNotation::HubNumbers),
                white: score.white,
                score,
                best: ply.best.map(|best| best.hub()),
                best_algebraic: best_name(SquareNotation::Algebraic),
                best_numeric: best_name(SquareNotation::HubNumbers),
                class: ply.class.name(),
                loss: ply.loss,
                only_move: ply.only_move,
            });
            position = position.play(&ply.played);
        }
        let start_white = white_scores
            .first()
            .map(|&score| ScoreJson::of(score, Color::White).white)
            .unwrap_or(0.0);
        let payload = ReviewJson {
            complete: review.plies.len() == moves.len(),
            plies,
            start_white,
            summary: Summaries {
                white: SummaryJson::of(review.summary(Color::White)),
                black: SummaryJson::of(review.summary(Color::Black)),
            },
        };
        let _ = sender.send(json_event("review", &payload));
    })?;
    Ok(event_stream(receiver, control))
}

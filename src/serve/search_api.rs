//! `POST /api/search`: one search of a game's last position, streamed to the page as server-sent
//! events (`info` per report, then `done`). Play searches use the clock or move time and the book;
//! analysis runs until the page stops it.
//!
//! The search runs on its own thread with a [`Lease`] of the server's threads. The response stream
//! owns a guard that stops the search when the stream is dropped, which is what happens when the
//! page aborts the request or closes; the keep-alive comments make a closed connection show up
//! within a second even while the search is silent.

use crate::book::{self, Book};
use crate::game::record::Game;
use crate::rules::moves::Move;
use crate::rules::position::Color;
use crate::search::control::{Report, SearchControl, SearchResult, SearchSettings, FULL_SKILL};
use crate::search::limits::{Clock, Limits};
use crate::search::searcher::SEARCH_STACK_BYTES;
use crate::serve::app::AppState;
use crate::serve::budget::Lease;
use crate::serve::guard::{ApiError, ApiJson};
use crate::serve::wire::{line_texts, GameRequest, ScoreJson};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::Stream;
use tokio_stream::StreamExt;

/// The most lines of a multi-PV analysis.
pub const MAX_MULTIPV: usize = 10;
/// The deepest search a request may ask for.
pub const MAX_DEPTH: u32 = 100;
/// The longest fixed move time a request may ask for.
const MAX_MOVE_TIME: Duration = Duration::from_secs(3600);

/// Play a move or analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Find a move to play under the clock or a move time (book, single replies at once).
    Play,
    /// Search until stopped (or the depth), every move considered.
    Analyze,
}

/// Both clocks and the increment, in milliseconds.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct ClockJson {
    white_ms: u64,
    black_ms: u64,
    #[serde(default)]
    increment_ms: u64,
}

/// What to search.
#[derive(Clone, Debug, Deserialize)]
pub struct SearchRequest {
    #[serde(flatten)]
    game: GameRequest,
    mode: Mode,
    #[serde(default)]
    movetime_ms: Option<u64>,
    #[serde(default)]
    clock: Option<ClockJson>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    multipv: Option<usize>,
    #[serde(default)]
    skill: Option<u32>,
    #[serde(default)]
    threads: Option<usize>,
}

impl SearchRequest {
    fn limits(&self, side: Color) -> Result<Limits, ApiError> {
        let depth = match self.depth {
            Some(depth) if !(1..=MAX_DEPTH).contains(&depth) => {
                return Err(ApiError::bad_request(format!(
                    "depth {depth}: expected 1 to {MAX_DEPTH}"
                )))
            }
            depth => depth,
        };
        let move_time = self.movetime_ms.map(Duration::from_millis);
        if move_time.is_some_and(|time| time.is_zero() || time > MAX_MOVE_TIME) {
            return Err(ApiError::bad_request(
                "movetime_ms: expected 1 ms to 1 hour",
            ));
        }
        let clock = self.clock.map(|clock| {
            let remaining = match side {
                Color::White => clock.white_ms,
                Color::Black => clock.black_ms,
            };
            Clock {
                remaining: Duration::from_millis(remaining),
                increment: Duration::from_millis(clock.increment_ms),
                moves_to_go: None,
            }
        });
        let limits = match self.mode {
            Mode::Analyze => Limits {
                depth,
                infinite: depth.is_none(),
                ..Limits::default()
            },
            Mode::Play => {
                if move_time.is_none() && clock.is_none() && depth.is_none() {
                    return Err(ApiError::bad_request(
                        "a play search needs movetime_ms, clock or depth",
                    ));
                }
                Limits {
                    depth,
                    move_time,
                    clock,
                    ..Limits::default()
                }
            }
        };
        Ok(limits)
    }

    fn settings(&self, threads: usize) -> Result<SearchSettings, ApiError> {
        let multipv = self.multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(ApiError::bad_request(format!(
                "multipv {multipv}: expected 1 to {MAX_MULTIPV}"
            )));
        }
        let skill = self.skill.unwrap_or(FULL_SKILL);
        if skill > FULL_SKILL {
            return Err(ApiError::bad_request(format!(
                "skill {skill}: expected 0 to {FULL_SKILL}"
            )));
        }
        let play = self.mode == Mode::Play;
        Ok(SearchSettings {
            threads,
            multipv: if play { 1 } else { multipv },
            skill: (play && skill < FULL_SKILL).then_some(skill),
            instant_single_reply: play,
            table_root_moves: play,
            ..SearchSettings::default()
        })
    }
}

/// One report as the page reads it.
#[derive(Serialize)]
struct InfoJson {
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: ScoreJson,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    pv: Vec<String>,
    pv_algebraic: String,
    pv_numeric: String,
    source: &'static str,
}

/// The search's answer.
#[derive(Serialize)]
struct DoneJson {
    best: Option<String>,
    ponder: Option<String>,
    score: ScoreJson,
    depth: u32,
    nodes: u64,
    source: &'static str,
}

fn info_event(game: &Game, report: &Report, source: &'static str) -> Event {
    let root = game.current();
    let (pv_algebraic, pv_numeric) = line_texts(game.variant(), root, &report.pv);
    let seconds = report.elapsed.as_secs_f64();
    let info = InfoJson {
        depth: report.depth,
        seldepth: report.seldepth,
        multipv: report.multipv,
        score: ScoreJson::of(report.score, root.side_to_move()),
        nodes: report.nodes,
        nps: if seconds > 0.0 {
            (report.nodes as f64 / seconds) as u64
        } else {
            0
        },
        time_ms: report.elapsed.as_millis() as u64,
        pv: report.pv.iter().map(Move::hub).collect(),
        pv_algebraic,
        pv_numeric,
        source,
    };
    json_event("info", &info)
}

fn done_event(game: &Game, result: &SearchResult, source: &'static str) -> Event {
    let done = DoneJson {
        best: result.best.as_ref().map(Move::hub),
        ponder: result.ponder.as_ref().map(Move::hub),
        score: ScoreJson::of(result.score, game.current().side_to_move()),
        depth: result.depth,
        nodes: result.nodes,
        source,
    };
    json_event("done", &done)
}

/// A named event with a JSON payload.
pub fn json_event(name: &str, payload: &impl Serialize) -> Event {
    let data = serde_json::to_string(payload).unwrap_or_else(|_| "null".to_string());
    Event::default().event(name).data(data)
}

/// Stops a search when dropped (with the response stream that owns it).
pub struct StopOnDrop(pub Arc<SearchControl>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The response: a stream of events from `receiver` that stops `control`'s search when the
/// page goes away.
pub fn event_stream(
    receiver: mpsc::UnboundedReceiver<Event>,
    control: Arc<SearchControl>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let guard = StopOnDrop(control);
    let stream = UnboundedReceiverStream::new(receiver).map(move |event| {
        // The closure owns the guard, so the guard lives exactly as long as the stream.
        let _ = &guard;
        Ok(event)
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
}

/// Runs `work` on a thread of its own with the search stack, or answers 500.
pub fn spawn_search(name: &str, work: impl FnOnce() + Send + 'static) -> Result<(), ApiError> {
    std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(work)
        .map(|_| ())
        .map_err(|why| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot start a search thread: {why}"),
            )
        })
}

/// How long a request waits for busy threads before it is refused: a page that aborts its search
/// and starts another at once finds the old one still stopping for a few milliseconds (or, if its
/// connection's end shows only at the next keep-alive, for up to a second).
pub const LEASE_WAIT: Duration = Duration::from_secs(2);

/// Takes threads for a search, waiting up to [`LEASE_WAIT`] for a stopping search to give them
/// back, or answers 503.
pub async fn lease(state: &AppState, wanted: Option<usize>) -> Result<Lease, ApiError> {
    let deadline = tokio::time::Instant::now() + LEASE_WAIT;
    loop {
        if let Some(lease) = state.budget.lease(wanted) {
            return Ok(lease);
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "all {} search threads are busy; stop another search first",
                    state.budget.total_threads()
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The book's move for a play search, as a finished result: with the Hub's default variety and
/// plies, drawn afresh for every move (the page has no game to seed). Games of another variant
/// than the book's always search.
fn book_move(book: &Book, game: &Game) -> Option<SearchResult> {
    if game.variant() != book.variant() || game.moves().len() >= book::DEFAULT_PLIES as usize {
        return None;
    }
    book.answer(game.current(), book::DEFAULT_VARIETY, book::fresh_seed())
}

/// `POST /api/search`.
pub async fn search(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<SearchRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = request.game.replay()?;
    let limits = request.limits(game.current().side_to_move())?;
    // Refuse bad settings before taking threads (the real ones need the lease's thread count).
    request.settings(1)?;
    let (sender, receiver) = mpsc::unbounded_channel();
    let control = Arc::new(SearchControl::new());
    let from_book = match (&state.book, request.mode) {
        (Some(book), Mode::Play) => book_move(book, &game),
        _ => None,
    };
    if let Some(result) = from_book {
        let report = Report {
            depth: result.depth,
            seldepth: result.depth,
            multipv: 1,
            score: result.score,
            nodes: 0,
            tbhits: 0,
            elapsed: Duration::ZERO,
            pv: result.best.into_iter().collect(),
        };
        // The receiver is in hand: these sends cannot fail.
        let _ = sender.send(info_event(&game, &report, "book"));
        let _ = sender.send(done_event(&game, &result, "book"));
        return Ok(event_stream(receiver, control));
    }
    let mut lease = lease(&state, request.threads).await?;
    let settings = request.settings(lease.threads())?;
    let searching = Arc::clone(&control);
    spawn_search("serve-search", move || {
        let result = lease.searcher_for(game.variant(), game.current()).search(
            &game,
            &limits,
            &settings,
            &searching,
            &mut |report| {
                // A closed page is seen through the stop flag; nothing to do with the error.
                let _ = sender.send(info_event(&game, report, "search"));
            },
        );
        let _ = sender.send(done_event(&game, &result, "search"));
        drop(lease);
    })?;
    Ok(event_stream(receiver, control))
}

//! Engine-against-engine matches: scheduling games over worker threads, refereeing each game with
//! our own move generator, keeping the clocks, and adjudicating.
//!
//! Game `i` (0-based) plays opening `order[(i / 2) % n]` with the first engine as White when `i`
//! is even and as Black when it is odd, so every opening is played twice with colours reversed.
//! Each worker thread owns one process per engine and plays its games one after another; an
//! engine that crashed or hung is killed and started afresh for the worker's next game.
//!
//! The referee: the side to move gets `pos` (the game's start position and every move since),
//! `level` (its remaining clock measured by us, or the fixed limit) and `go think`. An illegal
//! move, a crash, no answer in time, or a fallen flag loses the game for that engine; a side with
//! no legal move loses; repetition and the move-count rules draw ([`Game::outcome`]); and an
//! optional ply limit adjudicates a draw.

use crate::arena::elo::{Sprt, SprtVerdict, Tally};
use crate::arena::engine::{HubEngine, HubError};
use crate::arena::pentanomial::Pentanomial;
use crate::game::draw::DrawRules;
use crate::game::openings::Opening;
use crate::game::pdn::GameResult;
use crate::game::record::{Game, Outcome};
use crate::notation::fen;
use crate::rules::movegen;
use crate::rules::moves::{find_hub_move, Move};
use crate::rules::position::{Color, Position};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The longest the runner waits for one move, whatever the limit says (about eleven days).
const MAX_WAIT_SECONDS: f64 = 1e6;

/// The search limit given to the engines for every move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A clock per engine: base time for the game plus an increment per move, in seconds.
    Clock {
        /// Seconds on each engine's clock when the game starts.
        base: f64,
        /// Seconds added to the mover's clock for each move (Fischer increment).
        increment: f64,
    },
    /// Seconds per move.
    MoveTime(f64),
    /// A fixed search depth per move, in plies (`level depth=`).
    Depth(u32),
    /// A fixed number of nodes per move (`level nodes=`).
    Nodes(u64),
}

impl Limit {
    /// Reads a time control `base+inc` or `base` in seconds (`10+0.1`, `60`), or `m:ss+inc`.
    pub fn parse_clock(text: &str) -> Result<Limit, String> {
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (base, increment),
            None => (text, "0"),
        };
        let seconds = |field: &str| -> Result<f64, String> {
            let field = field.trim();
            let value = match field.split_once(':') {
                Some((minutes, seconds)) => {
                    let minutes: f64 = minutes.parse().map_err(|_| bad_tc(text))?;
                    let seconds: f64 = seconds.parse().map_err(|_| bad_tc(text))?;
                    minutes * 60.0 + seconds
                }
                None => field.parse().map_err(|_| bad_tc(text))?,
            };
            if value.is_finite() && value >= 0.0 {
                Ok(value)
            } else {
                Err(bad_tc(text))
            }
        };
        let base = seconds(base)?;
        let increment = seconds(increment)?;
        if base <= 0.0 && increment <= 0.0 {
            return Err(bad_tc(text));
        }
        Ok(Limit::Clock { base, increment })
    }

    /// The `level` line for the side to move with `remaining` seconds on its clock.
    fn level_line(&self, remaining: f64) -> String {
        match *self {
            Limit::Clock { increment, .. } => {
                format!("level time={remaining:.3} inc={increment:.3}")
            }
            Limit::MoveTime(seconds) => format!("level move-time={seconds:.3}"),
            Limit::Depth(depth) => format!("level depth={depth}"),
            Limit::Nodes(nodes) => format!("level nodes={nodes}"),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock { base, increment } => write!(f, "tc {base}+{increment}"),
            Limit::MoveTime(seconds) => write!(f, "{seconds} s/move"),
            Limit::Depth(depth) => write!(f, "depth {depth}"),
            Limit::Nodes(nodes) => write!(f, "{nodes} nodes"),
        }
    }
}

fn bad_tc(text: &str) -> String {
    format!("bad time control '{text}': use seconds+increment such as 10+0.1 or 1:00+1")
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name: used in progress lines, the summary, PDN tags and process labels.
    pub name: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// `set-param` name and value pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted from the point of view of `engines[0]`.
    pub engines: [EngineSpec; 2],
    /// Games to play (fewer if the SPRT decides first).
    pub games: usize,
    /// The search limit for every move of both engines.
    pub limit: Limit,
    /// Games played at the same time, one worker thread each (0 counts as 1).
    pub concurrency: usize,
    /// The openings, each played twice with colours reversed; with none, no game is played.
    pub openings: Vec<Opening>,
    /// Adjudicate a draw once the game (opening included) has this many plies.
    pub max_plies: Option<usize>,
    /// Seed of the order in which the openings are played ([`shuffled_order`]).
    pub seed: u64,
    /// Time an engine may overrun its clock or move time before it loses on time.
    pub time_margin: Duration,
    /// How long to wait for a move under a depth or node limit before calling the engine hung.
    pub hang_timeout: Duration,
    /// How long an engine may take to answer `hub` and `init`.
    pub startup_timeout: Duration,
    /// The repetition and move-count rules the referee applies.
    pub draw_rules: DrawRules,
    /// Stop as soon as this test accepts a hypothesis; None plays all `games`.
    pub sprt: Option<Sprt>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move had no legal move and lost.
    NoLegalMove,
    /// Drawn by the draw rules (repetition or a move-count rule).
    Draw(crate::game::draw::DrawReason),
    /// Adjudicated a draw on reaching this many plies ([`MatchConfig::max_plies`]).
    MaxPlies(usize),
    /// The engine answered a move that is not legal in the position; the text as sent.
    IllegalMove(String),
    /// The engine could not be started, exited, or could not be written to; the error text.
    Crash(String),
    /// No move within this time under a move-time, depth or node limit (under a clock, running
    /// out of time is a [`FlagFall`](Termination::FlagFall)).
    Hang(Duration),
    /// The clock ran out; the text says by how much.
    FlagFall(String),
}

impl Termination {
    /// A short category for summaries.
    pub fn category(&self) -> &'static str {
        match self {
            Termination::NoLegalMove => "no legal move",
            Termination::Draw(reason) => reason.describe(),
            Termination::MaxPlies(_) => "max plies",
            Termination::IllegalMove(_) => "illegal move",
            Termination::Crash(_) => "crash",
            Termination::Hang(_) => "hang",
            Termination::FlagFall(_) => "flag fall",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::NoLegalMove => f.write_str("no legal move"),
            Termination::Draw(reason) => f.write_str(reason.describe()),
            Termination::MaxPlies(plies) => write!(f, "adjudicated draw after {plies} plies"),
            Termination::IllegalMove(text) => write!(f, "illegal move '{text}'"),
            Termination::Crash(why) => write!(f, "crash: {why}"),
            Termination::Hang(limit) => {
                write!(f, "hang: no move within {:.1} s", limit.as_secs_f64())
            }
            Termination::FlagFall(detail) => write!(f, "flag fall: {detail}"),
        }
    }
}

/// The record of one finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based game number in schedule order.
    pub number: usize,
    /// The label of the opening played.
    pub opening: String,
    /// Index (0 or 1) of the engine that played White.
    pub white: usize,
    /// The opening's start position, from which `moves` are played.
    pub start: Position,
    /// Every move of the game from `start`, the opening's moves included.
    pub moves: Vec<Move>,
    /// The result (a win or a draw, never `Unknown`).
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Index of the engine that lost by its own fault or by having no move, if any.
    pub loser: Option<usize>,
}

impl GameReport {
    /// The result from the first engine's point of view: 1 win, 0 draw, -1 loss.
    pub fn first_engine_score(&self) -> i32 {
        let white_score = match self.result {
            GameResult::WhiteWins => 1,
            GameResult::BlackWins => -1,
            GameResult::Draw | GameResult::Unknown => 0,
        };
        if self.white == 0 {
            white_score
        } else {
            -white_score
        }
    }
}

/// The running totals after each game, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchState {
    /// Wins, draws and losses of the first engine in the games finished so far.
    pub tally: Tally,
    /// The first engine's points in each finished pair of games (one opening, both colours).
    pub pairs: Pentanomial,
    /// Games finished so far.
    pub finished: usize,
    /// The SPRT verdict (on the pairs) after the latest game; None without an SPRT or before
    /// the first game.
    pub sprt_verdict: Option<SprtVerdict>,
}

/// Plays the match; `on_game` sees every game as it finishes (in finishing order) with the totals
/// after it. Stops early when the SPRT (on the pairs) decides. Returns the final totals.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameReport, &MatchState),
) -> MatchState {
    let order = shuffled_order(config.openings.len(), config.seed);
    let next_game = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = crossbeam::channel::unbounded::<GameReport>();
    let mut state = MatchState::default();
    // The first engine's score in games whose pair partner has not finished, by pair.
    let mut unpaired: std::collections::HashMap<usize, i32> = std::collections::HashMap::new();
    if order.is_empty() {
        return state;
    }
    thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next_game, stop, order) = (&next_game, &stop, &order);
            scope.spawn(move || {
                let mut engines: [Option<HubEngine>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let index = next_game.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let opening = &config.openings[order[(index / 2) % order.len()]];
                    let report = play_game(config, &mut engines, worker, index, opening);
                    if sender.send(report).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for report in receiver {
            let score = report.first_engine_score();
            match score {
                1 => state.tally.wins += 1,
                -1 => state.tally.losses += 1,
                _ => state.tally.draws += 1,
            }
            let pair = (report.number - 1) / 2;
            match unpaired.remove(&pair) {
                Some(partner) => state.pairs.add_pair(partner, score),
                None => {
                    unpaired.insert(pair, score);
                }
            }
            state.finished += 1;
            if let Some(sprt) = &config.sprt {
                let verdict = state.pairs.verdict(sprt);
                state.sprt_verdict = Some(verdict);
                if verdict != SprtVerdict::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            on_game(&report, &state);
        }
    });
    state
}

/// Indices 0..n in an order fixed by `seed` (Fisher-Yates with SplitMix64).
pub fn shuffled_order(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed;
    for i in (1..n).rev() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let j = (z % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Starts an engine and takes it through the handshake, options and `init`.
fn start_engine(spec: &EngineSpec, label: &str, timeout: Duration) -> Result<HubEngine, HubError> {
    let mut engine = HubEngine::start(&spec.argv, label)?;
    engine.handshake(timeout)?;
    for (name, value) in &spec.options {
        engine.set_param(name, value)?;
    }
    engine.init(timeout)?;
    Ok(engine)
}

/// Plays game `index` with this worker's engines, restarting any that are not running.
fn play_game(
    config: &MatchConfig,
    engines: &mut [Option<HubEngine>; 2],
    worker: usize,
    index: usize,
    opening: &Opening,
) -> GameReport {
    let white = index % 2;
    let mut game = opening.game();
    let report =
        |game: &Game, result: GameResult, termination: Termination, loser: Option<usize>| {
            GameReport {
                number: index + 1,
                opening: opening.label.clone(),
                white,
                start: opening.start,
                moves: game.moves().to_vec(),
                result,
                termination,
                loser,
            }
        };
    let loss_for = |engine: usize| -> GameResult {
        let color = if engine == white {
            Color::White
        } else {
            Color::Black
        };
        GameResult::win_for(color.opponent())
    };
    // Bring both engines up; a missing or failing engine loses before the first move.
    let crashed = |engine_index: usize, why: String| {
        report(
            &game,
            loss_for(engine_index),
            Termination::Crash(why),
            Some(engine_index),
        )
    };
    for engine_index in [white, 1 - white] {
        let slot = &mut engines[engine_index];
        if slot.as_mut().is_some_and(|engine| !engine.is_running()) {
            *slot = None;
        }
        if slot.is_none() {
            let spec = &config.engines[engine_index];
            let label = format!("{}#{worker}", spec.name);
            match start_engine(spec, &label, config.startup_timeout) {
                Ok(engine) => *slot = Some(engine),
                Err(error) => return crashed(engine_index, error.to_string()),
            }
        }
        if let Some(engine) = slot.as_mut() {
            if let Err(error) = engine.send("new-game") {
                *slot = None;
                return crashed(engine_index, error.to_string());
            }
        }
    }
    let start_text = fen::to_hub_position(&opening.start);
    let mut clocks = match config.limit {
        Limit::Clock { base, .. } => [base, base],
        _ => [0.0, 0.0],
    };
    let margin = config.time_margin.as_secs_f64();
    loop {
        if let Some(outcome) = game.outcome(&config.draw_rules) {
            return match outcome {
                Outcome::Win(color) => {
                    let loser = if color == Color::White {
                        1 - white
                    } else {
                        white
                    };
                    report(
                        &game,
                        GameResult::win_for(color),
                        Termination::NoLegalMove,
                        Some(loser),
                    )
                }
                Outcome::Draw(reason) => {
                    report(&game, GameResult::Draw, Termination::Draw(reason), None)
                }
            };
        }
        if let Some(max_plies) = config.max_plies {
            if game.moves().len() >= max_plies {
                return report(
                    &game,
                    GameResult::Draw,
                    Termination::MaxPlies(max_plies),
                    None,
                );
            }
        }
        let side = game.current().side_to_move();
        let mover = if side == Color::White {
            white
        } else {
            1 - white
        };
        let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
        let (level, allowed) = match config.limit {
            Limit::Clock { increment, .. } => {
                let available = clocks[mover] + increment;
                (
                    config.limit.level_line(clocks[mover]),
                    available.max(0.0) + margin,
                )
            }
            Limit::MoveTime(seconds) => (config.limit.level_line(0.0), seconds + margin),
            _ => (
                config.limit.level_line(0.0),
                config.hang_timeout.as_secs_f64(),
            ),
        };
        // Capped so that absurd limits (--tc 1e30) cannot overflow the deadline arithmetic.
        let allowed = Duration::from_secs_f64(allowed.clamp(0.0, MAX_WAIT_SECONDS));
        let Some(engine) = engines[mover].as_mut() else {
            let termination = Termination::Crash("engine not running".into());
            return report(&game, loss_for(mover), termination, Some(mover));
        };
        let started = Instant::now();
        let answer = engine.think(&start_text, &moves, &level, started + allowed);
        let elapsed = started.elapsed().as_secs_f64();
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                // The engine is dead or stuck: kill it so the next game gets a fresh one.
                if let Some(engine) = engines[mover].take() {
                    engine.kill();
                }
                let termination = match (error, config.limit) {
                    (HubError::Timeout, Limit::Clock { .. }) => Termination::FlagFall(format!(
                        "no move within {:.3} s",
                        allowed.as_secs_f64()
                    )),
                    (HubError::Timeout, _) => Termination::Hang(allowed),
                    (other, _) => Termination::Crash(other.to_string()),
                };
                return report(&game, loss_for(mover), termination, Some(mover));
            }
        };
        if let Limit::Clock { increment, .. } = config.limit {
            let available = clocks[mover] + increment;
            clocks[mover] = available - elapsed;
            if clocks[mover] < -margin {
                let detail = format!("used {elapsed:.3} s of {available:.3} s");
                return report(
                    &game,
                    loss_for(mover),
                    Termination::FlagFall(detail),
                    Some(mover),
                );
            }
        }
        let legal = movegen::legal_moves(game.current());
        match find_hub_move(&legal, &answer.best_move) {
            Ok(mv) => game.play(mv),
            Err(_) => {
                let termination = Termination::IllegalMove(answer.best_move);
                return report(&game, loss_for(mover), termination, Some(mover));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            Limit::parse_clock("10+0.1"),
            Ok(Limit::Clock {
                base: 10.0,
                increment: 0.1
            })
        );
        assert_eq!(
            Limit::parse_clock("1:30+1"),
            Ok(Limit::Clock {
                base: 90.0,
                increment: 1.0
            })
        );
        assert_eq!(
            Limit::parse_clock("5"),
            Ok(Limit::Clock {
                base: 5.0,
                increment: 0.0
            })
        );
        assert!(Limit::parse_clock("x+1").is_err());
        assert!(Limit::parse_clock("-1+0").is_err());
        assert!(Limit::parse_clock("0+0").is_err());
    }

    #[test]
    fn level_lines() {
        let clock = Limit::Clock {
            base: 10.0,
            increment: 0.1,
        };
        assert_eq!(clock.level_line(9.5), "level time=9.500 inc=0.100");
        assert_eq!(
            Limit::MoveTime(0.25).level_line(0.0),
            "level move-time=0.250"
        );
        assert_eq!(Limit::Depth(7).level_line(0.0), "level depth=7");
        assert_eq!(Limit::Nodes(1000).level_line(0.0), "level nodes=1000");
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let order = shuffled_order(50, 7);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(order, shuffled_order(50, 7));
        assert_ne!(order, shuffled_order(50, 8));
        assert_eq!(shuffled_order(0, 1), Vec::<usize>::new());
    }
}

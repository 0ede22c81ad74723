//! Engine-against-engine tournaments: playing the [`Schedule`]'s games over worker threads,
//! refereeing each game with our own move generator, keeping the clocks, pondering, logging and
//! adjudicating.
//!
//! Each worker thread owns at most one process per engine and plays its games one after another;
//! an engine that crashed or hung is killed and started afresh for the worker's next game.
//!
//! The referee: the side to move gets `pos` (the game's start position and every move since),
//! `level` (its remaining clock measured by us, or the fixed limit) and `go think`. An illegal
//! move, a crash, no answer in time, or a fallen flag loses the game for that engine; a side with
//! no legal move loses; repetition and the move-count rules draw ([`Game::outcome`]); an
//! optional ply limit and the [`Adjudication`] rules end games early.
//!
//! With pondering, an engine that named an expected reply (`ponder=`) searches the position
//! after it with `go ponder` while its opponent thinks; the expected reply gets `ponder-hit` (the
//! engine's clock runs from then), any other reply `stop` (its `done` is discarded) and then a
//! normal search.
//!
//! A stop flag ends the run early (a signal, or the caller failing to keep a result): the games in
//! progress are abandoned mid-move and their engines stopped (see [`run_match`]).

use crate::arena::adjudication::{parse_score, Adjudication, Ruling, ScoredMove};
use crate::arena::elo::{Sprt, SprtVerdict, Tally};
use crate::arena::engine::{EngineLog, HubEngine, HubError, SearchAnswer};
use crate::arena::pentanomial::Pentanomial;
use crate::arena::schedule::{Schedule, Slot};
use crate::game::draw::DrawRules;
use crate::game::openings::Opening;
use crate::game::pdn::GameResult;
use crate::game::record::{Game, Outcome};
use crate::notation::fen;
use crate::rules::moves::{find_hub_move, Move};
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The longest the runner waits for one move, whatever the limit says (about eleven days).
const MAX_WAIT_SECONDS: f64 = 1e6;
/// How long a pondering engine may take to answer `stop` with its `done`.
const STOP_PATIENCE: Duration = Duration::from_secs(5);

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

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines; ratings are relative to `engines[0]`.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom, as [first, second] engine indices (see [`crate::arena::schedule::Format`]).
    pub pairings: Vec<[usize; 2]>,
    /// Games per pairing (fewer if the SPRT decides first).
    pub games: usize,
    /// The search limit for every move of every engine.
    pub limit: Limit,
    /// Games played at the same time, one worker thread each (0 counts as 1).
    pub concurrency: usize,
    /// The openings, each played twice with colours reversed; with none, no game is played.
    pub openings: Vec<Opening>,
    /// The rules the referee applies; engines are told with `set-param name=variant` unless it
    /// is Brazilian, every Hub engine's default.
    pub variant: Variant,
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
    /// Stop as soon as this test (on the first pairing's pairs) accepts a hypothesis; None plays
    /// every game.
    pub sprt: Option<Sprt>,
    /// Score and table adjudication.
    pub adjudication: Adjudication,
    /// Let engines think on their opponent's time.
    pub ponder: bool,
    /// Write each engine's traffic and standard error per game into this directory.
    pub log_dir: Option<PathBuf>,
}

impl MatchConfig {
    /// The schedule of every game.
    pub fn schedule(&self) -> Schedule {
        Schedule::new(
            self.pairings.clone(),
            self.games,
            self.openings.len(),
            self.seed,
        )
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
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
    /// Ended by an adjudication rule.
    Adjudicated(Ruling),
}

impl Termination {
    /// Whether the loser lost by its own fault (a bad move, a crash, a hang or its clock), as
    /// opposed to the game's course (no legal move, a draw rule, an adjudication).
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove(_)
                | Termination::Crash(_)
                | Termination::Hang(_)
                | Termination::FlagFall(_)
        )
    }

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
            Termination::Adjudicated(Ruling::ScoreDraw(_)) => "draw adjudication",
            Termination::Adjudicated(Ruling::ScoreWin(..)) => "win adjudication",
            Termination::Adjudicated(Ruling::TableDraw) => "table draw",
            Termination::Adjudicated(Ruling::TableWin(_)) => "table win",
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
            Termination::Adjudicated(Ruling::ScoreDraw(rule)) => write!(
                f,
                "adjudicated draw: both engines within {:.2} of zero for {} moves",
                rule.score, rule.moves
            ),
            Termination::Adjudicated(Ruling::ScoreWin(_, rule)) => write!(
                f,
                "adjudicated win: both engines agreed on a lead of {:.2} or more for {} moves",
                rule.score, rule.moves
            ),
            Termination::Adjudicated(Ruling::TableDraw) => {
                f.write_str("adjudicated draw by the endgame tables")
            }
            Termination::Adjudicated(Ruling::TableWin(_)) => {
                f.write_str("adjudicated win by the endgame tables")
            }
        }
    }
}

/// The record of one finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its place in the schedule (number, pairing, players, opening).
    pub slot: Slot,
    /// The label of the opening played.
    pub opening: String,
    /// The opening's start position, from which `moves` are played.
    pub start: Position,
    /// Every move of the game from `start`, the opening's moves included.
    pub moves: Vec<Move>,
    /// The result (a win or a draw, never `Unknown`).
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Index of the engine that lost, if one did.
    pub loser: Option<usize>,
}

/// The score of a game with `players` ([White, Black]) and `result` for `engine`, one of them:
/// 1 win, 0 draw, -1 loss.
pub fn score_for(players: [usize; 2], result: GameResult, engine: usize) -> i32 {
    let white_score = match result {
        GameResult::WhiteWins => 1,
        GameResult::BlackWins => -1,
        GameResult::Draw | GameResult::Unknown => 0,
    };
    if players[0] == engine {
        white_score
    } else {
        -white_score
    }
}

/// One pairing's running totals, from its first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingState {
    /// The two engines, [first, second].
    pub engines: [usize; 2],
    /// Wins, draws and losses of the first engine.
    pub tally: Tally,
    /// The first engine's points in each finished pair of games (one opening, both colours).
    pub pairs: Pentanomial,
}

/// The running totals after each game.
#[derive(Clone, Debug, Default)]
pub struct MatchState {
    /// Per pairing, in the order of [`MatchConfig::pairings`].
    pub pairings: Vec<PairingState>,
    /// Games finished so far (resumed ones included).
    pub finished: usize,
    /// The numbers of the finished games.
    pub played: HashSet<usize>,
    /// The SPRT verdict (on the first pairing's pairs) after the latest game, or the decision
    /// once one is reached; None without an SPRT or before the first game.
    pub sprt_verdict: Option<SprtVerdict>,
    /// How many games had finished when the SPRT decided.
    pub sprt_decided_after: Option<usize>,
    /// The first engine's score in games whose pair partner has not finished, by pair.
    unpaired: HashMap<usize, i32>,
}

impl MatchState {
    /// No game played yet.
    pub fn new(config: &MatchConfig) -> MatchState {
        MatchState {
            pairings: config
                .pairings
                .iter()
                .map(|&engines| PairingState {
                    engines,
                    ..PairingState::default()
                })
                .collect(),
            ..MatchState::default()
        }
    }

    /// Counts the game of `slot` with `result`, and updates the SPRT verdict.
    pub fn record(&mut self, slot: &Slot, result: GameResult, sprt: Option<&Sprt>) {
        let Some(pairing) = self.pairings.get_mut(slot.pairing) else {
            return;
        };
        let score = score_for(slot.players, result, pairing.engines[0]);
        match score {
            1 => pairing.tally.wins += 1,
            -1 => pairing.tally.losses += 1,
            _ => pairing.tally.draws += 1,
        }
        match self.unpaired.remove(&slot.pair) {
            Some(partner) => pairing.pairs.add_pair(partner, score),
            None => {
                self.unpaired.insert(slot.pair, score);
            }
        }
        self.finished += 1;
        self.played.insert(slot.number);
        // A sequential test ends at its first crossing: the games still in flight then are
        // counted in the totals, but they cannot reopen a decided test.
        if let (Some(sprt), Some(first), false) = (sprt, self.pairings.first(), self.decided()) {
            self.sprt_verdict = Some(first.pairs.verdict(sprt));
            if self.decided() {
                self.sprt_decided_after = Some(self.finished);
            }
        }
    }

    /// Whether the SPRT has decided.
    pub fn decided(&self) -> bool {
        matches!(
            self.sprt_verdict,
            Some(SprtVerdict::AcceptH0 | SprtVerdict::AcceptH1)
        )
    }
}

/// Plays every scheduled game not already in `state` (a resumed tournament's), calling
/// `on_game` with each as it finishes (in finishing order) and the totals after it. Stops early
/// when the SPRT decides. Returns the final totals.
///
/// Setting `interrupt` (from a signal handler, or from `on_game` when its result cannot be kept)
/// stops the run: no game starts, the games in progress are abandoned at once (their engines
/// stopped, their reports dropped) and `on_game` is not called again, so the games it has seen
/// are exactly the ones a resumed run must not play again.
pub fn run_match(
    config: &MatchConfig,
    mut state: MatchState,
    interrupt: &Arc<AtomicBool>,
    mut on_game: impl FnMut(&GameReport, &MatchState),
) -> MatchState {
    let schedule = config.schedule();
    let next_game = AtomicUsize::new(0);
    let stop = AtomicBool::new(state.decided());
    let (sender, receiver) = crossbeam::channel::unbounded::<GameReport>();
    let already_played = state.played.clone();
    thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next_game, stop, schedule, already_played) =
                (&next_game, &stop, &schedule, &already_played);
            scope.spawn(move || {
                let mut seat = Seat::new(config.engines.len(), Arc::clone(interrupt));
                while !stop.load(Ordering::SeqCst) && !interrupt.load(Ordering::SeqCst) {
                    let index = next_game.fetch_add(1, Ordering::SeqCst);
                    let Some(slot) = schedule.slot(index) else {
                        break;
                    };
                    if already_played.contains(&slot.number) {
                        continue;
                    }
                    let Some(report) = seat.play(config, worker, slot) else {
                        break;
                    };
                    if sender.send(report).is_err() {
                        break;
                    }
                }
                // Dropping the seat stops its engines (`quit`, then a kill).
            });
        }
        drop(sender);
        for report in receiver {
            if interrupt.load(Ordering::SeqCst) {
                continue;
            }
            state.record(&report.slot, report.result, config.sprt.as_ref());
            if state.decided() {
                stop.store(true, Ordering::SeqCst);
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
        let (next, z) = crate::rules::zobrist::splitmix64(state);
        state = next;
        let j = (z % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Starts an engine and takes it through the handshake, options and `init`.
fn start_engine(
    spec: &EngineSpec,
    variant: Variant,
    label: &str,
    timeout: Duration,
    log: Option<EngineLog>,
    interrupt: &Arc<AtomicBool>,
) -> Result<HubEngine, HubError> {
    let mut engine = HubEngine::start_logged(&spec.argv, label, log)?;
    engine.abandon_when(Arc::clone(interrupt));
    engine.handshake(timeout)?;
    if variant != Variant::Brazilian {
        engine.set_param("variant", variant.name())?;
    }
    for (name, value) in &spec.options {
        engine.set_param(name, value)?;
    }
    engine.init(timeout)?;
    Ok(engine)
}

/// A worker's engines: at most one running process per engine, kept from game to game, with
/// its log and whether it is pondering.
struct Seat {
    engines: Vec<Option<HubEngine>>,
    logs: Vec<EngineLog>,
    pondering: Vec<Option<Move>>,
    /// Set when the run stops: the game in progress is abandoned.
    interrupt: Arc<AtomicBool>,
}

/// A name made safe for a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The log file of engine `name` in game `number` under `dir`.
pub fn log_path(dir: &std::path::Path, number: usize, name: &str) -> PathBuf {
    dir.join(format!("game-{number:05}-{}.log", file_safe(name)))
}

impl Seat {
    fn new(engines: usize, interrupt: Arc<AtomicBool>) -> Seat {
        Seat {
            interrupt,
            engines: (0..engines).map(|_| None).collect(),
            // One log per engine: `vec![log; n]` would clone one shared destination.
            logs: (0..engines).map(|_| EngineLog::default()).collect(),
            pondering: vec![None; engines],
        }
    }

    /// Whether the run is being stopped.
    fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::SeqCst)
    }

    /// Plays the game of `slot`; afterwards no engine of the seat is searching. `None`: the run
    /// was stopped before the game ended (whatever the referee made of it then, e.g. engines
    /// killed by the same Ctrl-C, does not count).
    fn play(&mut self, config: &MatchConfig, worker: usize, slot: Slot) -> Option<GameReport> {
        if let Some(dir) = &config.log_dir {
            for &engine in &slot.players {
                let path = log_path(dir, slot.number, &config.engines[engine].name);
                match std::fs::File::create(&path) {
                    Ok(file) => self.logs[engine].switch_to(Some(file)),
                    Err(error) => {
                        log::warn!("cannot create log file {}: {error}", path.display())
                    }
                }
            }
        }
        let report = self.referee(config, worker, slot);
        for engine in slot.players {
            if self.pondering[engine].take().is_some() {
                self.stop_pondering(engine);
            }
            self.logs[engine].switch_to(None);
        }
        (!self.interrupted()).then_some(report)
    }

    /// Sends `stop` to a pondering engine and discards its `done`; an engine that does not
    /// answer is killed (the next game starts a fresh one).
    fn stop_pondering(&mut self, engine: usize) -> bool {
        let answered = self.engines[engine].as_mut().is_some_and(|process| {
            process.send("stop").is_ok()
                && process.wait_done(Instant::now() + STOP_PATIENCE).is_ok()
        });
        if !answered {
            if let Some(process) = self.engines[engine].take() {
                process.kill();
            }
        }
        answered
    }

    /// Makes sure `engine` runs and has been told a new game starts.
    fn ready(&mut self, config: &MatchConfig, worker: usize, engine: usize) -> Result<(), String> {
        let slot = &mut self.engines[engine];
        if slot.as_mut().is_some_and(|process| !process.is_running()) {
            *slot = None;
        }
        if slot.is_none() {
            let spec = &config.engines[engine];
            let label = format!("{}#{worker}", spec.name);
            let log = config.log_dir.is_some().then(|| self.logs[engine].clone());
            *slot = Some(
                start_engine(
                    spec,
                    config.variant,
                    &label,
                    config.startup_timeout,
                    log,
                    &self.interrupt,
                )
                .map_err(|error| error.to_string())?,
            );
        }
        if let Some(process) = slot.as_mut() {
            if let Err(error) = process.send("new-game") {
                *slot = None;
                return Err(error.to_string());
            }
        }
        Ok(())
    }

    /// Referees the game of `slot` to its end.
    fn referee(&mut self, config: &MatchConfig, worker: usize, slot: Slot) -> GameReport {
        let opening = &config.openings[slot.opening];
        let players = slot.players;
        let engine_of = |color: Color| match color {
            Color::White => players[0],
            Color::Black => players[1],
        };
        let color_of = |engine: usize| {
            if engine == players[0] {
                Color::White
            } else {
                Color::Black
            }
        };
        let mut game = opening.game_in(config.variant);
        let report = |game: &Game, result: GameResult, termination: Termination| GameReport {
            slot,
            opening: opening.label.clone(),
            start: opening.start,
            moves: game.moves().to_vec(),
            result,
            termination,
            loser: match result {
                GameResult::WhiteWins => Some(players[1]),
                GameResult::BlackWins => Some(players[0]),
                GameResult::Draw | GameResult::Unknown => None,
            },
        };
        let loss_for = |engine: usize| GameResult::win_for(color_of(engine).opponent());
        // Bring both engines up; a missing or failing engine loses before the first move.
        for engine in players {
            if let Err(why) = self.ready(config, worker, engine) {
                return report(&game, loss_for(engine), Termination::Crash(why));
            }
        }
        let start_text = fen::to_hub_position(&opening.start);
        let mut clocks = match config.limit {
            Limit::Clock { base, .. } => [base, base],
            _ => [0.0, 0.0],
        };
        let clock_index = |engine: usize| usize::from(engine != players[0]);
        let margin = config.time_margin.as_secs_f64();
        let mut history: Vec<ScoredMove> = Vec::new();
        loop {
            if self.interrupted() {
                // Abandoned: `play` drops this report.
                let why = HubError::Interrupted.to_string();
                return report(&game, GameResult::Unknown, Termination::Crash(why));
            }
            if let Some(outcome) = game.outcome(&config.draw_rules) {
                return match outcome {
                    Outcome::Win(color) => {
                        report(&game, GameResult::win_for(color), Termination::NoLegalMove)
                    }
                    Outcome::Draw(reason) => {
                        report(&game, GameResult::Draw, Termination::Draw(reason))
                    }
                };
            }
            if let Some(max_plies) = config.max_plies {
                if game.moves().len() >= max_plies {
                    return report(&game, GameResult::Draw, Termination::MaxPlies(max_plies));
                }
            }
            if let Some(ruling) =
                config
                    .adjudication
                    .rule(&history, game.moves().len(), game.current())
            {
                let result = match ruling {
                    Ruling::ScoreDraw(_) | Ruling::TableDraw => GameResult::Draw,
                    Ruling::ScoreWin(color, _) | Ruling::TableWin(color) => {
                        GameResult::win_for(color)
                    }
                };
                return report(&game, result, Termination::Adjudicated(ruling));
            }
            let side = game.current().side_to_move();
            let mover = engine_of(side);
            let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
            let remaining = clocks[clock_index(mover)];
            let level = config.limit.level_line(remaining);
            let allowed = match config.limit {
                Limit::Clock { increment, .. } => (remaining + increment).max(0.0) + margin,
                Limit::MoveTime(seconds) => seconds + margin,
                _ => config.hang_timeout.as_secs_f64(),
            };
            // Capped so that absurd limits (--tc 1e30) cannot overflow the deadline arithmetic.
            let allowed = Duration::from_secs_f64(allowed.clamp(0.0, MAX_WAIT_SECONDS));
            let expected = self.pondering[mover].take();
            let last_move = game.moves().last().copied();
            if expected.is_some() && expected != last_move && !self.stop_pondering(mover) {
                let termination = Termination::Hang(STOP_PATIENCE);
                return report(&game, loss_for(mover), termination);
            }
            let Some(engine) = self.engines[mover].as_mut() else {
                let termination = Termination::Crash("engine not running".into());
                return report(&game, loss_for(mover), termination);
            };
            let started = Instant::now();
            let answer = if expected.is_some() && expected == last_move {
                engine
                    .send("ponder-hit")
                    .and_then(|()| engine.wait_done(started + allowed))
            } else {
                engine.think(&start_text, &moves, &level, started + allowed)
            };
            let elapsed = started.elapsed().as_secs_f64();
            let answer: SearchAnswer = match answer {
                Ok(answer) => answer,
                Err(error) => {
                    // The engine is dead or stuck: kill it so the next game gets a fresh one.
                    if let Some(engine) = self.engines[mover].take() {
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
                    return report(&game, loss_for(mover), termination);
                }
            };
            if let Limit::Clock { increment, .. } = config.limit {
                let clock = &mut clocks[clock_index(mover)];
                let available = *clock + increment;
                *clock = available - elapsed;
                if *clock < -margin {
                    let detail = format!("used {elapsed:.3} s of {available:.3} s");
                    return report(&game, loss_for(mover), Termination::FlagFall(detail));
                }
            }
            let legal = game.legal_moves();
            let Ok(mv) = find_hub_move(&legal, &answer.best_move) else {
                let termination = Termination::IllegalMove(answer.best_move);
                return report(&game, loss_for(mover), termination);
            };
            game.play(mv);
            history.push(ScoredMove {
                mover: side,
                score: answer.score.as_deref().and_then(parse_score),
            });
            if config.ponder {
                self.start_pondering(
                    config,
                    mover,
                    &start_text,
                    &game,
                    &answer,
                    clocks[clock_index(mover)],
                );
            }
        }
    }

    /// After `engine`'s move, lets it search the position after the reply it expects (only a
    /// legal one) with `go ponder`, its clock standing at `clock` seconds.
    fn start_pondering(
        &mut self,
        config: &MatchConfig,
        engine: usize,
        start_text: &str,
        game: &Game,
        answer: &SearchAnswer,
        clock: f64,
    ) {
        let Some(text) = answer.ponder.as_deref() else {
            return;
        };
        let replies = game.legal_moves();
        let Ok(reply) = find_hub_move(&replies, text) else {
            return;
        };
        let Some(process) = self.engines[engine].as_mut() else {
            return;
        };
        let mut moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
        moves.push(reply.to_string());
        let level = config.limit.level_line(clock);
        if process
            .start_search(start_text, &moves, &level, "go ponder")
            .is_ok()
        {
            self.pondering[engine] = Some(reply);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_sprt_stays_decided_when_games_in_flight_finish() {
        let sprt = Sprt::parse("elo0=0,elo1=15").expect("valid SPRT");
        let mut state = MatchState {
            pairings: vec![PairingState {
                engines: [0, 1],
                ..PairingState::default()
            }],
            ..MatchState::default()
        };
        // One pair of games: engine 0 wins the first and the second as `wins` says.
        let mut number = 0;
        let mut play_pair = |state: &mut MatchState, wins: [bool; 2]| {
            for (players, won) in [[0, 1], [1, 0]].into_iter().zip(wins) {
                number += 1;
                let slot = Slot {
                    number,
                    pairing: 0,
                    players,
                    opening: 0,
                    pair: (number - 1) / 2,
                };
                let white_won = (players[0] == 0) == won;
                let result = if white_won {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
                state.record(&slot, result, Some(&sprt));
            }
        };
        // Engine 0 wins two pairs in three and splits the third, until the test decides.
        for round in 0.. {
            if state.decided() {
                break;
            }
            assert!(round < 300, "the SPRT never decided");
            let split = round % 3 == 2;
            play_pair(&mut state, [true, !split]);
        }
        let decided_after = state.finished;
        assert_eq!(state.sprt_verdict, Some(SprtVerdict::AcceptH1));
        assert_eq!(state.sprt_decided_after, Some(decided_after));
        // Games that were in flight then go the other way: counted, but the verdict stands.
        let losses = state.pairings[0].tally.losses;
        for _ in 0..3 {
            play_pair(&mut state, [false, false]);
        }
        assert_eq!(state.finished, decided_after + 6);
        assert_eq!(state.pairings[0].tally.losses, losses + 6);
        assert_eq!(state.sprt_verdict, Some(SprtVerdict::AcceptH1));
        assert_eq!(state.sprt_decided_after, Some(decided_after));
    }

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

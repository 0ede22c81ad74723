//! Self-play data: games at a fixed node count from randomised balanced openings, played in
//! parallel; every quiet position (no capture for either side) is written as `FEN;result` with
//! the result 1.0 / 0.5 / 0.0 from White's view. Lines are flushed game by game so an
//! interrupted run keeps what it wrote.

use crate::rng::Rng;
use onca::draw::DrawRules;
use onca::eval::{can_capture, evaluate};
use onca::fen::to_fen;
use onca::game::{Game, Outcome};
use onca::limits::Limits;
use onca::movegen::legal_moves;
use onca::position::{Color, Position};
use onca::search::{SearchControl, SearchSettings, Searcher};
use rayon::prelude::*;
use std::io::Write;
use std::sync::Mutex;

/// Random plies played from the start position before the engine takes over.
const RANDOM_PLIES: usize = 6;
/// An opening whose static evaluation is further from zero than this is drawn again.
const BALANCED_MARGIN: i32 = 60;
/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 300;

/// A randomised balanced opening (quiet, static evaluation near zero) for game `index` of a run seeded by `seed`.
pub fn random_opening(seed: u64, index: u64) -> Position {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d));
    loop {
        let mut position = Position::start();
        let mut ok = true;
        for _ in 0..RANDOM_PLIES {
            let moves = legal_moves(&position);
            if moves.is_empty() {
                ok = false;
                break;
            }
            position = position.play(&moves[rng.below(moves.len())]);
        }
        let quiet = !can_capture(&position, Color::White) && !can_capture(&position, Color::Black);
        if ok && quiet && evaluate(&position).0.abs() <= BALANCED_MARGIN {
            return position;
        }
    }
}

/// Plays one game from `opening` with `nodes` per move; returns the quiet positions' FENs and the
/// result from White's view.
pub fn play_game(opening: Position, nodes: u64) -> (Vec<String>, f64) {
    let mut searcher = Searcher::new(1);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let settings = SearchSettings::default();
    let rules = DrawRules::default();
    let control = SearchControl::new();
    let mut game = Game::new(opening);
    let mut quiet = Vec::new();
    let mut plies = 0;
    let result = loop {
        if let Some(outcome) = game.outcome(&rules) {
            break match outcome {
                Outcome::Win(Color::White) => 1.0,
                Outcome::Win(Color::Black) => 0.0,
                Outcome::Draw(_) => 0.5,
            };
        }
        if plies > MAX_PLIES {
            break 0.5;
        }
        let position = *game.current();
        if !can_capture(&position, Color::White) && !can_capture(&position, Color::Black) {
            quiet.push(to_fen(&position));
        }
        let found = searcher.search(&game, &limits, &settings, &control, &mut |_| {});
        match found.best {
            Some(best) => {
                game.play(best);
                plies += 1;
            }
            None => {
                break if position.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
                }
            }
        }
    };
    (quiet, result)
}

/// Plays games `first..first + games` at `nodes` per move in parallel and writes their quiet positions to `out`
/// as they finish; `progress` is called with the number of games done. Returns positions written.
pub fn run(
    first: u64,
    games: u64,
    nodes: u64,
    seed: u64,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(u64) + Sync),
) -> std::io::Result<u64> {
    let sink = Mutex::new((out, 0u64, 0u64, None::<std::io::Error>));
    (first..first + games).into_par_iter().for_each(|index| {
        let (fens, result) = play_game(random_opening(seed, index), nodes);
        let mut text = String::new();
        for fen in &fens {
            text.push_str(&format!("{fen};{result:.1}\n"));
        }
        let Ok(mut guard) = sink.lock() else { return };
        let (out, written, done, error) = &mut *guard;
        if error.is_none() {
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                *error = Some(e);
            }
        }
        *written += fens.len() as u64;
        *done += 1;
        progress(*done);
    });
    let (_, written, _, error) = sink
        .into_inner()
        .map_err(|_| std::io::Error::other("a datagen thread panicked"))?;
    match error {
        Some(error) => Err(error),
        None => Ok(written),
    }
}

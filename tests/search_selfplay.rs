//! Self-play tools for the search, run on demand (all `#[ignore]`d; see `scripts/selfplay` and
//! `scripts/bench-positions`):
//!
//! * `selfplay_match`: the default search against a variant with one feature switched (chosen by
//!   the `ONCA_VARIANT` environment variable, read only here), from fixed varied openings with
//!   both colours, at a fixed node budget per move; prints W/D/L and an Elo estimate.
//! * `bench_positions`: plays self-play games and prints positions for `src/search/bench.rs`.

use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::rules::movegen::legal_moves;
use onca::rules::moves::Move;
use onca::rules::position::{Color, Position};
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::params::SearchParams;
use onca::search::searcher::Searcher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Longest game before it is called a draw.
const MAX_PLIES: usize = 400;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// Every line of `plies` plies from the start position, in generation order.
fn openings(plies: usize) -> Vec<Vec<Move>> {
    let mut lines = vec![Vec::new()];
    for _ in 0..plies {
        let mut longer = Vec::new();
        for line in &lines {
            let mut game = Game::new(Position::start());
            for &mv in line {
                game.play(mv);
            }
            for mv in legal_moves(game.current()) {
                let mut next = line.clone();
                next.push(mv);
                longer.push(next);
            }
        }
        lines = longer;
    }
    lines
}

/// `count` openings spread evenly over all 4-ply lines.
fn chosen_openings(count: usize) -> Vec<Vec<Move>> {
    let all = openings(4);
    let step = (all.len() / count.max(1)).max(1);
    all.into_iter().step_by(step).take(count).collect()
}

/// The variant under test, from `ONCA_VARIANT`.
fn variant() -> (String, SearchParams) {
    let name = std::env::var("ONCA_VARIANT").unwrap_or_else(|_| "no-lmr".to_string());
    let mut params = SearchParams::default();
    match name.as_str() {
        "no-lmr" => params.late_move_reductions = false,
        "lmr-full-5" => params.lmr_full_moves = 5,
        "lmr-full-2" => params.lmr_full_moves = 2,
        "lmr-full-3" => params.lmr_full_moves = 3,
        "lmr-log" => params.lmr_logarithmic = true,
        "lmp" => params.late_move_pruning = true,
        "iid" => params.internal_iterative_deepening = true,
        "no-threat" => params.quiescence_threat_plies = 0,
        "threat-2" => params.quiescence_threat_plies = 2,
        "no-single-ext" => params.single_reply_extension = false,
        "no-aspiration" => params.aspiration_depth = 1000,
        "same" => {}
        other => panic!("unknown ONCA_VARIANT {other}"),
    }
    (name, params)
}

/// Plays one game; returns +1 if `first` (playing `first_color`) won, 0 draw, -1 loss, and the
/// positions of the game.
fn play_game(
    opening: &[Move],
    engines: [SearchParams; 2],
    first_color: Color,
    nodes: u64,
) -> (i32, Vec<Position>) {
    let mut game = Game::new(Position::start());
    for &mv in opening {
        game.play(mv);
    }
    let mut searchers = [Searcher::new(16), Searcher::new(16)];
    for (searcher, params) in searchers.iter_mut().zip(engines) {
        searcher.set_params(params);
    }
    let settings = SearchSettings::default();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let rules = DrawRules::default();
    let mut positions = vec![*game.current()];
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome(&rules) {
            let result = match outcome {
                Outcome::Draw(_) => 0,
                Outcome::Win(color) if color == first_color => 1,
                Outcome::Win(_) => -1,
            };
            return (result, positions);
        }
        let to_move = game.current().side_to_move();
        let index = usize::from(to_move != first_color);
        let control = SearchControl::new();
        let result = searchers[index].search(&game, &limits, &settings, &control, &mut |_| {});
        let Some(mv) = result.best else {
            unreachable!("outcome() catches positions without moves")
        };
        game.play(mv);
        positions.push(*game.current());
    }
    (0, positions)
}

fn elo(score: f64) -> f64 {
    let p = score.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / p - 1.0).log10()
}

#[test]
#[ignore]
fn selfplay_match() {
    let pairs = env_number("ONCA_GAMES", 100) as usize / 2;
    let nodes = env_number("ONCA_NODES", 20_000);
    let workers = env_number("ONCA_WORKERS", 2) as usize;
    let (name, challenger) = variant();
    let base = SearchParams::default();
    let openings = chosen_openings(pairs);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<i32>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= 2 * openings.len() {
                    break;
                }
                let opening = &openings[index / 2];
                // The default engine plays White in even games, Black in odd ones.
                let color = if index.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let (result, _) = play_game(opening, [base, challenger], color, nodes);
                results.lock().expect("results lock").push(result);
            });
        }
    });
    let results = results.into_inner().expect("results lock");
    let wins = results.iter().filter(|&&r| r == 1).count();
    let draws = results.iter().filter(|&&r| r == 0).count();
    let losses = results.iter().filter(|&&r| r == -1).count();
    let games = results.len() as f64;
    let score = (wins as f64 + 0.5 * draws as f64) / games;
    let variance = results
        .iter()
        .map(|&r| {
            let s = (f64::from(r) + 1.0) / 2.0;
            (s - score).powi(2)
        })
        .sum::<f64>()
        / games;
    let margin = 1.96 * (variance / games).sqrt();
    println!(
        "default vs {name}: {} games at {nodes} nodes/move: +{wins} ={draws} -{losses} \
         score {:.1}% Elo {:+.0} (95% {:+.0}..{:+.0})",
        results.len(),
        100.0 * score,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}

#[test]
#[ignore]
fn bench_positions() {
    let games = env_number("ONCA_GAMES", 12) as usize;
    let nodes = env_number("ONCA_NODES", 20_000);
    let base = SearchParams::default();
    for (index, opening) in chosen_openings(games).iter().enumerate() {
        let (_, positions) = play_game(opening, [base, base], Color::White, nodes);
        // An opening, a middlegame, a position with kings and an endgame per game where found.
        let opening_position = positions.get(6);
        let middlegame = positions.get(20).filter(|p| p.occupied().count() >= 10);
        let with_kings = positions
            .iter()
            .find(|p| p.all_kings().is_not_empty() && p.occupied().count() >= 6);
        let endgame = positions
            .iter()
            .find(|p| p.occupied().count() <= 7 && legal_moves(p).len() > 1);
        for (kind, position) in [
            ("opening", opening_position),
            ("middlegame", middlegame),
            ("kings", with_kings),
            ("endgame", endgame),
        ] {
            if let Some(position) = position {
                println!(
                    "    \"{}\", // game {index} {kind}",
                    onca::notation::fen::to_fen(position)
                );
            }
        }
    }
}

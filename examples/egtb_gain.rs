//! What the endgame databases are worth in play: random positions of the largest complete piece
//! count (from the tables, so their true value is known; six pieces with the six-piece set) are
//! played out by the engine against itself at a fixed node budget per move,
//! once with the tables and once without, and the results are compared with the tables' value.
//! Run through `scripts/egtb-gain`.
//!
//! Usage: `egtb_gain <TABLE DIR> [positions (100)] [nodes per move (2000)] [seed (1)]`

use onca::egtb::index::Indexer;
use onca::egtb::{MaterialKey, Tablebases, Wdl};
use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::rules::movegen;
use onca::rules::position::{Color, Position};
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;
use std::sync::Arc;

/// Longest game played out (the move-count rules end real games much sooner).
const MAX_PLIES: usize = 400;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The result the tables promise for `start`.
fn expected(tables: &Tablebases, start: &Position) -> Option<Outcome> {
    let side = start.side_to_move();
    Some(match tables.probe(start)? {
        Wdl::Win => Outcome::Win(side),
        Wdl::Loss => Outcome::Win(side.opponent()),
        Wdl::Draw => Outcome::Draw(onca::game::draw::DrawReason::Repetition),
    })
}

fn same_result(a: Outcome, b: Outcome) -> bool {
    matches!((a, b), (Outcome::Draw(_), Outcome::Draw(_))) || a == b
}

/// Plays `start` out, both sides the same engine; returns the outcome and the plies played. With
/// `EGTB_GAIN_TRACE` set, prints the moves of every game.
fn play_out(start: Position, tables: Option<&Arc<Tablebases>>, nodes: u64) -> (Outcome, usize) {
    let (outcome, game) = play_game(start, tables, nodes);
    if std::env::var_os("EGTB_GAIN_TRACE").is_some() {
        let moves: Vec<String> = game.moves().iter().map(|mv| mv.to_string()).collect();
        println!(
            "  {} tables={} {:?}: {}",
            onca::notation::fen::to_fen(&start),
            tables.is_some(),
            outcome,
            moves.join(" ")
        );
    }
    (outcome, game.moves().len())
}

fn play_game(start: Position, tables: Option<&Arc<Tablebases>>, nodes: u64) -> (Outcome, Game) {
    let rules = DrawRules::default();
    let mut searcher = Searcher::new(16);
    let mut params = searcher.params();
    let variant = std::env::var("EGTB_GAIN_VARIANT").unwrap_or_default();
    params.egtb_rule_guard = !variant.contains("no-guard");
    params.egtb_heuristic_root = !variant.contains("no-heuristic-root");
    searcher.set_params(params);
    if let Some(tables) = tables {
        searcher.set_tablebases(Arc::clone(tables));
    }
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let settings = SearchSettings::default();
    let mut game = Game::new(start);
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome(&rules) {
            return (outcome, game);
        }
        let found = searcher.search(
            &game,
            &limits,
            &settings,
            &SearchControl::new(),
            &mut |_| {},
        );
        match found.best {
            Some(mv) => game.play(mv),
            None => {
                let loser = game.current().side_to_move();
                return (Outcome::Win(loser.opponent()), game);
            }
        }
    }
    (
        Outcome::Draw(onca::game::draw::DrawReason::Repetition),
        game,
    )
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        anyhow::bail!("usage: egtb_gain <TABLE DIR> [positions] [nodes per move] [seed]");
    };
    let count: usize = args.get(2).map_or(Ok(100), |t| t.parse())?;
    let nodes: u64 = args.get(3).map_or(Ok(2000), |t| t.parse())?;
    let mut seed: u64 = args.get(4).map_or(Ok(1), |t| t.parse())?;
    let tables = Arc::new(Tablebases::load(std::path::Path::new(dir))?);
    let top = tables.max_pieces();
    anyhow::ensure!(
        top >= 5,
        "need every table up to 5 pieces in {dir} (complete up to {top})"
    );
    let keys: Vec<MaterialKey> = MaterialKey::all_up_to(top)
        .into_iter()
        .filter(|key| {
            key.pieces() == top
                && key.us_men + key.us_kings > 0
                && key.them_men + key.them_kings > 0
        })
        .collect();
    let mut rows = Vec::new();
    while rows.len() < count {
        let key = keys[(splitmix(&mut seed) % keys.len() as u64) as usize];
        let indexer = Indexer::new(key);
        let Some(canonical) = indexer.position(splitmix(&mut seed) % indexer.size()) else {
            continue;
        };
        let mut start = canonical.position();
        if splitmix(&mut seed) % 2 == 1 {
            start = start.color_flipped();
        }
        // Skip positions that are over or start with a capture (the point is the quiet play).
        if movegen::legal_moves(&start).is_empty() || movegen::has_capture(&start) {
            continue;
        }
        let Some(truth) = expected(&tables, &start) else {
            continue;
        };
        let (with, with_plies) = play_out(start, Some(&tables), nodes);
        let (without, without_plies) = play_out(start, None, nodes);
        println!(
            "{:<28} tables say {:<12} with tables {:<24} ({with_plies:>3} plies)  without {:<24} ({without_plies:>3} plies)",
            onca::notation::fen::to_fen(&start),
            describe(truth),
            describe(with),
            describe(without),
        );
        rows.push((truth, with, without));
    }
    let decisive: Vec<_> = rows
        .iter()
        .filter(|(truth, _, _)| matches!(truth, Outcome::Win(_)))
        .collect();
    let score = |pick: &dyn Fn(&(Outcome, Outcome, Outcome)) -> Outcome,
                 set: &[&(Outcome, Outcome, Outcome)]| {
        set.iter()
            .filter(|row| same_result(row.0, pick(row)))
            .count()
    };
    let all: Vec<_> = rows.iter().collect();
    let draws: Vec<_> = rows
        .iter()
        .filter(|(truth, _, _)| matches!(truth, Outcome::Draw(_)))
        .collect();
    println!(
        "positions {} (won {}, drawn {}), {nodes} nodes per move",
        rows.len(),
        decisive.len(),
        draws.len()
    );
    for (name, set) in [("all", &all), ("won", &decisive), ("drawn", &draws)] {
        println!(
            "{name:<5}: correct result with tables {:>3}/{:<3}  without {:>3}/{:<3}",
            score(&|row| row.1, set),
            set.len(),
            score(&|row| row.2, set),
            set.len()
        );
    }
    Ok(())
}

fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Color::White) => "white wins".into(),
        Outcome::Win(Color::Black) => "black wins".into(),
        Outcome::Draw(_) => "draw".into(),
    }
}

//! The search with endgame databases: database scores in the tree, the databases' best moves at a
//! database root in game play (so the engine converts won endings within the move-count rules), and
//! unchanged behaviour without tables.

use onca::egtb::generate::{self, Options};
use onca::egtb::{MaterialKey, Tablebases, Wdl};
use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::notation::fen::parse_position;
use onca::rules::position::{Color, Position};
use onca::search::control::{SearchControl, SearchResult, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// All tables up to 3 pieces plus three kings against one (both sides to move), generated once
/// into a temporary directory that is removed again.
fn tables() -> Arc<Tablebases> {
    static TABLES: OnceLock<Arc<Tablebases>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("onca-search-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let options = Options {
            max_pieces: 3,
            distance_pieces: 3,
            dir: dir.clone(),
        };
        let generated = generate::generate(&options, &mut |_| {});
        let _ = std::fs::remove_dir_all(&dir);
        let (_, mut tablebases) = generated.expect("generation works");
        let keys = [MaterialKey::new(0, 3, 0, 1), MaterialKey::new(0, 1, 0, 3)];
        let codes = generate::solve_pair(&keys, &tablebases).expect("3 kings v 1 solves");
        for (key, codes) in keys.into_iter().zip(codes) {
            tablebases.insert(key, &generate::wdl_symbols(&codes), Some(codes));
        }
        Arc::new(tablebases)
    }))
}

fn position(text: &str) -> Position {
    parse_position(text).expect("valid test position")
}

fn search(searcher: &mut Searcher, game: &Game, depth: u32, game_play: bool) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = SearchSettings {
        instant_single_reply: game_play,
        table_root_moves: game_play,
        ..SearchSettings::default()
    };
    searcher.search(game, &limits, &settings, &SearchControl::new(), &mut |_| {})
}

#[test]
fn a_won_database_position_gets_a_database_score_only_with_the_tables() {
    // Two kings against one: won in 7 plies to the conversion by the tables.
    let start = position("W:WK1,K2:BK28");
    assert_eq!(tables().probe(&start), Some(Wdl::Win));
    let game = Game::new(start);

    let mut with = Searcher::new(4);
    with.set_tablebases(tables());
    let found = search(&mut with, &game, 4, false);
    assert!(found.score.is_db() && found.score.0 > 0, "{}", found.score);
    assert_eq!(found.score.db_plies(), Some(1));
    assert!(found.tbhits > 0, "the tables scored positions");

    let mut without = Searcher::new(4);
    let found = search(&mut without, &game, 4, false);
    assert!(found.score.is_heuristic(), "{}", found.score);
    assert_eq!(found.tbhits, 0);

    // The losing side sees the database loss.
    let lost = position("B:WK1,K9:BK28");
    assert_eq!(tables().probe(&lost), Some(Wdl::Loss));
    let lost = Game::new(lost);
    let found = search(&mut with, &lost, 4, false);
    assert!(found.score.is_db() && found.score.0 < 0, "{}", found.score);
}

#[test]
fn the_engine_converts_three_kings_against_one_against_itself() {
    let rules = DrawRules::default();
    for text in [
        "W:WK1,K2,K3:BK28",
        "W:WK5,K6,K7:BK32",
        "W:WK30,K31,K32:BK9",
        "B:WK29,K2,K3:BK12",
    ] {
        let start = position(text);
        let winner = match tables().probe(&start) {
            Some(Wdl::Win) => start.side_to_move(),
            Some(Wdl::Loss) => start.side_to_move().opponent(),
            other => panic!("{text}: expected a decided position, tables say {other:?}"),
        };
        let mut game = Game::new(start);
        let mut searcher = Searcher::new(4);
        searcher.set_tablebases(tables());
        let mut plies = 0;
        let outcome = loop {
            if let Some(outcome) = game.outcome(&rules) {
                break outcome;
            }
            assert!(plies < 200, "{text}: no result after {plies} plies");
            let found = search(&mut searcher, &game, 4, true);
            let Some(mv) = found.best else {
                unreachable!("a game that is not over has a legal move")
            };
            game.play(mv);
            plies += 1;
        };
        assert_eq!(outcome, Outcome::Win(winner), "{text} after {plies} plies");
        assert_eq!(winner, Color::White, "{text}");
    }
}

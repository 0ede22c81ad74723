//! The game record and the search under Russian rules: moves that only Russian allows are played
//! and found, the search never returns a move illegal in Russian, and one searcher can switch
//! between the variants. Depths are small and one thread is used unless a test says otherwise.

use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::notation::fen::parse_position;
use onca::rules::movegen::legal_moves_in;
use onca::rules::position::{Color, Position};
use onca::rules::variant::Variant;
use onca::search::control::{SearchControl, SearchResult, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;

/// Positions where the Russian moves differ from the Brazilian ones (free choice of capture,
/// crowning during a capture), and a few ordinary ones.
const RUSSIAN_POSITIONS: &[&str] = &[
    "W:W21,28:B17,24,15",
    "W:W22,31:B18,11,27",
    "W:W22,30:B18,11,26",
    "W:W11:B7,9",
    "W:W11:B7,6",
    "B:W24,26:B22",
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:WK29:B25,18,11,10",
    "W:WK22:B18,10,11,19,27",
    "B:W14,15,22,23,30:BK1,6",
    "W:W17,18,22,25,26:B1,5,9,10,13,14",
];

fn search_with(searcher: &mut Searcher, game: &Game, depth: u32, threads: usize) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = SearchSettings {
        threads,
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    searcher.search(game, &limits, &settings, &SearchControl::new(), &mut |_| {})
}

fn position(fen: &str) -> Position {
    parse_position(fen).expect("valid test position")
}

#[test]
fn the_game_record_plays_by_its_variant() {
    // 21x14 takes one piece where 28 could take two: only Russian allows it.
    let mut russian = Game::in_variant(Variant::Russian, position("W:W21,28:B17,24,15"));
    assert!(russian.play_text("21x14x17").is_ok());
    let mut brazilian = Game::new(position("W:W21,28:B17,24,15"));
    assert!(brazilian.play_text("21x14x17").is_err());
    assert_eq!(brazilian.variant(), Variant::Brazilian);

    // A man crowned on 2 goes on capturing as a king and ends on 13 as a king.
    let mut crowned = Game::in_variant(Variant::Russian, position("W:W11:B7,9"));
    assert_eq!(crowned.legal_moves().len(), 1);
    let mv = crowned.play_text("11x13x7x9").expect("legal in Russian");
    let piece = crowned
        .current()
        .piece_at(mv.to)
        .expect("the capturer stands there");
    assert!(piece.king, "crowned during the capture");
    assert_eq!(
        crowned.outcome(&DrawRules::default()),
        Some(Outcome::Win(Color::White))
    );
}

#[test]
fn the_search_returns_moves_legal_in_russian() {
    let mut searcher = Searcher::new(4);
    for fen in RUSSIAN_POSITIONS {
        let start = position(fen);
        let legal = legal_moves_in(Variant::Russian, &start);
        let game = Game::in_variant(Variant::Russian, start);
        for threads in [1, 2] {
            let result = search_with(&mut searcher, &game, 6, threads);
            let best = result.best.expect("every test position has a move");
            assert!(legal.contains(&best), "{fen}: {best} is not a Russian move");
            if let Some(ponder) = result.ponder {
                let after = start.play_in(Variant::Russian, &best);
                assert!(
                    legal_moves_in(Variant::Russian, &after).contains(&ponder),
                    "{fen}: ponder move {ponder} is not a Russian reply"
                );
            }
        }
    }
}

#[test]
fn the_search_finds_the_russian_only_moves() {
    let mut searcher = Searcher::new(4);
    for (fen, russian, brazilian) in [
        ("W:W11:B7,9", "11x13x7x9", "11x2x7"),
        ("B:W24,26:B22", "22x20x24x26", "22x31x26"),
    ] {
        for (variant, expected) in [(Variant::Russian, russian), (Variant::Brazilian, brazilian)] {
            let game = Game::in_variant(variant, position(fen));
            let best = search_with(&mut searcher, &game, 4, 1)
                .best
                .expect("a move");
            assert_eq!(best.to_string(), expected, "{fen} in {variant}");
        }
    }
}

#[test]
fn russian_search_is_deterministic_on_one_thread() {
    let game = Game::in_variant(Variant::Russian, Position::start());
    let first = search_with(&mut Searcher::new(4), &game, 8, 1);
    let second = search_with(&mut Searcher::new(4), &game, 8, 1);
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.best, second.best);
}

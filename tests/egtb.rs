//! Endgame databases: indexing, generation checked against the move generator, known endgame
//! results, winning technique under the move-count rules, and damaged files.

mod common;

use common::Rng;
use onca::egtb::generate::{self, Options};
use onca::egtb::index::Indexer;
use onca::egtb::material::{expand, Canonical};
use onca::egtb::store::{self, Kind};
use onca::egtb::value::Code;
use onca::egtb::{MaterialKey, Tablebases, Wdl};
use onca::game::draw::{self, DrawRules};
use onca::game::record::{Game, Outcome};
use onca::notation::fen::parse_position;
use onca::rules::movegen;
use onca::rules::position::{Color, Position};
use std::sync::OnceLock;

fn generate_into(dir: &tempfile::TempDir, pieces: u32) -> Tablebases {
    let options = Options {
        max_pieces: pieces,
        distance_pieces: pieces,
        dir: dir.path().to_path_buf(),
    };
    let (_, tablebases) = generate::generate(&options, &mut |_| {}).expect("generation works");
    tablebases
}

/// All tables up to 3 pieces, plus three kings against one (both sides to move), generated once
/// for the tests of this file.
fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("onca-egtb-shared-")
            .tempdir()
            .expect("temporary directory");
        let mut tablebases = generate_into(&dir, 3);
        let keys = [MaterialKey::new(0, 3, 0, 1), MaterialKey::new(0, 1, 0, 3)];
        let codes = generate::solve_pair(&keys, &tablebases).expect("3 kings v 1 solves");
        for (key, codes) in keys.into_iter().zip(codes) {
            tablebases.insert(key, &generate::wdl_symbols(&codes), Some(codes));
        }
        tablebases
    })
}

fn position(text: &str) -> Position {
    parse_position(text).expect("valid test position")
}

/// Every position of a split, White to move.
fn positions_of(key: MaterialKey) -> impl Iterator<Item = Position> {
    let indexer = Indexer::new(key);
    (0..indexer.size()).filter_map(move |index| indexer.position(index).map(|c| c.position()))
}

#[test]
fn index_round_trips_for_every_split_up_to_four_pieces() {
    for key in MaterialKey::all_up_to(4) {
        let indexer = Indexer::new(key);
        let mut used = 0u64;
        for index in 0..indexer.size() {
            let Some(canonical) = indexer.position(index) else {
                continue;
            };
            used += 1;
            assert_eq!(canonical.key(), key);
            assert_eq!(canonical.us_men & 0xF, 0, "our men never on 1-4");
            assert_eq!(
                canonical.them_men & 0xF000_0000,
                0,
                "their men never on 29-32"
            );
            let parts = [
                canonical.us_men,
                canonical.us_kings,
                canonical.them_men,
                canonical.them_kings,
            ];
            assert_eq!(
                parts.iter().map(|p| p.count_ones()).sum::<u32>(),
                canonical.occupied().count_ones(),
                "pieces never share a square"
            );
            assert_eq!(indexer.index(&canonical), Some(index), "{key} {index}");
            // Through a real position and back.
            let again = Canonical::of(&canonical.position());
            assert_eq!(again, canonical);
        }
        // Only placements with one of our men and one of theirs on a square go unused.
        assert_eq!(used, indexer.positions(), "{key}");
        if key.us_men == 0 || key.them_men == 0 {
            assert_eq!(used, indexer.size(), "{key} has gaps");
        } else {
            assert!(used * 10 >= indexer.size() * 8, "{key}: too many gaps");
        }
    }
}

#[test]
fn every_position_gets_an_index_either_side_to_move() {
    let mut rng = Rng::new(7);
    for _ in 0..2000 {
        let mut occupied = 0u32;
        let mut parts = [0u32; 4];
        let pieces = 2 + rng.below(3);
        for piece in 0..pieces {
            let kind = if piece == 0 {
                0
            } else if piece == 1 {
                2
            } else {
                rng.below(4)
            };
            let square = loop {
                let square = rng.below(32) as u32;
                let forbidden = match kind {
                    0 => square < 4,
                    2 => square >= 28,
                    _ => false,
                };
                if occupied & (1 << square) == 0 && !forbidden {
                    break square;
                }
            };
            occupied |= 1 << square;
            parts[kind] |= 1 << square;
        }
        let canonical = Canonical {
            us_men: parts[0],
            us_kings: parts[1],
            them_men: parts[2],
            them_kings: parts[3],
        };
        let indexer = Indexer::new(canonical.key());
        let index = indexer.index(&canonical).expect("has an index");
        assert!(index < indexer.size());
        assert_eq!(indexer.position(index), Some(canonical));
        // The same game with Black to move is stored at the same place.
        let flipped = canonical.position().color_flipped();
        assert_eq!(flipped.side_to_move(), Color::Black);
        assert_eq!(Canonical::of(&flipped), canonical);
    }
}

/// The value and distance that one ply of search over the real legal moves gives, from the
/// tables' values of the positions after each move (the check `onca egtb verify` runs).
fn backed_up(tables: &Tablebases, position: &Position) -> (Wdl, Option<u32>) {
    onca::egtb::verify::backed_up(tables, position).expect("children in the tables")
}

#[test]
fn every_stored_value_agrees_with_one_ply_of_real_move_generation() {
    let tables = tables();
    let mut keys = MaterialKey::all_up_to(3);
    keys.push(MaterialKey::new(0, 3, 0, 1));
    keys.push(MaterialKey::new(0, 1, 0, 3));
    let mut checked = 0;
    for key in keys {
        for position in positions_of(key) {
            let stored = tables.probe_distance(&position).expect("in the tables");
            assert_eq!(
                (stored.wdl, stored.plies),
                backed_up(tables, &position),
                "{position:?}"
            );
            // Black to move: the same game rotated.
            assert_eq!(
                tables.probe(&position.color_flipped()),
                Some(stored.wdl),
                "{position:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 400_000);
}

/// Plain minimax to `depth` plies: `Some` when it proves the end of the game (the side to move has
/// no move) within the depth.
fn minimax(position: &Position, depth: u32) -> Option<Wdl> {
    let moves = movegen::legal_moves(position);
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_lose = true;
    for mv in &moves {
        match minimax(&position.play(mv), depth - 1) {
            Some(Wdl::Loss) => return Some(Wdl::Win),
            Some(Wdl::Win) => {}
            _ => all_lose = false,
        }
    }
    all_lose.then_some(Wdl::Loss)
}

#[test]
fn sampled_positions_agree_with_an_exhaustive_search() {
    let tables = tables();
    let mut rng = Rng::new(2026);
    let keys = MaterialKey::all_up_to(3);
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..600 {
        let key = keys[rng.below(keys.len())];
        let indexer = Indexer::new(key);
        let Some(canonical) = indexer.position(rng.next_u64() % indexer.size()) else {
            continue;
        };
        let mut position = canonical.position();
        if rng.below(2) == 0 {
            position = position.color_flipped();
        }
        let stored = tables.probe(&position).expect("in the tables");
        if let Some(proved) = minimax(&position, 5) {
            assert_eq!(stored, proved, "{position:?}");
            if proved == Wdl::Win {
                wins += 1;
            } else {
                losses += 1;
            }
        }
    }
    assert!(
        wins > 50 && losses > 10,
        "too few proofs: {wins} wins, {losses} losses"
    );
}

#[test]
fn king_against_king_is_a_draw() {
    let tables = tables();
    for text in ["W:WK1:BK32", "B:WK1:BK32", "W:WK22:BK12", "B:WK5:BK31"] {
        assert_eq!(tables.probe(&position(text)), Some(Wdl::Draw), "{text}");
    }
    // Except when one king must take the other, or both sit in the corners of the long diagonal
    // (the side to move must step onto the diagonal and is taken).
    assert_eq!(tables.probe(&position("W:WK22:BK18")), Some(Wdl::Win));
    assert_eq!(tables.probe(&position("W:WK4:BK29")), Some(Wdl::Loss));
}

fn lone_and_strong(position: &Position) -> Option<(Color, u32)> {
    let white = position.pieces(Color::White).count();
    let black = position.pieces(Color::Black).count();
    match (white, black) {
        (1, n) => Some((Color::White, n)),
        (n, 1) => Some((Color::Black, n)),
        _ => None,
    }
}

#[test]
fn three_kings_beat_a_lone_king_off_the_long_diagonal_not_on_it() {
    let tables = tables();
    assert_eq!(tables.probe(&position("W:WK1,K2,K3:BK28")), Some(Wdl::Win));
    assert_eq!(
        tables.probe(&position("B:WK29,K2,K3:BK12")),
        Some(Wdl::Loss)
    );
    assert_eq!(tables.probe(&position("B:WK1,K2,K3:BK18")), Some(Wdl::Draw));
    assert_eq!(tables.probe(&position("W:WK1,K2,K3:BK18")), Some(Wdl::Draw));
    // Not quiet: the king on 28 takes the one on 15.
    assert_eq!(
        tables.probe(&position("W:WK5,K12,K28:BK15")),
        Some(Wdl::Win)
    );

    // Over the whole table, quiet positions (neither side has a capture) where no strong king
    // stands on the long diagonal:
    // * lone king off the diagonal, strong side to move: always won;
    // * lone king on the diagonal, lone side to move: never lost.
    let diagonal = onca::rules::bitboard::Bitboard::LONG_DIAGONAL;
    let (mut won, mut held) = (0, 0);
    for key in [MaterialKey::new(0, 3, 0, 1), MaterialKey::new(0, 1, 0, 3)] {
        for position in positions_of(key) {
            let other_side = Position::from_parts(
                position.pieces(Color::White),
                position.pieces(Color::Black),
                position.all_kings(),
                Color::Black,
            );
            if movegen::has_capture(&position) || movegen::has_capture(&other_side) {
                continue;
            }
            let Some((lone, _)) = lone_and_strong(&position) else {
                continue;
            };
            let strong_on_diagonal = (position.pieces(lone.opponent()) & diagonal).is_not_empty();
            if strong_on_diagonal {
                continue;
            }
            let lone_on_diagonal = (position.pieces(lone) & diagonal).is_not_empty();
            let value = tables.probe(&position).expect("in the tables");
            let lone_to_move = position.side_to_move() == lone;
            if !lone_on_diagonal && !lone_to_move {
                assert_eq!(value, Wdl::Win, "{position:?}");
                won += 1;
            }
            if lone_on_diagonal && lone_to_move {
                assert_ne!(value, Wdl::Loss, "{position:?}");
                held += 1;
            }
        }
    }
    assert!(won > 10_000 && held > 10_000);
}

/// Plays `start` with the tables' best moves for both sides; returns the outcome under the full
/// draw rules and the number of plies.
fn play_out(tables: &Tablebases, start: Position) -> (Option<Outcome>, usize) {
    let rules = DrawRules::default();
    let mut game = Game::new(start);
    for ply in 0..200 {
        if let Some(outcome) = game.outcome(&rules) {
            return (Some(outcome), ply);
        }
        let (_, moves) = tables.best_moves(game.current()).expect("in the tables");
        let Some(&mv) = moves.first() else {
            return (None, ply);
        };
        game.play(mv);
        assert!(
            draw::move_count_draw(&rules, game.current(), &game.counters()).is_none()
                || game.outcome(&rules).is_some()
        );
    }
    (game.outcome(&rules), 200)
}

#[test]
fn best_moves_win_three_kings_against_one_within_the_move_count_rules() {
    let tables = tables();
    // The longest win in the table, and a few ordinary ones.
    let key = MaterialKey::new(0, 3, 0, 1);
    let indexer = Indexer::new(key);
    let mut longest = (0, 0);
    for index in 0..indexer.size() {
        if let Some(canonical) = indexer.position(index) {
            let probed = tables
                .probe_distance(&canonical.position())
                .expect("in the tables");
            if probed.wdl == Wdl::Win && probed.plies.unwrap_or(0) > longest.0 {
                longest = (probed.plies.unwrap_or(0), index);
            }
        }
    }
    let mut starts: Vec<Position> = ["W:WK1,K2,K3:BK28", "W:WK5,K6,K7:BK32", "B:WK29,K2,K3:BK12"]
        .iter()
        .map(|text| position(text))
        .collect();
    if let Some(canonical) = indexer.position(longest.1) {
        starts.push(canonical.position());
    }
    assert!(
        longest.0 > 10 && longest.0 < 30,
        "longest win {} plies",
        longest.0
    );
    // And a fixed sample of won positions, either side to move.
    let mut rng = Rng::new(15);
    while starts.len() < 300 {
        let Some(canonical) = indexer.position(rng.next_u64() % indexer.size()) else {
            continue;
        };
        let mut start = canonical.position();
        if rng.below(2) == 0 {
            start = start.color_flipped();
        }
        if tables.probe(&start) == Some(Wdl::Win) {
            starts.push(start);
        }
        let lost = Position::from_parts(
            start.pieces(Color::White),
            start.pieces(Color::Black),
            start.all_kings(),
            start.side_to_move().opponent(),
        );
        if tables.probe(&lost) == Some(Wdl::Loss) {
            starts.push(lost);
        }
    }
    for start in starts {
        let strong = lone_and_strong(&start).map(|(lone, _)| lone.opponent());
        let (outcome, plies) = play_out(tables, start);
        assert_eq!(
            outcome,
            strong.map(Outcome::Win),
            "{start:?} after {plies} plies"
        );
    }
}

#[test]
fn best_moves_follow_the_distance() {
    let tables = tables();
    let start = position("W:WK1,K2,K3:BK28");
    let (result, moves) = tables.best_moves(&start).expect("in the tables");
    assert_eq!(result.wdl, Wdl::Win);
    let plies = result.plies.expect("distances stored");
    assert!(!moves.is_empty());
    for mv in moves {
        let after = tables
            .probe_distance(&start.play(&mv))
            .expect("in the tables");
        assert_eq!(after.wdl, Wdl::Loss);
        assert_eq!(after.plies.map(|p| p + 1), Some(plies));
    }
    // A drawn position offers every drawing move; a lost one with no move offers none.
    let (draw, moves) = tables.best_moves(&position("W:WK1:BK32")).expect("in");
    assert_eq!((draw.wdl, moves.len()), (Wdl::Draw, 7));
    assert_eq!(tables.best_moves(&Position::start()), None);
    assert_eq!(tables.probe(&Position::start()), None);
    assert_eq!(Tablebases::empty().probe(&position("W:WK1:BK32")), None);
}

#[test]
fn damaged_tables_are_refused_and_the_rest_still_works() {
    let dir = tempfile::Builder::new()
        .prefix("onca-egtb-damage-")
        .tempdir()
        .expect("temporary directory");
    let fresh = generate_into(&dir, 3);
    assert_eq!(fresh.max_pieces(), 3);
    let flipped_key = MaterialKey::new(1, 1, 0, 1);
    let cut_key = MaterialKey::new(0, 1, 0, 2);
    let flipped = store::path(dir.path(), flipped_key, Kind::Wdl);
    let cut = store::path(dir.path(), cut_key, Kind::Wdl);
    let mut bytes = std::fs::read(&flipped).expect("table written");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&flipped, &bytes).expect("rewrite");
    let bytes = std::fs::read(&cut).expect("table written");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("rewrite");
    // A half-written temporary file is never taken for a table.
    std::fs::write(dir.path().join("m0k1_m0k1.wdl.tmp"), b"junk").expect("write");

    let error = store::read(dir.path(), flipped_key, Kind::Wdl).expect_err("damaged");
    assert!(
        format!("{error:#}").contains("checksum mismatch"),
        "{error:#}"
    );
    let error = store::read(dir.path(), cut_key, Kind::Wdl).expect_err("truncated");
    assert!(format!("{error:#}").contains("truncated"), "{error:#}");

    // Loading maps the files and checks headers and block offsets: the cut file is refused by
    // name; the flipped payload byte is found by the full check (`onca egtb verify`).
    let loaded = Tablebases::load(dir.path()).expect("directory readable");
    assert_eq!(loaded.refused().len(), 1, "{:?}", loaded.refused());
    assert!(loaded.refused().iter().any(|m| m.contains("m0k1_m0k2.wdl")));
    assert!(!loaded.has(cut_key));
    assert!(store::TableFile::open(dir.path(), flipped_key, Kind::Wdl)
        .expect("header sound")
        .verify()
        .is_err());
    assert_eq!(loaded.max_pieces(), 2);
    let sound = position("W:WK1,K2:B12");
    assert_eq!(loaded.probe(&sound), fresh.probe(&sound));
    assert!(loaded.probe(&sound).is_some());
    let damaged = position("W:WK1:BK28,K32");
    assert_eq!(loaded.probe(&damaged), None);

    // Generating again keeps the sound tables and rebuilds the damaged ones.
    let options = Options {
        max_pieces: 3,
        distance_pieces: 3,
        dir: dir.path().to_path_buf(),
    };
    let (reports, rebuilt) = generate::generate(&options, &mut |_| {}).expect("resumes");
    let rebuilt_keys: Vec<_> = reports
        .iter()
        .filter(|r| !r.resumed)
        .filter_map(|r| r.key)
        .collect();
    assert!(rebuilt_keys.contains(&flipped_key) && rebuilt_keys.contains(&cut_key));
    assert!(rebuilt_keys.len() <= 4, "{rebuilt_keys:?}");
    assert_eq!(rebuilt.probe(&damaged), fresh.probe(&damaged));
    assert!(Tablebases::load(dir.path())
        .expect("readable")
        .refused()
        .is_empty());
    assert!(Tablebases::load(&dir.path().join("missing")).is_err());
}

#[test]
fn unused_code_never_leaks_into_files() {
    let symbols = generate::wdl_symbols(&[Code::UNUSED.0, 130, Code::UNUSED.0, 3]);
    assert_eq!(symbols, vec![1, 2, 2, 0]);
    let _ = expand(0);
}

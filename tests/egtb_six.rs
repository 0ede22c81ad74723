//! Six-piece tables against an independent search: a sample of positions from every six-piece
//! table, each searched by a plain minimax over the real move generator that ends only where the
//! game ends or the material drops to five pieces (looked up there: those tables are checked by
//! `tests/egtb.rs` and `onca egtb verify`). A proved result must be the stored value (so a stored
//! draw is never proved won or lost).
//!
//! The six-piece set takes most of an hour to generate, so CI does not have it: the test runs
//! when `ONCA_EGTB_DIR` names a directory holding every table up to six pieces (`onca egtb
//! generate --pieces 6 --dir DIR`) and says it is skipped otherwise. `ONCA_EGTB_PIECES=5` runs
//! the same check on the five-piece tables.

mod common;

use onca::egtb::index::Indexer;
use onca::egtb::{Tablebases, Wdl};
use onca::rules::movegen;
use onca::rules::position::Position;

/// Minimax to `depth` plies; `Some` when it proves the result. Positions with fewer than
/// `pieces` pieces take the tables' value.
fn prove(tables: &Tablebases, position: &Position, depth: u32, pieces: u32) -> Option<Wdl> {
    if position.occupied().count() < pieces {
        return tables.probe(position);
    }
    let moves = movegen::legal_moves(position);
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_lose = true;
    let mut all_known = true;
    let mut any_draw = false;
    for mv in &moves {
        match prove(tables, &position.play(mv), depth - 1, pieces) {
            Some(Wdl::Loss) => return Some(Wdl::Win),
            Some(Wdl::Win) => {}
            Some(Wdl::Draw) => {
                all_lose = false;
                any_draw = true;
            }
            None => {
                all_lose = false;
                all_known = false;
            }
        }
    }
    if all_lose {
        Some(Wdl::Loss)
    } else if all_known && any_draw {
        Some(Wdl::Draw)
    } else {
        None
    }
}

#[test]
fn sampled_six_piece_values_agree_with_an_independent_search() {
    let Some(dir) = std::env::var_os("ONCA_EGTB_DIR") else {
        eprintln!("SKIPPED: set ONCA_EGTB_DIR to a directory with every table up to 6 pieces");
        return;
    };
    let pieces: u32 = std::env::var("ONCA_EGTB_PIECES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let tables = Tablebases::load(std::path::Path::new(&dir)).expect("tables load");
    assert!(
        tables.max_pieces() >= pieces,
        "need every table up to {pieces} pieces"
    );
    let keys: Vec<_> = tables
        .keys()
        .into_iter()
        .filter(|key| key.pieces() == pieces)
        .collect();
    let mut rng = common::Rng::new(0x6_6666);
    let (mut proved, mut checked) = (0, 0);
    for key in &keys {
        let indexer = Indexer::new(*key);
        for _ in 0..40 {
            let Some(canonical) = indexer.position(rng.next_u64() % indexer.size()) else {
                continue;
            };
            let position = canonical.position();
            let stored = tables.probe(&position).expect("in the tables");
            checked += 1;
            if let Some(found) = prove(&tables, &position, 3, pieces) {
                assert_eq!(stored, found, "{position:?}");
                proved += 1;
            }
        }
    }
    eprintln!("{checked} {pieces}-piece positions sampled, {proved} decided by the search");
    assert!(
        proved * 4 >= checked,
        "too few decided: {proved} of {checked}"
    );
}

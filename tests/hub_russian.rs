//! Hub sessions in Russian draughts against the real binary: the `variant` parameter, `pos` moves
//! that only Russian allows, searches whose `done` move is checked under Russian rules, and
//! switching back to Brazilian. Fixed depths, one thread.

mod hub_support;

use hub_support::{check_search_in, field, Engine, Search, START};
use onca::notation::fen::parse_position;
use onca::rules::movegen::legal_moves_in;
use onca::rules::moves::find_hub_move;
use onca::rules::position::Position;
use onca::rules::variant::Variant;

fn russian_engine() -> Engine {
    let mut engine = Engine::start();
    engine.send("set-param name=variant value=russian");
    engine.send("set-param name=threads value=1");
    engine.handshake();
    engine
}

fn think(engine: &mut Engine, fen: &str, moves: &str, depth: u32) -> Search {
    engine.send(&format!("pos pos={fen} moves=\"{moves}\""));
    engine.send(&format!("level depth={depth}"));
    engine.send("go think");
    engine.search_result()
}

#[test]
fn the_variant_parameter_declares_and_accepts_russian() {
    let mut engine = Engine::start();
    engine.send("set-param name=variant value=russian");
    engine.send("hub");
    let _id = engine.recv();
    let declared = engine.recv();
    assert_eq!(
        declared,
        "param name=variant value=russian type=enum values=\"brazilian russian\""
    );
    engine.expect("wait");
    engine.send("set-param name=variant value=checkers");
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains("checkers"), "{error}");
    engine.barrier();
}

/// Checks that `text` is a move of `variant` in `fen` and is not one in the other variant.
fn only_in(variant: Variant, fen: &str, text: &str) {
    let position = parse_position(fen).expect("valid");
    let other = match variant {
        Variant::Brazilian => Variant::Russian,
        Variant::Russian => Variant::Brazilian,
    };
    assert!(find_hub_move(&legal_moves_in(variant, &position), text).is_ok());
    assert!(find_hub_move(&legal_moves_in(other, &position), text).is_err());
}

#[test]
fn the_engine_may_take_fewer_pieces_in_russian() {
    // White may take two men with 22 (all Brazilian allows) or one with the king on 5; the king's
    // capture wins more.
    let fen = "W:WK5,22,25,26,28,30,32:B11,12,16,18";
    let mut engine = russian_engine();
    let search = think(&mut engine, fen, "", 8);
    let position = parse_position(fen).expect("valid");
    let mv = check_search_in(Variant::Russian, &search, &position);
    only_in(Variant::Russian, fen, &mv.to_string());
    engine.barrier();
}

#[test]
fn a_man_crowned_during_a_capture_goes_on_as_a_king() {
    // 12 takes 8 and is crowned on 3; as a king it goes on over 14 to 21 (proven win). In
    // Brazilian the man stops on 3.
    let fen = "W:W12,20,22,24,27,30,32:B8,9,11,14";
    let mut engine = russian_engine();
    let search = think(&mut engine, fen, "", 6);
    let position = parse_position(fen).expect("valid");
    let mv = check_search_in(Variant::Russian, &search, &position);
    assert_eq!(mv.to_string(), "12x21x8x14");
    only_in(Variant::Russian, fen, "12x21x8x14");

    engine.send("set-param name=variant value=brazilian");
    let search = think(&mut engine, fen, "", 6);
    assert_eq!(field(&search.done, "move").as_deref(), Some("12x3x8"));
    engine.barrier();
}

#[test]
fn pos_plays_moves_only_russian_allows() {
    // 21x14 takes one man although 28 could take two: legal only in Russian.
    let fen = "W:W21,28:B17,24,15,1";
    only_in(Variant::Russian, fen, "21x14x17");
    let mut engine = russian_engine();
    let search = think(&mut engine, fen, "21x14x17", 4);
    let start = parse_position(fen).expect("valid");
    let first = find_hub_move(&legal_moves_in(Variant::Russian, &start), "21x14x17")
        .expect("a Russian move");
    check_search_in(
        Variant::Russian,
        &search,
        &start.play_in(Variant::Russian, &first),
    );

    // Under Brazilian rules the same `pos` is refused with an error, and `go` still answers.
    engine.send("set-param name=variant value=brazilian");
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains("variant is brazilian"), "{error}");
    engine.send("go think");
    assert!(engine.recv().starts_with("error message="));
    assert_eq!(engine.recv(), "done move=\"\"");

    // Back to Russian: the last `pos` is read again and searched.
    engine.send("set-param name=variant value=russian");
    engine.send("level depth=2");
    engine.send("go think");
    let search = engine.search_result();
    check_search_in(
        Variant::Russian,
        &search,
        &start.play_in(Variant::Russian, &first),
    );
    engine.barrier();
}

#[test]
fn a_whole_russian_game_from_the_start_is_legal() {
    // The engine plays both sides at a small depth; every move is replayed under Russian rules.
    let mut engine = russian_engine();
    let mut game = onca::game::record::Game::in_variant(Variant::Russian, Position::start());
    let mut moves: Vec<String> = Vec::new();
    let rules = onca::game::draw::DrawRules::default();
    while game.outcome(&rules).is_none() && moves.len() < 120 {
        let search = think(&mut engine, START, &moves.join(" "), 3);
        let mv = check_search_in(Variant::Russian, &search, game.current());
        game.play(mv);
        moves.push(mv.to_string());
    }
    assert!(moves.len() > 10, "{moves:?}");
    engine.barrier();
}

//! Whole games and long move lists through the Hub front end: the engine plays itself to the end,
//! accepts a 300-ply `moves=` list and captures whose captured squares come in any order.

mod hub_support;

use hub_support::{check_search, Engine, Rng, START};
use onca::game::draw::DrawRules;
use onca::game::record::Game;
use onca::rules::movegen::{has_capture, legal_moves};
use onca::rules::moves::Move;
use onca::rules::position::Position;

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn engine_plays_a_full_game_against_itself() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new-game");
    let mut game = Game::new(Position::start());
    let rules = DrawRules::default();
    while game.outcome(&rules).is_none() {
        assert!(game.moves().len() < 1000, "the game does not end");
        engine.send(&format!(
            "pos pos={START} moves=\"{}\"",
            moves_text(game.moves())
        ));
        engine.send("level depth=2");
        engine.send("go think");
        let search = engine.search_result();
        let mv = check_search(&search, game.current());
        game.play(mv);
    }
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

/// A random game of exactly `plies` plies (fixed seeds, so always the same game). Moves that
/// leave the opponent no capture are preferred, so material lasts and kings appear; the draw
/// rules are ignored (a host may send such a game).
fn long_random_game(plies: usize) -> Game {
    for seed in 1..1000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut game = Game::new(Position::start());
        while game.moves().len() < plies {
            let legal = legal_moves(game.current());
            if legal.is_empty() {
                break;
            }
            let safe: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|mv| !has_capture(&game.current().play(mv)))
                .collect();
            let pool = if safe.is_empty() { &legal } else { &safe };
            game.play(pool[rng.below(pool.len())]);
        }
        if game.moves().len() == plies {
            return game;
        }
    }
    panic!("no random game reached {plies} plies");
}

#[test]
fn a_moves_list_of_300_plies_is_accepted() {
    let game = long_random_game(300);
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!(
        "pos pos={START} moves=\"{}\"",
        moves_text(game.moves())
    ));
    engine.send("level depth=2");
    engine.send("go think");
    check_search(&engine.search_result(), game.current());
    engine.barrier();
}

#[test]
fn captured_squares_are_accepted_in_any_order() {
    // Play random games until one has a capture of two or more pieces; write its captured squares
    // in descending order (we print them ascending).
    let mut found = None;
    'seeds: for seed in 1..1000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
        let mut game = Game::new(Position::start());
        let mut texts = Vec::new();
        for _ in 0..200 {
            let legal = legal_moves(game.current());
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            let mut captured: Vec<u32> = mv.captured.squares().map(|s| s.number()).collect();
            let multi = captured.len() >= 2;
            if multi {
                captured.reverse();
                let mut text = format!("{}x{}", mv.from, mv.to);
                for square in captured {
                    text.push_str(&format!("x{square}"));
                }
                texts.push(text);
            } else {
                texts.push(mv.to_string());
            }
            game.play(mv);
            if multi && !legal_moves(game.current()).is_empty() {
                found = Some((game, texts));
                break 'seeds;
            }
        }
    }
    let (game, texts) = found.expect("a random game with a multiple capture");
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("pos pos={START} moves=\"{}\"", texts.join(" ")));
    engine.barrier();
    engine.send("level depth=2");
    engine.send("go think");
    check_search(&engine.search_result(), game.current());
    engine.barrier();
}

//! The lone-king hunt: from three kings against one, with the lone king kept off the long
//! diagonal, the engine (one thread, fixed nodes, so every game repeats exactly) wins within the
//! move-count rules, playing both sides. The positions were drawn at random and kept when the
//! endgame tables (`onca egtb probe`) call them wins 15 to 21 plies from the capture; without the
//! compiled-in knowledge of `src/eval/endgame.rs` the engine drew almost all of them.

use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::notation::fen::parse_position;
use onca::rules::position::Color;
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;

/// (position, the hunter).
const HUNTS: [(&str, Color); 8] = [
    ("B:WK8,K26,K9:BK1", Color::White),
    ("B:WK11,K30,K32:BK21", Color::White),
    ("B:WK4,K32,K16:BK13", Color::White),
    ("W:WK15,K8,K6:BK32", Color::White),
    ("B:WK31,K11,K4:BK6", Color::White),
    ("B:WK29,K2,K3:BK21", Color::White),
    ("B:WK8,K30,K31:BK13", Color::White),
    ("W:WK5,K6,K7:BK26", Color::White),
];

/// Plays the game out with the same engine on both sides; returns its outcome and length.
fn play_out(fen: &str) -> (Outcome, usize) {
    let mut game = Game::new(parse_position(fen).expect("valid position"));
    let mut searcher = Searcher::new(4);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let rules = DrawRules::default();
    for ply in 0..200 {
        if let Some(outcome) = game.outcome(&rules) {
            return (outcome, ply);
        }
        let result = searcher.search(
            &game,
            &limits,
            &SearchSettings::default(),
            &SearchControl::new(),
            &mut |_| {},
        );
        let mv = result.best.expect("a position with moves has a best move");
        game.play(mv);
    }
    panic!("{fen}: no result in 200 plies");
}

#[test]
fn three_kings_beat_a_lone_king_off_the_long_diagonal() {
    for (fen, hunter) in HUNTS {
        let (outcome, plies) = play_out(fen);
        assert_eq!(outcome, Outcome::Win(hunter), "{fen} after {plies} plies");
        // Quickly, too: the tables' wins take 15 to 21 plies; a hunt may give a king back to
        // reach a won shape (the count of 30 plies starts again), so allow a little more than 30.
        assert!(plies <= 40, "{fen}: {plies} plies");
        // The same position with colours swapped: the other side hunts just as well.
        let mirrored =
            onca::notation::fen::to_fen(&parse_position(fen).expect("valid").color_flipped());
        let (outcome, _) = play_out(&mirrored);
        assert_eq!(outcome, Outcome::Win(hunter.opponent()), "{mirrored}");
    }
}

//! Named rule positions for Russian draughts: each checks the exact set of legal moves against one
//! rule in which Russian differs from Brazilian, and the same position's Brazilian answer, which
//! must not change.
//!
//! Board for reference (White moves up, towards 1-4):
//!
//! ```text
//!    1   2   3   4        b8 d8 f8 h8
//!  5   6   7   8        a7 c7 e7 g7
//!    9  10  11  12       b6 d6 f6 h6
//! 13  14  15  16       a5 c5 e5 g5
//!   17  18  19  20       b4 d4 f4 h4
//! 21  22  23  24       a3 c3 e3 g3
//!   25  26  27  28       b2 d2 f2 h2
//! 29  30  31  32       a1 c1 e1 g1
//! ```

use onca::notation::fen::{parse_position, to_fen};
use onca::rules::movegen::{self, MoveList};
use onca::rules::moves::find_hub_move;
use onca::rules::position::Position;
use onca::rules::variant::{Brazilian, Rules, Russian};

struct Case {
    name: &'static str,
    reason: &'static str,
    fen: &'static str,
    russian: &'static [&'static str],
    brazilian: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "free_choice_of_capture",
        reason:
            "Russian may take one piece (21x14) though 28 can take two; Brazilian must take two",
        fen: "W:W21,28:B17,24,15",
        russian: &["21x14x17", "28x10x15x24"],
        brazilian: &["28x10x15x24"],
    },
    Case {
        name: "free_choice_between_one_and_two",
        reason: "31x24 takes one piece beside 22's two; a started capture is still completed \
                 (22x15x18 alone is not a move)",
        fen: "W:W22,31:B18,11,27",
        russian: &["22x8x11x18", "31x24x27"],
        brazilian: &["22x8x11x18"],
    },
    Case {
        name: "free_choice_includes_backward_captures",
        reason: "22 may take 26 backwards alone in Russian; Brazilian wants the two-piece captures",
        fen: "W:W22,30:B18,11,26",
        russian: &["22x8x11x18", "22x31x26", "30x14x18x26"],
        brazilian: &["22x8x11x18", "30x14x18x26"],
    },
    Case {
        name: "crowned_man_continues_as_king",
        reason: "11x2 over 7 crowns the man; as a king it flies over 6 and takes 9 (a man at 2 \
                 could not reach 9): Russian must go on, Brazilian ends on 2",
        fen: "W:W11:B7,9",
        russian: &["11x13x7x9"],
        brazilian: &["11x2x7"],
    },
    Case {
        name: "crowned_man_lands_like_a_king",
        reason: "after crowning on 2 the king may land on 9 or 13 behind 6; the Brazilian man \
                 only on 9",
        fen: "W:W11:B7,6",
        russian: &["11x9x6x7", "11x13x6x7"],
        brazilian: &["11x9x6x7"],
    },
    Case {
        name: "black_man_crowned_during_capture",
        reason: "Black's 22x31 over 26 crowns on 31, and the king takes 24 from a distance",
        fen: "B:W24,26:B22",
        russian: &["22x20x24x26"],
        brazilian: &["22x31x26"],
    },
    Case {
        name: "crowning_route_is_one_choice_among_others",
        reason: "the crowning man's capture of two stands beside the king's two-piece captures; \
                 Brazilian's majority rule leaves it out only because the man stays a man and \
                 takes one",
        fen: "W:W11,K32:B7,9,27,K1",
        russian: &["11x13x7x9", "32x3x7x27", "32x5x9x27"],
        brazilian: &["32x3x7x27", "32x5x9x27"],
    },
    Case {
        name: "crossing_the_far_row_same_move_both_variants",
        reason: "10x3x12 takes 7 and 8 in both; only the piece that arrives on 12 differs",
        fen: "W:W10:B7,8",
        russian: &["10x12x7x8"],
        brazilian: &["10x12x7x8"],
    },
    Case {
        name: "king_must_land_where_it_can_go_on",
        reason: "behind 22 the king may stop on 18, 15, 11, 8 or 4, but only from 15 can it go on \
                 (over 10): the sequence must be completed, so only 15 is allowed",
        fen: "W:WK29:B22,10",
        russian: &["29x1x10x22", "29x6x10x22"],
        brazilian: &["29x1x10x22", "29x6x10x22"],
    },
    Case {
        name: "king_stops_anywhere_when_nothing_follows",
        reason: "with nothing more to take, every square behind the captured piece is a landing",
        fen: "W:WK29:B18",
        russian: &["29x15x18", "29x11x18", "29x8x18", "29x4x18"],
        brazilian: &["29x15x18", "29x11x18", "29x8x18", "29x4x18"],
    },
];

fn legal<R: Rules>(fen: &str) -> Vec<String> {
    let position = parse_position(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    let mut list = MoveList::new();
    movegen::generate_for::<R>(&position, &mut list);
    let mut moves: Vec<String> = list.iter().map(|mv| mv.to_string()).collect();
    moves.sort();
    moves
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut moves: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    moves.sort();
    moves
}

#[test]
fn every_russian_rule_position_has_exactly_the_expected_moves_in_both_variants() {
    let mut failures = Vec::new();
    for case in CASES {
        for (variant, expected, actual) in [
            ("Russian", sorted(case.russian), legal::<Russian>(case.fen)),
            (
                "Brazilian",
                sorted(case.brazilian),
                legal::<Brazilian>(case.fen),
            ),
        ] {
            if actual != expected {
                failures.push(format!(
                    "{} in {variant} ({}): {}\n  expected {:?}\n  got      {:?}",
                    case.name, case.reason, case.fen, expected, actual
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "rule positions failed:\n{}",
        failures.join("\n")
    );
}

/// The position after one move under the rules `R`, as FEN; its key must be the one computed
/// from scratch.
fn after<R: Rules>(fen: &str, mv: &str) -> String {
    let position = parse_position(fen).expect("valid FEN");
    let legal = movegen::legal_moves_for::<R>(&position);
    let mv = find_hub_move(&legal, mv).expect("legal move");
    let next = position.play_for::<R>(&mv);
    assert_eq!(next.key(), next.computed_key(), "key after {mv} in {fen}");
    to_fen(&next)
}

#[test]
fn a_man_crowned_during_a_capture_ends_it_as_a_king() {
    // The same move in both variants; Russian crowns on the far row on the way.
    assert_eq!(after::<Russian>("W:W10:B7,8", "10x12x7x8"), "B:WK12:B");
    assert_eq!(after::<Brazilian>("W:W10:B7,8", "10x12x7x8"), "B:W12:B");
    assert_eq!(after::<Russian>("W:W11:B7,9", "11x13x7x9"), "B:WK13:B");
    assert_eq!(after::<Russian>("W:W11:B7,6", "11x9x6x7"), "B:WK9:B");
    assert_eq!(after::<Russian>("B:W24,26:B22", "22x20x24x26"), "W:W:BK20");
}

#[test]
fn other_moves_play_alike_in_both_variants() {
    for (fen, mv, expected) in [
        ("W:W10:B6,20", "10x1x6", "B:WK1:B20"),
        ("B:WK1:B27", "27-31", "W:WK1:BK31"),
        ("W:W21,28:B17,24,15", "28x10x15x24", "B:W10,21:B17"),
        ("W:WK29:B7,15", "29x2x7x15", "B:WK2:B"),
    ] {
        assert_eq!(after::<Russian>(fen, mv), expected, "{mv} in {fen}");
        assert_eq!(after::<Brazilian>(fen, mv), expected, "{mv} in {fen}");
    }
}

/// The generator's shortcuts (`count_legal_for`, `has_capture`, `has_quiet_move`) against the
/// full Russian move list, at every node of a shallow tree below each rule position.
#[test]
fn russian_move_shortcuts_agree_with_the_move_list() {
    fn walk(position: &Position, depth: u32, nodes: &mut u64) {
        let mut list = MoveList::new();
        movegen::generate_for::<Russian>(position, &mut list);
        let captures = list.iter().any(|mv| mv.captured.is_not_empty());
        assert_eq!(
            movegen::count_legal_for::<Russian>(position),
            list.len() as u64,
            "{}",
            to_fen(position)
        );
        assert_eq!(movegen::has_capture(position), captures);
        if !captures {
            assert_eq!(movegen::has_quiet_move(position), !list.is_empty());
        }
        *nodes += 1;
        if depth > 0 {
            for mv in list.iter() {
                walk(&position.play_for::<Russian>(mv), depth - 1, nodes);
            }
        }
    }
    let mut nodes = 0;
    for case in CASES {
        walk(&parse_position(case.fen).expect("valid FEN"), 4, &mut nodes);
    }
    walk(&Position::start(), 6, &mut nodes);
    assert!(nodes > 10_000, "only {nodes} nodes walked");
}

/// Every Russian capture route (the notation's view) plays a legal move, and every legal capture
/// has at least one route.
#[test]
fn russian_capture_routes_cover_the_legal_captures() {
    for case in CASES {
        let position = parse_position(case.fen).expect("valid FEN");
        let legal = movegen::legal_moves_for::<Russian>(&position);
        let routes = movegen::capture_routes_for::<Russian>(&position);
        for route in &routes {
            assert!(legal.contains(&route.mv), "{} route {:?}", case.name, route);
            assert_eq!(route.landings.last(), Some(&route.mv.to));
            assert_eq!(route.landings.len() as u32, route.mv.captured.count());
        }
        for mv in legal.iter().filter(|mv| mv.is_capture()) {
            assert!(
                routes.iter().any(|route| route.mv == *mv),
                "{}: no route for {mv}",
                case.name
            );
        }
    }
}

//! Named rule positions: each checks the exact set of legal moves against one rule of RULES.md.
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

struct Case {
    name: &'static str,
    reason: &'static str,
    fen: &'static str,
    moves: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "start_white",
        reason: "White moves first; seven men moves from 21-24",
        fen: "W:W21-32:B1-12",
        moves: &[
            "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
        ],
    },
    Case {
        name: "start_black",
        reason: "Black men move down the board",
        fen: "B:W21-32:B1-12",
        moves: &["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
    },
    Case {
        name: "man_moves_forward_only",
        reason: "a man never steps backwards",
        fen: "W:W22:B4",
        moves: &["22-17", "22-18"],
    },
    Case {
        name: "man_on_left_edge",
        reason: "a3 has one forward diagonal; no wrap to the h-file",
        fen: "W:W21:B4",
        moves: &["21-17"],
    },
    Case {
        name: "no_capture_off_the_right_edge",
        reason: "h4 has nothing behind it to the up-right, so 24 cannot jump it",
        fen: "W:W24:B20",
        moves: &["24-19"],
    },
    Case {
        name: "own_pieces_block",
        reason: "a man cannot step onto an occupied square",
        fen: "W:W25,29:B1",
        moves: &["25-21", "25-22"],
    },
    Case {
        name: "blocked_side_has_no_move",
        reason: "no legal move: the side to move has lost",
        fen: "W:W21:B14,17",
        moves: &[],
    },
    Case {
        name: "no_pieces_no_move",
        reason: "a side without pieces has no move",
        fen: "W:W:B1",
        moves: &[],
    },
    Case {
        name: "capture_is_compulsory",
        reason: "the capture 22x15 must be played; the quiet moves of 31 are illegal",
        fen: "W:W22,31:B18",
        moves: &["22x15x18"],
    },
    Case {
        name: "two_pieces_in_a_row_cannot_be_jumped",
        reason: "the landing square behind 18 is occupied, so there is no capture",
        fen: "W:W22:B15,18",
        moves: &["22-17"],
    },
    Case {
        name: "man_captures_backwards",
        reason: "men capture backwards too",
        fen: "W:W15:B1,19",
        moves: &["15x24x19"],
    },
    Case {
        name: "black_man_captures_backwards",
        reason: "a black man captures upwards, against its direction of travel",
        fen: "B:W14,32:B18",
        moves: &["18x9x14"],
    },
    Case {
        name: "man_turns_during_capture",
        reason: "a man may change direction at every jump",
        fen: "W:W30:B1,18,26",
        moves: &["30x14x18x26"],
    },
    Case {
        name: "majority_rule",
        reason: "the sequence taking two pieces is compulsory over the one taking one",
        fen: "W:W21,32:B1,17,19,27",
        moves: &["32x16x19x27"],
    },
    Case {
        name: "kings_count_like_men",
        reason: "capturing one king does not outweigh capturing two men",
        fen: "W:W21,32:B1,K17,19,27",
        moves: &["32x16x19x27"],
    },
    Case {
        name: "free_choice_among_equal_captures",
        reason: "two single captures: either may be chosen",
        fen: "W:W22:B1,17,18",
        moves: &["22x13x17", "22x15x18"],
    },
    Case {
        name: "promotion_by_capture",
        reason: "a man that ends its capture on the far row is promoted",
        fen: "W:W10:B6,20",
        moves: &["10x1x6"],
    },
    Case {
        name: "no_promotion_in_passing",
        reason: "a man crossing the far row mid-capture continues as a man (2 then 9)",
        fen: "W:W11:B6,7,20",
        moves: &["11x9x6x7"],
    },
    Case {
        name: "man_returns_to_its_origin",
        reason: "a capture may end on its starting square; both directions round are one move",
        fen: "W:W22:B9,10,17,18",
        moves: &["22x22x9x10x17x18"],
    },
    Case {
        name: "flying_king_quiet_moves",
        reason: "a king moves any distance along an empty diagonal",
        fen: "W:WK29:B4",
        moves: &["29-8", "29-11", "29-15", "29-18", "29-22", "29-25"],
    },
    Case {
        name: "king_in_the_centre",
        reason: "a king on d4 reaches all 13 squares of its two diagonals",
        fen: "W:WK18:B1",
        moves: &[
            "18-5", "18-9", "18-14", "18-4", "18-8", "18-11", "18-15", "18-22", "18-25", "18-29",
            "18-23", "18-27", "18-32",
        ],
    },
    Case {
        name: "king_on_the_edge",
        reason: "a king on a5 has two diagonals and does not wrap round",
        fen: "W:WK13:B4",
        moves: &["13-2", "13-6", "13-9", "13-17", "13-22", "13-26", "13-31"],
    },
    Case {
        name: "king_captures_at_a_distance",
        reason: "a flying king captures from afar and may land on any empty square behind",
        fen: "W:WK29:B15",
        moves: &["29x4x15", "29x8x15", "29x11x15"],
    },
    Case {
        name: "king_must_land_where_the_capture_continues",
        reason: "the majority rule forces the landing square on 11, from which 7 is taken",
        fen: "W:WK29:B7,15",
        moves: &["29x2x7x15"],
    },
    Case {
        name: "king_cannot_jump_two_adjacent_pieces",
        reason: "11 stands right behind 15, so there is no capture along the long diagonal",
        fen: "W:WK29:B11,15",
        moves: &["29-18", "29-22", "29-25"],
    },
    Case {
        name: "black_king_captures_at_a_distance",
        reason: "Black's king flies down the long diagonal and picks its landing square",
        fen: "B:W15:BK4",
        moves: &["4x18x15", "4x22x15", "4x25x15", "4x29x15"],
    },
    Case {
        name: "black_man_promotes_on_white_back_row",
        reason: "black men move towards 29-32",
        fen: "B:WK1:B27",
        moves: &["27-31", "27-32"],
    },
    Case {
        name: "king_round_trip_ends_on_origin",
        reason: "a king may end where it started or fly on; each landing square is one move",
        fen: "W:WK22:B9,10,17,18",
        moves: &[
            "22x22x9x10x17x18",
            "22x25x9x10x17x18",
            "22x26x9x10x17x18",
            "22x29x9x10x17x18",
            "22x31x9x10x17x18",
        ],
    },
    Case {
        name: "man_capture_beats_king_capture_by_count",
        reason: "the king can take one piece, the man two: only the man's capture is legal",
        fen: "W:WK29,30:B1,18,26",
        moves: &["30x14x18x26"],
    },
    Case {
        name: "king_capture_beats_man_capture_by_count",
        reason: "the king takes two, the man one: only the king's capture is legal",
        fen: "W:WK29,21:B7,15,17",
        moves: &["29x2x7x15"],
    },
    Case {
        name: "black_majority_with_men",
        reason: "Black's man must take two pieces (15 then 23) rather than one (14)",
        fen: "B:W14,15,23,32:B1,10",
        moves: &["10x26x15x23"],
    },
];

fn legal(fen: &str) -> Vec<String> {
    let position = parse_position(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    let mut list = MoveList::new();
    movegen::generate(&position, &mut list);
    let mut moves: Vec<String> = list.iter().map(|mv| mv.to_string()).collect();
    moves.sort();
    moves
}

#[test]
fn every_rule_position_has_exactly_the_expected_moves() {
    assert!(CASES.len() >= 30, "at least 30 named rule positions");
    let mut failures = Vec::new();
    for case in CASES {
        let mut expected: Vec<String> = case.moves.iter().map(|m| m.to_string()).collect();
        expected.sort();
        let actual = legal(case.fen);
        if actual != expected {
            failures.push(format!(
                "{} ({}): {}\n  expected {:?}\n  got      {:?}",
                case.name, case.reason, case.fen, expected, actual
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "rule positions failed:\n{}",
        failures.join("\n")
    );
}

/// The position after one move, as FEN.
fn after(fen: &str, mv: &str) -> String {
    let position = parse_position(fen).expect("valid FEN");
    let legal = movegen::legal_moves(&position);
    let mv = find_hub_move(&legal, mv).expect("legal move");
    to_fen(&position.play(&mv))
}

#[test]
fn promotion_happens_only_at_the_end_of_a_move() {
    assert_eq!(after("W:W10:B6,20", "10x1x6"), "B:WK1:B20");
    assert_eq!(after("W:W11:B6,7,20", "11x9x6x7"), "B:W9:B20");
    assert_eq!(after("B:WK1:B27", "27-31"), "W:WK1:BK31");
    assert_eq!(after("W:W22:B9,10,17,18", "22x22x9x10x17x18"), "B:W22:B");
}

#[test]
fn captured_pieces_disappear_and_the_king_keeps_its_rank() {
    assert_eq!(after("W:WK29:B7,15", "29x2x7x15"), "B:WK2:B");
    assert_eq!(after("B:W15:BK4", "4x29x15"), "W:W:BK29");
}

/// The generator's shortcuts (`count_legal`, `has_capture`, `has_quiet_move`) against the full
/// move list, at every node of a shallow tree below each rule position (blocked ones included).
#[test]
fn move_shortcuts_agree_with_the_move_list() {
    fn walk(position: &onca::rules::position::Position, depth: u32, nodes: &mut u64) {
        let mut list = MoveList::new();
        movegen::generate(position, &mut list);
        let captures = list.iter().any(|mv| mv.captured.is_not_empty());
        assert_eq!(movegen::count_legal(position), list.len() as u64);
        assert_eq!(movegen::has_capture(position), captures);
        if !captures {
            assert_eq!(movegen::has_quiet_move(position), !list.is_empty());
        }
        *nodes += 1;
        if depth > 0 {
            for mv in list.iter() {
                walk(&position.play(mv), depth - 1, nodes);
            }
        }
    }
    let mut nodes = 0;
    let mut blocked = 0;
    for case in CASES {
        let position = parse_position(case.fen).expect("valid FEN");
        blocked += usize::from(case.moves.is_empty());
        walk(&position, 6, &mut nodes);
    }
    assert!(blocked >= 2, "the blocked rule positions are walked");
    assert!(nodes > 100_000, "{nodes} nodes walked");
}

//! Position and move text: round trips, precise errors on bad input, and Zobrist consistency.

mod common;

use onca::notation::fen::{parse_fen, parse_hub_position, parse_position, to_fen, to_hub_position};
use onca::notation::pdn;
use onca::notation::squares::SquareNotation;

const HUB: SquareNotation = SquareNotation::HubNumbers;
const ALGEBRAIC: SquareNotation = SquareNotation::Algebraic;
use onca::rules::movegen;
use onca::rules::moves::find_hub_move;
use onca::rules::position::Position;

#[test]
fn fen_and_hub_strings_round_trip() {
    let mut positions = common::random_game_positions(7, 20, 200);
    positions.extend(common::random_sparse_positions(8, 300));
    for position in positions {
        let fen = to_fen(&position);
        let hub = to_hub_position(&position);
        assert_eq!(parse_fen(&fen).as_ref(), Ok(&position), "{fen}");
        assert_eq!(parse_hub_position(&hub).as_ref(), Ok(&position), "{hub}");
        assert_eq!(to_fen(&parse_hub_position(&hub).expect("valid")), fen);
        let flipped = position.color_flipped();
        assert_eq!(flipped.color_flipped(), position);
    }
}

#[test]
fn incremental_zobrist_key_equals_recomputed_key() {
    for position in common::random_game_positions(11, 30, 250) {
        assert_eq!(
            position.key(),
            position.computed_key(),
            "{}",
            to_fen(&position)
        );
        for mv in movegen::legal_moves(&position) {
            let next = position.play(&mv);
            assert_eq!(
                next.key(),
                next.computed_key(),
                "{} after {mv}",
                to_fen(&position)
            );
        }
    }
}

#[test]
fn fen_forms_accepted() {
    let start = Position::start();
    for text in [
        "W:W21-32:B1-12",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:B1-12:W21-32",
        " W : W21-32 : B1-12 ",
        "[FEN \"W:W21-32:B1-12\"]",
        "W:W21-32:B1-12.",
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    ] {
        assert_eq!(parse_position(text).as_ref(), Ok(&start), "{text}");
    }
    // Algebraic squares and kings: a1 = 29, c3 = 22, h8 = 4.
    let position = parse_position("B:Wa1,Kc3:BKh8").expect("algebraic FEN");
    assert_eq!(
        to_fen(&position),
        "B:W22,29:B4".replace("W22", "WK22").replace("B4", "BK4")
    );
    assert_eq!(
        to_fen(&parse_position("W:WK1-3:B20").expect("king range")),
        "W:WK1,K2,K3:B20"
    );
    assert_eq!(
        to_fen(&parse_position("W:W:B1").expect("no white pieces")),
        "W:W:B1"
    );
}

#[test]
fn bad_positions_get_precise_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "33 characters"),
        ("X:W21:B1", "side to move"),
        ("W:W21,21:B1", "given twice"),
        ("W:W21:B21", "both a white and a black piece"),
        ("W:W33:B1", "not between 1 and 32"),
        ("W:W0:B1", "not between 1 and 32"),
        ("W:Wa8:B1", "not a dark square"),
        ("W:W2:B9", "would have been promoted"),
        ("W:W21:B30", "would have been promoted"),
        ("W:W12-5:B1", "runs backwards"),
        ("W:X21:B1", "must start with 'W' or 'B'"),
        ("W:W21:B1:W22", "given twice"),
        ("W:Wé:B1", "is not a square"),
        ("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww", "33 characters"),
        ("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx", "square 32 has 'x'"),
        ("Qbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "'W' or 'B'"),
        (
            "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "would have been promoted",
        ),
    ];
    for (text, needle) in cases {
        match parse_position(text) {
            Ok(position) => panic!("'{text}' was accepted as {}", to_fen(&position)),
            Err(error) => assert!(
                error.to_string().contains(needle),
                "'{text}': error '{error}' does not mention '{needle}'"
            ),
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = common::Rng::new(99);
    let alphabet: Vec<char> = "WBwbKk:,-0123456789 eE.\"[]xé".chars().collect();
    for _ in 0..20_000 {
        let length = rng.below(40);
        let text: String = (0..length)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(position) = parse_position(&text) {
            // Whatever is accepted must survive a round trip.
            assert_eq!(
                parse_position(&to_fen(&position)).as_ref(),
                Ok(&position),
                "{text}"
            );
        }
        let legal = movegen::legal_moves(&Position::start());
        let _ = find_hub_move(&legal, &text);
        let _ = pdn::read_move(&Position::start(), &text, HUB);
    }
}

#[test]
fn hub_moves_match_by_from_to_and_captured_set() {
    let position = parse_position("W:WK22:B9,10,17,18").expect("valid");
    let legal = movegen::legal_moves(&position);
    let mv = find_hub_move(&legal, "22x22x18x9x17x10").expect("scrambled captured squares");
    assert_eq!(mv.to_string(), "22x22x9x10x17x18");
    assert!(
        find_hub_move(&legal, "22x22x9x10x17").is_err(),
        "incomplete captured set"
    );
    assert!(
        find_hub_move(&legal, "22x22x9x9x10x17x18").is_err(),
        "square listed twice"
    );
    // Only one legal move goes from 22 to 22, so from and to alone name it.
    assert_eq!(
        find_hub_move(&legal, "22x22").map(|m| m.to_string()),
        Ok("22x22x9x10x17x18".into())
    );
    let error = find_hub_move(&legal, "22-18").expect_err("quiet move while capture is due");
    assert!(error.to_string().contains("illegal"), "{error}");
    // A capture written with only from and to is accepted when unambiguous.
    let single = parse_position("W:W22,31:B18").expect("valid");
    let legal = movegen::legal_moves(&single);
    assert_eq!(
        find_hub_move(&legal, "22x15").map(|m| m.to_string()),
        Ok("22x15x18".into())
    );
}

#[test]
fn pdn_moves_add_landing_squares_only_when_needed() {
    let start = Position::start();
    let legal = movegen::legal_moves(&start);
    let mv = find_hub_move(&legal, "22-18").expect("legal");
    assert_eq!(pdn::write_move(&start, &mv, HUB), "22-18");
    assert_eq!(pdn::read_move(&start, "22-18", HUB), Ok(mv));
    assert_eq!(pdn::write_move(&start, &mv, ALGEBRAIC), "c3-d4");
    assert_eq!(pdn::read_move(&start, "c3-d4", ALGEBRAIC), Ok(mv));
    // Numbers in an algebraic file are read in the Hub numbering; in an N0 file, from a1.
    assert_eq!(pdn::read_move(&start, "22-18", ALGEBRAIC), Ok(mv));
    let a1 = SquareNotation::A1Numbers;
    assert_eq!(pdn::write_move(&start, &mv, a1), "10-14");
    assert_eq!(pdn::read_move(&start, "10-14", a1), Ok(mv));
    assert!(pdn::read_move(&start, "22-18", a1).is_err());

    let single = parse_position("W:W30:B1,18,26").expect("valid");
    let mv = movegen::legal_moves(&single)[0];
    assert_eq!(pdn::write_move(&single, &mv, HUB), "30x14");
    assert_eq!(pdn::read_move(&single, "30x14", HUB), Ok(mv));

    // The king on 22 can end on 22 by going round either way; from 22 to 22 there is one move,
    // but 22x25 and 22x29 are reached only one way round, so from/to suffices everywhere here.
    let king = parse_position("W:WK22:B9,10,17,18").expect("valid");
    for mv in movegen::legal_moves(&king) {
        let text = pdn::write_move(&king, &mv, HUB);
        assert_eq!(pdn::read_move(&king, &text, HUB), Ok(mv), "{text}");
    }

    // Two captures from 20 to 31 with different captured sets (found by a random search) need
    // their landing squares written out; both must read back to themselves.
    let ambiguous = parse_position("W:WK20,23:B5,9,10,16,K19,K26,28").expect("valid");
    let moves = movegen::legal_moves(&ambiguous);
    let twins: Vec<_> = moves
        .iter()
        .filter(|m| m.from.number() == 20 && m.to.number() == 31)
        .collect();
    assert_eq!(twins.len(), 2, "{moves:?}");
    for mv in twins {
        for notation in SquareNotation::ALL {
            let text = pdn::write_move(&ambiguous, mv, notation);
            assert!(
                text.matches('x').count() > 1,
                "{text} needs landing squares"
            );
            assert_eq!(
                pdn::read_move(&ambiguous, &text, notation).as_ref(),
                Ok(mv),
                "{text}"
            );
        }
    }
    assert!(
        pdn::read_move(&ambiguous, "20x31", HUB).is_err(),
        "from and to alone are ambiguous"
    );
}

//! Move text from a host: against the legal moves of a position, any text is found or refused,
//! never a panic, and every legal move's own text finds that move again. The first byte picks the
//! position, so capture positions (where several routes and captured sets exist) are covered.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::hub::numbering::MoveNumbering;
use onca::notation::fen::parse_position;
use onca::notation::pdn::read_move;
use onca::notation::squares::SquareNotation;
use onca::rules::movegen::legal_moves;
use onca::rules::moves::{find_hub_move, parse_move_text};

const POSITIONS: [&str; 4] = [
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:WK29,18:B6,7,14,15,22,23",
    "B:W10,11,18,19,26,27:BK1,K5",
    "W:W25,26,27:B22,23,14,15,6,7,K12",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(position) = parse_position(POSITIONS[usize::from(first) % POSITIONS.len()]) else {
        return;
    };
    let legal = legal_moves(&position);
    let text = String::from_utf8_lossy(rest);
    let _ = parse_move_text(&text);
    let _ = find_hub_move(&legal, &text);
    for notation in SquareNotation::ALL {
        let _ = read_move(&position, &text, notation);
    }
    for numbering in [MoveNumbering::Standard, MoveNumbering::Mirrored] {
        let standard = numbering.move_text_to_standard(&text);
        let _ = find_hub_move(&legal, &standard);
    }
    for mv in &legal {
        assert_eq!(find_hub_move(&legal, &mv.hub()).ok(), Some(mv.clone()));
    }
});

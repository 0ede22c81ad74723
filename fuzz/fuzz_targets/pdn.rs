//! PDN files: any bytes are read game by game (each game read or refused), never a panic, and
//! every game read is written back, in each notation, to text that reads as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::game::pdn::{read_games, write_game, PdnReader, SquareNotation};

fuzz_target!(|data: &[u8]| {
    for game in PdnReader::new(data).flatten() {
        for notation in SquareNotation::ALL {
            let written = write_game(&game, notation);
            let again = read_games(&written).expect("our own PDN reads back");
            assert_eq!(again.len(), 1);
            assert_eq!(again[0].start, game.start);
            assert_eq!(again[0].moves, game.moves);
            assert_eq!(again[0].result, game.result);
        }
    }
});

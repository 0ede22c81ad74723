//! PDN files: any text is read or refused, never a panic, and every game read is written back to
//! text that reads as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::game::pdn_file::{read_games, write_game};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(games) = read_games(&text) else {
        return;
    };
    for game in &games {
        let written = write_game(game);
        let again = read_games(&written).expect("our own PDN reads back");
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].start, game.start);
        assert_eq!(again[0].moves, game.moves);
        assert_eq!(again[0].result, game.result);
    }
});

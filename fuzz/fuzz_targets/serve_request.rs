//! The browser board's game requests: any bytes are parsed as the JSON body of `/api/game` and,
//! when they parse, replayed and described (positions, move texts, capture routes, the result),
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onca::serve::game_api::describe;
use onca::serve::wire::GameRequest;

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = serde_json::from_slice::<GameRequest>(data) {
        if let Ok(game) = request.replay() {
            let _ = describe(&game);
        }
    }
});

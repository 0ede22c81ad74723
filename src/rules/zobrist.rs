//! Zobrist hashing keys, generated at compile time from a fixed seed.
//!
//! A position's key is the XOR of one key per (piece kind, square) it holds, plus [`SIDE`] when
//! Black is to move. The keys are fixed forever (a constant seed through SplitMix64), so keys, and
//! everything that depends on them such as `onca bench` node counts, are the same on every machine.

// Keys are indexed by a square's padded bit (`Square::bit`), so no conversion is needed.
use crate::rules::square::BIT_SLOTS;

/// One step of SplitMix64: the next state and its output (also the project's seed mixer).
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn generate() -> ([[u64; BIT_SLOTS]; 4], u64) {
    let mut keys = [[0u64; BIT_SLOTS]; 4];
    let mut state = 0x4F4E_4341_4452_4146; // "ONCADRAF"
    let mut kind = 0;
    while kind < 4 {
        let mut square = 0;
        while square < BIT_SLOTS {
            let (next, value) = splitmix64(state);
            state = next;
            keys[kind][square] = value;
            square += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const TABLES: ([[u64; BIT_SLOTS]; 4], u64) = generate();

/// Keys indexed by piece kind (see [`crate::rules::position::Piece::index`]) and square bit index.
pub const PIECE_SQUARE: [[u64; BIT_SLOTS]; 4] = TABLES.0;
/// Added when Black is to move.
pub const SIDE: u64 = TABLES.1;

//! Helpers shared by the integration tests: a seeded random number generator, position sources
//! and the pydraughts virtualenv's Python.

#![allow(dead_code)]

use onca::rules::bitboard::Bitboard;
use onca::rules::movegen;
use onca::rules::position::{Color, Position};
use onca::rules::square::Square;
use onca::rules::variant::{Brazilian, Rules};

/// xorshift64*: small, fast and fully determined by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in 0..bound (bound > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// Every position of `games` random Brazilian games from the start (each at most `max_plies`
/// long).
pub fn random_game_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    random_game_positions_for::<Brazilian>(seed, games, max_plies)
}

/// [`random_game_positions`] with the games played under the rules `R`.
pub fn random_game_positions_for<R: Rules>(
    seed: u64,
    games: usize,
    max_plies: usize,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::start();
        for _ in 0..max_plies {
            positions.push(position);
            let moves = movegen::legal_moves_for::<R>(&position);
            if moves.is_empty() {
                break;
            }
            position = position.play_for::<R>(&moves[rng.below(moves.len())]);
        }
    }
    positions
}

/// Random legal-looking placements with many kings: 1-7 pieces a side, no man on its own
/// promotion row, either side to move.
pub fn random_sparse_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let squares: Vec<Square> = Square::all().collect();
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        let mut kings = Bitboard::EMPTY;
        for color in [Color::White, Color::Black] {
            let pieces = 1 + rng.below(7);
            for _ in 0..pieces {
                let square = squares[rng.below(squares.len())];
                if (white | black).contains(square) {
                    continue;
                }
                let set = Bitboard::from_square(square);
                let king = rng.below(3) == 0 || color.promotion_row().contains(square);
                match color {
                    Color::White => white |= set,
                    Color::Black => black |= set,
                }
                if king {
                    kings |= set;
                }
            }
        }
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        positions.push(Position::from_parts(white, black, kings, side));
    }
    positions
}

/// The Python of the pydraughts 0.6.7 virtualenv: `ONCA_PYDRAUGHTS_PYTHON`, or else
/// `.venv/pydraughts-0.6.7/bin/python` (which `scripts/test` creates).
pub fn pydraughts_python() -> Option<std::path::PathBuf> {
    if let Ok(path) = std::env::var("ONCA_PYDRAUGHTS_PYTHON") {
        return Some(std::path::PathBuf::from(path));
    }
    let venv = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(".venv/pydraughts-0.6.7/bin/python");
    venv.exists().then_some(venv)
}

/// [`pydraughts_python`], or `None` after saying the test is skipped; fails instead when
/// `ONCA_REQUIRE_ORACLE=1` (set by `scripts/test`, so by CI).
pub fn required_pydraughts_python() -> Option<std::path::PathBuf> {
    let python = pydraughts_python();
    if python.is_none() {
        assert!(
            std::env::var("ONCA_REQUIRE_ORACLE").as_deref() != Ok("1"),
            "ONCA_REQUIRE_ORACLE=1 but no pydraughts venv: run scripts/test"
        );
        eprintln!("SKIPPED: no pydraughts 0.6.7 venv (run scripts/test to create it)");
    }
    python
}

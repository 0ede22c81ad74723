//! The rules of Brazilian draughts, and of Russian draughts beside them, with no engine in them:
//! board geometry ([`square`], [`bitboard`]), the position value and its hash key ([`position`],
//! [`zobrist`]), the move ([`moves`]), the variants ([`variant`]), every rule of movement and
//! capture ([`movegen`]) and [`perft`].
//!
//! The bottom of the house: these modules use only each other and the standard library.

pub mod bitboard;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod square;
pub mod variant;
pub mod zobrist;

//! Text forms of rules values: positions as FEN and Hub strings ([`fen`]) and PDN move text
//! ([`pdn`]).
//!
//! Uses [`crate::rules`] only. Whole games in PDN files live one floor up, in
//! `game::pdn_file`, because they need game records.

pub mod fen;
pub mod pdn;

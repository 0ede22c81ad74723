//! Text forms of rules values: square names in the notations of game files ([`squares`]),
//! positions as FEN and Hub strings ([`fen`]) and PDN move text ([`pdn`]).
//!
//! Uses [`crate::rules`] only. Whole games in PDN files live one floor up, in
//! `game::pdn`, because they need game records.

pub mod fen;
pub mod pdn;
pub mod squares;

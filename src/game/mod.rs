//! Games: the record of a game and the draw rules that decide it ([`record`], [`draw`]), the
//! ballot openings ([`openings`]) and PDN game files ([`pdn_file`]).
//!
//! Uses [`crate::rules`] and [`crate::notation`].

pub mod draw;
pub mod openings;
pub mod pdn_file;
pub mod record;

//! Games: the record of a game and the draw rules that decide it ([`record`], [`draw`]), the
//! ballot openings ([`openings`]) and PDN game files ([`pdn`]).
//!
//! Uses [`crate::rules`] and [`crate::notation`].

pub mod draw;
pub mod openings;
pub mod pdn;
pub mod record;

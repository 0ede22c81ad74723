//! Playing other engines: [`engine`] drives a Hub engine process, [`runner`] referees games
//! between two of them, [`elo`] turns results into Elo and SPRT verdicts, [`pentanomial`] does
//! the same for pairs of games.
//!
//! Uses rules, notation and game; never the search (the engines it runs are separate processes,
//! Onça included).

pub mod elo;
pub mod engine;
pub mod pentanomial;
pub mod runner;

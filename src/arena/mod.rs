//! Playing other engines: [`engine`] drives a Hub engine process, [`schedule`] says who plays
//! whom with which opening, [`runner`] referees the games (with [`adjudication`]), [`elo`] turns
//! results into Elo and SPRT verdicts, [`pentanomial`] does the same for pairs of games, and
//! [`ratings`] rates every engine of a tournament at once.
//!
//! Uses rules, notation and game; never the search (the engines it runs are separate processes,
//! Onça included).

pub mod adjudication;
pub mod elo;
pub mod engine;
pub mod pentanomial;
pub mod ratings;
pub mod runner;
pub mod schedule;

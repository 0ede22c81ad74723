//! The engine side of the Hub protocol: [`reader`] reads lines ([`input`]) and parses them
//! ([`command`]), [`session`] acts on them with its [`params`], [`output`] writes every reply,
//! [`numbering`] maps squares for hosts that number them differently, and [`notice`] decides when
//! to say that a file the host named is of another variant than the game.
//!
//! The only place that knows protocol text. Uses the opening book, the search API and everything
//! below them.

pub mod command;
pub mod input;
pub mod notice;
pub mod numbering;
pub mod output;
pub mod params;
pub mod reader;
pub mod session;

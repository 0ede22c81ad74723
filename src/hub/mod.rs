//! The engine side of the Hub protocol: [`reader`] reads lines ([`input`]) and parses them
//! ([`command`]), [`session`] acts on them with its [`params`], [`output`] writes every reply, and
//! [`numbering`] maps squares for hosts that number them differently.
//!
//! The only place that knows protocol text. Uses the opening book, the search API and everything
//! below them.

pub mod command;
pub mod input;
pub mod numbering;
pub mod output;
pub mod params;
pub mod reader;
pub mod session;

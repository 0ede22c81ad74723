//! `onca serve`: a board in the browser, served by the engine binary.
//!
//! The page (HTML, CSS and JavaScript in `page/`, embedded by [`assets`]) holds the game and asks
//! a small JSON API for everything that needs the rules or the search. The server is stateless
//! between requests: each request carries the game as a start position and the moves played.
//!
//! | module | what it owns |
//! |--------|--------------|
//! | [`wire`] | the JSON shapes of games, moves, positions and scores |
//! | [`guard`] | the error type, the Host check (against DNS rebinding) and the size limits |
//! | [`budget`] | the server's search threads and the searchers (tables) they reuse |
//! | [`game_api`] | `/api/board` and `/api/game`: positions and legal moves |
//! | [`pdn_api`] | `/api/pdn/import` and `/api/pdn/export` |
//! | [`search_api`] | `/api/search`: one search streamed as server-sent events |
//! | [`review_api`] | `/api/review`: the whole-game analysis, streamed |
//! | [`assets`] | the embedded page |
//! | [`app`] | the router, the shared state and the listening loop |
//! | [`shutdown`] | the signals that stop the server |
//!
//! Dependencies run wire/guard/budget -> the four APIs -> app. The searches run on their own
//! threads (the search is synchronous); the HTTP side runs on tokio and only passes messages.
//! Closing the page drops the response stream, which stops its search.

pub mod app;
pub mod assets;
pub mod budget;
pub mod game_api;
pub mod guard;
pub mod pdn_api;
pub mod review_api;
pub mod search_api;
pub mod shutdown;
pub mod wire;

pub use app::{serve, ServeConfig};

//! Onça: a Brazilian draughts engine (8x8 board, international rules, flying kings, majority
//! capture), built on a padded bitboard move generator.
//!
//! The modules are floors of one house; each uses only the floors below it:
//!
//! | floor | module | what it owns |
//! |-------|--------|--------------|
//! | 1 | [`rules`] | squares, bitboards, positions, moves, move generation, perft |
//! | 2 | [`notation`] | square names, FEN and Hub position strings, PDN move text |
//! | 3 | [`game`] | game records, draw rules, ballots, PDN game files |
//! | 4 | [`egtb`] | endgame databases: generation, files, probing |
//! | 5 | [`eval`] | the evaluation, its weights, endgame knowledge, scores |
//! | 6 | [`search`] | the search API, threads, table, ordering, time |
//! | 7 | [`book`] | the opening book: building it with our search, its file, learning from games, choosing moves |
//! | 8 | [`hub`], [`arena`], [`analysis`] | the Hub protocol (engine side); driving other engines in matches; reviewing games with our search |
//! | 9 | [`serve`] | the board in the browser: an HTTP server with a JSON API and an embedded page |
//! | 10 | [`cli`] | the larger subcommands of the command line (`src/main.rs`) |

#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod book;
pub mod cli;
pub mod egtb;
pub mod eval;
pub mod game;
pub mod hub;
pub mod notation;
pub mod rules;
pub mod search;
pub mod serve;

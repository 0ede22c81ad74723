//! Onça: a Brazilian draughts engine (8x8 board, international rules, flying kings, majority
//! capture), built on a padded bitboard move generator.
//!
//! Module map: [`square`] and [`bitboard`] are the board geometry, [`position`] the game state with
//! its Zobrist key ([`zobrist`]), [`movegen`] every rule of movement and capture, [`moves`] the move
//! type and Hub move notation, [`fen`] position text, [`pdn`] PDN move text, [`perft`] the
//! move-generator check, [`game`] a game record and [`draw`] the draw rules. Engine matches:
//! [`hub_client`] drives Hub engines, [`match_runner`] referees games, [`openings`] holds the
//! ballots, [`elo`] the statistics, [`pdn_game`] the game files and [`match_cli`] the command.

pub mod analyze;
pub mod bench;
pub mod bitboard;
pub mod draw;
pub mod elo;
pub mod eval;
pub mod fen;
pub mod game;
pub mod hub;
pub mod hub_client;
pub mod hub_command;
pub mod hub_input;
pub mod hub_numbering;
pub mod hub_output;
pub mod hub_params;
pub mod hub_session;
pub mod limits;
pub mod match_cli;
pub mod match_runner;
pub mod movegen;
pub mod moves;
pub mod openings;
pub mod ordering;
pub mod params;
pub mod pdn;
pub mod pdn_game;
pub mod perft;
pub mod position;
pub mod score;
pub mod search;
pub mod square;
pub mod threads;
pub mod timeman;
pub mod tt;
pub mod worker;
pub mod zobrist;

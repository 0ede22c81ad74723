//! Onça: a Brazilian draughts engine (8x8 board, international rules, flying kings, majority
//! capture), built on a padded bitboard move generator.
//!
//! Module map:
//!
//! * rules: [`square`] and [`bitboard`] (board geometry), [`position`] with its [`zobrist`] key,
//!   [`movegen`] (every rule of movement and capture), [`moves`] (the move and Hub move text),
//!   [`fen`] (position text), [`pdn`] (PDN move text), [`game`] (game records), [`draw`] (draw
//!   rules), [`perft`];
//! * search: [`search`] (the API), [`worker`] (one thread's search), [`threads`] (Lazy SMP),
//!   [`tt`], [`ordering`], [`params`], [`timeman`], [`limits`], [`score`], [`eval`] with its
//!   [`weights`] (built in or read by [`weights_file`]), [`bench`], [`analyze`];
//! * Hub protocol: [`hub`] and its `hub_*` modules;
//! * engine matches: [`hub_client`] (drives Hub engines), [`match_runner`] (referees games),
//!   [`openings`] (ballots), [`elo`] (statistics), [`pdn_game`] (game files), [`match_cli`];
//! * endgame databases: [`egtb`].

pub mod analyze;
pub mod bench;
pub mod bitboard;
pub mod draw;
pub mod egtb;
pub mod elo;
pub mod endgame;
pub mod eval;
pub mod eval_report;
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
pub mod weights;
pub mod weights_file;
pub mod weights_tuned;
pub mod worker;
pub mod zobrist;

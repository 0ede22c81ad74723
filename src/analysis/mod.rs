//! Game analysis with our own search: [`review`] searches every position of a finished game and
//! judges each move by what it gave away.
//!
//! Uses rules, game, eval and search; the command line (`onca analyze --pdn`) turns reviews into
//! annotated PDN, summaries and graphs.

pub mod review;

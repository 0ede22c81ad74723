//! The subcommands of the `onca` command line that need more than a few lines: [`analyze`]
//! (`onca analyze`, `onca bench` output), [`game_analysis`] (`onca analyze --pdn`, with its
//! graphs drawn by [`eval_graph`]), [`match_command`] (`onca match`, printing through
//! [`match_report`]), [`egtb`]
//! (`onca egtb ...`), [`serve`] (`onca serve`), the `--pdn-notation` option they share ([`notation_arg`]) and
//! the stop requests by signal of `onca match` ([`interrupt`]). `src/main.rs` parses the arguments and calls these.
//!
//! The top floor: may use every other module.

pub mod analyze;
pub mod book;
pub mod egtb;
pub mod eval_graph;
pub mod game_analysis;
pub mod interrupt;
pub mod match_command;
pub mod match_report;
pub mod notation_arg;
pub mod serve;

//! The search: [`searcher`] is the API (limits in, reports out, a move back), [`control`] the
//! types it shares with its callers and threads, [`iteration`] the lines an iteration produces
//! and the deepest one the threads share, [`worker`] one thread's alpha-beta search, [`threads`]
//! Lazy SMP, [`thread_memory`] what each thread keeps from one search to the next, [`tt`] the
//! shared transposition table, [`eval_cache`] each thread's cache of static evaluations,
//! [`correction`] its corrections of them (an experiment, off by default), [`prefetch`] the hint
//! that starts their loads early, [`ordering`] move ordering, [`params`] the search switches,
//! [`time`] the time manager, [`limits`] how long to search, and [`bench`](mod@bench) the
//! fixed-depth behaviour checksum.
//!
//! Uses everything below it (rules, notation, game, eval, egtb); never reads input or writes
//! protocol text. Inside, dependencies run control/limits -> time -> iteration -> worker ->
//! threads -> searcher, and ordering/eval_cache/correction -> thread_memory -> worker.
//!
//! The items of [`iteration`], [`eval_cache`], [`correction`], [`prefetch`], [`worker`],
//! [`threads`], [`thread_memory`], [`tt`] and [`ordering`] are crate-private: only the search uses
//! them (the modules stay public for their design notes).

pub mod bench;
pub mod control;
pub mod correction;
pub mod eval_cache;
pub mod iteration;
pub mod limits;
pub mod ordering;
pub mod params;
pub mod prefetch;
pub mod searcher;
pub mod thread_memory;
pub mod threads;
pub mod time;
pub mod tt;
pub mod worker;

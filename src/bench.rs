//! `onca bench`: a fixed-depth search of fixed positions, the behaviour checksum of the search.
//!
//! The positions were taken from self-play games of the engine itself from varied openings
//! (openings, middlegames with kings, endgames). Each is searched to the same depth on a cleared
//! table, so the total node count is identical on every run and machine for one thread; a change
//! in it means the search or evaluation changed.

use crate::fen;
use crate::game::Game;
use crate::limits::Limits;
use crate::search::{SearchControl, SearchSettings, Searcher};
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 13;

/// Bench positions in FEN.
pub const POSITIONS: &[&str] =
    &["W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"];

/// The result for one position.
#[derive(Clone, Debug)]
pub struct PositionResult {
    pub fen: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    pub best: Option<String>,
    pub depth: u32,
}

/// Searches every bench position to `depth` with `threads` threads and a `hash_mb` table, calling
/// `each` after every position.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    mut each: impl FnMut(&PositionResult),
) -> anyhow::Result<Vec<PositionResult>> {
    let mut searcher = Searcher::new(hash_mb);
    let settings = SearchSettings {
        threads,
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut results = Vec::with_capacity(POSITIONS.len());
    for &text in POSITIONS {
        let position = fen::parse_position(text)
            .map_err(|error| anyhow::anyhow!("bench position {text}: {error}"))?;
        let game = Game::new(position);
        searcher.clear();
        let control = SearchControl::new();
        let started = Instant::now();
        let result = searcher.search(&game, &limits, &settings, &control, &mut |_| {});
        let found = PositionResult {
            fen: text,
            nodes: result.nodes,
            elapsed: started.elapsed(),
            best: result.best.map(|mv| mv.to_string()),
            depth: result.depth,
        };
        each(&found);
        results.push(found);
    }
    Ok(results)
}

//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.
//!
//! The last ply is bulk-counted ([`movegen::count_legal`], inlined into the loop over the
//! last-but-one ply), and moves are played without updating the Zobrist key, which perft never
//! reads (`Position::play_unkeyed`). With more than one thread the tree is split two plies below
//! the root and the subtrees are counted on a rayon pool.

use crate::rules::movegen::{self, MoveList};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use rayon::prelude::*;

/// Leaf count of the legal move tree of `depth` plies (duplicate routes merged).
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal(position),
        2 => {
            // Spelled out so that the count inlines into the loop over the moves (a call per
            // child through the general case cost 7% of perft's instructions).
            let mut list = MoveList::new();
            movegen::generate(position, &mut list);
            list.iter()
                .map(|mv| movegen::count_legal(&position.play_unkeyed(mv)))
                .sum()
        }
        _ => {
            let mut list = MoveList::new();
            movegen::generate(position, &mut list);
            list.iter()
                .map(|mv| perft(&position.play_unkeyed(mv), depth - 1))
                .sum()
        }
    }
}

/// The perft count below each root move, in move-generation order, using `threads` threads.
pub fn divide(position: &Position, depth: u32, threads: usize) -> anyhow::Result<Vec<(Move, u64)>> {
    let moves = movegen::legal_moves(position);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let below = depth.saturating_sub(1);
    Ok(pool.install(|| {
        moves
            .iter()
            .map(|mv| (*mv, parallel_perft(&position.play(mv), below)))
            .collect()
    }))
}

/// Perft using `threads` threads.
pub fn perft_threads(position: &Position, depth: u32, threads: usize) -> anyhow::Result<u64> {
    if threads <= 1 {
        return Ok(perft(position, depth));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| parallel_perft(position, depth)))
}

/// Splits the tree two plies down (when deep enough) and counts the subtrees in parallel.
fn parallel_perft(position: &Position, depth: u32) -> u64 {
    if depth < 4 {
        return perft(position, depth);
    }
    let mut subtrees = Vec::new();
    for mv in movegen::legal_moves(position) {
        let child = position.play(&mv);
        for reply in movegen::legal_moves(&child) {
            subtrees.push(child.play(&reply));
        }
    }
    subtrees.par_iter().map(|leaf| perft(leaf, depth - 2)).sum()
}

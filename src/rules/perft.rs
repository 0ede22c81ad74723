//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.
//!
//! The last ply is bulk-counted ([`movegen::count_legal`], inlined into the loop over the
//! last-but-one ply, where quiet moves go straight from the generator to the child positions
//! without a move list; both plies are compiled once per colour, with the side to move a
//! constant), and moves are played without updating the Zobrist key, which perft never
//! reads (`Position::play_unkeyed`). With more than one thread the tree is split two plies below
//! the root and the subtrees are counted on a rayon pool.

use crate::rules::movegen::{self, MoveList};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use rayon::prelude::*;

/// Leaf count of the legal move tree of `depth` plies (duplicate routes merged).
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal(position),
        // The colour is matched here so that each arm's copy of the last two plies has it as a
        // constant.
        2 => match position.side_to_move() {
            Color::White => perft_two(position, Color::White),
            Color::Black => perft_two(position, Color::Black),
        },
        _ => {
            let mut list = MoveList::new();
            movegen::generate(position, &mut list);
            list.iter()
                .map(|mv| perft(&position.play_unkeyed(mv), depth - 1))
                .sum()
        }
    }
}

/// Perft 2 of a position where `us` is to move, spelled out so that the count inlines into the
/// loop over the moves (a call per child through the general case cost 7% of perft's
/// instructions); quiet children are built straight from the move's squares, without a move list.
#[inline(always)]
fn perft_two(position: &Position, us: Color) -> u64 {
    let them = us.opponent();
    let mut captures = MoveList::new();
    if movegen::generate_captures_of(position, us, &mut captures) {
        let mut leaves = 0;
        for mv in captures.iter() {
            leaves += movegen::count_legal_of(&position.play_unkeyed(mv), them);
        }
        leaves
    } else {
        let mut leaves = 0;
        movegen::visit_quiet_children(
            position,
            us,
            #[inline(always)]
            |child| leaves += movegen::count_legal_of(child, them),
        );
        leaves
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    /// Perft the plain way: every move listed and played with its key, every leaf counted one by
    /// one. Shares nothing with the shortcuts above but the move list itself.
    fn listed_leaves(position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        movegen::legal_moves(position)
            .iter()
            .map(|mv| listed_leaves(&position.play(mv), depth - 1))
            .sum()
    }

    /// Men one step from promotion on both sides, with and without kings, so that the quiet
    /// children include promotions and king slides of both colours.
    const POSITIONS: [&str; 5] = [
        "W:W5,7,K29:B26,28,K4",
        "B:W5,7,K29:B26,28,K4",
        "B:WK1,5,9,14:B18,19,27,28",
        "W:W5,6,K30:B27,28,K3",
        "W:W21-32:B1-12",
    ];

    #[test]
    fn quiet_children_are_the_positions_the_quiet_moves_make() {
        fn walk(position: &Position, depth: u32, checked: &mut usize) {
            if !movegen::has_capture(position) {
                let mut visited = Vec::new();
                movegen::visit_quiet_children(position, position.side_to_move(), |child| {
                    visited.push(*child)
                });
                let played: Vec<Position> = movegen::legal_moves(position)
                    .iter()
                    .map(|mv| position.play_unkeyed(mv))
                    .collect();
                assert_eq!(visited, played, "quiet children of {position:?}");
                *checked += visited.len();
            }
            if depth > 0 {
                for mv in movegen::legal_moves(position) {
                    walk(&position.play(&mv), depth - 1, checked);
                }
            }
        }
        let mut checked = 0;
        for fen in POSITIONS {
            walk(&parse_position(fen).expect("valid FEN"), 3, &mut checked);
        }
        assert!(checked > 1000, "only {checked} quiet children checked");
    }

    #[test]
    fn shortcuts_count_what_the_move_list_plays() {
        for fen in POSITIONS {
            let position = parse_position(fen).expect("valid FEN");
            for depth in 1..=5 {
                assert_eq!(
                    perft(&position, depth),
                    listed_leaves(&position, depth),
                    "perft({depth}) of {fen}"
                );
            }
        }
    }
}

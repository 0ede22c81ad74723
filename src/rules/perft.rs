//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.
//!
//! The last ply is bulk-counted ([`movegen::count_legal`], inlined into the loop over the
//! last-but-one ply, where quiet moves go straight from the generator to the child positions
//! without a move list; both plies are compiled once per colour, with the side to move a
//! constant), and moves are played without updating the Zobrist key, which perft never
//! reads (`Position::play_unkeyed`). With more than one thread the tree is split two plies below
//! the root and the subtrees are counted on a rayon pool.
//!
//! The counting functions are compiled once per variant (`_for` forms, the rules a type
//! parameter); the plain ones count Brazilian trees, and the `_in` forms take the variant at run
//! time and choose the compiled copy once, at the root.

use crate::rules::movegen::{self, MoveList};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use rayon::prelude::*;

/// Leaf count of the legal Brazilian move tree of `depth` plies (duplicate routes merged).
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_for::<Brazilian>(position, depth)
}

/// [`perft`] under the rules `R`.
pub fn perft_for<R: Rules>(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal_for::<R>(position),
        // The colour is matched here so that each arm's copy of the last two plies has it as a
        // constant.
        2 => match position.side_to_move() {
            Color::White => perft_two::<R>(position, Color::White),
            Color::Black => perft_two::<R>(position, Color::Black),
        },
        _ => {
            let mut list = MoveList::new();
            movegen::generate_for::<R>(position, &mut list);
            list.iter()
                .map(|mv| perft_for::<R>(&position.play_unkeyed::<R>(mv), depth - 1))
                .sum()
        }
    }
}

/// Perft 2 of a position where `us` is to move, spelled out so that the count inlines into the
/// loop over the moves (a call per child through the general case cost 7% of perft's
/// instructions); quiet children are built straight from the move's squares, without a move list.
#[inline(always)]
fn perft_two<R: Rules>(position: &Position, us: Color) -> u64 {
    let them = us.opponent();
    let mut captures = MoveList::new();
    if movegen::generate_captures_of::<R>(position, us, &mut captures) {
        let mut leaves = 0;
        for mv in captures.iter() {
            leaves += movegen::count_legal_of::<R>(&position.play_unkeyed::<R>(mv), them);
        }
        leaves
    } else {
        let mut leaves = 0;
        movegen::visit_quiet_children(
            position,
            us,
            #[inline(always)]
            |child| leaves += movegen::count_legal_of::<R>(child, them),
        );
        leaves
    }
}

/// The Brazilian perft count below each root move, in move-generation order, using `threads`
/// threads.
pub fn divide(position: &Position, depth: u32, threads: usize) -> anyhow::Result<Vec<(Move, u64)>> {
    divide_for::<Brazilian>(position, depth, threads)
}

/// [`divide`] in the variant chosen at run time.
pub fn divide_in(
    variant: Variant,
    position: &Position,
    depth: u32,
    threads: usize,
) -> anyhow::Result<Vec<(Move, u64)>> {
    match variant {
        Variant::Brazilian => divide_for::<Brazilian>(position, depth, threads),
        Variant::Russian => divide_for::<Russian>(position, depth, threads),
    }
}

/// [`divide`] under the rules `R`.
pub fn divide_for<R: Rules>(
    position: &Position,
    depth: u32,
    threads: usize,
) -> anyhow::Result<Vec<(Move, u64)>> {
    let moves = movegen::legal_moves_for::<R>(position);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let below = depth.saturating_sub(1);
    Ok(pool.install(|| {
        moves
            .iter()
            .map(|mv| (*mv, parallel_perft::<R>(&position.play_for::<R>(mv), below)))
            .collect()
    }))
}

/// Brazilian perft using `threads` threads.
pub fn perft_threads(position: &Position, depth: u32, threads: usize) -> anyhow::Result<u64> {
    perft_threads_for::<Brazilian>(position, depth, threads)
}

/// [`perft_threads`] in the variant chosen at run time.
pub fn perft_threads_in(
    variant: Variant,
    position: &Position,
    depth: u32,
    threads: usize,
) -> anyhow::Result<u64> {
    match variant {
        Variant::Brazilian => perft_threads_for::<Brazilian>(position, depth, threads),
        Variant::Russian => perft_threads_for::<Russian>(position, depth, threads),
    }
}

/// [`perft_threads`] under the rules `R`.
pub fn perft_threads_for<R: Rules>(
    position: &Position,
    depth: u32,
    threads: usize,
) -> anyhow::Result<u64> {
    if threads <= 1 {
        return Ok(perft_for::<R>(position, depth));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| parallel_perft::<R>(position, depth)))
}

/// Splits the tree two plies down (when deep enough) and counts the subtrees in parallel.
fn parallel_perft<R: Rules>(position: &Position, depth: u32) -> u64 {
    if depth < 4 {
        return perft_for::<R>(position, depth);
    }
    let mut subtrees = Vec::new();
    for mv in movegen::legal_moves_for::<R>(position) {
        let child = position.play_for::<R>(&mv);
        for reply in movegen::legal_moves_for::<R>(&child) {
            subtrees.push(child.play_for::<R>(&reply));
        }
    }
    subtrees
        .par_iter()
        .map(|leaf| perft_for::<R>(leaf, depth - 2))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    /// Perft the plain way: every move listed and played with its key, every leaf counted one by
    /// one. Shares nothing with the shortcuts above but the move list itself.
    fn listed_leaves<R: Rules>(position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        movegen::legal_moves_for::<R>(position)
            .iter()
            .map(|mv| listed_leaves::<R>(&position.play_for::<R>(mv), depth - 1))
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
                    .map(|mv| position.play_unkeyed::<Brazilian>(mv))
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
                    listed_leaves::<Brazilian>(&position, depth),
                    "perft({depth}) of {fen}"
                );
                assert_eq!(
                    perft_for::<Russian>(&position, depth),
                    listed_leaves::<Russian>(&position, depth),
                    "Russian perft({depth}) of {fen}"
                );
            }
        }
    }

    #[test]
    fn the_runtime_variant_counts_with_its_own_rules() {
        let start = Position::start();
        assert_eq!(
            perft_threads_in(Variant::Brazilian, &start, 5, 1).ok(),
            Some(7473)
        );
        assert_eq!(
            perft_threads_in(Variant::Russian, &start, 5, 1).ok(),
            Some(7482)
        );
        let rows = divide_in(Variant::Russian, &start, 5, 1).unwrap_or_default();
        assert_eq!(rows.iter().map(|(_, count)| count).sum::<u64>(), 7482);
    }
}

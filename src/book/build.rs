//! Growing a book by best-first ("dropout") expansion: the tree starts at its roots (the start
//! position, the ballots), every expanded position has each legal move scored by a search of the
//! position after it, scores are backed up by minimax, and the next positions to expand are the
//! cheapest leaves, a leaf's cost being its depth plus how much worse than the best move each move
//! on its way is (so good lines grow deep and near-equal alternatives stay in the book).
//!
//! A book is built for one variant: every position's moves are generated, played and searched
//! under its rules, from roots read under them.
//!
//! The build runs in rounds: each round computes the backed-up values and the costs from scratch,
//! expands the cheapest [`Settings::batch`] leaves (their searches in parallel, each on one thread
//! with a freshly cleared table, so the result does not depend on the thread count), and appends
//! them to the state file, closed by a `# round N` line. A rerun with the same settings reads the
//! state file up to its last complete round and goes on from there, so an interrupted build ends
//! as an uninterrupted one would.

use crate::book::file::Entry;
use crate::book::learn::GameRecord;
use crate::eval::score::Score;
use crate::game::record::Game;
use crate::notation::fen;
use crate::rules::bitboard::Bitboard;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::search::control::{SearchControl, SearchSettings};
use crate::search::limits::Limits;
use crate::search::searcher::Searcher;
use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::io::Write;
use std::path::Path;

/// Cost of one ply of depth, in hundredths of a man of score gap.
const PLY_COST: i64 = 10;
/// Moves further than this below the best move (hundredths of a man) are neither expanded nor
/// written to the book: nobody should play them.
pub const WINDOW: i32 = 50;
/// Table size of each build search (MiB): ample for the small node budgets of a book search.
const SEARCH_HASH_MB: usize = 4;

/// How each move is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// Nodes per search.
    Nodes(u64),
    /// Depth per search.
    Depth(u32),
}

/// What a build does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The rules the book's moves follow.
    pub variant: Variant,
    /// Positions to expand in all (the last round may pass it by less than a batch).
    pub positions: usize,
    /// The search of each move.
    pub limit: SearchLimit,
    /// Threads searching moves in parallel.
    pub threads: usize,
    /// Seed of the order among leaves of equal cost.
    pub seed: u64,
    /// Positions expanded per round.
    pub batch: usize,
}

impl Settings {
    /// The line that identifies the settings in the state file (the thread count does not
    /// change the result and is left out; a Brazilian build's line names no variant, as before
    /// there were others, so its earlier state files still resume).
    fn header(&self, roots: &[Position]) -> String {
        let limit = match self.limit {
            SearchLimit::Nodes(nodes) => format!("nodes={nodes}"),
            SearchLimit::Depth(depth) => format!("depth={depth}"),
        };
        let roots_key = roots
            .iter()
            .fold(0u64, |acc, root| acc.rotate_left(7) ^ root.key());
        let variant = match self.variant {
            Variant::Brazilian => String::new(),
            other => format!(" variant={other}"),
        };
        format!(
            "# onca book state v1 {limit} seed={} batch={} roots={}:{roots_key:016x}{variant}",
            self.seed,
            self.batch,
            roots.len()
        )
    }
}

/// One expanded position: each legal move, the key after it and its search score (for the side
/// to move, hundredths of a man).
#[derive(Clone, Debug)]
struct Node {
    children: Vec<(Move, u64, i32)>,
}

/// The tree: the rules its moves follow, expanded positions by key, and every position seen by
/// key (to expand leaves).
#[derive(Default)]
struct Tree {
    variant: Variant,
    expanded: HashMap<u64, Node>,
    positions: HashMap<u64, Position>,
}

impl Tree {
    fn add(&mut self, position: Position, node: Node) {
        let variant = self.variant;
        for &(mv, key, _) in &node.children {
            self.positions
                .entry(key)
                .or_insert_with(|| position.play_in(variant, &mv));
        }
        self.positions.insert(position.key(), position);
        self.expanded.insert(position.key(), node);
    }

    /// Backed-up values of every expanded position reachable from `roots` (side to move's
    /// view); a move into a position already on the path keeps its search score.
    fn values(&self, roots: &[Position]) -> HashMap<u64, i32> {
        let mut values = HashMap::new();
        let mut on_path = HashSet::new();
        for root in roots {
            self.value(root.key(), &mut values, &mut on_path);
        }
        values
    }

    fn value(
        &self,
        key: u64,
        values: &mut HashMap<u64, i32>,
        on_path: &mut HashSet<u64>,
    ) -> Option<i32> {
        if let Some(&value) = values.get(&key) {
            return Some(value);
        }
        let node = self.expanded.get(&key)?;
        on_path.insert(key);
        let mut best = -Score::WIN;
        for &(_, child, searched) in &node.children {
            let score = if on_path.contains(&child) {
                searched
            } else {
                self.value(child, values, on_path).map_or(searched, |v| -v)
            };
            best = best.max(score);
        }
        on_path.remove(&key);
        values.insert(key, best);
        Some(best)
    }

    /// A move's backed-up score in an expanded position.
    fn move_score(values: &HashMap<u64, i32>, child: u64, searched: i32) -> i32 {
        values.get(&child).map_or(searched, |v| -v)
    }

    /// The `count` cheapest leaves (not yet expanded) reachable from `roots` through moves within
    /// [`WINDOW`] of the best, cheapest first.
    fn frontier(
        &self,
        roots: &[Position],
        values: &HashMap<u64, i32>,
        count: usize,
        seed: u64,
    ) -> Vec<u64> {
        let order = |key: u64| super::mix(key ^ seed);
        let mut heap = BinaryHeap::new();
        let mut settled = HashSet::new();
        for root in roots {
            heap.push(std::cmp::Reverse((0i64, order(root.key()), root.key())));
        }
        let mut leaves = Vec::new();
        while let Some(std::cmp::Reverse((cost, _, key))) = heap.pop() {
            if !settled.insert(key) {
                continue;
            }
            let Some(node) = self.expanded.get(&key) else {
                leaves.push(key);
                if leaves.len() == count {
                    break;
                }
                continue;
            };
            let Some(&best) = values.get(&key) else {
                continue;
            };
            for &(_, child, searched) in &node.children {
                let gap = best - Tree::move_score(values, child, searched);
                if gap <= WINDOW && !settled.contains(&child) {
                    let next = cost + PLY_COST + i64::from(gap);
                    heap.push(std::cmp::Reverse((next, order(child), child)));
                }
            }
        }
        leaves
    }

    /// Plies of book below each expanded position (0 for one whose moves are all leaves).
    fn heights(&self) -> HashMap<u64, u16> {
        let mut heights = HashMap::new();
        let mut on_path = HashSet::new();
        for &key in self.expanded.keys() {
            self.height(key, &mut heights, &mut on_path);
        }
        heights
    }

    fn height(
        &self,
        key: u64,
        heights: &mut HashMap<u64, u16>,
        on_path: &mut HashSet<u64>,
    ) -> Option<u16> {
        if let Some(&height) = heights.get(&key) {
            return Some(height);
        }
        let node = self.expanded.get(&key)?;
        on_path.insert(key);
        let mut height = 0u16;
        for &(_, child, _) in &node.children {
            if !on_path.contains(&child) {
                if let Some(below) = self.height(child, heights, on_path) {
                    height = height.max(below.saturating_add(1));
                }
            }
        }
        on_path.remove(&key);
        heights.insert(key, height);
        Some(height)
    }

    /// The book entries: in every expanded position, the moves within [`WINDOW`] of the best,
    /// with their backed-up scores.
    fn entries(&self, roots: &[Position]) -> Vec<Entry> {
        let values = self.values(roots);
        let heights = self.heights();
        let mut entries = Vec::new();
        for (&key, node) in &self.expanded {
            let Some(&best) = values.get(&key) else {
                continue;
            };
            for &(mv, child, searched) in &node.children {
                let score = Tree::move_score(&values, child, searched);
                if best - score <= WINDOW {
                    entries.push(Entry {
                        key,
                        mv,
                        score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                        depth: heights.get(&child).map_or(0, |h| h.saturating_add(1)),
                        record: GameRecord::NONE,
                    });
                }
            }
        }
        entries
    }
}

/// A move in the state file: `from-to` numbers and the captured squares as hex bits.
fn move_text(mv: &Move) -> String {
    let captured = mv
        .captured
        .squares()
        .fold(0u32, |bits, square| bits | 1 << (square.number() - 1));
    format!("{}-{}-{captured:x}", mv.from.number(), mv.to.number())
}

fn parse_move(text: &str) -> Option<Move> {
    let mut fields = text.split('-');
    let square = |field: Option<&str>| Square::from_number(field?.parse().ok()?);
    let from = square(fields.next())?;
    let to = square(fields.next())?;
    let bits = u32::from_str_radix(fields.next()?, 16).ok()?;
    let captured: Bitboard = (1..=32)
        .filter(|n| bits & (1 << (n - 1)) != 0)
        .filter_map(Square::from_number)
        .collect();
    Some(Move { from, to, captured })
}

/// One state-file line: the position, then `move:score` for each legal move.
fn state_line(position: &Position, node: &Node) -> String {
    let moves: Vec<String> = node
        .children
        .iter()
        .map(|(mv, _, score)| format!("{}:{score}", move_text(mv)))
        .collect();
    format!("{};{}", fen::to_hub_position(position), moves.join(" "))
}

fn parse_state_line(variant: Variant, line: &str) -> Option<(Position, Node)> {
    let (position, moves) = line.split_once(';')?;
    let position = fen::parse_position(position).ok()?;
    let legal = movegen::legal_moves_in(variant, &position);
    let mut children = Vec::new();
    for field in moves.split_whitespace() {
        let (mv, score) = field.split_once(':')?;
        let mv = parse_move(mv)?;
        if !legal.contains(&mv) {
            return None;
        }
        children.push((
            mv,
            position.play_in(variant, &mv).key(),
            score.parse().ok()?,
        ));
    }
    (children.len() == legal.len()).then_some((position, Node { children }))
}

/// Scores every legal move of `position` under `variant`'s rules by a search of the position
/// after it.
fn expand(
    variant: Variant,
    position: &Position,
    limit: SearchLimit,
    searcher: &mut Searcher,
) -> Node {
    let control = SearchControl::new();
    let settings = SearchSettings {
        threads: 1,
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    let limits = match limit {
        SearchLimit::Nodes(nodes) => Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        SearchLimit::Depth(depth) => Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    };
    let children = movegen::legal_moves_in(variant, position)
        .into_iter()
        .map(|mv| {
            let after = position.play_in(variant, &mv);
            let score = if movegen::legal_moves_in(variant, &after).is_empty() {
                Score::WIN
            } else {
                searcher.clear();
                let game = Game::in_variant(variant, after);
                let result = searcher.search(&game, &limits, &settings, &control, &mut |_| {});
                -result.score.0
            };
            (mv, after.key(), score)
        })
        .collect();
    Node { children }
}

/// Builds (or resumes) a book of `settings.variant` from `roots`, keeping the state in `state_path`; `progress` hears
/// the positions expanded so far after each round. Returns the book's entries.
pub fn build(
    roots: &[Position],
    settings: &Settings,
    state_path: &Path,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Entry>> {
    if roots.is_empty() {
        bail!("no root positions to build a book from");
    }
    let header = settings.header(roots);
    let mut tree = Tree {
        variant: settings.variant,
        ..Tree::default()
    };
    match std::fs::read_to_string(state_path) {
        Ok(text) => {
            let mut lines = text.lines();
            if lines.next() != Some(header.as_str()) {
                bail!(
                    "{} was written by a build with other settings (delete it to start afresh)",
                    state_path.display()
                );
            }
            // Only complete rounds count: a round cut short (the build was killed while writing
            // it) is searched again.
            let mut round = Vec::new();
            for line in lines {
                if line.starts_with("# round ") {
                    for (position, node) in round.drain(..) {
                        tree.add(position, node);
                    }
                } else if let Some(entry) = parse_state_line(settings.variant, line) {
                    round.push(entry);
                }
            }
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(state_path, format!("{header}\n"))
                .with_context(|| format!("cannot write {}", state_path.display()))?;
        }
        Err(error) => return Err(anyhow!("cannot read {}: {error}", state_path.display())),
    }
    for root in roots {
        tree.positions.insert(root.key(), *root);
    }
    let mut state = std::fs::OpenOptions::new()
        .append(true)
        .open(state_path)
        .with_context(|| format!("cannot append to {}", state_path.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()?;
    progress(tree.expanded.len());
    while tree.expanded.len() < settings.positions {
        let values = tree.values(roots);
        // Whole rounds only, even past `positions`: a build stopped at N and resumed to M then
        // ends where a build straight to M does.
        let leaves: Vec<Position> = tree
            .frontier(roots, &values, settings.batch.max(1), settings.seed)
            .into_iter()
            .filter_map(|key| tree.positions.get(&key).copied())
            .collect();
        if leaves.is_empty() {
            break;
        }
        let (limit, variant) = (settings.limit, settings.variant);
        let nodes: Vec<Node> = pool.install(|| {
            leaves
                .par_iter()
                .map_init(
                    || Searcher::new(SEARCH_HASH_MB),
                    |searcher, leaf| expand(variant, leaf, limit, searcher),
                )
                .collect()
        });
        let mut text = String::new();
        for (leaf, node) in leaves.iter().zip(nodes) {
            text.push_str(&state_line(leaf, &node));
            text.push('\n');
            tree.add(*leaf, node);
        }
        text.push_str(&format!("# round {}\n", tree.expanded.len()));
        state
            .write_all(text.as_bytes())
            .and_then(|()| state.flush())
            .with_context(|| format!("cannot append to {}", state_path.display()))?;
        progress(tree.expanded.len());
    }
    Ok(tree.entries(roots))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_lines_round_trip() {
        let position = fen::parse_position("W:W22,27:B18,11").expect("valid");
        let node = Node {
            children: movegen::legal_moves(&position)
                .into_iter()
                .map(|mv| (mv, position.play(&mv).key(), -35))
                .collect(),
        };
        let line = state_line(&position, &node);
        let (read, read_node) = parse_state_line(Variant::Brazilian, &line).expect("parses");
        assert_eq!(read, position);
        assert_eq!(read_node.children, node.children);
        // A torn line is not taken.
        assert!(parse_state_line(Variant::Brazilian, &line[..line.len() - 4]).is_none());
    }

    #[test]
    fn state_lines_are_read_under_the_build_s_rules() {
        // 22x13 (one piece) is legal only in Russian: a Russian line has it, and a Brazilian
        // build does not take the line.
        let position = fen::parse_position("W:W22:B18,17,10").expect("valid");
        let russian = movegen::legal_moves_in(Variant::Russian, &position);
        assert!(russian.len() > movegen::legal_moves_in(Variant::Brazilian, &position).len());
        let node = Node {
            children: russian
                .iter()
                .map(|&mv| (mv, position.play_in(Variant::Russian, &mv).key(), 10))
                .collect(),
        };
        let line = state_line(&position, &node);
        let (_, read) = parse_state_line(Variant::Russian, &line).expect("parses");
        assert_eq!(read.children, node.children);
        assert!(parse_state_line(Variant::Brazilian, &line).is_none());
    }

    #[test]
    fn the_state_header_names_a_variant_other_than_brazilian() {
        let settings = Settings {
            variant: Variant::Brazilian,
            positions: 10,
            limit: SearchLimit::Depth(2),
            threads: 1,
            seed: 1,
            batch: 4,
        };
        let roots = [Position::start()];
        let brazilian = settings.header(&roots);
        assert!(!brazilian.contains("variant"), "{brazilian}");
        let russian = Settings {
            variant: Variant::Russian,
            ..settings
        }
        .header(&roots);
        assert_eq!(russian, format!("{brazilian} variant=russian"));
    }
}

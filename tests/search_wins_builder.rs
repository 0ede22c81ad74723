//! Builds `tests/data/forced_wins.txt`, the forced-win suite (run on demand:
//! `scripts/build-win-suite`).
//!
//! Candidate positions are drawn at random (fixed seed) with few pieces; a quick engine search
//! proposes those it believes won in N plies. Each candidate is then solved by an
//! exhaustive AND-OR search without any pruning beyond alpha-beta's own early exit: no
//! transposition table, no reductions, no evaluation. It finds the shortest forced win of the side
//! to move (the opponent is left without a legal move) up to `MAX_PLIES`, with the draw rules on
//! (a repetition inside the line or a move-count draw is not a win), then tries every first move
//! and records exactly those that still force a win within the same number of plies. Positions are
//! kept when the win takes at least 5 plies and at most two of at least three legal moves win.

use onca::game::draw::{self, DrawCounters, DrawRules};
use onca::notation::fen::to_fen;
use onca::rules::bitboard::Bitboard;
use onca::rules::movegen::{generate, MoveList};
use onca::rules::position::{Color, Position};
use onca::rules::square::Square;

const MAX_PLIES: u32 = 15;
const NODE_BUDGET: u64 = 5_000_000;

struct Prover {
    nodes: u64,
    path: Vec<(u64, u32)>,
    rules: DrawRules,
}

impl Prover {
    fn new() -> Prover {
        Prover {
            nodes: 0,
            path: Vec::new(),
            rules: DrawRules::default(),
        }
    }

    fn over_budget(&self) -> bool {
        self.nodes > NODE_BUDGET
    }

    /// Whether reaching `child` by `mv` from `before` is a draw by the rules.
    fn enter(
        &mut self,
        before: &Position,
        mv: &onca::rules::moves::Move,
        child: &Position,
        counters: DrawCounters,
    ) -> (bool, DrawCounters) {
        let next = counters.after(before, mv, child);
        let run = if draw::is_reversible(before, mv) {
            self.path.last().map_or(0, |&(_, run)| run) + 1
        } else {
            0
        };
        let key = child.key();
        let n = self.path.len();
        let mut repeated = false;
        let mut back = 1;
        while back <= run as usize && back <= n {
            if self.path[n - back].0 == key {
                repeated = true;
                break;
            }
            back += 1;
        }
        self.path.push((key, run));
        let drawn = repeated || draw::move_count_draw(&self.rules, child, &next).is_some();
        (drawn, next)
    }

    /// The side to move forces a win within `plies` plies.
    fn wins(&mut self, position: &Position, counters: DrawCounters, plies: u32) -> bool {
        self.nodes += 1;
        if plies == 0 || self.over_budget() {
            return false;
        }
        let mut list = MoveList::new();
        generate(position, &mut list);
        for mv in list.iter() {
            let child = position.play(mv);
            let (drawn, next) = self.enter(position, mv, &child, counters);
            let won = !drawn && self.loses(&child, next, plies - 1);
            self.path.pop();
            if won {
                return true;
            }
        }
        false
    }

    /// The side to move has lost: no legal move now, or every move lets the opponent force a win
    /// within `plies` plies.
    fn loses(&mut self, position: &Position, counters: DrawCounters, plies: u32) -> bool {
        self.nodes += 1;
        let mut list = MoveList::new();
        generate(position, &mut list);
        if list.is_empty() {
            return true;
        }
        if plies == 0 || self.over_budget() {
            return false;
        }
        for mv in list.iter() {
            let child = position.play(mv);
            let (drawn, next) = self.enter(position, mv, &child, counters);
            let held = drawn || !self.wins(&child, next, plies - 1);
            self.path.pop();
            if held {
                return false;
            }
        }
        true
    }
}

struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random position: `white` and `black` pieces, each a king with probability `king_percent`.
fn random_position(random: &mut Random, white: u32, black: u32, king_percent: u64) -> Position {
    let mut occupied = Bitboard::EMPTY;
    let mut sets = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    for (index, count) in [white, black].into_iter().enumerate() {
        let mut placed = 0;
        while placed < count {
            let number = 1 + random.below(32) as u32;
            let Some(square) = Square::from_number(number) else {
                continue;
            };
            if occupied.contains(square) {
                continue;
            }
            let king = random.below(100) < king_percent;
            // Men never stand on their own promotion row.
            if !king && ((index == 0 && number <= 4) || (index == 1 && number >= 29)) {
                continue;
            }
            let bit = Bitboard::from_square(square);
            occupied |= bit;
            sets[index] |= bit;
            if king {
                kings |= bit;
            }
            placed += 1;
        }
    }
    Position::from_parts(sets[0], sets[1], kings, Color::White)
}

/// The win distance a quick engine search claims, if it claims a win.
fn engine_claim(
    searcher: &mut onca::search::searcher::Searcher,
    position: &Position,
) -> Option<u32> {
    searcher.clear();
    let limits = onca::search::limits::Limits {
        depth: Some(MAX_PLIES + 3),
        nodes: Some(300_000),
        ..onca::search::limits::Limits::default()
    };
    let settings = onca::search::control::SearchSettings {
        instant_single_reply: false,
        ..onca::search::control::SearchSettings::default()
    };
    let result = searcher.search(
        &onca::game::record::Game::new(*position),
        &limits,
        &settings,
        &onca::search::control::SearchControl::new(),
        &mut |_| {},
    );
    match result.score.plies_to_win() {
        Some(plies) if plies > 0 => Some(plies as u32),
        _ => None,
    }
}

#[test]
#[ignore]
fn build_win_suite() {
    let wanted_with_kings = 18;
    let wanted_men_only = 26;
    let mut random = Random(0x0005_EED0_F0CA);
    let mut with_kings = 0;
    let mut men_only = 0;
    let mut tries = 0;
    let mut searcher = onca::search::searcher::Searcher::new(4);
    println!("# Forced-win suite for tests/search_wins.rs. One position per line:");
    println!("# FEN | winning first moves (all of them) | plies to the win | kind");
    for line in [
        "# Built by scripts/build-win-suite (tests/search_wins_builder.rs). A quick engine search",
        "# only proposed each candidate and its N; the win was then proved by an exhaustive AND-OR",
        "# search (alpha-beta early exit only: no table, no reductions, no evaluation) with the draw",
        "# rules on: a forced win in N plies exists and none in N-2. Every first move was then tried",
        "# at N plies; the listed moves are exactly those that force the win.",
    ] {
        println!("{line}");
    }
    while (with_kings < wanted_with_kings || men_only < wanted_men_only) && tries < 200_000 {
        tries += 1;
        let kings_wanted =
            with_kings < wanted_with_kings && (men_only >= wanted_men_only || tries % 2 == 0);
        let white = 2 + random.below(3) as u32;
        let black = 1 + random.below(3) as u32;
        let king_percent = if kings_wanted { 30 } else { 0 };
        let position = random_position(&mut random, white, black, king_percent);
        let has_kings = position.all_kings().is_not_empty();
        if has_kings != kings_wanted {
            continue;
        }
        let mut list = MoveList::new();
        generate(&position, &mut list);
        if list.len() < 3 {
            continue;
        }
        // The engine only proposes candidates (a quick search that claims a short win); the proof
        // below does not trust it.
        let claimed = engine_claim(&mut searcher, &position);
        let Some(plies) = claimed else { continue };
        if !(5..=MAX_PLIES).contains(&plies) {
            continue;
        }
        let mut prover = Prover::new();
        prover.path.push((position.key(), 0));
        let counters = DrawCounters::default();
        prover.nodes = 0;
        if !prover.wins(&position, counters, plies) || prover.over_budget() {
            continue;
        }
        prover.nodes = 0;
        let shorter = prover.wins(&position, counters, plies - 2);
        if shorter || prover.over_budget() {
            continue;
        }
        let mut winners = Vec::new();
        let mut complete = true;
        for mv in list.iter() {
            prover.nodes = 0;
            let child = position.play(mv);
            let (drawn, next) = prover.enter(&position, mv, &child, counters);
            let won = !drawn && prover.loses(&child, next, plies - 1);
            prover.path.pop();
            if prover.over_budget() {
                complete = false;
            }
            if won {
                winners.push(mv.to_string());
            }
        }
        if !complete || winners.is_empty() || winners.len() > 2 {
            continue;
        }
        let kind = if has_kings { "kings" } else { "men" };
        if has_kings {
            with_kings += 1;
        } else {
            men_only += 1;
        }
        println!(
            "{} | {} | {} | {}",
            to_fen(&position),
            winners.join(" "),
            plies,
            kind
        );
    }
}

//! A game record: the variant, the start position, the moves played, and what the rules say
//! about the result.
//!
//! The variant is fixed when the game is made; every move is played and every result decided under
//! its rules (a move at a time, so the variant is a runtime value here; the search takes it from
//! the game once and runs its own compiled copy, see [`crate::search::searcher`]).
//!
//! Keeps every position and the draw-rule counters of each, so that repetition and the move-count
//! rules of [`crate::game::draw`] can be decided, and hands the search the keys it needs to see
//! repetitions of earlier game positions.

use crate::game::draw::{self, DrawCounters, DrawReason, DrawRules};
use crate::rules::movegen;
use crate::rules::moves::{find_hub_move, Move, MoveTextError};
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The given colour wins: the side to move has no legal move (no pieces or all blocked) and
    /// loses.
    Win(Color),
    /// The rules draw the game, for the given reason.
    Draw(DrawReason),
}

/// One position of the game with its counters.
#[derive(Clone, Copy, Debug)]
struct Entry {
    position: Position,
    counters: DrawCounters,
    /// Whether the move that led here was reversible (a king move without capture).
    reached_reversibly: bool,
}

/// A game from some start position.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    entries: Vec<Entry>,
    moves: Vec<Move>,
}

impl Game {
    /// A Brazilian game starting at `start` with no known history.
    pub fn new(start: Position) -> Game {
        Game::in_variant(Variant::Brazilian, start)
    }

    /// A game of `variant` starting at `start` with no known history.
    pub fn in_variant(variant: Variant, start: Position) -> Game {
        let entry = Entry {
            position: start,
            counters: DrawCounters::default(),
            reached_reversibly: false,
        };
        Game {
            variant,
            entries: vec![entry],
            moves: Vec::new(),
        }
    }

    /// The variant whose rules the game is played by.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        movegen::legal_moves_in(self.variant, self.current())
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.entries[0].position
    }

    /// The position after the last move.
    pub fn current(&self) -> &Position {
        &self.last().position
    }

    fn last(&self) -> &Entry {
        // `entries` is never empty: `new` puts the start position in.
        &self.entries[self.entries.len() - 1]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Draw-rule counters of the current position.
    pub fn counters(&self) -> DrawCounters {
        self.last().counters
    }

    /// Plays a move that the caller knows to be legal.
    pub fn play(&mut self, mv: Move) {
        let last = *self.last();
        let position = last.position.play_in(self.variant, &mv);
        let entry = Entry {
            position,
            counters: last.counters.after(&last.position, &mv, &position),
            reached_reversibly: draw::is_reversible(&last.position, &mv),
        };
        self.entries.push(entry);
        self.moves.push(mv);
    }

    /// Plays a move given in Hub notation, refusing illegal ones.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveTextError> {
        let legal = self.legal_moves();
        let mv = find_hub_move(&legal, text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Keys of the earlier positions that the current one could repeat, most recent first: those
    /// since the last irreversible move (captures and man moves cannot be undone).
    pub fn repeatable_keys(&self) -> Vec<u64> {
        let mut keys = Vec::new();
        for index in (0..self.entries.len()).rev() {
            let entry = &self.entries[index];
            if index + 1 < self.entries.len() {
                keys.push(entry.position.key());
            }
            if !entry.reached_reversibly {
                break;
            }
        }
        keys
    }

    /// How often the current position has occurred, counting itself.
    pub fn occurrences(&self) -> usize {
        let key = self.current().key();
        1 + self.repeatable_keys().iter().filter(|&&k| k == key).count()
    }

    /// The result if the game is over under `rules`.
    pub fn outcome(&self, rules: &DrawRules) -> Option<Outcome> {
        let position = self.current();
        if movegen::legal_moves_in(self.variant, position).is_empty() {
            return Some(Outcome::Win(position.side_to_move().opponent()));
        }
        if rules.repetition && self.occurrences() >= 3 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        draw::move_count_draw_in(self.variant, rules, position, &self.counters()).map(Outcome::Draw)
    }
}

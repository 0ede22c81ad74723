//! What the caller allows a search: depth, nodes, a fixed time per move or a game clock.
//!
//! A [`Limits`] with nothing set searches until stopped, exactly like `infinite`.

use std::time::{Duration, Instant};

/// A game clock for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Time left on our clock.
    pub remaining: Duration,
    /// Time added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// Search limits. Several may be set; the first one reached ends the search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Node budget (summed over all threads).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Game clock: the time manager decides how long to think.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// When the host started this move's time: the moment its `go` was read. The deadlines count
    /// from it, so a search thread that the operating system starts late (a loaded machine) still
    /// answers in time. `None`: from the moment the search starts.
    pub clock_start: Option<Instant>,
}

impl Limits {
    /// Whether the search only ends when stopped from outside.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.move_time.is_none()
                && self.clock.is_none())
    }

    /// Whether a clock or fixed move time applies (these are suspended while pondering).
    pub fn is_timed(&self) -> bool {
        !self.infinite && (self.move_time.is_some() || self.clock.is_some())
    }
}

//! Time management: a soft deadline checked between iterations and a hard deadline polled during
//! the search.
//!
//! With a game clock the ideal time per move is the time of the next `moves_to_go` moves (the
//! clock plus their increments, less one move overhead each) shared equally; `moves_to_go` is the
//! host's, or [`SearchParams::time_moves_to_go`] when the clock does not say. The soft deadline
//! is [`SearchParams::time_soft_percent`] of it (all of it by default), stretched or shrunk by how
//! the search is going (best move stable: stop early; best move changing or score dropping: think
//! longer). The hard deadline is a few ideal times but never more than a fraction of what is left
//! on the clock. A fixed move time is one hard deadline, less the overhead, but the overhead takes
//! at most a tenth of it ([`FIXED_TIME_MAX_OVERHEAD_DIVISOR`]): a host that fixes the time per
//! move is local or does not flag, and answering takes a millisecond, so the default 50 ms kept
//! back from a 0.1 s move would throw half of its thinking away. While pondering no deadline
//! applies; after a ponder hit the deadlines count from the hit.

use crate::search::control::SearchControl;
use crate::search::limits::Limits;
use crate::search::params::SearchParams;
use std::time::{Duration, Instant};

/// The hard deadline as a multiple of the ideal time.
const HARD_MULTIPLE: f64 = 4.0;
/// Never plan to use more than this fraction of the remaining time on one move.
const MAX_FRACTION_OF_REMAINING: f64 = 0.4;
/// A fixed move time keeps back at most this fraction (1/n) of itself as overhead.
pub const FIXED_TIME_MAX_OVERHEAD_DIVISOR: u32 = 10;
/// The shortest deadline ever set, so that a search always gets a first iteration in.
const MIN_DEADLINE: Duration = Duration::from_millis(1);

/// How the last iterations went, for the soft deadline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Consecutive completed iterations with the same best move.
    pub stable_iterations: u32,
    /// How much the score fell since the previous iteration (units, 0 if it rose).
    pub score_drop: i32,
}

/// Deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Plans the deadlines for a search started at `start`, with the clock constants of `params`.
    pub fn new(
        limits: &Limits,
        move_overhead: Duration,
        start: Instant,
        params: &SearchParams,
    ) -> TimeManager {
        let default_moves_to_go = params.time_moves_to_go.max(1);
        let mut soft = None;
        let mut hard = None;
        if !limits.infinite {
            if let Some(clock) = limits.clock {
                let usable = clock.remaining.saturating_sub(move_overhead);
                let moves_to_go = clock
                    .moves_to_go
                    .unwrap_or(default_moves_to_go)
                    .clamp(1, default_moves_to_go * 2);
                // Every move of the horizon loses its overhead (the host's and the link's delay
                // happen per move) and gains its increment: planning with both keeps a clock
                // that runs low from draining by the delays alone.
                let horizon = (clock.remaining + clock.increment * (moves_to_go - 1))
                    .saturating_sub(move_overhead * (moves_to_go + 1));
                let ideal = horizon / moves_to_go;
                let ceiling = if moves_to_go == 1 {
                    usable.mul_f64(0.9)
                } else {
                    usable.mul_f64(MAX_FRACTION_OF_REMAINING)
                };
                let hard_deadline = ideal.mul_f64(HARD_MULTIPLE).min(ceiling);
                let soft_fraction = f64::from(params.time_soft_percent) / 100.0;
                soft = Some(ideal.mul_f64(soft_fraction).min(hard_deadline));
                hard = Some(hard_deadline.max(MIN_DEADLINE));
            }
            if let Some(move_time) = limits.move_time {
                let fixed = move_time
                    .saturating_sub(move_overhead.min(move_time / FIXED_TIME_MAX_OVERHEAD_DIVISOR))
                    .max(MIN_DEADLINE);
                hard = Some(hard.map_or(fixed, |h: Duration| h.min(fixed)));
            }
        }
        TimeManager { start, soft, hard }
    }

    /// The instant the clock counts from: the search start, or the ponder hit if later.
    fn origin(&self, control: &SearchControl) -> Instant {
        match control.ponder_hit_time() {
            Some(hit) if hit > self.start => hit,
            _ => self.start,
        }
    }

    /// Whether any deadline exists.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Whether the hard deadline has passed (never while pondering).
    #[inline]
    pub fn hard_expired(&self, control: &SearchControl) -> bool {
        match self.hard {
            Some(hard) if !control.is_pondering() => self.origin(control).elapsed() >= hard,
            _ => false,
        }
    }

    /// Whether to stop before starting another iteration.
    pub fn soft_expired(&self, control: &SearchControl, progress: Progress) -> bool {
        if control.is_pondering() {
            return false;
        }
        let Some(soft) = self.soft else {
            return false;
        };
        let mut factor = match progress.stable_iterations {
            0 => 1.6,
            1 => 1.2,
            2 | 3 => 1.0,
            _ => 0.7,
        };
        if progress.score_drop > 30 {
            factor *= 1.5;
        } else if progress.score_drop > 10 {
            factor *= 1.2;
        }
        let target = soft.mul_f64(factor);
        let target = self.hard.map_or(target, |hard| target.min(hard));
        self.origin(control).elapsed() >= target
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    #[test]
    fn deadlines_respect_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::from_secs(1),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let manager = TimeManager::new(
            &limits,
            Duration::from_millis(100),
            Instant::now(),
            &SearchParams::default(),
        );
        let hard = manager.hard.expect("clock gives a hard deadline");
        let soft = manager.soft.expect("clock gives a soft deadline");
        assert!(soft <= hard);
        assert!(hard <= Duration::from_secs(24));
        assert!(soft >= Duration::from_millis(500));
        let untimed = TimeManager::new(
            &Limits::default(),
            Duration::ZERO,
            Instant::now(),
            &SearchParams::default(),
        );
        assert!(!untimed.is_timed());
    }

    #[test]
    fn a_low_clock_stops_draining_by_the_overhead() {
        // 0.25 s left plus this move's 0.05 s increment, 50 ms lost per move on the way: the
        // longest this move may take, with its overhead, stays within two increments (planning
        // with one overhead for the whole clock allowed 0.15 s, and a clock this low ran out).
        let increment = Duration::from_millis(50);
        let overhead = Duration::from_millis(50);
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(300),
                increment,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let manager = TimeManager::new(&limits, overhead, Instant::now(), &SearchParams::default());
        let hard = manager.hard.expect("clock gives a hard deadline");
        assert!(hard + overhead <= increment * 2, "hard deadline {hard:?}");
        assert!(hard >= MIN_DEADLINE);
    }

    #[test]
    fn a_fixed_move_time_keeps_back_at_most_a_tenth_of_itself() {
        let plan = |move_time_ms: u64, overhead_ms: u64| {
            let limits = Limits {
                move_time: Some(Duration::from_millis(move_time_ms)),
                ..Limits::default()
            };
            let manager = TimeManager::new(
                &limits,
                Duration::from_millis(overhead_ms),
                Instant::now(),
                &SearchParams::default(),
            );
            assert!(manager.soft.is_none(), "a fixed time has no soft deadline");
            manager.hard.expect("a fixed time is a hard deadline")
        };
        assert_eq!(plan(100, 50), Duration::from_millis(90));
        assert_eq!(plan(2000, 50), Duration::from_millis(1950));
        assert_eq!(plan(100, 0), Duration::from_millis(100));
        assert_eq!(plan(0, 50), MIN_DEADLINE);
    }

    #[test]
    fn pondering_suspends_the_deadline() {
        let limits = Limits {
            move_time: Some(Duration::from_millis(1)),
            ..Limits::default()
        };
        let control = SearchControl::new();
        let manager = TimeManager::new(
            &limits,
            Duration::ZERO,
            Instant::now(),
            &SearchParams::default(),
        );
        control.set_pondering(true);
        std::thread::sleep(Duration::from_millis(3));
        assert!(!manager.hard_expired(&control));
        control.set_pondering(false);
        assert!(manager.hard_expired(&control));
    }
}

//! What an iteration of the search produces, and what the threads share of it: a root move's
//! line, the lines of a completed iteration, and the deepest iteration any thread has completed
//! (which lets the others skip the depths it has done, see [`crate::search::threads`]).

use crate::eval::score::Score;
use crate::rules::moves::Move;
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};
use std::sync::Mutex;

/// A root move with what the last search of it found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    /// Score in the current iteration (`-INFINITE` if it failed low).
    pub(crate) score: Score,
    /// Score at the end of the previous iteration.
    pub(crate) previous: Score,
    pub(crate) pv: Vec<Move>,
    pub(crate) seldepth: u32,
}

/// The lines of the deepest iteration a thread completed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Completed {
    pub(crate) depth: u32,
    /// The best `multipv` lines, best first.
    pub(crate) lines: Vec<RootMove>,
}

/// The deepest iteration completed by any thread. A thread still searching that depth or a
/// shallower one abandons its iteration (its work stays in the table) and goes on deeper; the main
/// thread reports the lines and stops on them as if it had found them itself.
pub(crate) struct DeepestIteration {
    /// The depth of `lines`, kept apart so that every poll can read it without taking the lock.
    depth: AtomicU32,
    lines: Mutex<Option<Completed>>,
    /// The depth each thread is searching (0: none).
    searching: Vec<AtomicU32>,
}

impl DeepestIteration {
    pub(crate) fn new(threads: usize) -> DeepestIteration {
        DeepestIteration {
            depth: AtomicU32::new(0),
            lines: Mutex::new(None),
            searching: (0..threads.max(1)).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Whether at least half of the threads other than `id` are searching `depth`.
    pub(crate) fn crowded(&self, depth: u32, id: usize) -> bool {
        let others = self
            .searching
            .iter()
            .enumerate()
            .filter(|&(thread, at)| thread != id && at.load(AtomicOrdering::Relaxed) == depth)
            .count();
        others > 0 && 2 * others >= self.searching.len() - 1
    }

    /// Records the depth thread `id` is searching (0: none).
    pub(crate) fn announce(&self, id: usize, depth: u32) {
        if let Some(slot) = self.searching.get(id) {
            slot.store(depth, AtomicOrdering::Relaxed);
        }
    }

    /// The depth of the deepest completed iteration (0: none yet).
    pub(crate) fn depth(&self) -> u32 {
        self.depth.load(AtomicOrdering::Acquire)
    }

    /// Records `completed` if it is deeper than every iteration recorded so far.
    pub(crate) fn publish(&self, completed: &Completed) {
        // A poisoned lock means a thread panicked holding it; the search goes on without sharing.
        let Ok(mut lines) = self.lines.lock() else {
            return;
        };
        if lines
            .as_ref()
            .is_none_or(|known| completed.depth > known.depth)
        {
            *lines = Some(completed.clone());
            self.depth.store(completed.depth, AtomicOrdering::Release);
        }
    }

    /// The lines of the deepest completed iteration.
    pub(crate) fn lines(&self) -> Option<Completed> {
        self.lines.lock().ok()?.clone()
    }
}

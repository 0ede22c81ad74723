//! Lazy SMP: several threads search the same root and share the transposition table.
//!
//! The helpers run on a `std::thread::scope`, so they can borrow the shared state without reference
//! counting. Thread 0 runs on the caller's thread: it alone reads the clock, reports progress and
//! decides when to stop; when it finishes it raises the abort flag and the helpers return. It
//! starts the helpers only after searching alone for `HELPER_DELAY` (a millisecond): a search
//! that is over sooner is faster without them. Three rules keep two threads from doing the same
//! work (`DeepestIteration` in [`crate::search::iteration`]):
//!
//! * helpers with odd ids start one ply deeper than the main thread;
//! * a thread leaves a depth that half of the other threads are already searching to them and
//!   takes the next one;
//! * when any thread completes an iteration, every thread still on that depth or a shallower one
//!   abandons it (its work stays in the table) and goes deeper; the main thread reports the
//!   completed lines and decides whether to stop on them as if it had searched them itself.
//!
//! With one thread none of this applies and the search is fully deterministic.

use crate::rules::variant::Rules;
use crate::search::control::Report;
use crate::search::iteration::{Completed, RootMove};
use crate::search::thread_memory::ThreadMemory;
use crate::search::worker::{Shared, Worker};
use std::time::Duration;

/// Stack for helper threads: the recursion keeps a move list per ply.
const HELPER_STACK_BYTES: usize = 16 << 20;

/// What one thread found.
#[derive(Clone, Debug)]
pub(crate) struct ThreadOutcome {
    pub(crate) completed: Option<Completed>,
    pub(crate) partial_best: Option<RootMove>,
}

/// Runs the search under the rules `R` on `memories.len()` threads (at least one, each with its
/// own memory) and returns each thread's outcome, main thread first.
pub(crate) fn run<R: Rules>(
    shared: &Shared<'_>,
    memories: &mut [Box<ThreadMemory>],
    report: &mut dyn FnMut(&Report),
) -> Vec<ThreadOutcome> {
    let Some((main_memory, helper_memories)) = memories.split_first_mut() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        let mut unstarted = Some(helper_memories);
        let mut start_helpers = || {
            let Some(memories) = unstarted.take() else {
                return;
            };
            for (index, memory) in memories.iter_mut().enumerate() {
                let builder = std::thread::Builder::new()
                    .name(format!("onca-search-{}", index + 1))
                    .stack_size(HELPER_STACK_BYTES);
                let spawned = builder.spawn_scoped(scope, move || {
                    let mut worker = Worker::<R>::new(shared, index + 1, memory);
                    worker.iterate(None);
                    worker.flush_nodes();
                    outcome(&worker)
                });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(error) => log::warn!("could not start a search thread: {error}"),
                }
            }
        };
        let mut main = Worker::<R>::new(shared, 0, main_memory);
        main.set_helper_start(&mut start_helpers);
        main.iterate(Some(report));
        main.flush_nodes();
        let main_outcome = outcome(&main);
        drop(main);
        wait_while_required(shared);
        shared.raise_abort();
        let mut outcomes = vec![main_outcome];
        for handle in handles {
            match handle.join() {
                Ok(found) => outcomes.push(found),
                Err(_) => log::error!("a search thread panicked"),
            }
        }
        outcomes
    })
}

fn outcome<R: Rules>(worker: &Worker<'_, '_, R>) -> ThreadOutcome {
    ThreadOutcome {
        completed: worker.completed.clone(),
        partial_best: worker.partial_best.clone(),
    }
}

/// An infinite or pondering search must not return before it is stopped (or the ponder hit
/// arrives), even when it has nothing left to search.
fn wait_while_required(shared: &Shared<'_>) {
    loop {
        let control = shared.control;
        if control.is_stopped() || shared.abort.load(std::sync::atomic::Ordering::Acquire) {
            return;
        }
        let must_wait =
            shared.limits.infinite || control.is_pondering() || shared.limits.is_unbounded();
        if !must_wait {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

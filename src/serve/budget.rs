//! The server's search resources: at most `--threads` search threads in use over all searches,
//! and the searchers (each with its transposition table) that searches borrow and give back, so
//! that a game's next move finds the table of its last one.
//!
//! A search takes a [`Lease`]: some threads and a searcher. Dropping the lease, when the search
//! thread ends, returns both.

use crate::egtb::{builtin, Tablebases};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::search::searcher::Searcher;
use std::sync::{Arc, Mutex, MutexGuard};

/// The endgame tables the server's searches probe.
pub enum Tables {
    /// Tables loaded from a directory (`--egtb`), of one variant.
    Loaded(Arc<Tablebases>),
    /// The built-in tables of each game's variant ([`builtin`]), once a game nears its end.
    Builtin,
}

/// The threads and searchers of the server.
pub struct Budget {
    total_threads: usize,
    hash_mb: usize,
    tables: Tables,
    state: Mutex<BudgetState>,
}

struct BudgetState {
    free_threads: usize,
    idle: Vec<Searcher>,
}

impl Budget {
    /// `threads` search threads in all (at least 1), searchers with `hash_mb` megabytes of table
    /// each, probing `tables`.
    pub fn new(threads: usize, hash_mb: usize, tables: Tables) -> Arc<Budget> {
        let threads = threads.max(1);
        Arc::new(Budget {
            total_threads: threads,
            hash_mb,
            tables,
            state: Mutex::new(BudgetState {
                free_threads: threads,
                idle: Vec::new(),
            }),
        })
    }

    /// The number of search threads the server may use.
    pub fn total_threads(&self) -> usize {
        self.total_threads
    }

    /// Threads not taken by a search now.
    pub fn free_threads(&self) -> usize {
        self.lock().free_threads
    }

    /// Takes up to `wanted` threads (at least 1; all free ones with `None`) and a searcher;
    /// `None` when every thread is in use.
    pub fn lease(self: &Arc<Self>, wanted: Option<usize>) -> Option<Lease> {
        let mut state = self.lock();
        if state.free_threads == 0 {
            return None;
        }
        let threads = wanted
            .unwrap_or(state.free_threads)
            .clamp(1, state.free_threads);
        state.free_threads -= threads;
        let searcher = state.idle.pop();
        drop(state);
        let searcher = searcher.unwrap_or_else(|| {
            let mut searcher = Searcher::new(self.hash_mb);
            if let Tables::Loaded(tables) = &self.tables {
                searcher.set_tablebases(Arc::clone(tables));
            }
            searcher
        });
        Some(Lease {
            budget: Arc::clone(self),
            threads,
            searcher: Some(searcher),
        })
    }

    fn lock(&self) -> MutexGuard<'_, BudgetState> {
        // A panic elsewhere cannot leave the counts half updated: recover the guard.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Threads and a searcher lent to one search.
pub struct Lease {
    budget: Arc<Budget>,
    threads: usize,
    searcher: Option<Searcher>,
}

impl Lease {
    /// How many threads the search may run.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The searcher to search `root` with in a game of `variant`, given the built-in tables of
    /// that variant when the server uses them and they are ready.
    pub fn searcher_for(&mut self, variant: Variant, root: &Position) -> &mut Searcher {
        let searcher = self
            .searcher
            .as_mut()
            .expect("only dropping the lease takes its searcher");
        if let Tables::Builtin = self.budget.tables {
            if let Some(tables) = builtin::for_root(variant, root) {
                searcher.set_tablebases(tables);
            }
        }
        searcher
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut state = self.budget.lock();
        state.free_threads += self.threads;
        if let Some(searcher) = self.searcher.take() {
            state.idle.push(searcher);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_share_the_threads_and_give_them_back() {
        let budget = Budget::new(3, 1, Tables::Loaded(Arc::new(Tablebases::empty())));
        let first = budget.lease(Some(2)).expect("3 threads free");
        assert_eq!(first.threads(), 2);
        let second = budget.lease(None).expect("1 thread free");
        assert_eq!(second.threads(), 1);
        assert!(budget.lease(Some(1)).is_none());
        drop(first);
        assert_eq!(budget.free_threads(), 2);
        let third = budget.lease(Some(5)).expect("2 threads free");
        assert_eq!(third.threads(), 2);
        drop((second, third));
        assert_eq!(budget.free_threads(), 3);
    }
}

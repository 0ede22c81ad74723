//! One thread's cache of static evaluations, by position key.
//!
//! Quiescence evaluates at nearly every leaf and does not probe the transposition table, and the
//! same leaves come back through transpositions and through each iteration of the deepening: the
//! evaluation (two fifths of the search's instructions with the pattern tables) is worth keeping.
//! The evaluation depends only on the position, so a hit returns exactly what evaluating would,
//! and the search's behaviour is the same with or without the cache.
//!
//! Each entry is one word: the key's high 47 bits, a valid bit and the 16-bit score. It is private
//! to its thread (no sharing, no atomics) and lives across searches in the thread's
//! memory ([`crate::search::thread_memory`]), which empties it when the weights change.

use crate::eval::score::Score;
use crate::search::prefetch::prefetch;

/// Entries in the cache (a power of two), 512 KB: in paired `onca bench` runs a quarter as many
/// were as fast and four times as many slower (cache misses).
const ENTRIES: usize = 1 << 16;
/// The low key bits that pick the entry; the rest are stored to tell positions apart.
const INDEX_MASK: u64 = ENTRIES as u64 - 1;
/// The bits of an entry that hold the score.
const SCORE_MASK: u64 = 0xFFFF;
/// Set in every filled entry, so that an empty (zero) entry matches no key.
const VALID: u64 = 1 << 16;
/// The bits of an entry that hold the key: above the valid bit and the score.
const TAG_MASK: u64 = !(VALID | SCORE_MASK);

/// Static evaluations of recently evaluated positions, by key.
pub(crate) struct EvalCache {
    entries: Box<[u64]>,
}

impl EvalCache {
    /// An empty cache.
    pub(crate) fn new() -> EvalCache {
        EvalCache {
            entries: vec![0; ENTRIES].into_boxed_slice(),
        }
    }

    /// Forgets every cached score (the weights changed).
    pub(crate) fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// Starts loading the entry of `key`, to be read soon.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.entries[(key & INDEX_MASK) as usize]);
    }

    /// The evaluation of the position with `key`: the cached one, or `evaluate()` (then cached).
    #[inline(always)]
    pub(crate) fn get_or_insert(&mut self, key: u64, evaluate: impl FnOnce() -> Score) -> Score {
        let slot = &mut self.entries[(key & INDEX_MASK) as usize];
        let tag = (key & TAG_MASK) | VALID;
        if *slot & !SCORE_MASK == tag {
            return Score(i32::from(*slot as u16 as i16));
        }
        let score = evaluate();
        // Heuristic scores are clamped to MAX_HEURISTIC and draws are 0: both fit 16 bits. A
        // score that did not would be returned uncached.
        if let Ok(narrow) = i16::try_from(score.0) {
            *slot = tag | u64::from(narrow as u16);
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_score_comes_back_for_its_key_only() {
        let mut cache = EvalCache::new();
        let mut calls = 0;
        let mut evaluate = |key: u64, score: i32, cache: &mut EvalCache| {
            cache.get_or_insert(key, || {
                calls += 1;
                Score(score)
            })
        };
        assert_eq!(
            evaluate(0x1234_5678_9ABC_0001, -250, &mut cache),
            Score(-250)
        );
        assert_eq!(
            evaluate(0x1234_5678_9ABC_0001, 999, &mut cache),
            Score(-250)
        );
        // Same entry, other key: evaluated again and replaces the first.
        assert_eq!(evaluate(0x9234_5678_9ABC_0001, 77, &mut cache), Score(77));
        assert_eq!(evaluate(0x1234_5678_9ABC_0001, 5, &mut cache), Score(5));
        // An empty entry does not hold key zero: evaluated once, then found.
        assert_eq!(evaluate(0, 0, &mut cache), Score(0));
        assert_eq!(evaluate(0, 1, &mut cache), Score(0));
        assert_eq!(
            evaluate(1 << 20, Score::MAX_HEURISTIC, &mut cache),
            Score(Score::MAX_HEURISTIC)
        );
        assert_eq!(
            evaluate(1 << 20, 0, &mut cache),
            Score(Score::MAX_HEURISTIC)
        );
        assert_eq!(calls, 5);
    }
}

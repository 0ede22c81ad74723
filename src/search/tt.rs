//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64` words: `key ^ data` and `data`. A reader accepts an entry only if
//! the two words XOR back to its key, so an entry torn by a concurrent writer is simply a miss
//! (the "lockless hashing" scheme). Entries sit in 64-byte clusters of four; a position may use any
//! entry of its cluster. Replacement prefers the same position, then the shallowest or oldest
//! entry. Win/loss scores are stored relative to the node (see [`Score::to_table`]).
//!
//! Data layout (low to high bits): move 17 (valid 1, from 6, to 6, captured-set hash 4), score 16,
//! depth 8, bound 2, age 6.
//!
//! The clusters live in an anonymous memory map that asks Linux for transparent huge pages: a probe
//! is a random access into megabytes, and with 4 KB pages most probes also missed the TLB. On
//! systems without huge pages the advice is ignored. A new table is written once, so that its
//! pages are in memory before any search: left to fault in during the first search, they took
//! most of a 0.1 s search's time on a virtual machine (`onca analyze --movetime 0.1` reached
//! depth 4 instead of 16).

use crate::eval::score::Score;
use crate::rules::moves::Move;
use crate::search::prefetch::prefetch;
use memmap2::MmapMut;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A move reduced to 17 bits: enough to find it again in the legal move list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PackedMove(u32);

impl PackedMove {
    pub(crate) const NONE: PackedMove = PackedMove(0);

    pub(crate) fn pack(mv: &Move) -> PackedMove {
        let captured = mv.captured.0;
        let hash =
            ((captured ^ (captured >> 4) ^ (captured >> 12) ^ (captured >> 24)) & 0xF) as u32;
        PackedMove(1 | (mv.from.bit() << 1) | (mv.to.bit() << 7) | (hash << 13))
    }

    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether `mv` is (very likely) the move that was packed; the caller picks it from the legal
    /// moves, so a false match can only reorder moves, never play an illegal one.
    #[inline(always)]
    pub(crate) fn matches(self, mv: &Move) -> bool {
        self.0 != 0 && PackedMove::pack(mv).0 == self.0
    }
}

/// A table hit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Hit {
    pub(crate) mv: PackedMove,
    /// Score relative to the stored node; convert with [`Score::from_table`].
    pub(crate) score: Score,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
}

const ENTRIES_PER_CLUSTER: usize = 4;

/// Four entries, one cache line. All-zero bytes are four empty entries.
#[repr(C, align(64))]
struct Cluster {
    words: [[AtomicU64; 2]; ENTRIES_PER_CLUSTER],
}

fn encode(mv: PackedMove, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    let depth = depth.clamp(-100, 127) as i8 as u8;
    u64::from(mv.0)
        | (u64::from(score.0 as i16 as u16) << 17)
        | (u64::from(depth) << 33)
        | ((bound as u64) << 41)
        | (u64::from(age & 63) << 43)
}

fn decode(data: u64) -> (Hit, u8) {
    let mv = PackedMove((data & 0x1_FFFF) as u32);
    let score = Score(i32::from(((data >> 17) & 0xFFFF) as u16 as i16));
    let depth = i32::from(((data >> 33) & 0xFF) as u8 as i8);
    let bound = match (data >> 41) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let age = ((data >> 43) & 63) as u8;
    (
        Hit {
            mv,
            score,
            depth,
            bound,
        },
        age,
    )
}

/// The shared table.
pub(crate) struct Table {
    /// Owns the memory that `clusters` points into (only held, never read through: every access
    /// goes through `clusters`).
    _memory: MmapMut,
    /// The start of `memory` as clusters, taken from the map's mutable pointer.
    clusters: *mut Cluster,
    len: usize,
    age: u8,
    /// Whether a search has started since the table was made or last cleared: an unsearched table
    /// is empty, and clearing it again would only rewrite every page (the Hub's `init` made a
    /// table and cleared it for its endgame tables at once).
    searched: bool,
}

// SAFETY: the clusters are atomics, shared between threads only through `&Table`; the raw pointer
// points into `memory`, which the table owns and which lives as long as it.
unsafe impl Send for Table {}
// SAFETY: as above; every access through `&Table` is an atomic load or store.
unsafe impl Sync for Table {}

impl Table {
    /// A table of about `mb` megabytes (at least one cluster). If the memory cannot be had, the
    /// size is halved until it can (a warning is logged), rather than aborting the engine.
    pub(crate) fn new(mb: usize) -> Table {
        let cluster_bytes = std::mem::size_of::<Cluster>();
        let mut len = (mb.saturating_mul(1 << 20) / cluster_bytes).max(1);
        let mut memory = loop {
            match MmapMut::map_anon(len * cluster_bytes) {
                Ok(memory) => break memory,
                Err(error) if len > 1 => {
                    len /= 2;
                    log::warn!("transposition table: {error}, trying {len} clusters");
                }
                Err(error) => panic!("transposition table: cannot map one cluster: {error}"),
            }
        };
        #[cfg(target_os = "linux")]
        if let Err(error) = memory.advise(memmap2::Advice::HugePage) {
            log::debug!("transposition table: no huge pages ({error})");
        }
        // A map is page-aligned, which satisfies the clusters' 64-byte alignment.
        let clusters = memory.as_mut_ptr().cast::<Cluster>();
        let mut table = Table {
            _memory: memory,
            clusters,
            len,
            age: 0,
            searched: false,
        };
        // Brings the pages in now, outside any search's clock.
        table.zero();
        table
    }

    /// The clusters.
    #[inline(always)]
    fn clusters(&self) -> &[Cluster] {
        // SAFETY: `clusters` points to `len` clusters inside `memory` (aligned, see `new`), whose
        // bytes are initialised (a map starts zeroed) and valid for atomics of any value.
        unsafe { std::slice::from_raw_parts(self.clusters, self.len) }
    }

    /// Empties every entry.
    pub(crate) fn clear(&mut self) {
        if self.searched {
            self.zero();
            self.searched = false;
        }
        self.age = 0;
    }

    /// Writes zeros over every cluster.
    fn zero(&mut self) {
        // SAFETY: `&mut self` excludes every other access, and the `len` clusters are the map's.
        unsafe { std::ptr::write_bytes(self.clusters, 0, self.len) };
    }

    /// Starts a new search: older entries become preferred victims.
    pub(crate) fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
        self.searched = true;
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let clusters = self.clusters();
        let index = ((u128::from(key) * clusters.len() as u128) >> 64) as usize;
        &clusters[index]
    }

    /// Starts loading the cluster of `key`, to be probed soon.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(self.cluster(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let cluster = self.cluster(key);
        for entry in &cluster.words {
            let data = entry[1].load(Ordering::Relaxed);
            if data != 0 && entry[0].load(Ordering::Relaxed) ^ data == key {
                return Some(decode(data).0);
            }
        }
        None
    }

    /// Stores a search result for `key`. `score` must already be in table form.
    #[inline]
    pub(crate) fn store(&self, key: u64, mv: PackedMove, score: Score, depth: i32, bound: Bound) {
        debug_assert!(self.searched, "a store outside a search (new_search first)");
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (index, entry) in cluster.words.iter().enumerate() {
            let data = entry[1].load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = index;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let (old, old_age) = decode(data);
            if entry[0].load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a deeper result from this search unless the new one is exact.
                if bound != Bound::Exact && old_age == self.age && old.depth > depth + 2 {
                    return;
                }
                let mv = if mv.is_none() { old.mv } else { mv };
                let data = encode(mv, score, depth, bound, self.age);
                entry[0].store(key ^ data, Ordering::Relaxed);
                entry[1].store(data, Ordering::Relaxed);
                return;
            }
            let staleness = i32::from((self.age.wrapping_sub(old_age)) & 63);
            let worth = old.depth - 8 * staleness;
            if worth < victim_worth {
                victim = index;
                victim_worth = worth;
            }
        }
        let data = encode(mv, score, depth, bound, self.age);
        let entry = &cluster.words[victim];
        entry[0].store(key ^ data, Ordering::Relaxed);
        entry[1].store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let clusters = self.clusters();
        let sample = clusters.len().min(250);
        let mut used = 0;
        for cluster in &clusters[..sample] {
            for entry in &cluster.words {
                let data = entry[1].load(Ordering::Relaxed);
                if data != 0 && decode(data).1 == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_CLUSTER).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;

    #[test]
    fn stores_and_finds_entries() {
        let mut table = Table::new(1);
        table.new_search();
        let moves = legal_moves(&Position::start());
        let mv = PackedMove::pack(&moves[2]);
        table.store(12345, mv, Score(-77), 9, Bound::Lower);
        let hit = table.probe(12345).expect("stored");
        assert_eq!(hit.score, Score(-77));
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(hit.mv.matches(&moves[2]));
        assert!(!hit.mv.matches(&moves[3]));
        assert!(table.probe(54321).is_none());
        table.store(12345, PackedMove::NONE, Score::loss_in(4), -2, Bound::Exact);
        let hit = table.probe(12345).expect("stored");
        assert_eq!(hit.score, Score::loss_in(4));
        assert_eq!(hit.depth, -2);
        assert!(hit.mv.matches(&moves[2]), "keeps the old move");
        table.clear();
        assert!(table.probe(12345).is_none(), "a cleared table is empty");
    }
}

//! Search parameters that self-play decides: every pruning, reduction and extension switch of the
//! search with its constants, named in one place.
//!
//! [`SearchParams::default`] is what the engine plays with. The self-play harness
//! (`scripts/selfplay`) builds variants of it to prove that each feature wins games before it is
//! kept (see the README of that script for the evidence).

/// Tunable search switches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchParams {
    /// Late move reductions of quiet moves.
    pub late_move_reductions: bool,
    /// Quiet moves (counted from 0) searched at full depth before reductions start.
    pub lmr_full_moves: usize,
    /// How many times one quiescence line may answer a capture threat by searching all quiet
    /// moves instead of standing pat.
    pub quiescence_threat_plies: u32,
    /// Extend a node that has a single legal move by one ply.
    pub single_reply_extension: bool,
    /// Aspiration window half-width (score units) from this depth on.
    pub aspiration_depth: u32,
    pub aspiration_window: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            late_move_reductions: true,
            lmr_full_moves: 3,
            quiescence_threat_plies: 1,
            single_reply_extension: true,
            aspiration_depth: 5,
            aspiration_window: 25,
        }
    }
}

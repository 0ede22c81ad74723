//! Search parameters that self-play decides: every pruning, reduction and extension switch of the
//! search with its constants, named in one place.
//!
//! [`SearchParams::default`] is what the engine plays with. The self-play harness
//! (`scripts/selfplay VARIANT GAMES NODES`) plays the default against a variant with one switch
//! changed, from openings spread over all 4-ply lines with colours reversed, at a fixed node budget
//! per move. Evidence so far (default's result, 20,000 nodes per move, 95% intervals):
//!
//! | variant (feature removed) | games | W-D-L       | Elo (default) |
//! |---------------------------|-------|-------------|---------------|
//! | `no-lmr`                  | 800   | 266-322-212 | +23 (+5..+42) |
//! | `no-threat`               | 800   | 247-322-231 | +7 (-12..+26) |
//! | `no-single-ext`           | 800   | 247-329-224 | +10 (-8..+29) |
//!
//! Late move reductions are the only pruning-like feature and they are proven. The quiescence
//! threat search and the single-reply extension do not prune anything; they are kept as neutral to
//! positive (the rules brief asks for the threat handling).

/// Tunable search switches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchParams {
    /// Late move reductions of quiet moves.
    pub late_move_reductions: bool,
    /// Quiet moves (counted from 0) searched at full depth before reductions start.
    pub lmr_full_moves: usize,
    /// Reduce by `ln(depth) * ln(move index) / LMR_DIVISOR` instead of the fixed one or two plies.
    pub lmr_logarithmic: bool,
    /// How many times one quiescence line may answer a capture threat by searching all quiet
    /// moves instead of standing pat.
    pub quiescence_threat_plies: u32,
    /// At shallow non-PV nodes, skip the quiet moves after the first `3 + depth^2`.
    pub late_move_pruning: bool,
    /// At PV nodes without a table move, search two plies shallower first to find one.
    pub internal_iterative_deepening: bool,
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
            lmr_logarithmic: false,
            late_move_pruning: false,
            internal_iterative_deepening: false,
            quiescence_threat_plies: 1,
            single_reply_extension: true,
            aspiration_depth: 5,
            aspiration_window: 25,
        }
    }
}

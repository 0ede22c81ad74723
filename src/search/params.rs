//! Search parameters that self-play decides: every pruning, reduction and extension switch of the
//! search with its constants, named in one place.
//!
//! [`SearchParams::default`] is what the engine plays with. The self-play harness
//! (`scripts/selfplay VARIANT GAMES NODES`) plays the default against a variant with one switch
//! changed, from openings spread over all 4-ply lines with colours reversed, at a fixed node budget
//! per move. Evidence (result of the then default, which reduced from quiet move 3, against each
//! variant; 20,000 nodes per move, 95% intervals):
//!
//! | variant (what it changes)             | games | W-D-L       | Elo (default)  |
//! |---------------------------------------|-------|-------------|----------------|
//! | `no-lmr`: no late move reductions     | 800   | 266-322-212 | +23 (+5..+42)  |
//! | `no-threat`: no quiescence threats    | 800   | 247-322-231 | +7 (-12..+26)  |
//! | `no-single-ext`: no single-reply ext. | 800   | 247-329-224 | +10 (-8..+29)  |
//! | `no-aspiration`: full windows         | 800   | 225-350-225 | 0 (-18..+18)   |
//! | `lmr-full-5`: reduce from move 5      | 800   | 237-335-228 | +4 (-14..+22)  |
//! | `lmr-log`: logarithmic reductions     | 800   | 220-350-230 | -4 (-22..+14)  |
//! | `lmp`: late move pruning              | 2000  | 579-784-637 | -10 (-22..+2)  |
//! | `iid`: internal iterative deepening   | 800   | 212-376-212 | 0 (-18..+18)   |
//! | `threat-2`: two threat plies in qs    | 800   | 256-332-212 | +19 (+1..+38)  |
//! | `lmr-full-2`: reduce from move 2      | 2000  | 549-832-619 | -12 (-24..-1)  |
//!
//! Late move reductions are the only pruning-like feature on, and they are proven; reducing from
//! the third quiet move (`lmr-full-2`) beat reducing from the fourth and is now the default. The quiescence
//! threat search, the single-reply extension and aspiration windows prune nothing and are kept as
//! neutral to positive. Late move pruning, logarithmic reductions and internal iterative deepening
//! are not proven (late move pruning leans positive but its interval includes zero), so they stay
//! off.

/// Tunable search switches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchParams {
    /// Late move reductions of quiet moves.
    pub late_move_reductions: bool,
    /// Quiet moves (counted from 0) searched at full depth before reductions start.
    pub lmr_full_moves: usize,
    /// Reduce by `ln(depth) * ln(move index) / 2` (rounded) instead of the fixed one or two plies.
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
    /// First iteration depth searched with an aspiration window (shallower ones use full
    /// windows).
    pub aspiration_depth: u32,
    /// Aspiration window half-width around the previous iteration's score, in score units
    /// ([`Score::MAN`](crate::eval::score::Score::MAN) per man); it widens by half on each fail.
    pub aspiration_window: i32,
    /// Endgame databases: in the short king endings of the move-count rules, trust a table win
    /// only when its distance to conversion fits in the plies the rules leave.
    pub egtb_rule_guard: bool,
    /// Endgame databases: at a won or lost root without stored distances (game play), score the
    /// root's own material heuristically and use the tables after conversions only.
    pub egtb_heuristic_root: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            late_move_reductions: true,
            lmr_full_moves: 2,
            lmr_logarithmic: false,
            late_move_pruning: false,
            internal_iterative_deepening: false,
            quiescence_threat_plies: 1,
            single_reply_extension: true,
            aspiration_depth: 5,
            aspiration_window: 25,
            egtb_rule_guard: true,
            egtb_heuristic_root: true,
        }
    }
}

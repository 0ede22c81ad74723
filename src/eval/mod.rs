//! The static evaluation: the feature evaluation ([`evaluate`]), its weights ([`weights`], the
//! tuned defaults in [`weights_tuned`], files read at run time by [`weights_file`]), endgame
//! knowledge by material ([`endgame`]), the score type ([`score`]) and the `onca eval` breakdown
//! ([`report`]).
//!
//! Uses [`crate::rules`], [`crate::notation`], [`crate::game`] and, for the compiled-in
//! three-kings tables, [`crate::egtb`].

use std::sync::LazyLock;

pub mod endgame;
pub mod evaluate;
pub mod patterns;
pub mod report;
pub mod score;
pub mod weights;
pub mod weights_file;
pub mod weights_tuned;

static BUILTIN: LazyLock<weights::Weights> = LazyLock::new(|| weights::Weights {
    opening: weights_tuned::TUNED.opening,
    endgame: weights_tuned::TUNED.endgame,
    patterns: patterns::PatternWeights::zero(),
});

impl weights::Weights {
    /// The weights the engine plays with: the tuner's (see tuning/README.md for the runs and the
    /// matches that proved them). Defined here, above both [`weights`] and the generated
    /// [`weights_tuned`], so that neither imports the other's module.
    pub fn builtin() -> &'static weights::Weights {
        &BUILTIN
    }
}

impl Default for weights::Weights {
    fn default() -> Self {
        weights::Weights::builtin().clone()
    }
}

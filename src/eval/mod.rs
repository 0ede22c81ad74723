//! The static evaluation: the feature evaluation ([`evaluate`]) with its pattern tables
//! ([`patterns`]), its weights ([`weights`]; the built-in ones are the weights file
//! `data/eval/weights.txt`, compiled in; files read at run time by [`weights_file`]), endgame
//! knowledge by material ([`endgame`]), the score type ([`score`]) and the `onca eval` breakdown
//! ([`report`]).
//!
//! Uses [`crate::rules`], [`crate::notation`], [`crate::game`] and, for the compiled-in
//! three-kings tables, [`crate::egtb`].

use std::sync::LazyLock;

pub mod bands;
pub mod endgame;
pub mod evaluate;
pub mod patterns;
pub mod report;
pub mod score;
pub mod weights;
pub mod weights_file;

/// The built-in weights file, written by `onca-tune tune` (see tuning/README.md).
const BUILTIN_TEXT: &str = include_str!("../../data/eval/weights.txt");

static BUILTIN: LazyLock<weights::Weights> = LazyLock::new(|| {
    weights::Weights::parse_text_over(BUILTIN_TEXT, &weights::Weights::hand_set())
        // The file is part of the source; a test reads it, so this cannot fail in a build that
        // passed its tests.
        .unwrap_or_else(|error| panic!("data/eval/weights.txt is broken: {error}"))
});

impl weights::Weights {
    /// The weights the engine plays with: `data/eval/weights.txt`, compiled in (see
    /// tuning/README.md for the runs and the matches that proved them).
    pub fn builtin() -> &'static weights::Weights {
        &BUILTIN
    }
}

impl Default for weights::Weights {
    fn default() -> Self {
        weights::Weights::builtin().clone()
    }
}

//! The static evaluation: the feature evaluation ([`evaluate`]) with its pattern tables
//! ([`patterns`]), its weights ([`weights`]; the built-in ones are the weights file
//! `data/eval/weights.txt`, compiled in; files read at run time by [`weights_file`]), endgame
//! knowledge by material ([`endgame`]), the score type ([`score`]) and the `onca eval` breakdown
//! ([`report`]).
//!
//! Uses [`crate::rules`], [`crate::notation`], [`crate::game`] and, for the compiled-in
//! three-kings tables, [`crate::egtb`].

use crate::rules::variant::Variant;
use std::sync::LazyLock;

pub mod bands;
pub mod endgame;
pub mod evaluate;
pub mod patterns;
pub mod report;
pub mod score;
pub mod weights;
pub mod weights_file;

/// The built-in weights files, written by `onca-tune tune` (see tuning/README.md), by variant.
const BRAZILIAN_TEXT: &str = include_str!("../../data/eval/weights.txt");
const RUSSIAN_TEXT: &str = include_str!("../../data/eval/weights-russian.txt");

/// Reads a compiled-in weights file. The files are part of the source and a test reads each, so
/// this cannot fail in a build that passed its tests.
fn compiled_in(text: &str, file: &str) -> weights::Weights {
    weights::Weights::parse_text_over(text, &weights::Weights::hand_set())
        .unwrap_or_else(|error| panic!("{file} is broken: {error}"))
}

static BRAZILIAN: LazyLock<weights::Weights> =
    LazyLock::new(|| compiled_in(BRAZILIAN_TEXT, "data/eval/weights.txt"));
static RUSSIAN: LazyLock<weights::Weights> =
    LazyLock::new(|| compiled_in(RUSSIAN_TEXT, "data/eval/weights-russian.txt"));

impl weights::Weights {
    /// The weights the engine plays Brazilian draughts with: `data/eval/weights.txt`, compiled
    /// in (see tuning/README.md for the runs and the matches that proved them).
    pub fn builtin() -> &'static weights::Weights {
        &BRAZILIAN
    }

    /// The weights the engine plays `variant` with: [`weights::Weights::builtin`] for Brazilian,
    /// `data/eval/weights-russian.txt` (fitted to Russian games) for Russian.
    pub fn builtin_for(variant: Variant) -> &'static weights::Weights {
        match variant {
            Variant::Brazilian => &BRAZILIAN,
            Variant::Russian => &RUSSIAN,
        }
    }
}

impl Default for weights::Weights {
    fn default() -> Self {
        weights::Weights::builtin().clone()
    }
}

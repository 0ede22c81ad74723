//! Writes tuned weights as Rust source (`pub const TUNED: Weights = ...`) that the engine
//! compiles in, and reads such a file back (to check the round trip).

use onca::eval::weights::{Weights, FEATURES, TUNABLE};

/// Rust source defining `pub const TUNED: Weights` with these values, one commented line per
/// feature.
pub fn to_rust(weights: &Weights) -> String {
    let names = Weights::feature_names();
    let table = |values: &[i32; FEATURES]| -> String {
        names
            .iter()
            .zip(values)
            .map(|(name, value)| format!("        {value}, // {name}\n"))
            .collect()
    };
    format!(
        "//! Evaluation weights written by `onca-tune export`; do not edit by hand.\n\n\
         use crate::eval::weights::TermWeights;\n\n\
         /// Weights fitted by the tuner (see tuning/README.md).\n\
         pub const TUNED: TermWeights = TermWeights {{\n    opening: [\n{}    ],\n    endgame: [\n{}    ],\n}};\n",
        table(&weights.opening),
        table(&weights.endgame),
    )
}

/// Reads the numbers of a [`to_rust`] file back, in field order (comments skipped).
pub fn from_rust(source: &str) -> Result<Weights, String> {
    let body = source
        .split_once("Weights {")
        .map(|(_, body)| body)
        .ok_or("no `Weights {` in the file")?;
    let numbers: Vec<i32> = body
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .flat_map(|code| code.split(|c: char| !(c.is_ascii_digit() || c == '-')))
        .filter(|token| !token.is_empty())
        .map(|token| token.parse().map_err(|_| format!("bad number `{token}`")))
        .collect::<Result<_, _>>()?;
    let values: [i32; TUNABLE] = numbers.try_into().map_err(|numbers: Vec<i32>| {
        format!("expected {TUNABLE} numbers, found {}", numbers.len())
    })?;
    Ok(Weights::builtin().with_tunable(&values))
}

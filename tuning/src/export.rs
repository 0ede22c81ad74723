//! Writes tuned weights as Rust source (`pub const TUNED: Weights = ...`) that the engine can
//! compile in, and reads such a file back (to check the round trip).

use onca::weights::{Weights, TUNABLE};

/// Rust source defining `pub const TUNED: Weights` with these values.
pub fn to_rust(weights: &Weights) -> String {
    let table = |values: &[i32; 8]| {
        let items: Vec<String> = values.iter().map(i32::to_string).collect();
        format!("[{}]", items.join(", "))
    };
    format!(
        "//! Evaluation weights written by `onca-tune export`; do not edit by hand.\n\n\
         use crate::weights::Weights;\n\n\
         /// Weights fitted by the tuner.\n\
         pub const TUNED: Weights = Weights {{\n    \
         man: {},\n    king: {},\n    advance_opening: {},\n    advance_endgame: {},\n    \
         centre_opening: {},\n    near_centre_opening: {},\n    edge_opening: {},\n    \
         back_guard: {},\n    king_long_diagonal: {},\n    runaway: {},\n    \
         phase_pieces: {},\n    drawish_divisor: {},\n}};\n",
        weights.man,
        weights.king,
        table(&weights.advance_opening),
        table(&weights.advance_endgame),
        weights.centre_opening,
        weights.near_centre_opening,
        weights.edge_opening,
        weights.back_guard,
        weights.king_long_diagonal,
        table(&weights.runaway),
        weights.phase_pieces,
        weights.drawish_divisor,
    )
}

/// Reads the numbers of a [`to_rust`] file back, in field order.
pub fn from_rust(source: &str) -> Result<Weights, String> {
    let body = source
        .split_once("Weights {")
        .map(|(_, body)| body)
        .ok_or("no `Weights {` in the file")?;
    let numbers: Vec<i32> = body
        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|token| !token.is_empty())
        .map(|token| token.parse().map_err(|_| format!("bad number `{token}`")))
        .collect::<Result<_, _>>()?;
    if numbers.len() != TUNABLE + 2 {
        return Err(format!(
            "expected {} numbers, found {}",
            TUNABLE + 2,
            numbers.len()
        ));
    }
    let mut values = [0; TUNABLE];
    values.copy_from_slice(&numbers[..TUNABLE]);
    let mut weights = Weights::DEFAULT.with_tunable(&values);
    weights.phase_pieces = numbers[TUNABLE];
    weights.drawish_divisor = numbers[TUNABLE + 1];
    Ok(weights)
}

//! `onca eval`: the static evaluation of one position broken down by term, in men.

use crate::eval::{breakdown, drawish, evaluate};
use crate::position::{Color, Position};
use crate::weights::Weights;
use std::io::Write;

/// Writes each term for White and Black (each from its own view, phase-blended, before the
/// drawish scaling), whether the drawish scaling applies, and the total from the side to move.
pub fn write_report(position: &Position, out: &mut impl Write) -> std::io::Result<()> {
    let weights = &Weights::DEFAULT;
    let white = breakdown(position, Color::White, weights);
    let black = breakdown(position, Color::Black, weights);
    writeln!(out, "{:<20} {:>8} {:>8}", "term", "white", "black")?;
    for ((name, white_value), (_, black_value)) in white.iter().zip(&black) {
        writeln!(
            out,
            "{name:<20} {:>8.2} {:>8.2}",
            white_value / 100.0,
            black_value / 100.0
        )?;
    }
    let scaled = if drawish(position, weights) {
        format!("yes (divided by {})", weights.drawish_divisor)
    } else {
        String::from("no")
    };
    writeln!(out, "drawish scaling      {scaled}")?;
    let side = match position.side_to_move() {
        Color::White => "white",
        Color::Black => "black",
    };
    let total = f64::from(evaluate(position).0) / 100.0;
    writeln!(out, "total ({side} to move) {total:.2}")
}

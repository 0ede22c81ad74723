//! `onca eval`: the static evaluation of one position broken down by term, in men.

use crate::eval::endgame::{classify, Verdict};
use crate::eval::evaluate::{breakdown, evaluate_with};
use crate::eval::weights::Weights;
use crate::rules::position::{Color, Position};
use std::io::Write;

/// Writes each feature group under `weights` for White and Black (each from its own view, phase-blended, before
/// the endgame knowledge), the endgame verdict, and the total from the side to move.
pub fn write_report(
    position: &Position,
    weights: &Weights,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let white = breakdown(position, Color::White, weights);
    let black = breakdown(position, Color::Black, weights);
    writeln!(out, "{:<20} {:>8} {:>8}", "term", "white", "black")?;
    for ((name, white_value), (_, black_value)) in white.iter().zip(&black) {
        writeln!(
            out,
            "{name:<20} {:>8.2} {:>8.2}",
            men(*white_value),
            men(*black_value)
        )?;
    }
    let verdict = match classify(position) {
        Verdict::Normal => String::from("none"),
        Verdict::Draw => String::from("draw (a king each)"),
        Verdict::Drawish => format!(
            "drawish (divided by {})",
            crate::eval::endgame::DRAWISH_DIVISOR
        ),
        Verdict::KingHunt {
            hunter,
            plies: Some(plies),
        } => format!(
            "{} wins the lone king in {plies} plies (compiled-in tables)",
            color_name(hunter)
        ),
        Verdict::KingHunt {
            hunter,
            plies: None,
        } => {
            format!("{} hunts the lone king", color_name(hunter))
        }
        Verdict::Damped { white, black } => {
            format!("a king damps the lead: white's divided by {white}, black's by {black}")
        }
    };
    writeln!(out, "endgame knowledge    {verdict}")?;
    let total = f64::from(evaluate_with(position, weights).0) / 100.0;
    writeln!(
        out,
        "total ({} to move) {total:.2}",
        color_name(position.side_to_move())
    )
}

/// Score units in men, without a negative zero.
fn men(units: f64) -> f64 {
    units / 100.0 + 0.0
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

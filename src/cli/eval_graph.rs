//! The evaluation graph of a reviewed game as a self-contained SVG picture, drawn here without
//! any plotting tool: White's advantage per ply (clamped to the review's cap), the area between
//! the curve and zero shaded, a dot on every inaccuracy, mistake and blunder, and move numbers
//! along the bottom.

use crate::analysis::review::{capped_men, GameReview, MoveClass, SCORE_CAP_MEN};
use std::fmt::Write;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 28.0;

/// The picture for `review`, titled `title`.
pub fn evaluation_svg(title: &str, review: &GameReview) -> String {
    let scores: Vec<f64> = review.white_scores().into_iter().map(capped_men).collect();
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let steps = (scores.len().max(2) - 1) as f64;
    let x = |ply: usize| LEFT + plot_width * ply as f64 / steps;
    let y = |men: f64| TOP + plot_height * (SCORE_CAP_MEN - men) / (2.0 * SCORE_CAP_MEN);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<text x="{LEFT}" y="18" font-size="13">{}</text>"##,
        escape(title)
    );
    // Horizontal grid: every man, labelled every other one; zero in black.
    let cap = SCORE_CAP_MEN as i32;
    for men in -cap..=cap {
        let level = y(f64::from(men));
        let colour = if men == 0 { "#000000" } else { "#dddddd" };
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{level:.1}" x2="{:.1}" y2="{level:.1}" stroke="{colour}" stroke-width="1"/>"##,
            WIDTH - RIGHT
        );
        if men.abs() % 2 == 1 || men == 0 || men.abs() == cap {
            let _ = writeln!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                LEFT - 6.0,
                level + 4.0,
                if men == 0 {
                    "0".to_string()
                } else {
                    format!("{men:+}")
                }
            );
        }
    }
    // Move numbers along the bottom, every 10 moves (20 plies) or every 5 in short games.
    let every = if scores.len() > 60 { 20 } else { 10 };
    for ply in (0..scores.len()).step_by(every) {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            x(ply),
            HEIGHT - 10.0,
            ply / 2 + 1
        );
    }
    let points: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(ply, &men)| format!("{:.1},{:.1}", x(ply), y(men)))
        .collect();
    let zero = y(0.0);
    let _ = writeln!(
        svg,
        r##"<polygon points="{:.1},{zero:.1} {} {:.1},{zero:.1}" fill="#8fb3d9" fill-opacity="0.5"/>"##,
        x(0),
        points.join(" "),
        x(scores.len().saturating_sub(1))
    );
    let _ = writeln!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#1f4e79" stroke-width="1.5"/>"##,
        points.join(" ")
    );
    for (ply, review) in review.plies.iter().enumerate() {
        let colour = match review.class {
            MoveClass::Inaccuracy => "#e6b800",
            MoveClass::Mistake => "#e67300",
            MoveClass::Blunder => "#cc0000",
            MoveClass::Best | MoveClass::Good => continue,
        };
        // The dot sits where the move left the game: the value after it.
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}</title></circle>"##,
            x(ply + 1),
            y(scores[ply + 1]),
            match review.class {
                MoveClass::Inaccuracy => "inaccuracy",
                MoveClass::Mistake => "mistake",
                _ => "blunder",
            }
        );
    }
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555555">White's advantage in men (clamped at {cap})</text>"##,
        WIDTH - RIGHT,
        TOP - 4.0
    );
    svg.push_str("</svg>\n");
    svg
}

/// Text made safe for SVG character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

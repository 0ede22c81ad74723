//! Static evaluation: a small, fast, symmetric handcrafted evaluation.
//!
//! Every term is computed for White from White's side of the board and for Black from Black's side
//! (through tables built from rotated squares), so `evaluate(p) == evaluate(p.color_flipped())`.
//! The result is seen from the side to move, in [`Score`] units (100 = one man). Terms:
//!
//! * material: men and kings (a king is worth about three men);
//! * men's advancement, blended from an opening table to an endgame table by the number of pieces
//!   left (advancing early weakens, advancing late promotes);
//! * centre men (opening weight) and back-row guards (while the opponent has no king);
//! * kings on the long diagonal;
//! * runaway men: a man with no enemy man in the cone in front of it;
//! * drawish endings (a king against at most two pieces) are scaled towards zero.
//!
//! The weights are data ([`Weights`]); [`EvalTables::new`] turns them into per-square tables at
//! compile time for the search's default, or at run time for other weights. [`side_features`] and
//! [`linear_features`] expose the same function as counts for the tuner and `onca eval`.

use crate::bitboard::{Bitboard, Direction};
use crate::position::{Color, Position};
use crate::score::Score;
use crate::square::Square;
use crate::weights::{self, Weights, TUNABLE};

/// Padded bit indices used by the tables (bits 0..=34, ghost bits unused).
const BITS: usize = 35;

/// Per-square man bonus tables for one colour, indexed by padded bit: (opening, endgame).
struct ManTables {
    opening: [i32; BITS],
    endgame: [i32; BITS],
    runaway: [i32; BITS],
    /// Squares in front of a man of this colour (its promotion cone), as raw bits.
    cone: [u64; BITS],
}

/// Rows advanced by a man of `color` on `square` (0 = own back row).
const fn advancement(square: Square, color: Color) -> usize {
    match color {
        Color::White => 7 - square.row() as usize,
        Color::Black => square.row() as usize,
    }
}

/// Where a man of `color` on `square` stands, seen from its own side.
struct ManSquare {
    /// Rows advanced (0 = own back row).
    advanced: usize,
    /// One of the four central squares.
    central: bool,
    /// On the wider centre ring but not central.
    near_centre: bool,
    /// On the a or h file.
    edge: bool,
}

const fn man_square(square: Square, color: Color) -> ManSquare {
    // Seen from this colour's side: the square as White would see it.
    let own = match color {
        Color::White => square,
        Color::Black => square.rotated(),
    };
    let file = own.file();
    let row_from_own = 7 - own.row(); // 0 = own back row
    let central = file >= 2 && file <= 5 && (row_from_own == 3 || row_from_own == 4);
    let near_centre = file >= 2 && file <= 5 && row_from_own >= 2 && row_from_own <= 5;
    ManSquare {
        advanced: advancement(square, color),
        central,
        near_centre: near_centre && !central,
        edge: file == 0 || file == 7,
    }
}

const fn man_tables(color: Color, weights: &Weights) -> ManTables {
    let mut tables = ManTables {
        opening: [0; BITS],
        endgame: [0; BITS],
        runaway: [0; BITS],
        cone: [0; BITS],
    };
    let mut number = 1;
    while number <= 32 {
        let square = match Square::from_number(number) {
            Some(square) => square,
            None => unreachable!(),
        };
        let at = man_square(square, color);
        let mut opening = weights.advance_opening[at.advanced];
        let endgame = weights.advance_endgame[at.advanced];
        if at.central {
            opening += weights.centre_opening;
        } else if at.near_centre {
            opening += weights.near_centre_opening;
        }
        if at.edge {
            opening += weights.edge_opening;
        }
        let bit = square.bit() as usize;
        tables.opening[bit] = opening;
        tables.endgame[bit] = endgame;
        tables.runaway[bit] = weights.runaway[at.advanced];
        tables.cone[bit] = cone(square, color);
        number += 1;
    }
    tables
}

/// The squares ahead of a man of `color` on `square` that an enemy man could use to stop it: the
/// widening triangle up to the promotion row.
const fn cone(square: Square, color: Color) -> u64 {
    let (left, right) = match color {
        Color::White => (Direction::UpLeft, Direction::UpRight),
        Color::Black => (Direction::DownLeft, Direction::DownRight),
    };
    let mut front = Bitboard::from_square(square).0;
    let mut reach = 0u64;
    while front != 0 {
        let spread = Bitboard(front);
        front = spread.step(left).0 | spread.step(right).0;
        reach |= front;
    }
    reach
}

/// Back-row guard squares: c1 and e1 for White (30, 31), f8 and d8 for Black (3, 2).
const WHITE_GUARDS: Bitboard = Bitboard::from_numbers(&[30, 31]);
const BLACK_GUARDS: Bitboard = Bitboard::from_numbers(&[2, 3]);

/// A set of [`Weights`] compiled into the per-square tables the evaluation reads.
pub struct EvalTables {
    white_men: ManTables,
    black_men: ManTables,
    weights: Weights,
}

impl EvalTables {
    /// Builds the tables for `weights` (usable in constants).
    pub const fn new(weights: &Weights) -> EvalTables {
        EvalTables {
            white_men: man_tables(Color::White, weights),
            black_men: man_tables(Color::Black, weights),
            weights: *weights,
        }
    }

    /// The weights these tables were built from.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

/// The tables of [`Weights::DEFAULT`], used by the search.
pub static DEFAULT_TABLES: EvalTables = EvalTables::new(&Weights::DEFAULT);

/// Terms for one colour (White or Black), from that colour's point of view: (opening, endgame).
#[inline(always)]
fn side_terms(
    position: &Position,
    color: Color,
    tables: &ManTables,
    guards: Bitboard,
    weights: &Weights,
) -> (i32, i32) {
    let them = color.opponent();
    let men = position.men(color);
    let kings = position.kings(color);
    let enemy_men = position.men(them).0;
    let enemy_has_kings = position.kings(them).is_not_empty();
    let mut opening = 0;
    let mut endgame = 0;
    for square in men {
        let bit = square.bit() as usize;
        opening += tables.opening[bit];
        endgame += tables.endgame[bit];
        if !enemy_has_kings && tables.runaway[bit] != 0 && tables.cone[bit] & enemy_men == 0 {
            opening += tables.runaway[bit];
            endgame += tables.runaway[bit];
        }
    }
    if !enemy_has_kings {
        opening += (men & guards).count() as i32 * weights.back_guard;
    }
    let long_diagonal =
        (kings & Bitboard::LONG_DIAGONAL).count() as i32 * weights.king_long_diagonal;
    let material =
        men.count() as i32 * weights.man + kings.count() as i32 * weights.king + long_diagonal;
    (opening + material, endgame + material)
}

/// The static evaluation of `position` from the side to move's point of view, with the default
/// weights.
#[inline]
pub fn evaluate(position: &Position) -> Score {
    evaluate_with(position, &DEFAULT_TABLES)
}

/// The static evaluation of `position` from the side to move's point of view, with `tables`.
#[inline]
pub fn evaluate_with(position: &Position, tables: &EvalTables) -> Score {
    let weights = &tables.weights;
    let (white_opening, white_endgame) = side_terms(
        position,
        Color::White,
        &tables.white_men,
        WHITE_GUARDS,
        weights,
    );
    let (black_opening, black_endgame) = side_terms(
        position,
        Color::Black,
        &tables.black_men,
        BLACK_GUARDS,
        weights,
    );
    let white_view = blend(
        position,
        weights,
        white_opening - black_opening,
        white_endgame - black_endgame,
    );
    let us = match position.side_to_move() {
        Color::White => white_view,
        Color::Black => -white_view,
    };
    Score::heuristic(us)
}

/// The phase blend of the opening and endgame sums (White's view) and the drawish scaling.
#[inline(always)]
fn blend(position: &Position, weights: &Weights, opening: i32, endgame: i32) -> i32 {
    let phase = weights.phase_pieces;
    let pieces = (position.occupied().count() as i32).min(phase);
    let white_view = (opening * pieces + endgame * (phase - pieces)) / phase;
    if is_drawish(position, white_view) {
        white_view / weights.drawish_divisor
    } else {
        white_view
    }
}

/// Whether the stronger side by `white_view` has at most two pieces against a king: endings it
/// cannot win (also drawn by the move-count rules in 5 moves), pulled towards zero.
#[inline(always)]
fn is_drawish(position: &Position, white_view: i32) -> bool {
    let (stronger, weaker) = if white_view > 0 {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    position.kings(weaker).is_not_empty() && position.pieces(stronger).count() <= 2
}

/// How often each tunable weight applies to one colour, in each phase: the evaluation's sums are
/// `opening = sum(weight[i] * opening[i])` and likewise for the endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideFeatures {
    /// Counts weighted fully at the opening end of the phase scale.
    pub opening: [i32; TUNABLE],
    /// Counts weighted fully at the endgame end.
    pub endgame: [i32; TUNABLE],
}

/// The feature counts of `color` in `position` (slow; for the tuner and `onca eval`).
pub fn side_features(position: &Position, color: Color) -> SideFeatures {
    let mut features = SideFeatures {
        opening: [0; TUNABLE],
        endgame: [0; TUNABLE],
    };
    let both = |features: &mut SideFeatures, index: usize, count: i32| {
        features.opening[index] += count;
        features.endgame[index] += count;
    };
    let them = color.opponent();
    let men = position.men(color);
    let kings = position.kings(color);
    let enemy_men = position.men(them).0;
    let enemy_has_kings = position.kings(them).is_not_empty();
    for square in men {
        let at = man_square(square, color);
        features.opening[weights::ADVANCE_OPENING + at.advanced] += 1;
        features.endgame[weights::ADVANCE_ENDGAME + at.advanced] += 1;
        if at.central {
            features.opening[weights::CENTRE_OPENING] += 1;
        } else if at.near_centre {
            features.opening[weights::NEAR_CENTRE_OPENING] += 1;
        }
        if at.edge {
            features.opening[weights::EDGE_OPENING] += 1;
        }
        if !enemy_has_kings && cone(square, color) & enemy_men == 0 {
            both(&mut features, weights::RUNAWAY + at.advanced, 1);
        }
    }
    if !enemy_has_kings {
        let guards = match color {
            Color::White => WHITE_GUARDS,
            Color::Black => BLACK_GUARDS,
        };
        features.opening[weights::BACK_GUARD] += (men & guards).count() as i32;
    }
    both(&mut features, weights::MAN, men.count() as i32);
    both(&mut features, weights::KING, kings.count() as i32);
    let long_diagonal = (kings & Bitboard::LONG_DIAGONAL).count() as i32;
    both(&mut features, weights::KING_LONG_DIAGONAL, long_diagonal);
    features
}

/// The evaluation of `position` from White's view as a linear function of the tunable weights:
/// `eval ≈ sum(weight[i] * feature[i])`, with the phase blend folded into each feature.
///
/// Two parts are not linear and are frozen here: the drawish scaling (whether it applies depends
/// on which side `weights` make stronger; when it does, every feature is divided by the divisor)
/// and the integer truncation of the blend and the scaling (the linear value can differ from
/// [`evaluate_with`] by up to two score units).
pub fn linear_features(position: &Position, weights: &Weights) -> [f32; TUNABLE] {
    let white = side_features(position, Color::White);
    let black = side_features(position, Color::Black);
    let phase = weights.phase_pieces;
    let pieces = (position.occupied().count() as i32).min(phase);
    let values = weights.tunable();
    let mut opening = 0;
    let mut endgame = 0;
    let mut out = [0.0; TUNABLE];
    for i in 0..TUNABLE {
        let o = white.opening[i] - black.opening[i];
        let e = white.endgame[i] - black.endgame[i];
        opening += values[i] * o;
        endgame += values[i] * e;
        out[i] = (o * pieces + e * (phase - pieces)) as f32 / phase as f32;
    }
    let raw = (opening * pieces + endgame * (phase - pieces)) / phase;
    if is_drawish(position, raw) {
        let divisor = weights.drawish_divisor as f32;
        for feature in &mut out {
            *feature /= divisor;
        }
    }
    out
}

/// One colour's share of the evaluation, term by term, in score units from that colour's view,
/// phase-blended (before the drawish scaling): (term name, value) pairs.
pub fn breakdown(position: &Position, color: Color, weights: &Weights) -> Vec<(&'static str, f64)> {
    let features = side_features(position, color);
    let phase = weights.phase_pieces;
    let pieces = (position.occupied().count() as i32).min(phase);
    let values = weights.tunable();
    let term = |indices: std::ops::Range<usize>| -> f64 {
        indices
            .map(|i| {
                let blended = features.opening[i] * pieces + features.endgame[i] * (phase - pieces);
                f64::from(values[i]) * f64::from(blended) / f64::from(phase)
            })
            .sum()
    };
    vec![
        ("material", term(weights::MAN..weights::KING + 1)),
        (
            "advancement",
            term(weights::ADVANCE_OPENING..weights::ADVANCE_ENDGAME + 8),
        ),
        (
            "centre",
            term(weights::CENTRE_OPENING..weights::EDGE_OPENING + 1),
        ),
        (
            "back guard",
            term(weights::BACK_GUARD..weights::BACK_GUARD + 1),
        ),
        (
            "king long diagonal",
            term(weights::KING_LONG_DIAGONAL..weights::KING_LONG_DIAGONAL + 1),
        ),
        ("runaway", term(weights::RUNAWAY..weights::RUNAWAY + 8)),
    ]
}

/// Whether the drawish scaling applies to `position` under `weights`.
pub fn drawish(position: &Position, weights: &Weights) -> bool {
    let white = side_features(position, Color::White);
    let black = side_features(position, Color::Black);
    let phase = weights.phase_pieces;
    let pieces = (position.occupied().count() as i32).min(phase);
    let dot = |ours: &[i32; TUNABLE], theirs: &[i32; TUNABLE]| -> i32 {
        weights
            .tunable()
            .iter()
            .zip(ours.iter().zip(theirs))
            .map(|(weight, (a, b))| weight * (a - b))
            .sum()
    };
    let opening = dot(&white.opening, &black.opening);
    let endgame = dot(&white.endgame, &black.endgame);
    is_drawish(
        position,
        (opening * pieces + endgame * (phase - pieces)) / phase,
    )
}

/// Whether `color` could capture if it were its turn (used to see threats in quiescence).
#[inline]
pub fn can_capture(position: &Position, color: Color) -> bool {
    let victims = position.pieces(color.opponent());
    let empty = position.empty_squares();
    let men = position.men(color);
    let kings = position.kings(color);
    for direction in Direction::ALL {
        let back = direction.opposite();
        let launch = (empty.step(back) & victims).step(back);
        if (launch & men).is_not_empty() {
            return true;
        }
        if kings.is_not_empty()
            && (((launch & empty).ray(back, empty) | launch) & kings).is_not_empty()
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_position;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), Score(0));
    }

    #[test]
    fn material_counts() {
        let up = parse_position("W:W21,22,23:B1,2").expect("valid");
        assert!(evaluate(&up).0 > 50);
        let flipped = up.color_flipped();
        assert_eq!(evaluate(&flipped), evaluate(&up));
    }

    /// Positions from deterministic pseudo-random playouts (a fixed LCG), every ply kept.
    fn sample_positions() -> Vec<Position> {
        let mut seed: u64 = 0x5eed;
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut position = Position::start();
            for _ in 0..80 {
                let moves = crate::movegen::legal_moves(&position);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = (seed >> 33) as usize % moves.len();
                position = position.play(&moves[pick]);
                out.push(position);
            }
        }
        out
    }

    #[test]
    fn linear_features_reproduce_the_evaluation() {
        let weights = Weights::DEFAULT;
        let values = weights.tunable();
        for position in sample_positions() {
            let features = linear_features(&position, &weights);
            let linear: f32 = features.iter().zip(values).map(|(f, w)| f * w as f32).sum();
            let white_view = match position.side_to_move() {
                Color::White => evaluate(&position).0,
                Color::Black => -evaluate(&position).0,
            };
            assert!(
                (linear - white_view as f32).abs() <= 2.0,
                "{} linear {linear} eval {white_view}",
                crate::fen::to_fen(&position)
            );
            let flipped = linear_features(&position.color_flipped(), &weights);
            for (a, b) in features.iter().zip(flipped) {
                assert!((a + b).abs() < 1e-4);
            }
        }
    }

    #[test]
    fn run_time_tables_match_the_default() {
        let tables = EvalTables::new(&Weights::DEFAULT);
        for position in sample_positions() {
            assert_eq!(evaluate_with(&position, &tables), evaluate(&position));
        }
    }

    #[test]
    fn drawish_endings_are_recognised_and_scaled() {
        let weights = Weights::DEFAULT;
        let drawn = parse_position("W:WK29:BK1,K5").expect("valid");
        assert!(drawish(&drawn, &weights));
        // White: a king on the long diagonal (a1); Black: two kings off it.
        assert_eq!(evaluate(&drawn).0, (320 - 600) / 8);
        let won = parse_position("W:WK29:BK1,K5,K6").expect("valid");
        assert!(!drawish(&won, &weights));
        assert!(!drawish(&Position::start(), &weights));
    }

    #[test]
    fn threats_are_seen_for_either_side() {
        // White man on 22, black man on 18 with 15 empty: White to move can capture, and so
        // could Black (18x25 over 22 if 25 is empty).
        let position = parse_position("W:W22:B18").expect("valid");
        assert!(can_capture(&position, Color::White));
        assert!(can_capture(&position, Color::Black));
        let quiet = parse_position("W:W29:B1").expect("valid");
        assert!(!can_capture(&quiet, Color::White));
        assert!(!can_capture(&quiet, Color::Black));
    }
}

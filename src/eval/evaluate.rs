//! Static evaluation: weighted features of each side, blended by game phase, then the endgame
//! knowledge of [`crate::eval::endgame`].
//!
//! [`visit_features`] is the one place that knows what the features are (see [`crate::eval::weights`]
//! for the list). It counts them for one side from that side's own point of view and hands each
//! count to a [`FeatureSink`]: the search's sink multiplies by the weights as it goes
//! ([`evaluate`]); the tuner's and `onca eval`'s sinks keep the counts ([`feature_counts`]). Both
//! colours are counted the same way on mirrored squares, so a position and its colour-flipped
//! mirror get the same score from the side to move.
//!
//! The score is `(opening * pieces + endgame * (24 - pieces)) / 24` where `opening` and `endgame`
//! are White's weighted sums minus Black's, then adjusted by the endgame verdict, and returned
//! from the side to move's view in [`Score`] units (100 = one man).

use crate::eval::endgame::{self, Verdict};
use crate::eval::patterns::{
    table_name, table_of_entry, visit_patterns, TableSet, MAX_ENTRIES_PER_SIDE,
};
use crate::eval::score::Score;
use crate::eval::weights::*;
use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::position::{Color, Position};
use crate::rules::square::{Square, BIT_SLOTS};

/// Pieces on the board at the start: the opening end of the phase scale.
pub const PHASE_PIECES: i32 = 24;

/// Receives feature counts as [`visit_features`] finds them.
pub trait FeatureSink {
    /// `count` more of `feature` (an index into the weights).
    fn add(&mut self, feature: usize, count: i32);
    /// Pattern entry `entry` is present (see [`crate::eval::patterns`]).
    fn add_pattern(&mut self, entry: usize);
    /// The pattern tables the sink needs (a weighted sum needs only the tables with a non-zero
    /// weight).
    fn pattern_tables(&self) -> TableSet {
        TableSet::ALL
    }
}

/// The fixed geometry of one colour: its directions and squares seen from its own side.
struct Side {
    /// The two directions its men move in.
    forward: [Direction; 2],
    /// Men on both of these form the bridge (c1 and e1 from its side).
    bridge: Bitboard,
    /// Its two home rows, where a man needs no backing.
    home: Bitboard,
    /// Own-view index (square number − 1 as seen from this side) by padded bit.
    own_index: [u8; BIT_SLOTS],
    /// The promotion cone in front of a man of this colour, by padded bit.
    cone: [u64; BIT_SLOTS],
}

const fn side(color: Color) -> Side {
    let (forward, bridge) = match color {
        Color::White => (
            [Direction::UpLeft, Direction::UpRight],
            Bitboard::from_numbers(&[30, 31]),
        ),
        Color::Black => (
            [Direction::DownLeft, Direction::DownRight],
            Bitboard::from_numbers(&[3, 2]),
        ),
    };
    let mut side = Side {
        forward,
        bridge,
        home: Bitboard::EMPTY,
        own_index: [0; BIT_SLOTS],
        cone: [0; BIT_SLOTS],
    };
    let mut number = 1;
    while number <= 32 {
        let square = match Square::from_number(number) {
            Some(square) => square,
            None => unreachable!(),
        };
        let own = match color {
            Color::White => square,
            Color::Black => square.rotated(),
        };
        let bit = square.bit() as usize;
        side.own_index[bit] = (own.number() - 1) as u8;
        if own.number() > 24 {
            side.home = Bitboard(side.home.0 | Bitboard::from_square(square).0);
        }
        side.cone[bit] = cone(square, forward);
        number += 1;
    }
    side
}

/// The squares ahead of a man on `square` moving in `forward` directions, up to the promotion
/// row: where an enemy man could stand to stop it.
const fn cone(square: Square, forward: [Direction; 2]) -> u64 {
    let mut front = Bitboard::from_square(square).0;
    let mut reach = 0u64;
    while front != 0 {
        let spread = Bitboard(front);
        front = spread.step(forward[0]).0 | spread.step(forward[1]).0;
        reach |= front;
    }
    reach
}

/// Squares whose file is in `files`.
const fn files(first: u32, last: u32) -> Bitboard {
    let mut set = 0u64;
    let mut number = 1;
    while number <= 32 {
        if let Some(square) = Square::from_number(number) {
            if square.file() >= first && square.file() <= last {
                set |= Bitboard::from_square(square).0;
            }
        }
        number += 1;
    }
    Bitboard(set)
}

static SIDES: [Side; 2] = [side(Color::White), side(Color::Black)];
const EDGES: Bitboard = Bitboard(files(0, 0).0 | files(7, 7).0);
const LEFT_FLANK: Bitboard = files(0, 3);
const RIGHT_FLANK: Bitboard = files(4, 7);
/// c5, e5, d4, f4.
const CENTRE: Bitboard = Bitboard::from_numbers(&[14, 15, 18, 19]);

fn side_of(color: Color) -> &'static Side {
    match color {
        Color::White => &SIDES[0],
        Color::Black => &SIDES[1],
    }
}

/// Counts every feature of `color` in `position` into `sink` (see [`crate::eval::weights`]).
#[inline(always)]
pub fn visit_features(position: &Position, color: Color, sink: &mut impl FeatureSink) {
    let tables = sink.pattern_tables();
    if !tables.is_empty() {
        visit_patterns(position, color, tables, |entry| sink.add_pattern(entry));
    }
    let side = side_of(color);
    let them = color.opponent();
    let men = position.men(color);
    let kings = position.kings(color);
    let own = men | kings;
    let enemy_men = position.men(them);
    let enemy_has_kings = position.kings(them).is_not_empty();
    let empty = position.empty_squares();

    for square in men {
        let bit = square.bit() as usize;
        let index = side.own_index[bit] as usize;
        sink.add(MAN_SQUARE + index, 1);
        if !enemy_has_kings {
            if index >= 28 {
                sink.add(BACK_GUARD + index - 28, 1);
            }
            // index / 4 is the number of rows still to go (at least 1 for a man).
            if side.cone[bit] & enemy_men.0 == 0 {
                sink.add(RUNAWAY + index / 4 - 1, 1);
            }
        }
    }

    let king_count = kings.count() as i32;
    if king_count > 0 {
        sink.add(FIRST_KING, 1);
        if king_count > 1 {
            sink.add(SECOND_KING, 1);
        }
        if king_count > 2 {
            sink.add(MORE_KINGS, king_count - 2);
        }
        sink.add(
            KING_LONG_DIAGONAL,
            (kings & Bitboard::LONG_DIAGONAL).count() as i32,
        );
        let mut reach = 0;
        for direction in Direction::ALL {
            reach += (kings.ray(direction, empty) & empty).count();
        }
        sink.add(KING_MOBILITY, reach as i32);
    }

    if men.is_empty() {
        return;
    }
    let [left, right] = side.forward;
    let steps = (men.step(left) & empty).count() + (men.step(right) & empty).count();
    sink.add(MAN_MOBILITY, steps as i32);
    // A piece one step behind a square, moved forward, lands on it.
    let backed_left = own.step(right);
    let backed_right = own.step(left);
    sink.add(TRIANGLE, (men & backed_left & backed_right).count() as i32);
    let unbacked = men & !(backed_left | backed_right) & !side.home & !EDGES;
    sink.add(HANGING, unbacked.count() as i32);
    let neighbours = Direction::ALL
        .iter()
        .fold(Bitboard::EMPTY, |set, &direction| set | own.step(direction));
    sink.add(ISOLATED, (men & !neighbours).count() as i32);
    let can_step = empty.step(left.opposite()) | empty.step(right.opposite());
    sink.add(LOCKED, (men & !can_step).count() as i32);
    if (men & side.bridge).count() == 2 {
        sink.add(BRIDGE, 1);
    }
    let flank = (men & LEFT_FLANK).count() as i32 - (men & RIGHT_FLANK).count() as i32;
    sink.add(FLANK_IMBALANCE, flank.abs());
    let controlled = (men | men.step(left) | men.step(right)) & CENTRE;
    sink.add(CENTRE_CONTROL, controlled.count() as i32);

    if endgame::material(position, color) > endgame::material(position, them) {
        let gone = PHASE_PIECES - position.occupied().count() as i32;
        sink.add(TRADE_WHEN_AHEAD, gone.max(0));
    }
}

/// A sink that multiplies each count by its weights as it goes.
struct WeightedSum<'a> {
    weights: &'a Weights,
    opening: i32,
    endgame: i32,
}

impl FeatureSink for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.opening += self.weights.opening[feature] * count;
        self.endgame += self.weights.endgame[feature] * count;
    }

    #[inline(always)]
    fn add_pattern(&mut self, entry: usize) {
        let [opening, endgame] = self.weights.patterns.get(entry);
        self.opening += i32::from(opening);
        self.endgame += i32::from(endgame);
    }

    #[inline(always)]
    fn pattern_tables(&self) -> TableSet {
        self.weights.patterns.tables_in_use()
    }
}

/// Feature counts of one side: each term's count by feature index, and the pattern entries it
/// reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureCounts {
    /// Count of each handcrafted feature.
    pub terms: [i32; FEATURES],
    /// The pattern entries read, in visiting order: the first `pattern_count` are valid.
    pub patterns: [usize; MAX_ENTRIES_PER_SIDE],
    /// How many of `patterns` are valid.
    pub pattern_count: usize,
}

impl FeatureCounts {
    /// The pattern entries read.
    pub fn pattern_entries(&self) -> &[usize] {
        &self.patterns[..self.pattern_count]
    }
}

impl FeatureSink for FeatureCounts {
    fn add(&mut self, feature: usize, count: i32) {
        self.terms[feature] += count;
    }

    fn add_pattern(&mut self, entry: usize) {
        self.patterns[self.pattern_count] = entry;
        self.pattern_count += 1;
    }
}

/// The feature counts of `color` in `position`.
pub fn feature_counts(position: &Position, color: Color) -> FeatureCounts {
    let mut counts = FeatureCounts {
        terms: [0; FEATURES],
        patterns: [0; MAX_ENTRIES_PER_SIDE],
        pattern_count: 0,
    };
    visit_features(position, color, &mut counts);
    counts
}

/// Pieces on the board, capped at [`PHASE_PIECES`]: the opening share of the blend.
#[inline(always)]
fn phase(position: &Position) -> i32 {
    (position.occupied().count() as i32).min(PHASE_PIECES)
}

/// The static evaluation of `position` from the side to move's view, with the default weights.
#[inline]
pub fn evaluate(position: &Position) -> Score {
    evaluate_with(position, Weights::builtin())
}

/// The static evaluation of `position` from the side to move's view, with `weights` (in either
/// variant: what differs between them, the rules, the search sees; the endgame knowledge is the
/// same, see [`endgame`]).
#[inline]
pub fn evaluate_with(position: &Position, weights: &Weights) -> Score {
    let verdict = endgame::classify(position);
    if verdict == Verdict::Draw {
        return Score::DRAW;
    }
    let mut white = WeightedSum {
        weights,
        opening: 0,
        endgame: 0,
    };
    let mut black = WeightedSum {
        weights,
        opening: 0,
        endgame: 0,
    };
    visit_features(position, Color::White, &mut white);
    visit_features(position, Color::Black, &mut black);
    let pieces = phase(position);
    let opening = white.opening - black.opening;
    let endgame = white.endgame - black.endgame;
    let blended = (opening * pieces + endgame * (PHASE_PIECES - pieces)) / PHASE_PIECES;
    let white_view = endgame::adjust(position, verdict, blended);
    Score::heuristic(match position.side_to_move() {
        Color::White => white_view,
        Color::Black => -white_view,
    })
}

/// A position's evaluation from White's view as a linear function of the weights (see
/// [`linear_features`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearFeatures {
    /// The coefficient of each tunable term weight ([`Weights::tunable`] order).
    pub terms: [f32; TUNABLE],
    /// The coefficient of a pattern entry's opening weight: the opening share of the blend
    /// (pieces / 24), divided like the whole evaluation by the endgame knowledge's divisor when it
    /// is the same for both sides ([`Verdict::Damped`]).
    pub opening_share: f32,
    /// The coefficient of a pattern entry's endgame weight: the rest of the blend, divided the
    /// same way.
    pub endgame_share: f32,
    /// White's and Black's pattern entries, pairwise (both sides read the same regions): White's
    /// entry counts `+1`, Black's `-1`, each with the phase shares. Only the first
    /// `pattern_count` pairs are valid.
    pub patterns: [(u32, u32); MAX_ENTRIES_PER_SIDE],
    /// How many of `patterns` are valid.
    pub pattern_count: usize,
}

impl LinearFeatures {
    /// The valid (White entry, Black entry) pairs.
    pub fn pattern_pairs(&self) -> &[(u32, u32)] {
        &self.patterns[..self.pattern_count]
    }
}

/// The evaluation of `position` from White's view as a linear function of the weights:
/// `eval ≈ sum(tunable[i] * terms[i])` plus, per region, White's pattern entry minus Black's,
/// blended by phase (up to the integer truncations of the blend and of a damped lead, at most one
/// unit). `None` when the endgame knowledge scores the position instead of the weights, or
/// divides a lead by a divisor that depends on who is ahead (not a linear function).
pub fn linear_features(position: &Position) -> Option<LinearFeatures> {
    let divisor = match endgame::classify(position) {
        Verdict::Normal => 1,
        Verdict::Damped { white, black } if white == black => white,
        _ => return None,
    };
    let white = feature_counts(position, Color::White);
    let black = feature_counts(position, Color::Black);
    let full = PHASE_PIECES as f32;
    let opening_share = phase(position) as f32 / full / divisor as f32;
    let endgame_share = 1.0 / divisor as f32 - opening_share;
    let mut terms = [0.0; TUNABLE];
    for feature in 0..FEATURES {
        let difference = (white.terms[feature] - black.terms[feature]) as f32;
        terms[feature] = difference * opening_share;
        terms[FEATURES + feature] = difference * endgame_share;
    }
    debug_assert_eq!(white.pattern_count, black.pattern_count);
    let patterns = std::array::from_fn(|at| (white.patterns[at] as u32, black.patterns[at] as u32));
    Some(LinearFeatures {
        terms,
        opening_share,
        endgame_share,
        patterns,
        pattern_count: white.pattern_count,
    })
}

/// One colour's share of the weighted evaluation by feature group, then by pattern region (the
/// regions it reads in its own view), phase-blended, in score units from that colour's view
/// (before the endgame verdict): (name, value) pairs.
pub fn breakdown(position: &Position, color: Color, weights: &Weights) -> Vec<(&'static str, f64)> {
    let counts = feature_counts(position, color);
    let pieces = f64::from(phase(position));
    let full = f64::from(PHASE_PIECES);
    let terms = GROUPS.iter().map(|group| {
        let value = (group.first..group.first + group.len)
            .map(|feature| {
                let count = f64::from(counts.terms[feature]);
                let opening = f64::from(weights.opening[feature]);
                let endgame = f64::from(weights.endgame[feature]);
                count * (opening * pieces + endgame * (full - pieces)) / full
            })
            .sum();
        (group.name, value)
    });
    // Only the tables the weights fill: the others add nothing and would list every shape.
    let in_use = weights.patterns.tables_in_use();
    let patterns = counts
        .pattern_entries()
        .iter()
        .filter(|&&entry| in_use.holds_entry(entry));
    let patterns = patterns.map(|&entry| {
        let [opening, endgame] = weights.patterns.get(entry);
        let value = (f64::from(opening) * pieces + f64::from(endgame) * (full - pieces)) / full;
        (table_name(table_of_entry(entry)), value)
    });
    terms.chain(patterns).collect()
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
    use crate::eval::patterns::{ENTRY_COUNT, REGION_COUNT};
    use crate::notation::fen::parse_position;

    fn position(fen: &str) -> Position {
        parse_position(fen).expect("valid position")
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), Score(0));
    }

    #[test]
    fn material_counts() {
        // An extra man is worth at least 0.4 men from a bare ending to the full board (the fitted
        // weights value the bare three against two lowest, since such endings are often drawn).
        for fen in ["W:W21,22,23:B1,2", "W:W21-28:B1-7", "W:W21-32:B1-11"] {
            let up = position(fen);
            assert!(evaluate(&up).0 > 40, "{fen}: {}", evaluate(&up).0);
            assert_eq!(evaluate(&up.color_flipped()), evaluate(&up));
        }
    }

    /// Positions from deterministic pseudo-random playouts (a fixed LCG), every ply kept.
    fn sample_positions() -> Vec<Position> {
        let mut seed: u64 = 0x5eed;
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut position = Position::start();
            for _ in 0..80 {
                let moves = crate::rules::movegen::legal_moves(&position);
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

    /// The built-in weights with every pattern entry set to a pseudo-random value in -40..=40.
    fn weights_with_patterns() -> Weights {
        weights_with_tables(TableSet::ALL)
    }

    /// The built-in terms with the entries of `tables` set to pseudo-random values in -40..=40
    /// and every other pattern entry zero.
    fn weights_with_tables(tables: TableSet) -> Weights {
        let mut weights = Weights {
            patterns: crate::eval::patterns::PatternWeights::zero(),
            ..Weights::default()
        };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for entry in 0..ENTRY_COUNT {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let value = |shift: u32| ((state >> shift) % 81) as i16 - 40;
            if tables.holds_entry(entry) {
                weights.patterns.set(entry, [value(0), value(32)]);
            }
        }
        weights
    }

    #[test]
    fn only_the_tables_in_use_are_read_and_the_score_is_that_of_reading_all() {
        // Region 2's men table and region 5's king table.
        let tables = TableSet((1 << 2) | (1 << (REGION_COUNT + 5)));
        let weights = weights_with_tables(tables);
        assert_eq!(weights.patterns.tables_in_use(), tables);
        let mut reads = 0;
        let mut checked = 0;
        for position in sample_positions() {
            let mut sum = WeightedSum {
                weights: &weights,
                opening: 0,
                endgame: 0,
            };
            assert_eq!(sum.pattern_tables(), tables);
            visit_patterns(&position, Color::White, tables, |entry| {
                reads += 1;
                assert!(tables.holds_entry(entry));
                sum.add_pattern(entry);
            });
            let Some(features) = linear_features(&position) else {
                continue;
            };
            checked += 1;
            let white_view = match position.side_to_move() {
                Color::White => evaluate_with(&position, &weights).0,
                Color::Black => -evaluate_with(&position, &weights).0,
            };
            let linear = linear_eval(&features, &weights);
            assert!(
                (linear - white_view as f32).abs() <= 1.0,
                "linear {linear} eval {white_view}"
            );
        }
        assert!(checked > 1_500 && reads > checked, "{checked} {reads}");
    }

    /// The linear form's value for `weights`.
    fn linear_eval(features: &LinearFeatures, weights: &Weights) -> f32 {
        let terms: f32 = features
            .terms
            .iter()
            .zip(weights.tunable())
            .map(|(f, w)| f * w as f32)
            .sum();
        let entry = |flat: u32| {
            let [opening, endgame] = weights.patterns.get(flat as usize);
            f32::from(opening) * features.opening_share
                + f32::from(endgame) * features.endgame_share
        };
        let patterns: f32 = features
            .pattern_pairs()
            .iter()
            .map(|&(white, black)| entry(white) - entry(black))
            .sum();
        terms + patterns
    }

    #[test]
    fn weights_without_patterns_skip_the_regions_and_score_the_same() {
        assert!(
            Weights::default().patterns.in_use(),
            "the built-in weights have patterns"
        );
        let skipped = Weights {
            patterns: crate::eval::patterns::PatternWeights::zero(),
            ..Weights::default()
        };
        assert!(!skipped.patterns.in_use());
        // The same zero tables, but marked as used: the regions are read and add nothing.
        let mut read = skipped.clone();
        read.patterns.set(17, [5, -5]);
        read.patterns.set(17, [0, 0]);
        assert!(read.patterns.in_use());
        assert_eq!(read, skipped);
        let with_patterns = weights_with_patterns();
        let mut differ = 0;
        for position in sample_positions() {
            let score = evaluate_with(&position, &skipped);
            assert_eq!(evaluate_with(&position, &read), score);
            differ += usize::from(evaluate_with(&position, &with_patterns) != score);
        }
        assert!(differ > 1000, "patterns changed only {differ} scores");
    }

    #[test]
    fn linear_features_reproduce_the_evaluation() {
        let weights = weights_with_patterns();
        let mut checked = 0;
        for position in sample_positions() {
            let Some(features) = linear_features(&position) else {
                continue;
            };
            checked += 1;
            let linear = linear_eval(&features, &weights);
            let white_view = match position.side_to_move() {
                Color::White => evaluate_with(&position, &weights).0,
                Color::Black => -evaluate_with(&position, &weights).0,
            };
            assert!(
                (linear - white_view as f32).abs() <= 1.0,
                "{} linear {linear} eval {white_view}",
                crate::notation::fen::to_fen(&position)
            );
            let flipped = linear_features(&position.color_flipped()).expect("same material");
            for (a, b) in features.terms.iter().zip(flipped.terms) {
                assert!((a + b).abs() < 1e-4);
            }
            let swapped: Vec<(u32, u32)> = flipped
                .pattern_pairs()
                .iter()
                .map(|&(w, b)| (b, w))
                .collect();
            assert_eq!(features.pattern_pairs().to_vec(), swapped);
        }
        assert!(checked > 1_500, "{checked}");
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        let weights = weights_with_patterns();
        for position in sample_positions() {
            assert_eq!(
                evaluate_with(&position, &weights),
                evaluate_with(&position.color_flipped(), &weights)
            );
        }
    }

    #[test]
    fn formations_are_counted() {
        // A white man on 22 (c3) backed by 25 and 26 (b2, d2) is a triangle; alone it hangs.
        let triangle = feature_counts(&position("W:W22,25,26:B1"), Color::White);
        assert_eq!(triangle.terms[TRIANGLE], 1);
        assert_eq!(triangle.terms[HANGING], 0);
        let hanging = feature_counts(&position("W:W22:B1"), Color::White);
        assert_eq!(hanging.terms[HANGING], 1);
        assert_eq!(hanging.terms[ISOLATED], 1);
        // Black's bridge on 2 and 3 (c1/e1 from its side); a man on 1 (b8) is on its back row.
        let bridge = feature_counts(&position("W:W29:B1,2,3"), Color::Black);
        assert_eq!(bridge.terms[BRIDGE], 1);
        assert_eq!(bridge.terms[BACK_GUARD + 3], 1);
        // A white man on 29 (a1) blocked by white 25 ahead: locked (a1 has one forward square).
        let locked = feature_counts(&position("W:W29,25:B1"), Color::White);
        assert_eq!(locked.terms[LOCKED], 1);
        // A man on 5 (a7), one row from promotion, with no black man ahead: a runaway.
        let runaway = feature_counts(&position("W:W5:B28"), Color::White);
        assert_eq!(runaway.terms[RUNAWAY], 1);
    }

    #[test]
    fn kings_lose_value_as_they_multiply_and_count_mobility() {
        let counts = feature_counts(&position("W:WK29,K1,K2,K3:B28"), Color::White);
        assert_eq!(counts.terms[FIRST_KING], 1);
        assert_eq!(counts.terms[SECOND_KING], 1);
        assert_eq!(counts.terms[MORE_KINGS], 2);
        assert_eq!(counts.terms[KING_LONG_DIAGONAL], 1);
        // A king on a1 sees the whole long diagonal: 7 empty squares.
        let alone = feature_counts(&position("W:WK29:B28"), Color::White);
        assert_eq!(alone.terms[KING_MOBILITY], 7);
    }

    #[test]
    fn endgame_knowledge_overrides_material() {
        // One king each: a draw whatever the placement.
        assert_eq!(evaluate(&position("W:WK29:BK1")), Score::DRAW);
        // Two kings against one: far less than the material says.
        let two_kings = evaluate(&position("W:WK29,K30:BK1")).0;
        assert!(two_kings.abs() < 100, "{two_kings}");
        // Three kings against a king on the long diagonal: drawish; off it: a clear win.
        let diagonal = evaluate(&position("W:WK1,K2,K3:BK22")).0;
        let off = evaluate(&position("W:WK1,K2,K3:BK21")).0;
        assert!(diagonal < 150, "{diagonal}");
        assert!(off > 700, "{off}");
    }

    #[test]
    fn threats_are_seen_for_either_side() {
        // White man on 22, black man on 18 with 15 empty: White to move can capture, and so
        // could Black (18x25 over 22 if 25 is empty).
        let threat = position("W:W22:B18");
        assert!(can_capture(&threat, Color::White));
        assert!(can_capture(&threat, Color::Black));
        let quiet = position("W:W29:B1");
        assert!(!can_capture(&quiet, Color::White));
        assert!(!can_capture(&quiet, Color::Black));
    }
}

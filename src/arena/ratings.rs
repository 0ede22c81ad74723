//! Tournament ratings: one Elo per engine from every game of every pairing, by maximum likelihood
//! in the Bradley-Terry model (engine i scores against j with probability
//! `1 / (1 + 10^((R_j - R_i) / 400))`, a draw counting as half a win), relative to the first
//! engine, with 95% intervals.
//!
//! * The fit is the minorize-maximize iteration of Hunter (2004), which converges for any
//!   connected set of results.
//! * A perfect score has no finite maximum, so each pairing that was played gets `prior_draws`
//!   virtual drawn games (one moves a 60% score over 100 games by about 0.1%).
//! * The intervals come from the inverse of the observed information with the first engine
//!   fixed, scaled by the spread of the game scores around their expectations (draws make games
//!   less noisy than the binary model assumes; the scaling lets them narrow the interval as
//!   the per-game error bar of a two-engine match does).

use crate::arena::elo::{Tally, Z_95};

/// The results of one pairing: engines `first` and `second` (indices) and `first`'s wins,
/// draws and losses against `second`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingResult {
    /// Index of the engine the tally counts for.
    pub first: usize,
    /// Index of its opponent.
    pub second: usize,
    /// `first`'s results against `second`.
    pub tally: Tally,
}

/// One engine's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo relative to engine 0 (which is 0).
    pub elo: f64,
    /// Half width of the 95% interval; None for engine 0 and where the results do not determine
    /// it (no games, or no chain of games to engine 0).
    pub error_95: Option<f64>,
}

/// Elo per unit of the model's natural logarithm scale.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Ratings of `engines` engines from `results`, engine 0 at 0; None for an engine without games.
pub fn fit(engines: usize, results: &[PairingResult], prior_draws: f64) -> Vec<Option<Rating>> {
    // games[i][j] and points[i][j]: games between i and j and i's points, virtual draws included.
    let mut games = vec![vec![0.0f64; engines]; engines];
    let mut points = vec![vec![0.0f64; engines]; engines];
    for result in results {
        let (i, j, tally) = (result.first, result.second, result.tally);
        if i >= engines || j >= engines || i == j || tally.games() == 0 {
            continue;
        }
        let played = f64::from(tally.games()) + prior_draws;
        let scored = f64::from(tally.wins) + 0.5 * f64::from(tally.draws) + 0.5 * prior_draws;
        games[i][j] += played;
        games[j][i] += played;
        points[i][j] += scored;
        points[j][i] += played - scored;
    }
    let played: Vec<bool> = (0..engines)
        .map(|i| games[i].iter().any(|&n| n > 0.0))
        .collect();
    let total_points: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();
    let mut strength = vec![1.0f64; engines];
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        for i in (0..engines).filter(|&i| played[i]) {
            let denominator: f64 = (0..engines)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (strength[i] + strength[j]))
                .sum();
            // A zero score (possible only without virtual draws) pins the engine far below.
            let updated = (total_points[i] / denominator).max(1e-12);
            change = change.max((updated / strength[i]).ln().abs());
            strength[i] = updated;
        }
        if change < 1e-12 {
            break;
        }
    }
    let reference = if played[0] { strength[0] } else { 1.0 };
    let theta: Vec<f64> = strength.iter().map(|s| (s / reference).ln()).collect();
    let errors = intervals(&games, results, &theta, &played);
    (0..engines)
        .map(|i| {
            played[i].then(|| Rating {
                elo: ELO_PER_NAT * theta[i],
                error_95: errors[i].map(|sigma| Z_95 * ELO_PER_NAT * sigma),
            })
        })
        .collect()
}

/// The standard error of each engine's log-strength (engine 0 fixed), or None where the
/// information matrix does not determine it.
fn intervals(
    games: &[Vec<f64>],
    results: &[PairingResult],
    theta: &[f64],
    played: &[bool],
) -> Vec<Option<f64>> {
    let engines = theta.len();
    let expected = |i: usize, j: usize| 1.0 / (1.0 + (theta[j] - theta[i]).exp());
    let mut information = vec![vec![0.0f64; engines]; engines];
    for i in 0..engines {
        for j in 0..engines {
            if i != j && games[i][j] > 0.0 {
                let p = expected(i, j);
                let w = games[i][j] * p * (1.0 - p);
                information[i][i] += w;
                information[i][j] -= w;
            }
        }
    }
    let dispersion = dispersion(results, engines, &expected);
    // Engine 0 is the reference: drop its row and column.
    let free: Vec<usize> = (1..engines).filter(|&i| played[i]).collect();
    let reduced: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| free.iter().map(|&j| information[i][j]).collect())
        .collect();
    let mut errors = vec![None; engines];
    if let Some(inverse) = invert(reduced) {
        for (row, &i) in free.iter().enumerate() {
            let variance = inverse[row][row] * dispersion;
            if variance.is_finite() && variance > 0.0 {
                errors[i] = Some(variance.sqrt());
            }
        }
    }
    errors
}

/// The games' squared deviations from their expected scores over the binary model's variance
/// `p (1 - p)`, summed over the real games (1 when the results carry no information on it).
fn dispersion(
    results: &[PairingResult],
    engines: usize,
    expected: &impl Fn(usize, usize) -> f64,
) -> f64 {
    let (mut observed, mut model) = (0.0, 0.0);
    for result in results {
        let (i, j, tally) = (result.first, result.second, result.tally);
        if i >= engines || j >= engines || i == j {
            continue;
        }
        let p = expected(i, j);
        observed += f64::from(tally.wins) * (1.0 - p).powi(2)
            + f64::from(tally.draws) * (0.5 - p).powi(2)
            + f64::from(tally.losses) * p.powi(2);
        model += f64::from(tally.games()) * p * (1.0 - p);
    }
    if model > 0.0 && observed > 0.0 {
        observed / model
    } else {
        1.0
    }
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting; None when
/// it is singular (or empty).
fn invert(mut matrix: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    if n == 0 {
        return None;
    }
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-12 {
            return None;
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = matrix[column][column];
        for k in 0..n {
            matrix[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in 0..n {
            if row != column {
                let factor = matrix[row][column];
                if factor != 0.0 {
                    for k in 0..n {
                        matrix[row][k] -= factor * matrix[column][k];
                        inverse[row][k] -= factor * inverse[column][k];
                    }
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::elo::elo_estimate;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn two_engines_match_the_per_game_elo_and_error_bar() {
        let result = tally(30, 50, 20);
        let ratings = fit(
            2,
            &[PairingResult {
                first: 0,
                second: 1,
                tally: result,
            }],
            0.0,
        );
        let first = ratings[0].expect("rated");
        assert_eq!(first.elo, 0.0);
        assert_eq!(first.error_95, None);
        let second = ratings[1].expect("rated");
        let expected = elo_estimate(&result).expect("an estimate");
        // Engine 1 is rated from its own side: minus engine 0's advantage.
        assert!((second.elo + expected.elo).abs() < 1e-6, "{second:?}");
        let error = second.error_95.expect("an interval");
        // The per-game bar maps the score interval's ends to Elo; the fit's is linearised at the
        // estimate: the two agree to a few percent at this score.
        assert!(
            (error - expected.error_95).abs() < 0.03 * expected.error_95,
            "{error} vs {expected:?}"
        );
    }

    #[test]
    fn three_engines_in_a_consistent_chain() {
        // 0 scores 64% against 1 and 1 scores 64% against 2 (about +100 each); 0 beats 2 at 80%
        // (about +240): the fit puts 1 near -100 and 2 near -220, between the chain and the
        // direct result.
        let results = [
            PairingResult {
                first: 0,
                second: 1,
                tally: tally(54, 20, 26),
            },
            PairingResult {
                first: 1,
                second: 2,
                tally: tally(54, 20, 26),
            },
            PairingResult {
                first: 2,
                second: 0,
                tally: tally(10, 20, 70),
            },
        ];
        let ratings = fit(3, &results, 1.0);
        let one = ratings[1].expect("rated");
        let two = ratings[2].expect("rated");
        assert!((-130.0..-80.0).contains(&one.elo), "{one:?}");
        assert!((-260.0..-190.0).contains(&two.elo), "{two:?}");
        assert!(one.error_95.expect("interval") > 10.0);
        assert!(two.error_95.expect("interval") > one.error_95.expect("interval") * 0.8);
    }

    #[test]
    fn perfect_scores_stay_finite_and_absent_engines_are_unrated() {
        let results = [PairingResult {
            first: 0,
            second: 1,
            tally: tally(10, 0, 0),
        }];
        let ratings = fit(3, &results, 1.0);
        let beaten = ratings[1].expect("rated");
        // 10.5 of 11 points: about -530 Elo, finite.
        assert!((-600.0..-450.0).contains(&beaten.elo), "{beaten:?}");
        assert_eq!(ratings[2], None);
    }

    #[test]
    fn inverts_small_matrices() {
        let inverse = invert(vec![vec![4.0, 7.0], vec![2.0, 6.0]]).expect("invertible");
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for (row, want) in inverse.iter().zip(expected) {
            for (got, want) in row.iter().zip(want) {
                assert!((got - want).abs() < 1e-12);
            }
        }
        assert_eq!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]), None);
        assert_eq!(invert(Vec::new()), None);
    }
}

//! Statistics of game pairs: every opening is played twice with colours reversed, so the two
//! games share the opening's bias and are not independent. Scoring each pair as a whole (0, 1/2,
//! 1, 3/2 or 2 points: the pentanomial counts) and taking the variance over pairs gives an error
//! bar that accounts for it, usually narrower than the per-game (trinomial) one, and an SPRT on
//! the pair scores, as fishtest and fastchess run it.

use crate::arena::elo::{estimate_from_moments, score_from_elo, EloEstimate, Sprt, SprtVerdict};

/// The SPRT decides nothing before this many pairs were uneven. The LLR divides by the pairs'
/// variance, and with draughts' draw rates the first pairs are nearly all even: 19 even pairs
/// and one half-lost gave a variance so small that the LLR passed the H0 bound within 20 pairs
/// (a setting judged on one half point). Twenty uneven pairs estimate the noise well enough.
pub const MIN_UNEVEN_PAIRS: u32 = 20;

/// Finished pairs by the points the first engine took from them: `counts[k]` pairs gave it `k`
/// half points (0: lost both, 2: won one and lost one or drew both, 4: won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by half points scored, 0 to 4.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair whose two games the first engine scored `first` and `second` (1 win, 0 draw,
    /// -1 loss, as [`score_for`](crate::arena::runner::score_for) gives them).
    pub fn add_pair(&mut self, first: i32, second: i32) {
        let half_points = (first.clamp(-1, 1) + 1 + second.clamp(-1, 1) + 1) as usize;
        self.counts[half_points] += 1;
    }

    /// Finished pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean and variance of the pair score per game (a pair's points / 2, so 0 to 1), over the
    /// pairs. None before the first pair.
    fn moments(&self) -> Option<(f64, f64)> {
        let pairs = f64::from(self.pairs());
        if pairs == 0.0 {
            return None;
        }
        let score = |k: usize| k as f64 / 4.0;
        let mean = (0..5)
            .map(|k| f64::from(self.counts[k]) * score(k))
            .sum::<f64>()
            / pairs;
        let variance = (0..5)
            .map(|k| f64::from(self.counts[k]) * (score(k) - mean).powi(2))
            .sum::<f64>()
            / pairs;
        Some((mean, variance))
    }

    /// Elo difference and its 95% error bar from the pair scores. None before the first pair;
    /// infinite values while every pair is won (or lost).
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        let (mean, variance) = self.moments()?;
        Some(estimate_from_moments(
            mean,
            variance,
            f64::from(self.pairs()),
        ))
    }

    /// The log-likelihood ratio of `sprt`'s H1 against H0 on the pair scores, in the normal
    /// approximation: with s0 and s1 the expected scores of elo0 and elo1, the pairs' mean m and
    /// variance v, `pairs * (s1 - s0) * (2m - s0 - s1) / (2v)`. 0 while the variance is 0 (all
    /// pairs alike: nothing to measure the noise by).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let Some((mean, variance)) = self.moments() else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
        f64::from(self.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Pairs that were not even (one point each way): the ones that carry the noise.
    fn uneven_pairs(&self) -> u32 {
        self.pairs() - self.counts[2]
    }

    /// Compares [`llr`](Pentanomial::llr) with `sprt`'s bounds, once at least
    /// [`MIN_UNEVEN_PAIRS`] pairs were uneven.
    pub fn verdict(&self, sprt: &Sprt) -> SprtVerdict {
        if self.uneven_pairs() < MIN_UNEVEN_PAIRS {
            return SprtVerdict::Continue;
        }
        sprt.decide(self.llr(sprt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    /// 40 pairs: 2 lost both, 5 lost one and drew one, 20 even, 10 won one and drew one, 3 won both.
    fn sample() -> Pentanomial {
        Pentanomial {
            counts: [2, 5, 20, 10, 3],
        }
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut pentanomial = Pentanomial::default();
        pentanomial.add_pair(1, 1);
        pentanomial.add_pair(1, -1);
        pentanomial.add_pair(0, 0);
        pentanomial.add_pair(-1, 0);
        pentanomial.add_pair(0, 1);
        assert_eq!(pentanomial.counts, [0, 1, 2, 1, 1]);
        assert_eq!(pentanomial.pairs(), 5);
    }

    #[test]
    fn elo_and_error_bar_by_hand() {
        // Pair scores per game 0, 1/4, 1/2, 3/4, 1.
        // Mean = (5 * 0.25 + 20 * 0.5 + 10 * 0.75 + 3 * 1) / 40 = 21.75 / 40 = 0.54375.
        // Mean of squares = (5 * 0.0625 + 20 * 0.25 + 10 * 0.5625 + 3) / 40 = 13.9375 / 40 = 0.3484375,
        // variance = 0.3484375 - 0.54375^2 = 0.3484375 - 0.2956641 = 0.0527734.
        // Margin = 1.96 * sqrt(0.0527734 / 40) = 1.96 * 0.0363227 = 0.0711911.
        // Elo = -400 log10(1 / 0.54375 - 1) = -400 log10(0.839080) = 30.48.
        // Interval 0.472559 .. 0.614941: -400 log10(1.116142) = -19.09 and
        // -400 log10(0.626172) = 81.32; error bar = (81.32 + 19.09) / 2 = 50.20.
        let estimate = sample().elo_estimate().expect("pairs played");
        close(estimate.elo, 30.48, 0.01);
        close(estimate.error_95, 50.20, 0.01);
        assert_eq!(Pentanomial::default().elo_estimate(), None);
        let all_won = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(all_won.elo_estimate().expect("pairs").elo, f64::INFINITY);
    }

    #[test]
    fn sprt_llr_by_hand() {
        // elo0 = 0, elo1 = 20: s0 = 0.5, s1 = 1 / (1 + 10^(-0.05)) = 1 / 1.891251 = 0.528751.
        // LLR = 40 * 0.028751 * (2 * 0.54375 - 0.5 - 0.528751) / (2 * 0.0527734)
        //     = 40 * 0.028751 * 0.058749 / 0.1055469 = 0.64012.
        let sprt = Sprt::parse("elo0=0,elo1=20").expect("valid");
        close(sample().llr(&sprt), 0.64012, 1e-4);
        assert_eq!(sample().verdict(&sprt), SprtVerdict::Continue);
        // Ten times the pairs: ten times the LLR, past the upper bound 2.944.
        let many = Pentanomial {
            counts: [20, 50, 200, 100, 30],
        };
        close(many.llr(&sprt), 6.4012, 1e-3);
        assert_eq!(many.verdict(&sprt), SprtVerdict::AcceptH1);
        // Mirrored counts accept H0.
        let mirrored = Pentanomial {
            counts: [30, 100, 200, 50, 20],
        };
        assert_eq!(mirrored.verdict(&sprt), SprtVerdict::AcceptH0);
        // No spread, no verdict.
        let alike = Pentanomial {
            counts: [0, 0, 9, 0, 0],
        };
        assert_eq!(alike.llr(&sprt), 0.0);
        // Nineteen even pairs and one half-lost: the LLR is far below the H0 bound, but one
        // uneven pair says nothing about the noise, so the test goes on.
        let nearly_alike = Pentanomial {
            counts: [0, 1, 19, 0, 0],
        };
        assert!(nearly_alike.llr(&sprt) < sprt.bounds().0);
        assert_eq!(nearly_alike.verdict(&sprt), SprtVerdict::Continue);
    }
}

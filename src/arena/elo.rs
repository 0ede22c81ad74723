//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority, and the
//! sequential probability ratio test (SPRT) on win/draw/loss counts.
//!
//! Elo uses the logistic model: expected score s = 1 / (1 + 10^(-elo/400)). The error bar comes
//! from the per-game variance of the score (a trinomial: 1, 1/2, 0). The SPRT follows the
//! BayesElo trinomial model that cutechess-cli uses: the draw rate observed so far fixes the
//! "draw Elo", the two hypotheses elo0 and elo1 are turned into win/draw/loss probabilities, and
//! the log-likelihood ratio of the observed counts is compared with Wald's bounds.

/// Games won, drawn and lost, from the point of view of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games this player won.
    pub wins: u32,
    /// Games that ended in a draw (adjudicated draws included).
    pub draws: u32,
    /// Games this player lost.
    pub losses: u32,
}

impl Tally {
    /// Games played so far: wins + draws + losses.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: win 1, draw 1/2, loss 0. None before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(games))
    }

    /// The same games seen from the opponent's side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Elo difference that gives the expected score `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate: the difference and half the width of its 95% confidence interval. Infinite
/// values mean the score is 0% or 100% so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference of the player over its opponent (positive: the player is stronger).
    pub elo: f64,
    /// Half the width of the 95% confidence interval, in Elo (the `+/-` of `elo`).
    pub error_95: f64,
}

/// Two-sided 95% quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Elo difference and its 95% error bar from a tally. None before the first game.
pub fn elo_estimate(tally: &Tally) -> Option<EloEstimate> {
    let score = tally.score()?;
    let games = f64::from(tally.games());
    let variance = (f64::from(tally.wins) * (1.0 - score).powi(2)
        + f64::from(tally.draws) * (0.5 - score).powi(2)
        + f64::from(tally.losses) * score.powi(2))
        / games;
    Some(estimate_from_moments(score, variance, games))
}

/// Elo and its 95% error bar from a mean score per game `score` taken over `samples` samples
/// (games, or pairs of games) whose scores have variance `variance`; infinite at 0% or 100%.
pub fn estimate_from_moments(score: f64, variance: f64, samples: f64) -> EloEstimate {
    let margin = Z_95 * (variance / samples).sqrt();
    let to_elo = |s: f64| {
        if s <= 0.0 {
            f64::NEG_INFINITY
        } else if s >= 1.0 {
            f64::INFINITY
        } else {
            elo_from_score(s)
        }
    };
    let low = to_elo(score - margin);
    let high = to_elo(score + margin);
    EloEstimate {
        elo: to_elo(score),
        error_95: (high - low) / 2.0,
    }
}

/// Likelihood of superiority: the probability that the player is really the stronger one, from
/// wins and losses only (draws carry no information about who is stronger). None without a
/// decisive game.
pub fn likelihood_of_superiority(tally: &Tally) -> Option<f64> {
    let decisive = f64::from(tally.wins + tally.losses);
    if decisive == 0.0 {
        return None;
    }
    let difference = f64::from(tally.wins) - f64::from(tally.losses);
    Some(0.5 * (1.0 + erf(difference / (2.0 * decisive).sqrt())))
}

/// The error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let polynomial = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - polynomial * (-x * x).exp())
}

/// SPRT parameters: the Elo of hypothesis H0 and H1 and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis H0 (logistic Elo).
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis H1; greater than `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 is true (false positive rate), in (0, 0.5).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 is true (false negative rate), in (0, 0.5).
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The log-likelihood ratio is still between the bounds: play more games.
    Continue,
    /// The log-likelihood ratio fell below the lower bound: H0 (elo0) is accepted.
    AcceptH0,
    /// The log-likelihood ratio rose above the upper bound: H1 (elo1) is accepted.
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let (name, value) = field
                .split_once('=')
                .ok_or_else(|| format!("SPRT field '{field}' is not name=value"))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("SPRT field '{field}': '{value}' is not a number"))?;
            match name.trim() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => {
                    return Err(format!(
                        "unknown SPRT field '{other}' (use elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if !sprt.elo0.is_finite() || !sprt.elo1.is_finite() {
            return Err("SPRT needs elo0= and elo1=".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("SPRT needs elo1 > elo0".into());
        }
        let rate_ok = |rate: f64| rate > 0.0 && rate < 0.5;
        if !rate_ok(sprt.alpha) || !rate_ok(sprt.beta) {
            return Err("SPRT alpha and beta must be between 0 and 0.5".into());
        }
        Ok(sprt)
    }

    /// Wald's bounds (lower, upper) for the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the tally. It is 0 until there is at least
    /// one win, one draw and one loss, because the draw rate cannot be estimated before.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.wins == 0 || tally.draws == 0 || tally.losses == 0 {
            return 0.0;
        }
        let games = f64::from(tally.games());
        let win_rate = f64::from(tally.wins) / games;
        let loss_rate = f64::from(tally.losses) / games;
        let draw_elo =
            200.0 * ((1.0 - loss_rate) / loss_rate * (1.0 - win_rate) / win_rate).log10();
        // Scale from logistic Elo to BayesElo at this draw Elo (the slope of the expected score).
        let x = 10f64.powf(-draw_elo / 400.0);
        let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
        let h0 = bayes_probabilities(self.elo0 / scale, draw_elo);
        let h1 = bayes_probabilities(self.elo1 / scale, draw_elo);
        f64::from(tally.wins) * (h1.0 / h0.0).ln()
            + f64::from(tally.draws) * (h1.1 / h0.1).ln()
            + f64::from(tally.losses) * (h1.2 / h0.2).ln()
    }

    /// Compares the tally's [`llr`](Sprt::llr) with Wald's [`bounds`](Sprt::bounds); a ratio on
    /// a bound already decides.
    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        self.decide(self.llr(tally))
    }

    /// The verdict for a log-likelihood ratio `llr` (of any model): a ratio on a bound already
    /// decides.
    pub fn decide(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            SprtVerdict::AcceptH0
        } else if llr >= upper {
            SprtVerdict::AcceptH1
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Win, draw and loss probabilities in the BayesElo model for a BayesElo difference and draw Elo.
fn bayes_probabilities(bayes_elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
    (win, 1.0 - win - loss, loss)
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

    #[test]
    fn elo_and_error_bar_by_hand() {
        // 6 wins, 2 draws, 2 losses in 10 games: score = (6 + 1) / 10 = 0.7.
        // Elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571) = -400 * (-0.367977) = 147.19.
        // Variance per game = (6*(0.3)^2 + 2*(0.2)^2 + 2*(0.7)^2) / 10
        //                   = (0.54 + 0.08 + 0.98) / 10 = 0.16.
        // Margin = 1.96 * sqrt(0.16 / 10) = 1.96 * 0.126491 = 0.247918.
        // Score interval 0.452082 .. 0.947918:
        //   low Elo  = -400 log10(1/0.452082 - 1) = -400 log10(1.211987) = -33.40,
        //   high Elo = -400 log10(1/0.947918 - 1) = -400 log10(0.054943) = 504.03.
        // Error bar = (504.03 + 33.40) / 2 = 268.72.
        let tally = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let estimate = elo_estimate(&tally).expect("games played");
        close(estimate.elo, 147.19, 0.01);
        close(estimate.error_95, 268.72, 0.05);
    }

    #[test]
    fn even_score_is_zero_elo_and_extremes_are_infinite() {
        let even = elo_estimate(&Tally {
            wins: 3,
            draws: 4,
            losses: 3,
        })
        .expect("games");
        close(even.elo, 0.0, 1e-9);
        let all_won = elo_estimate(&Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        })
        .expect("games");
        assert_eq!(all_won.elo, f64::INFINITY);
        assert_eq!(elo_estimate(&Tally::default()), None);
        close(score_from_elo(elo_from_score(0.8)), 0.8, 1e-12);
    }

    #[test]
    fn likelihood_of_superiority_by_hand() {
        // 6 wins, 2 losses: LOS = 0.5 * (1 + erf((6 - 2) / sqrt(2 * 8))) = 0.5 * (1 + erf(1))
        //                       = 0.5 * (1 + 0.842701) = 0.921350.
        let tally = Tally {
            wins: 6,
            draws: 5,
            losses: 2,
        };
        close(
            likelihood_of_superiority(&tally).expect("decisive games"),
            0.921350,
            1e-6,
        );
        close(
            likelihood_of_superiority(&tally.reversed()).expect("decisive"),
            0.078650,
            1e-6,
        );
        assert_eq!(
            likelihood_of_superiority(&Tally {
                wins: 0,
                draws: 3,
                losses: 0
            }),
            None
        );
    }

    #[test]
    fn sprt_bounds_by_hand() {
        // alpha = beta = 0.05: lower = ln(0.05 / 0.95) = -2.944439, upper = ln(0.95 / 0.05) = 2.944439.
        let sprt = Sprt::parse("elo0=0,elo1=10").expect("valid");
        let (lower, upper) = sprt.bounds();
        close(lower, -2.944439, 1e-6);
        close(upper, 2.944439, 1e-6);
    }

    #[test]
    fn sprt_llr_by_hand() {
        // W=30, D=40, L=30 (N=100), elo0=0, elo1=20.
        // Win rate = loss rate = 0.3: draw Elo = 200 log10((0.7/0.3) * (0.7/0.3)) = 200 log10(5.444444)
        //   = 200 * 0.735954 = 147.19.
        // x = 10^(-147.19/400) = 0.428571 (= 3/7); scale = 4x / (1+x)^2 = 1.714286 / 2.040816 = 0.84.
        // H0: BayesElo 0: win = loss = 1 / (1 + 10^(147.19/400)) = 1 / (1 + 2.333333) = 0.3, draw 0.4.
        // H1: BayesElo 20 / 0.84 = 23.8095:
        //   win  = 1 / (1 + 10^((147.19 - 23.81)/400)) = 1 / (1 + 10^0.30845) = 1 / 3.03448 = 0.329546,
        //   loss = 1 / (1 + 10^((147.19 + 23.81)/400)) = 1 / (1 + 10^0.42750) = 1 / 3.67609 = 0.272028,
        //   draw = 1 - 0.329546 - 0.272028 = 0.398426.
        // LLR = 30 ln(0.329546/0.3) + 40 ln(0.398426/0.4) + 30 ln(0.272028/0.3)
        //     = 30 * 0.093933 + 40 * (-0.003943) + 30 * (-0.097877) = 2.81800 - 0.15773 - 2.93630
        //     = -0.27603.
        let sprt = Sprt::parse("elo0=0, elo1=20, alpha=0.05, beta=0.05").expect("valid");
        let tally = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        close(sprt.llr(&tally), -0.27603, 0.0002);
        assert_eq!(sprt.verdict(&tally), SprtVerdict::Continue);
        // Without a draw, a win and a loss the draw rate is unknown and the LLR stays 0.
        assert_eq!(
            sprt.llr(&Tally {
                wins: 5,
                draws: 0,
                losses: 1
            }),
            0.0
        );
    }

    #[test]
    fn sprt_decides_clear_results() {
        let sprt = Sprt::parse("elo0=0,elo1=10").expect("valid");
        let strong = Tally {
            wins: 400,
            draws: 300,
            losses: 200,
        };
        assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&strong.reversed()), SprtVerdict::AcceptH0);
    }

    #[test]
    fn sprt_parse_refuses_nonsense() {
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        assert!(Sprt::parse("elo0=x,elo1=5").is_err());
    }
}

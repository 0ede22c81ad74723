//! Texel tuning: fit the scale `K` of `sigmoid(K * eval)` to the results, then minimise the mean
//! squared error over the weights by gradient descent, the gradient summed in parallel.
//!
//! The evaluation is `eval = sum(weight[i] * feature[i])` (White's view, score units), with the
//! features from [`onca::eval::linear_features`]; positions the endgame knowledge scores are left
//! out.

use onca::eval::linear_features;
use onca::fen::parse_position;
use onca::weights::{Weights, TUNABLE};

use rayon::prelude::*;

/// One training position: its linear features and the game result from White's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: [f32; TUNABLE],
    pub result: f32,
}

/// Reads `FEN;result` lines, skipping positions the endgame knowledge scores. Errors name the line.
pub fn parse_samples(text: &str) -> Result<Vec<Sample>, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    lines
        .par_iter()
        .map(|(number, line)| {
            let (fen, result) = line
                .rsplit_once(';')
                .ok_or_else(|| format!("line {}: expected `FEN;result`", number + 1))?;
            let result: f32 = result
                .trim()
                .parse()
                .ok()
                .filter(|r: &f32| (0.0..=1.0).contains(r))
                .ok_or_else(|| format!("line {}: bad result `{result}`", number + 1))?;
            let position = parse_position(fen.trim())
                .map_err(|e| format!("line {}: bad position: {e}", number + 1))?;
            Ok(linear_features(&position).map(|features| Sample { features, result }))
        })
        .filter_map(Result::transpose)
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval(weights: &[f64; TUNABLE], features: &[f32; TUNABLE]) -> f64 {
    weights
        .iter()
        .zip(features)
        .map(|(w, f)| w * f64::from(*f))
        .sum()
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn error(samples: &[Sample], weights: &[f64; TUNABLE], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_iter()
        .map(|s| (f64::from(s.result) - sigmoid(k * eval(weights, &s.features))).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The `K` minimising [`error`] for fixed weights (golden-section search on a log scale).
pub fn fit_k(samples: &[Sample], weights: &[f64; TUNABLE]) -> f64 {
    let (mut low, mut high) = ((1e-5f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(samples, weights, a.exp()) < error(samples, weights, b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// Gradient of [`error`] with respect to the weights.
fn gradient(samples: &[Sample], weights: &[f64; TUNABLE], k: f64) -> [f64; TUNABLE] {
    let zero = || [0.0f64; TUNABLE];
    let mut sum = samples
        .par_iter()
        .fold(zero, |mut acc, s| {
            let p = sigmoid(k * eval(weights, &s.features));
            let scale = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * k;
            for (a, f) in acc.iter_mut().zip(&s.features) {
                *a += scale * f64::from(*f);
            }
            acc
        })
        .reduce(zero, |mut a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
            a
        });
    let n = samples.len().max(1) as f64;
    for g in &mut sum {
        *g /= n;
    }
    sum
}

/// Minimises [`error`] over the weights with Adam for `iterations` steps of `rate` score units.
/// `frozen[i]` keeps weight `i` fixed (the man's value anchors the scale).
pub fn descend(
    samples: &[Sample],
    start: &[f64; TUNABLE],
    k: f64,
    frozen: &[bool; TUNABLE],
    iterations: usize,
    rate: f64,
    progress: &mut dyn FnMut(usize, f64),
) -> [f64; TUNABLE] {
    let mut weights = *start;
    let (mut m, mut v) = ([0.0f64; TUNABLE], [0.0f64; TUNABLE]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    for step in 1..=iterations {
        let g = gradient(samples, &weights, k);
        for i in 0..TUNABLE {
            if frozen[i] {
                continue;
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            weights[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if step % 100 == 0 || step == iterations {
            progress(step, error(samples, &weights, k));
        }
    }
    weights
}

/// Rounds tuned weights into a [`Weights`] (structural fields from `base`).
pub fn to_weights(base: &Weights, tuned: &[f64; TUNABLE]) -> Weights {
    let mut values = [0i32; TUNABLE];
    for (value, w) in values.iter_mut().zip(tuned) {
        *value = w.round() as i32;
    }
    base.with_tunable(&values)
}

/// The weights of `weights` as floating point, for [`descend`].
pub fn to_floats(weights: &Weights) -> [f64; TUNABLE] {
    weights.tunable().map(f64::from)
}

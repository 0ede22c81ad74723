//! The tuner recovers known weights from synthetic data; exported weights round-trip.

use onca::weights::{Weights, RUNAWAY, TRIANGLE, TUNABLE};

/// The anchored weight in the synthetic test.
const MAN: usize = 0;
use onca_tuning::export::{from_rust, to_rust};
use onca_tuning::rng::Rng;
use onca_tuning::tune::{descend, error, fit_k, Sample};

#[test]
fn tuner_recovers_known_weights_on_synthetic_data() {
    let mut rng = Rng::new(7);
    let truth: [f64; TUNABLE] = std::array::from_fn(|i| {
        if i == MAN {
            100.0
        } else {
            (i as f64 * 7.0) % 41.0 - 20.0
        }
    });
    let k = 0.01;
    let samples: Vec<Sample> = (0..4000)
        .map(|_| {
            let features: [f32; TUNABLE] = std::array::from_fn(|_| rng.below(5) as f32 - 2.0);
            let eval: f64 = truth
                .iter()
                .zip(&features)
                .map(|(w, f)| w * f64::from(*f))
                .sum();
            // Expected score as the result: the error is minimised exactly at the truth.
            let result = (1.0 / (1.0 + (-k * eval).exp())) as f32;
            Sample { features, result }
        })
        .collect();
    let mut start = [0.0; TUNABLE];
    start[MAN] = 100.0;
    let mut frozen = [false; TUNABLE];
    frozen[MAN] = true;
    let tuned = descend(&samples, &start, k, &frozen, 1500, 1.0, &mut |_, _| {});
    for (i, (t, w)) in truth.iter().zip(tuned).enumerate() {
        assert!((t - w).abs() < 1.0, "weight {i}: truth {t}, tuned {w}");
    }
    assert!(error(&samples, &tuned, k) < 1e-5);
    let fitted = fit_k(&samples, &truth);
    assert!((fitted - k).abs() < 1e-3, "K {fitted}");
}

#[test]
fn exported_weights_round_trip() {
    let mut weights = Weights::DEFAULT;
    weights.opening[TRIANGLE] = -9;
    weights.endgame[RUNAWAY + 4] = 31;
    let source = to_rust(&weights);
    assert!(source.contains("pub const TUNED: Weights"));
    assert_eq!(from_rust(&source), Ok(weights));
    assert_eq!(Weights::parse_text(&weights.to_text()), Ok(weights));
    assert!(from_rust("nothing here").is_err());
}

//! Texel tuning: fit the scale `K` of `sigmoid(K * eval)` to the results, then minimise the mean
//! squared error plus an L2 pull toward the starting weights, by Adam with the gradient summed in
//! parallel.
//!
//! The evaluation is `eval = sum(weight[i] * feature[i])` (White's view, score units), with the
//! features from [`onca::eval::evaluate::linear_features`] computed once per position ([`features_of`],
//! the only call into the engine's evaluation). Most features of a position are zero, so the
//! samples are stored sparse (feature index, value) in chunks that rayon walks in parallel: about
//! 6 bytes per non-zero feature instead of 4 per feature.

use crate::datagen::header_variant;
use crate::samples::Samples;
use onca::eval::evaluate::linear_features;
use onca::eval::patterns::{entry_name, table_named, TableSet, ENTRY_COUNT};
use onca::eval::weights::{Weights, TUNABLE};
use onca::notation::fen::parse_position;
use onca::rules::position::Position;
use onca::rules::variant::Variant;
use rayon::prelude::*;

/// Number of weights the tuner fits: the handcrafted terms' [`TUNABLE`], then an opening and an
/// endgame weight for every pattern entry `e` (at `TUNABLE + 2 * e` and `TUNABLE + 2 * e + 1`).
pub const WEIGHT_COUNT: usize = TUNABLE + 2 * ENTRY_COUNT;

/// The position's linear features as sparse `(weight index, value)` entries, or `None` when the
/// engine scores it by a fixed rule (such positions tell the tuner nothing and are skipped).
/// Each region adds White's entry and subtracts Black's, with the phase shares as values. The
/// pattern entries are those of the default shape, the 4x4 blocks ([`Tables::blocks`]).
pub fn features_of(position: &Position) -> Option<Vec<(u32, f32)>> {
    features_with(position, &Tables::blocks())
}

/// The pattern tables a fit uses (shape and region experiments): the men table and the king table
/// of each block or band, by name (`block_r0_c0`, `kings_r0_c0`, `band3_r1`, `kings_band3_r1`)
/// or by shape; entries of the others are left out of the features, so their weights stay at
/// their start values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables(TableSet);

impl Tables {
    /// Every table of every shape.
    pub fn all() -> Tables {
        Tables(TableSet::ALL)
    }

    /// The 4x4 blocks' tables: the shape of the built-in weights, and the tuner's default.
    pub fn blocks() -> Tables {
        Tables(TableSet::BLOCKS)
    }

    /// Reads a comma-separated list of table names and shapes: `blocks` (the 4x4 blocks and
    /// their king tables), `bands2` and `bands3` (the two-row and three-row bands and theirs),
    /// `all` (every table).
    pub fn parse(text: &str) -> Result<Tables, String> {
        let mut used = TableSet::NONE;
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let shape = match name {
                "all" => Some(TableSet::ALL),
                "blocks" => Some(TableSet::BLOCKS),
                "bands2" => Some(TableSet::BANDS_OF_TWO_ROWS),
                "bands3" => Some(TableSet::BANDS_OF_THREE_ROWS),
                _ => None,
            };
            used = match (shape, table_named(name)) {
                (Some(shape), _) => used.union(shape),
                (None, Some(table)) => used.with_table(table),
                (None, None) => {
                    return Err(format!(
                        "unknown pattern table `{name}` (all, blocks, bands2, bands3, \
                         block_rR_cC or kings_rR_cC with R 0-2 and C 0-4, \
                         band2_rR or kings_band2_rR with R 0-3, band3_rR or kings_band3_rR with R 0-2)"
                    ))
                }
            };
        }
        Ok(Tables(used))
    }

    /// Whether pattern entry `entry` belongs to a used table.
    pub fn uses(&self, entry: usize) -> bool {
        self.0.holds_entry(entry)
    }
}

/// [`features_of`] with only the pattern entries of `tables`.
pub fn features_with(position: &Position, tables: &Tables) -> Option<Vec<(u32, f32)>> {
    let features = linear_features(position)?;
    let mut entries: Vec<(u32, f32)> = features
        .terms
        .iter()
        .enumerate()
        .filter(|(_, value)| **value != 0.0)
        .map(|(index, &value)| (index as u32, value))
        .collect();
    let (opening, endgame) = (features.opening_share, features.endgame_share);
    let base = TUNABLE as u32;
    for &(white, black) in features.pattern_pairs() {
        if white == black || !tables.uses(white as usize) {
            continue; // the two entries cancel, or the table is not fitted
        }
        entries.push((base + 2 * white, opening));
        entries.push((base + 2 * white + 1, endgame));
        entries.push((base + 2 * black, -opening));
        entries.push((base + 2 * black + 1, -endgame));
    }
    Some(entries)
}

/// Every fitted weight's name, in [`WEIGHT_COUNT`] order: [`Weights::tunable_names`], then
/// `block_r0_c0[17].opening` and `.endgame` for each pattern entry.
pub fn weight_names() -> Vec<String> {
    let mut names = Weights::tunable_names();
    names.reserve(WEIGHT_COUNT - TUNABLE);
    for entry in 0..ENTRY_COUNT {
        let name = entry_name(entry);
        names.push(format!("{name}.opening"));
        names.push(format!("{name}.endgame"));
    }
    names
}

/// Training and validation samples read from a data file.
#[derive(Debug, Default)]
pub struct Data {
    /// The variant the games were played in, from the datagen headers (Brazilian without one).
    pub variant: Variant,
    pub training: Samples,
    pub validation: Samples,
    /// Positions without features (scored by a fixed rule).
    pub skipped: u64,
    /// Distinct positions (by Zobrist key) among the training lines.
    pub distinct_training: u64,
    /// Lines of held-out games whose position is also a training line, left out of the
    /// validation set: the split keeps games apart, and positions many games pass through (the
    /// early ones) would otherwise reward memorising.
    pub validation_in_training: u64,
}

/// A line of a held-out game: its position's key, features and result.
struct HeldOut {
    key: u64,
    features: Vec<(u32, f32)>,
    result: f32,
    score: Option<f32>,
}

/// One parse task's training keys and held-out lines (kept apart until the training keys of
/// every task are known).
#[derive(Default)]
struct TaskKeys {
    training: Vec<u64>,
    held_out: Vec<HeldOut>,
}

/// Lines parsed per parallel task.
const LINES_PER_TASK: usize = 1 << 14;

/// Whether the lines with split key `key` go to the validation set: a hash of the key, so the
/// split is the same on every run (see [`split_keys`] for the keys).
pub fn is_validation(key: &str, fraction: f64) -> bool {
    // FNV-1a, then a final mix so the low bits are usable.
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in key.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    ((hash >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// The key that decides each line's side of the validation split: for a line of a datagen game,
/// the run's header and the game's marker (the marker follows its game's lines), so every
/// position of a game lands on the same side; consecutive positions of one game share most of
/// their patterns and the result, and splitting them would let the validation set reward
/// memorised games. Lines outside any marked game are their own key.
pub fn split_keys(lines: &[&str]) -> Vec<String> {
    let mut headers = Vec::with_capacity(lines.len());
    let mut header = "";
    for line in lines {
        if line.starts_with("# onca-tune datagen") {
            header = line;
        }
        headers.push(header);
    }
    let mut keys = vec![String::new(); lines.len()];
    let mut marker: Option<&str> = None;
    for (at, line) in lines.iter().enumerate().rev() {
        if line.starts_with("# game ") {
            marker = Some(line);
        } else if line.starts_with("# onca-tune datagen") {
            marker = None;
        }
        keys[at] = match marker {
            Some(marker) => format!("{}|{marker}", headers[at]),
            None => line.to_string(),
        };
    }
    keys
}

/// Reads `FEN;result` lines (result 1.0 / 0.5 / 0.0 from White's view), optionally with a third
/// field, the search score of `onca-tune score`, in parallel; blank lines
/// and `#` comments are skipped. A `validation` fraction of the games (by [`is_validation`] of
/// [`split_keys`]) goes to the validation set. Errors name the line. The pattern features are
/// the blocks' ([`Tables::blocks`]).
pub fn parse_data(text: &str, validation: f64) -> Result<Data, String> {
    parse_data_with(text, validation, &Tables::blocks())
}

/// The one variant the datagen headers among `lines` name (Brazilian if none does): data of two
/// variants cannot fit one set of weights, nor be scored by one variant's search.
pub fn data_variant<S: AsRef<str>>(lines: impl IntoIterator<Item = S>) -> Result<Variant, String> {
    let mut found: Option<(Variant, usize)> = None;
    for (at, line) in lines.into_iter().enumerate() {
        let line = line.as_ref();
        if !line.starts_with("# onca-tune datagen") {
            continue;
        }
        let number = at + 1;
        let variant = header_variant(line)
            .ok_or_else(|| format!("line {number}: unknown variant in `{line}`"))?;
        match found {
            Some((first, first_line)) if first != variant => {
                return Err(format!(
                    "line {number}: {variant} games after {first} games (line {first_line}); \
                     fit each variant's data on its own"
                ))
            }
            Some(_) => {}
            None => found = Some((variant, number)),
        }
    }
    Ok(found.map_or(Variant::Brazilian, |(variant, _)| variant))
}

/// [`parse_data`] with the pattern features of `tables` only.
pub fn parse_data_with(text: &str, validation: f64, tables: &Tables) -> Result<Data, String> {
    let lines: Vec<&str> = text.lines().collect();
    let variant = data_variant(&lines)?;
    let keys = split_keys(&lines);
    let parts: Vec<(Data, TaskKeys)> = lines
        .par_chunks(LINES_PER_TASK)
        .enumerate()
        .map(|(task, chunk)| {
            let mut data = Data::default();
            let mut keys_of_task = TaskKeys::default();
            for (offset, line) in chunk.iter().enumerate() {
                let number = task * LINES_PER_TASK + offset + 1;
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let mut fields = line.split(';');
                let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                    return Err(format!(
                        "line {number}: expected `FEN;result` or `FEN;result;score`"
                    ));
                };
                let result: f32 = result
                    .trim()
                    .parse()
                    .ok()
                    .filter(|r: &f32| (0.0..=1.0).contains(r))
                    .ok_or_else(|| format!("line {number}: bad result `{result}`"))?;
                let score = match (fields.next(), fields.next()) {
                    (None, _) => None,
                    (Some(score), None) => Some(
                        score
                            .trim()
                            .parse::<f32>()
                            .ok()
                            .filter(|s| s.is_finite())
                            .ok_or_else(|| format!("line {number}: bad score `{score}`"))?,
                    ),
                    (Some(_), Some(_)) => {
                        return Err(format!("line {number}: more than three `;` fields"))
                    }
                };
                let position = parse_position(fen.trim())
                    .map_err(|e| format!("line {number}: bad position: {e}"))?;
                let Some(features) = features_with(&position, tables) else {
                    data.skipped += 1;
                    continue;
                };
                if is_validation(&keys[task * LINES_PER_TASK + offset], validation) {
                    keys_of_task.held_out.push(HeldOut {
                        key: position.key(),
                        features,
                        result,
                        score,
                    });
                } else {
                    data.training.push_scored(&features, result, score);
                    keys_of_task.training.push(position.key());
                }
            }
            Ok((data, keys_of_task))
        })
        .collect::<Result<_, String>>()?;
    let mut data = Data {
        variant,
        ..Data::default()
    };
    let mut training_keys = std::collections::HashSet::new();
    let mut held_out = Vec::new();
    for (part, keys_of_task) in parts {
        data.training.append(part.training);
        data.skipped += part.skipped;
        training_keys.extend(keys_of_task.training);
        held_out.push(keys_of_task.held_out);
    }
    data.distinct_training = training_keys.len() as u64;
    for line in held_out.into_iter().flatten() {
        if training_keys.contains(&line.key) {
            data.validation_in_training += 1;
        } else {
            data.validation
                .push_scored(&line.features, line.result, line.score);
        }
    }
    Ok(data)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k * eval)` against the results (0 for no samples).
pub fn error(samples: &Samples, weights: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .chunks()
        .par_iter()
        .map(|chunk| {
            (0..chunk.len())
                .map(|i| {
                    let p = sigmoid(k * chunk.eval(i, weights));
                    (f64::from(chunk.result(i)) - p).powi(2)
                })
                .sum::<f64>()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The `K` minimising [`error`] for fixed weights (golden-section search on a log scale; the
/// evaluations are computed once).
pub fn fit_k(samples: &Samples, weights: &[f64]) -> f64 {
    let evals: Vec<Vec<(f64, f64)>> = samples
        .chunks()
        .par_iter()
        .map(|chunk| {
            (0..chunk.len())
                .map(|i| (chunk.eval(i, weights), f64::from(chunk.result(i))))
                .collect()
        })
        .collect();
    let error_at = |k: f64| -> f64 {
        evals
            .par_iter()
            .map(|part| {
                part.iter()
                    .map(|(eval, result)| (result - sigmoid(k * eval)).powi(2))
                    .sum::<f64>()
            })
            .sum()
    };
    let (mut low, mut high) = ((1e-5f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error_at(a.exp()) < error_at(b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// The gradient of [`error`] with respect to the weights, and the error itself, in one pass.
/// Within a chunk the sums are in `f32` (a few thousand terms: relative error about 1e-4, and
/// half the memory traffic), across chunks in `f64`. Each parallel task keeps one `f32` buffer
/// and after a chunk moves only the entries the chunk touched into its `f64` sum: with the large
/// pattern tables most weights are absent from any one chunk.
pub fn gradient(samples: &Samples, weights: &[f64], k: f64) -> (Vec<f64>, f64) {
    let size = weights.len();
    let narrow: Vec<f32> = weights.iter().map(|&w| w as f32).collect();
    let fresh = || Accumulator {
        sum: vec![0.0f64; size],
        chunk: vec![0.0f32; size],
        touched: Vec::new(),
        error: 0.0,
    };
    let total = samples
        .chunks()
        .par_iter()
        .fold(fresh, |mut acc, chunk| {
            for i in 0..chunk.len() {
                let p = sigmoid(k * f64::from(chunk.eval_f32(i, &narrow)));
                let miss = f64::from(chunk.result(i)) - p;
                acc.error += miss * miss;
                let scale = (-2.0 * miss * p * (1.0 - p) * k) as f32;
                for (index, value) in chunk.features(i) {
                    acc.chunk[index] += scale * value;
                    acc.touched.push(index as u32);
                }
            }
            for index in acc.touched.drain(..) {
                let index = index as usize;
                // A repeated index moves its value once and then adds zero.
                acc.sum[index] += f64::from(std::mem::take(&mut acc.chunk[index]));
            }
            acc
        })
        .map(|acc| (acc.sum, acc.error))
        .reduce(
            || (Vec::new(), 0.0),
            |(a, ta), (b, tb)| {
                let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                for (x, y) in long.iter_mut().zip(short) {
                    *x += y;
                }
                (long, ta + tb)
            },
        );
    let (mut sum, error) = total;
    sum.resize(size, 0.0);
    let n = samples.len().max(1) as f64;
    for g in &mut sum {
        *g /= n;
    }
    (sum, error / n)
}

/// One parallel task's running sums in [`gradient`].
struct Accumulator {
    /// The gradient summed over the chunks done.
    sum: Vec<f64>,
    /// The current chunk's gradient (zero outside `touched`).
    chunk: Vec<f32>,
    /// Indices the current chunk added to (with repeats).
    touched: Vec<u32>,
    /// Squared misses summed.
    error: f64,
}

/// How [`descend`] steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Scale of `sigmoid(k * eval)`.
    pub k: f64,
    /// L2 penalty per squared score unit of each term weight's distance from its anchor, added to
    /// the mean squared error.
    pub lambda: f64,
    /// The same for pattern weights (indices from [`TUNABLE`] on), whose anchor is zero for a
    /// fit from scratch (entries the data barely determines stay near zero) or the start weights
    /// for a refit.
    pub pattern_lambda: f64,
    /// Adam step size in score units.
    pub rate: f64,
}

/// What the pattern penalty ([`Settings::pattern_lambda`]) pulls the pattern weights toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PatternAnchor {
    /// Zero: a fit from scratch, where configurations the data barely shows stay near zero.
    Zero,
    /// The start weights: a refit on new data keeps what older data taught where the new data
    /// says little.
    Start,
}

/// The anchor of [`descend`]'s penalty for a fit from `start` (all [`WEIGHT_COUNT`] weights):
/// the terms are always pulled toward their start values, the patterns as `patterns` says.
pub fn anchor(start: &[f64], patterns: PatternAnchor) -> Vec<f64> {
    let mut anchor = start.to_vec();
    if patterns == PatternAnchor::Zero {
        anchor[TUNABLE..].iter_mut().for_each(|w| *w = 0.0);
    }
    anchor
}

/// Minimises [`error`] + `lambda * sum((w - anchor)^2)` with Adam from `start` for steps
/// `first_step..=last_step` (Adam's moments start at zero, also when resuming from a
/// checkpoint). After each step `on_step` gets the step number, the new weights and the training
/// error before the step. A weight whose feature never occurs has zero gradient and keeps its
/// start value.
pub fn descend(
    samples: &Samples,
    anchor: &[f64],
    start: &[f64],
    settings: &Settings,
    first_step: usize,
    last_step: usize,
    on_step: &mut dyn FnMut(usize, &[f64], f64),
) -> Vec<f64> {
    let mut weights = start.to_vec();
    let size = weights.len();
    let (mut m, mut v) = (vec![0.0f64; size], vec![0.0f64; size]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let (mut decay1, mut decay2) = (1.0f64, 1.0f64);
    for step in first_step..=last_step {
        let (mut g, training_error) = gradient(samples, &weights, settings.k);
        for (i, ((g, w), a)) in g.iter_mut().zip(&weights).zip(anchor).enumerate() {
            let lambda = if i < TUNABLE {
                settings.lambda
            } else {
                settings.pattern_lambda
            };
            *g += 2.0 * lambda * (w - a);
        }
        decay1 *= beta1;
        decay2 *= beta2;
        for i in 0..size {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - decay1);
            let v_hat = v[i] / (1.0 - decay2);
            weights[i] -= settings.rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        on_step(step, &weights, training_error);
    }
    weights
}

/// Rounds tuned weights into a [`Weights`] (structural fields from `base`): the first
/// [`TUNABLE`] values are the terms; pattern values follow when `tuned` has [`WEIGHT_COUNT`]
/// of them (clamped to the `i16` range), otherwise `base`'s patterns are kept.
pub fn to_weights(base: &Weights, tuned: &[f64]) -> Weights {
    let mut values = [0i32; TUNABLE];
    for (value, w) in values.iter_mut().zip(tuned) {
        *value = w.round() as i32;
    }
    let mut weights = base.with_tunable(&values);
    if tuned.len() == WEIGHT_COUNT {
        let limit = f64::from(i16::MAX);
        let round = |w: f64| w.round().clamp(-limit, limit) as i16;
        for entry in 0..ENTRY_COUNT {
            let at = TUNABLE + 2 * entry;
            weights
                .patterns
                .set(entry, [round(tuned[at]), round(tuned[at + 1])]);
        }
    }
    weights
}

/// All [`WEIGHT_COUNT`] weights of `weights` as floating point, for [`descend`].
pub fn to_floats(weights: &Weights) -> Vec<f64> {
    let mut floats: Vec<f64> = weights.tunable().iter().map(|&w| f64::from(w)).collect();
    floats.reserve(WEIGHT_COUNT - TUNABLE);
    for entry in 0..ENTRY_COUNT {
        let [opening, endgame] = weights.patterns.get(entry);
        floats.push(f64::from(opening));
        floats.push(f64::from(endgame));
    }
    floats
}

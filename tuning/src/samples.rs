//! Training positions stored compactly: each sample's non-zero features as (index, value) pairs
//! and its label (the game result, possibly blended with a search score), in chunks of a few thousand samples that parallel passes take one at a time.

/// Samples per chunk: large enough that a rayon task is worth it, small enough that two cores
/// share the work evenly.
pub const SAMPLES_PER_CHUNK: usize = 8192;

/// A run of samples in struct-of-arrays form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// Sample `i`'s features are `indices[starts[i]..starts[i + 1]]` (and `values`).
    starts: Vec<u32>,
    indices: Vec<u32>,
    values: Vec<f32>,
    results: Vec<f32>,
    /// Search scores from White's view, if the line had one, for [`Samples::blend_scores`].
    scores: Vec<Option<f32>>,
}

impl Chunk {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether the chunk holds no sample.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Sample `i`'s label from White's view: the game result, or the blend of
    /// [`Samples::blend_scores`].
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let start = if i == 0 {
            0
        } else {
            self.starts[i - 1] as usize
        };
        start..self.starts[i] as usize
    }

    /// Sample `i`'s non-zero features as (index, value).
    pub fn features(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let range = self.range(i);
        self.indices[range.clone()]
            .iter()
            .zip(&self.values[range])
            .map(|(&index, &value)| (index as usize, value))
    }

    /// Sample `i`'s evaluation `sum(weights[index] * value)`.
    pub fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.features(i)
            .map(|(index, value)| weights[index] * f64::from(value))
            .sum()
    }

    /// The same in `f32` (for the gradient pass).
    pub fn eval_f32(&self, i: usize, weights: &[f32]) -> f32 {
        self.features(i)
            .map(|(index, value)| weights[index] * value)
            .sum()
    }

    /// Non-zero feature entries stored.
    pub fn entries(&self) -> usize {
        self.values.len()
    }
}

/// All samples of a data set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    chunks: Vec<Chunk>,
    len: usize,
}

impl Samples {
    /// Adds a sample given by its non-zero `(weight index, value)` entries.
    pub fn push_sparse(&mut self, entries: &[(u32, f32)], result: f32) {
        self.push_scored(entries, result, None);
    }

    /// The same with the search score of the position, if the data has one.
    pub fn push_scored(&mut self, entries: &[(u32, f32)], result: f32, score: Option<f32>) {
        if self
            .chunks
            .last()
            .is_none_or(|chunk| chunk.len() >= SAMPLES_PER_CHUNK)
        {
            self.chunks.push(Chunk::default());
        }
        let Some(chunk) = self.chunks.last_mut() else {
            return;
        };
        for &(index, value) in entries {
            if value != 0.0 {
                chunk.indices.push(index);
                chunk.values.push(value);
            }
        }
        chunk.starts.push(chunk.indices.len() as u32);
        chunk.results.push(result);
        chunk.scores.push(score);
        self.len += 1;
    }

    /// Adds a sample with dense `features` (index = weight index).
    pub fn push(&mut self, features: &[f32], result: f32) {
        let entries: Vec<(u32, f32)> = features
            .iter()
            .enumerate()
            .filter(|(_, value)| **value != 0.0)
            .filter_map(|(index, &value)| Some((u32::try_from(index).ok()?, value)))
            .collect();
        self.push_sparse(&entries, result);
    }

    /// Replaces each label by `(1 - weight) * result + weight * sigmoid(k * score)`: the search
    /// score as a win probability on the scale `k` the results gave. Fails, changing nothing,
    /// when a sample has no score (the count of those).
    pub fn blend_scores(&mut self, k: f64, weight: f64) -> Result<(), usize> {
        let missing: usize = self
            .chunks
            .iter()
            .map(|chunk| chunk.scores.iter().filter(|s| s.is_none()).count())
            .sum();
        if missing > 0 {
            return Err(missing);
        }
        for chunk in &mut self.chunks {
            for (result, score) in chunk.results.iter_mut().zip(&chunk.scores) {
                let score = score.unwrap_or_default();
                let probability = 1.0 / (1.0 + (-k * f64::from(score)).exp());
                *result = ((1.0 - weight) * f64::from(*result) + weight * probability) as f32;
            }
        }
        Ok(())
    }

    /// Moves all of `other`'s samples to the end of these.
    pub fn append(&mut self, other: Samples) {
        self.len += other.len;
        self.chunks
            .extend(other.chunks.into_iter().filter(|c| !c.is_empty()));
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The chunks, for parallel passes.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    /// Non-zero feature entries stored (8 bytes each).
    pub fn entries(&self) -> usize {
        self.chunks.iter().map(Chunk::entries).sum()
    }

    /// How many samples have each feature non-zero (`size` features).
    pub fn occurrences(&self, size: usize) -> Vec<u64> {
        let mut counts = vec![0u64; size];
        for chunk in &self.chunks {
            for &index in &chunk.indices {
                if let Some(count) = counts.get_mut(index as usize) {
                    *count += 1;
                }
            }
        }
        counts
    }
}

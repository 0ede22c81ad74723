//! The tuner's checkpoint: the step reached, `K` and the unrounded weights, as text
//! (`step 300`, `k 0.0087`, then `name value` lines in tunable order), written atomically (a
//! temporary file renamed over the old one) so an interrupted write never loses the last one.

use anyhow::{bail, Context, Result};
use std::path::Path;

const TITLE: &str = "# onca-tune checkpoint";

/// Where a tuning run stood.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Last step done.
    pub step: usize,
    /// The fitted scale (kept on resume: the weights were fitted for it).
    pub k: f64,
    /// Unrounded tunable weights, in [`crate::tune::weight_names`] order.
    pub weights: Vec<f64>,
}

impl Checkpoint {
    /// The checkpoint as text.
    pub fn to_text(&self) -> String {
        let mut text = format!("{TITLE}\nstep {}\nk {:e}\n", self.step, self.k);
        for (name, value) in crate::tune::weight_names().iter().zip(&self.weights) {
            text.push_str(&format!("{name} {value:e}\n"));
        }
        text
    }

    /// Reads [`Checkpoint::to_text`]; every current tunable weight must be given exactly once.
    pub fn parse_text(text: &str) -> Result<Checkpoint> {
        let names = crate::tune::weight_names();
        let by_name: std::collections::HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(index, name)| (name.as_str(), index))
            .collect();
        let mut weights: Vec<Option<f64>> = vec![None; names.len()];
        let (mut step, mut k) = (None, None);
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once(' ') else {
                bail!("line {}: expected `name value`", number + 1);
            };
            let value = value.trim();
            match name {
                "step" => step = Some(value.parse().context(format!("line {}", number + 1))?),
                "k" => k = Some(value.parse().context(format!("line {}", number + 1))?),
                _ => {
                    let Some(&index) = by_name.get(name) else {
                        bail!(
                            "line {}: unknown weight `{name}` (checkpoint of another evaluation?)",
                            number + 1
                        );
                    };
                    let value: f64 = value.parse().context(format!("line {}", number + 1))?;
                    if !value.is_finite() {
                        bail!("line {}: weight `{name}` is not finite", number + 1);
                    }
                    weights[index] = Some(value);
                }
            }
        }
        let (Some(step), Some(k)) = (step, k) else {
            bail!("no `step` or `k` line");
        };
        let weights = weights
            .iter()
            .zip(&names)
            .map(|(value, name)| value.with_context(|| format!("weight `{name}` missing")))
            .collect::<Result<_>>()?;
        Ok(Checkpoint { step, k, weights })
    }

    /// Writes the checkpoint to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        std::fs::write(&temporary, self.to_text())
            .with_context(|| format!("cannot write {}", Path::new(&temporary).display()))?;
        std::fs::rename(&temporary, path)
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Checkpoint::parse_text(&text).with_context(|| format!("bad checkpoint {}", path.display()))
    }
}

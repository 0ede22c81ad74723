//! SPSA tuning of the search constants by games: simultaneous perturbation stochastic
//! approximation, in batches of independent match jobs.
//!
//! Each iteration `k` draws a random sign per parameter, plays the engine with every parameter
//! moved by `+c_k` times its sign against the engine moved by `-c_k` (a short `onca match` at the
//! run's limit, both colours of the ballots, books off), and moves each parameter by
//! `R_k * c_k * (wins - losses) * sign`. The schedules are fishtest's: `c_k = c / (k + 1)^gamma`,
//! `a_k = a / (A + k + 1)^alpha`, `R_k = a_k / c_k^2`, with `c` and `a` chosen so that the last
//! planned iteration perturbs by `c_end` and learns at rate `r_end`.
//!
//! The iterations of one batch all start from the same values and need nothing from each other, so
//! they run as independent jobs (GNU parallel here, the tasks of a Slurm job array on a cluster);
//! `update` then applies their results in iteration order. Everything a run needs is in its state
//! file, and each job's games go to a PDN file that `onca match --resume` continues, so an
//! interrupted run resumes from where it stopped with the same commands.

use crate::rng::Rng;
use anyhow::{anyhow, bail, Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The step schedule's exponents and stability constant (Spall's recommended values).
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// One tuned parameter: an engine parameter `search-<name>` with integer values.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name after `search-`.
    pub name: String,
    /// The current estimate.
    pub value: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation size at the last planned iteration.
    pub c_end: f64,
    /// The learning rate at the last planned iteration.
    pub r_end: f64,
}

impl Param {
    /// Parses `NAME=START,MIN,MAX,C_END,R_END`.
    pub fn parse(text: &str) -> Result<Param, String> {
        let (name, numbers) = text
            .split_once('=')
            .ok_or_else(|| format!("'{text}': expected NAME=START,MIN,MAX,C_END,R_END"))?;
        let numbers: Vec<f64> = numbers
            .split(',')
            .map(|part| part.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("'{text}': the five values must be numbers"))?;
        let [value, min, max, c_end, r_end] = numbers[..] else {
            return Err(format!("'{text}': expected NAME=START,MIN,MAX,C_END,R_END"));
        };
        if !(min <= value && value <= max) || c_end <= 0.0 || r_end <= 0.0 {
            return Err(format!(
                "'{text}': need MIN <= START <= MAX and positive C_END and R_END"
            ));
        }
        Ok(Param {
            name: name.trim().to_string(),
            value,
            min,
            max,
            c_end,
            r_end,
        })
    }

    /// The perturbation size at iteration `k` of `planned`.
    fn c_k(&self, k: u64, planned: u64) -> f64 {
        let c = self.c_end * (planned as f64).powf(GAMMA);
        c / ((k + 1) as f64).powf(GAMMA)
    }

    /// The step factor `R_k` at iteration `k` of `planned` with stability constant `a_stab`.
    fn r_k(&self, k: u64, planned: u64, a_stab: f64) -> f64 {
        let a_end = self.r_end * self.c_end * self.c_end;
        let a = a_end * (a_stab + planned as f64).powf(ALPHA);
        let a_k = a / (a_stab + (k + 1) as f64).powf(ALPHA);
        let c_k = self.c_k(k, planned);
        a_k / (c_k * c_k)
    }

    /// The engine value of `value` (rounded, inside the range).
    fn engine_value(&self, value: f64) -> i64 {
        value.clamp(self.min, self.max).round() as i64
    }
}

/// The two engines of one iteration: each parameter's value for the plus and the minus side.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub iteration: u64,
    pub signs: Vec<f64>,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
}

/// A run's settings and progress: everything in its state file.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The engine binary (run as `ENGINE hub`).
    pub engine: String,
    /// The `onca match` limit, e.g. `--nodes 60000`.
    pub limit: String,
    /// Game pairs (one opening, both colours) per iteration.
    pub pairs: u32,
    /// Iterations per batch (jobs that may run at once).
    pub batch: u32,
    /// Iterations planned (the schedules reach `c_end` and `r_end` there).
    pub planned: u64,
    pub seed: u64,
    /// The next iteration to play (a multiple of `batch`).
    pub next: u64,
    pub params: Vec<Param>,
}

impl State {
    /// The stability constant `A`: a tenth of the planned iterations, as Spall suggests.
    fn a_stab(&self) -> f64 {
        self.planned as f64 / 10.0
    }

    /// The iterations of the current batch.
    pub fn batch_iterations(&self) -> std::ops::Range<u64> {
        self.next..self.next + u64::from(self.batch)
    }

    /// The engines iteration `k` plays, from the current values.
    pub fn perturbation(&self, k: u64) -> Perturbation {
        let mut rng = Rng::new(self.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let mut plus = Vec::new();
        let mut minus = Vec::new();
        for (param, sign) in self.params.iter().zip(&signs) {
            let step = param.c_k(k, self.planned) * sign;
            plus.push(param.engine_value(param.value + step));
            minus.push(param.engine_value(param.value - step));
        }
        Perturbation {
            iteration: k,
            signs,
            plus,
            minus,
        }
    }

    /// Applies iteration `k`'s result (`wins - losses` of the plus engine).
    pub fn apply(&mut self, k: u64, net_wins: i64) {
        let perturbation = self.perturbation(k);
        let (planned, a_stab) = (self.planned, self.a_stab());
        for (param, sign) in self.params.iter_mut().zip(&perturbation.signs) {
            let step = param.r_k(k, planned, a_stab) * param.c_k(k, planned) * net_wins as f64;
            param.value = (param.value + step * sign).clamp(param.min, param.max);
        }
    }

    /// The `onca match` arguments of iteration `k`, writing its games to `pdn`.
    pub fn match_arguments(&self, k: u64, pdn: &Path) -> Vec<String> {
        let perturbation = self.perturbation(k);
        let hub = format!("{} hub", self.engine);
        let mut args: Vec<String> = vec![
            "match".into(),
            "--engine".into(),
            hub.clone(),
            "--name".into(),
            "plus".into(),
            "--engine".into(),
            hub,
            "--name".into(),
            "minus".into(),
            "--option".into(),
            "plus:book=".into(),
            "--option".into(),
            "minus:book=".into(),
        ];
        for (index, param) in self.params.iter().enumerate() {
            for (side, values) in [("plus", &perturbation.plus), ("minus", &perturbation.minus)] {
                args.push("--option".into());
                args.push(format!("{side}:search-{}={}", param.name, values[index]));
            }
        }
        args.extend(self.limit.split_whitespace().map(String::from));
        args.extend([
            "--games".into(),
            (2 * self.pairs).to_string(),
            "--seed".into(),
            (self.seed.wrapping_mul(1_000_003).wrapping_add(k) % (1 << 53)).to_string(),
            "--pdn".into(),
            pdn.display().to_string(),
        ]);
        args
    }

    /// The state file's text.
    pub fn to_text(&self) -> String {
        let mut text = String::from("# onca-tune spsa state, version 1\n");
        let _ = writeln!(text, "engine {}", self.engine);
        let _ = writeln!(text, "limit {}", self.limit);
        let _ = writeln!(text, "pairs {}", self.pairs);
        let _ = writeln!(text, "batch {}", self.batch);
        let _ = writeln!(text, "planned {}", self.planned);
        let _ = writeln!(text, "seed {}", self.seed);
        let _ = writeln!(text, "next {}", self.next);
        for p in &self.params {
            let _ = writeln!(
                text,
                "param {} {} {} {} {} {}",
                p.name, p.value, p.min, p.max, p.c_end, p.r_end
            );
        }
        text
    }

    /// Reads a state file's text.
    pub fn from_text(text: &str) -> Result<State> {
        let mut state = State {
            engine: String::new(),
            limit: String::new(),
            pairs: 0,
            batch: 0,
            planned: 0,
            seed: 0,
            next: 0,
            params: Vec::new(),
        };
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let context = || format!("state line {}: '{line}'", number + 1);
            match key {
                "engine" => state.engine = rest.to_string(),
                "limit" => state.limit = rest.to_string(),
                "pairs" => state.pairs = rest.parse().with_context(context)?,
                "batch" => state.batch = rest.parse().with_context(context)?,
                "planned" => state.planned = rest.parse().with_context(context)?,
                "seed" => state.seed = rest.parse().with_context(context)?,
                "next" => state.next = rest.parse().with_context(context)?,
                "param" => {
                    let fields: Vec<&str> = rest.split_whitespace().collect();
                    let [name, numbers @ ..] = &fields[..] else {
                        bail!("{}: no parameter name", context());
                    };
                    let joined = format!("{name}={}", numbers.join(","));
                    state
                        .params
                        .push(Param::parse(&joined).map_err(|e| anyhow!("{}: {e}", context()))?);
                }
                _ => bail!("{}: unknown key", context()),
            }
        }
        if state.engine.is_empty() || state.params.is_empty() || state.pairs == 0 {
            bail!("the state names no engine, no parameter or no games");
        }
        if state.batch == 0 || state.planned == 0 {
            bail!("the state's batch and planned iterations must be positive");
        }
        Ok(state)
    }

    /// Reads the state file at `path`.
    pub fn load(path: &Path) -> Result<State> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        State::from_text(&text).with_context(|| format!("in {}", path.display()))
    }

    /// Writes the state file at `path` (under a temporary name, then renamed, so an interruption
    /// leaves the old state or the new one).
    pub fn save(&self, path: &Path) -> Result<()> {
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, self.to_text())
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        std::fs::rename(&temporary, path)
            .with_context(|| format!("cannot rename {}", temporary.display()))
    }
}

/// Where a run keeps its jobs' games and results: `STATE.jobs/`.
pub fn jobs_dir(state_path: &Path) -> PathBuf {
    let mut name = state_path.as_os_str().to_owned();
    name.push(".jobs");
    PathBuf::from(name)
}

/// The PDN file of iteration `k`'s games.
pub fn pdn_path(state_path: &Path, k: u64) -> PathBuf {
    jobs_dir(state_path).join(format!("iteration-{k:06}.pdn"))
}

/// The file holding iteration `k`'s result once its match has ended.
pub fn result_path(state_path: &Path, k: u64) -> PathBuf {
    jobs_dir(state_path).join(format!("iteration-{k:06}.result"))
}

/// Wins, losses and draws of the first engine from `onca match`'s summary line
/// `Score of A vs B: W - L - D ...`.
pub fn parse_match_score(summary: &str) -> Option<(u32, u32, u32)> {
    let line = summary.lines().find(|l| l.starts_with("Score of "))?;
    let (_, score) = line.split_once(": ")?;
    let mut numbers = score
        .split_whitespace()
        .filter(|word| *word != "-")
        .map(|word| word.parse::<u32>());
    let wins = numbers.next()?.ok()?;
    let losses = numbers.next()?.ok()?;
    let draws = numbers.next()?.ok()?;
    Some((wins, losses, draws))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State {
            engine: "/bin/onca".into(),
            limit: "--nodes 60000".into(),
            pairs: 4,
            batch: 2,
            planned: 100,
            seed: 7,
            next: 0,
            params: vec![
                Param::parse("probcut-margin=5,0,100,2,0.002").expect("valid"),
                Param::parse("aspiration-window=25,1,600,5,0.002").expect("valid"),
            ],
        }
    }

    #[test]
    fn state_text_round_trips() {
        let mut state = state();
        state.apply(0, 3);
        state.next = 2;
        let text = state.to_text();
        assert_eq!(State::from_text(&text).expect("own text reads back"), state);
        assert!(State::from_text("engine x\n").is_err());
        assert!(State::from_text(&text.replace("pairs 4", "pairs four")).is_err());
    }

    #[test]
    fn perturbations_are_symmetric_repeatable_and_shrink() {
        let state = state();
        let first = state.perturbation(0);
        assert_eq!(first, state.perturbation(0));
        for (index, param) in state.params.iter().enumerate() {
            let centre = param.value.round() as i64;
            assert_eq!(first.plus[index] - centre, centre - first.minus[index]);
            assert_ne!(first.plus[index], first.minus[index]);
        }
        let c0 = state.params[0].c_k(0, 100);
        let c99 = state.params[0].c_k(99, 100);
        assert!(c0 > c99 && (c99 - 2.0).abs() < 1e-9, "{c0} {c99}");
    }

    #[test]
    fn a_win_for_plus_moves_each_value_toward_its_plus_side() {
        let mut state = state();
        let before = state.clone();
        let perturbation = state.perturbation(5);
        state.apply(5, 4);
        for (index, param) in state.params.iter().enumerate() {
            let moved = param.value - before.params[index].value;
            assert!(moved * perturbation.signs[index] > 0.0, "{}", param.name);
        }
        let mut even = before.clone();
        even.apply(5, 0);
        assert_eq!(even, before);
    }

    #[test]
    fn values_stay_in_range() {
        let mut state = state();
        state.params[0].value = 99.5;
        for k in 0..50 {
            let net = if state.perturbation(k).signs[0] > 0.0 {
                8
            } else {
                -8
            };
            state.apply(k, net);
            let p = state.perturbation(k + 1);
            assert!(p.plus[0] <= 100 && p.minus[0] >= 0);
        }
        assert!(state.params[0].value <= 100.0);
    }

    #[test]
    fn match_arguments_name_both_engines_values() {
        let state = state();
        let args = state.match_arguments(3, Path::new("/tmp/x.pdn"));
        let p = state.perturbation(3);
        assert!(args.contains(&format!("plus:search-probcut-margin={}", p.plus[0])));
        assert!(args.contains(&format!("minus:search-probcut-margin={}", p.minus[0])));
        assert!(args.windows(2).any(|w| w[0] == "--games" && w[1] == "8"));
        assert!(args
            .windows(2)
            .any(|w| w[0] == "--nodes" && w[1] == "60000"));
    }

    #[test]
    fn match_scores_are_read_from_the_summary() {
        let summary = "Match plus vs minus (60000 nodes, seed 1)\n\
                       Score of plus vs minus: 8 - 3 - 9 [0.625] 20 games (wins - losses - draws)\n";
        assert_eq!(parse_match_score(summary), Some((8, 3, 9)));
        assert_eq!(parse_match_score("nothing here"), None);
    }

    #[test]
    fn bad_parameter_specifications_are_refused() {
        assert!(Param::parse("x=1,2,3").is_err());
        assert!(Param::parse("x=5,6,9,1,0.1").is_err());
        assert!(Param::parse("x=5,0,9,0,0.1").is_err());
        assert!(Param::parse("x=a,0,9,1,0.1").is_err());
    }
}

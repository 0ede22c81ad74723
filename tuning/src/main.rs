//! `onca-tune`: generate self-play data, merge shards, tune the evaluation weights.
//! Results go to stdout; progress bars go to stderr and only when it is a terminal.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use onca::eval::weights::{Weights, TUNABLE};
use onca::eval::weights_file::load_weights;
use onca::rules::variant::Variant;
use onca_tuning::checkpoint::Checkpoint;
use onca_tuning::samples::Samples;
use onca_tuning::{datagen, rescore, rng::Rng, spsa, tune};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "onca-tune",
    about = "Self-play data and Texel tuning for Onça's evaluation"
)]
struct Cli {
    /// Worker threads (default: one per core).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games at fixed nodes and write quiet `FEN;result;score` lines (the game's
    /// result and the search's score, White's view); running the same command again resumes
    /// (only the missing games are played).
    Datagen {
        /// Games in the whole run (game indices 0..games).
        #[arg(long)]
        games: u64,
        /// Nodes per move at least: each move draws its budget from this to one and a half times this.
        #[arg(long, default_value_t = 1000)]
        nodes: u64,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play only part I of N of the run (`I/N`: the games whose index is I modulo N) into
        /// this file; run the N parts as independent jobs and combine them with `merge`.
        #[arg(long, default_value = "0/1", value_parser = datagen::Shard::parse)]
        shard: datagen::Shard,
        /// The rules to play the games by: brazilian or russian.
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
        /// Append even if the file was written with another seed, node count or variant.
        #[arg(long)]
        force: bool,
    },
    /// Combine datagen files (the shards of one run, each possibly unfinished) into one: every
    /// complete game once, one header; all inputs must share the seed and node count.
    Merge {
        /// The merged file (written under a temporary name, then renamed).
        #[arg(long)]
        out: PathBuf,
        /// The shard files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Fit K, then the weights, on a `FEN;result[;score]` file; write the weights as `name opening
    /// endgame` lines.
    Tune {
        #[arg(long)]
        data: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Starting weights (a `name opening endgame` file); default: the engine's built-in
        /// weights (`Weights::default()`). The L2 penalty pulls toward these.
        #[arg(long)]
        start: Option<PathBuf>,
        /// Gradient steps in the whole run.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Adam step size in score units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// L2 penalty per squared score unit of distance from the starting weights (terms).
        #[arg(long, default_value_t = 1e-7)]
        lambda: f64,
        /// L2 penalty per squared score unit on each pattern weight, toward its
        /// `--pattern-anchor` (1e-7 toward zero for the first fit, 1e-8 toward it for the
        /// refit; see tuning/README.md).
        #[arg(long, default_value_t = 1e-7)]
        pattern_lambda: f64,
        /// What the pattern penalty pulls toward: `zero` (a fit from scratch) or `start` (a refit
        /// of the `--start` weights' patterns on new data, which keeps what older data taught
        /// where the new data says little).
        #[arg(long, value_enum, default_value_t = tune::PatternAnchor::Zero)]
        pattern_anchor: tune::PatternAnchor,
        /// Fraction of the lines held out for validation (chosen by a hash of the line).
        #[arg(long, default_value_t = 0.1)]
        validation: f64,
        /// Write `<out>.checkpoint` every this many steps.
        #[arg(long, default_value_t = 100)]
        checkpoint_every: usize,
        /// Continue from `<out>.checkpoint` (its step, K and weights; Adam restarts).
        #[arg(long)]
        resume: bool,
        /// Share of the search score in the training label: `(1 - W) * result + W *
        /// sigmoid(K * score)`, K fitted to the results; needs scored data (datagen's or
        /// `score`'s). The validation error stays against the results.
        #[arg(long, default_value_t = 0.0)]
        score_weight: f64,
        /// Pattern tables to fit: shapes (`blocks`, the default; `bands2`, `bands3`; `all`) and
        /// table names such as `block_r0_c0,kings_r2_c2,band3_r1`, comma-separated (shape and
        /// region experiments; the others keep their start weights).
        #[arg(long, default_value = "blocks", value_parser = tune::Tables::parse)]
        tables: tune::Tables,
    },
    /// Search every position of a `FEN;result[;score]` file to a fixed depth and write
    /// `FEN;result;score` lines (White's view, replacing a score already there), for `tune
    /// --score-weight`; running the same command again resumes.
    Score {
        #[arg(long)]
        data: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Search depth in plies.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Weights to search with (default: the built-in ones).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Write the hand-set weights (`Weights::hand_set()`) as `name opening endgame` lines, the
    /// format `onca hub --weights=FILE` reads (tuning/weights/hand-set.txt is written this way).
    HandSet {
        #[arg(long)]
        out: PathBuf,
    },
    /// Time gradient passes on synthetic sparse data (no engine involved).
    Bench {
        #[arg(long, default_value_t = 5_000_000)]
        samples: usize,
        /// Features (weights).
        #[arg(long, default_value_t = 110)]
        features: usize,
        /// Non-zero features per sample.
        #[arg(long, default_value_t = 40)]
        nonzero: usize,
        #[arg(long, default_value_t = 5)]
        iterations: usize,
    },
    /// SPSA tuning of search constants by games between perturbed engines, in batches of
    /// independent jobs (see tuning/README.md and `scripts/spsa`).
    Spsa {
        #[command(subcommand)]
        command: SpsaCommand,
    },
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Some(threads) = cli.threads {
        if let Err(error) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global()
        {
            eprintln!("onca-tune: cannot set up {threads} threads: {error}");
            return std::process::ExitCode::from(2);
        }
    }
    match run(cli.command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("onca-tune: {error:#}");
            std::process::ExitCode::from(2)
        }
    }
}

/// A progress bar on stderr (indicatif hides it when stderr is not a terminal), `done` of
/// `length` already done by an earlier run.
fn progress_bar(length: u64, done: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(length);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    if done > 0 {
        // Record the jump, then forget it, so the ETA uses only this run's rate.
        bar.set_position(done);
        bar.tick();
        bar.reset_eta();
    }
    bar
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The steps of an SPSA run.
#[derive(Subcommand)]
enum SpsaCommand {
    /// Write a new run's state file.
    Init {
        /// The state file to create.
        #[arg(long)]
        state: PathBuf,
        /// The engine binary to tune (run as `ENGINE hub`).
        #[arg(long)]
        engine: String,
        /// A parameter `NAME=START,MIN,MAX,C_END,R_END` (repeatable): the Hub parameter
        /// `search-NAME`, its start value and range, and the perturbation and learning rate the
        /// schedules reach at the last planned iteration.
        #[arg(long = "param", required = true, value_parser = spsa::Param::parse)]
        params: Vec<spsa::Param>,
        /// The `onca match` limit of every game.
        #[arg(long, default_value = "--nodes 60000", allow_hyphen_values = true)]
        limit: String,
        /// Game pairs (both colours of one opening) per iteration.
        #[arg(long, default_value_t = 4)]
        pairs: u32,
        /// Iterations per batch: jobs that start from the same values and may run at once.
        #[arg(long, default_value_t = 8)]
        batch: u32,
        /// Iterations planned.
        #[arg(long, default_value_t = 200)]
        planned: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Replace an existing state file.
        #[arg(long)]
        force: bool,
    },
    /// Print the commands of the current batch's unfinished jobs, one per line (for GNU parallel
    /// or a Slurm array task that runs line $SLURM_ARRAY_TASK_ID).
    Jobs {
        #[arg(long)]
        state: PathBuf,
    },
    /// Play one iteration's match (resuming its games if interrupted) and record its result; an
    /// iteration already recorded is not played again.
    Play {
        #[arg(long)]
        state: PathBuf,
        /// The iteration (it must be in the current batch).
        #[arg(
            long,
            required_unless_present = "batch_index",
            conflicts_with = "batch_index"
        )]
        iteration: Option<u64>,
        /// The iteration by its place in the current batch, from 1 (a Slurm array task's
        /// $SLURM_ARRAY_TASK_ID).
        #[arg(long)]
        batch_index: Option<u64>,
        /// The `onca` binary that runs the match (default: the state's engine).
        #[arg(long)]
        runner: Option<String>,
    },
    /// Apply the results of the current batch (all its jobs must have ended) and move on to the
    /// next batch; prints the new values.
    Update {
        #[arg(long)]
        state: PathBuf,
    },
    /// Print the current values as `search-NAME=VALUE` (rounded as the engine takes them).
    Show {
        #[arg(long)]
        state: PathBuf,
    },
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Spsa { command } => spsa_command(command),
        Command::Datagen {
            games,
            nodes,
            out,
            seed,
            shard,
            variant,
            force,
        } => datagen_command(
            &out,
            &datagen::Config {
                games,
                nodes,
                seed,
                shard,
                variant,
                force,
            },
        ),
        Command::Merge { out, inputs } => {
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            let summary = datagen::merge(&inputs, &out)?;
            println!(
                "{} games, {} positions written to {} ({} repeated games and {} bytes of unfinished games left out)",
                summary.games,
                summary.positions,
                out.display(),
                summary.duplicates,
                summary.dropped_bytes
            );
            Ok(())
        }
        Command::Tune {
            data,
            out,
            start,
            iterations,
            rate,
            lambda,
            pattern_lambda,
            pattern_anchor,
            validation,
            checkpoint_every,
            resume,
            score_weight,
            tables,
        } => tune_command(TuneArgs {
            data,
            out,
            start,
            iterations,
            pattern_anchor,
            settings: tune::Settings {
                k: 0.0,
                lambda,
                pattern_lambda,
                rate,
            },
            validation,
            checkpoint_every,
            resume,
            score_weight,
            tables,
        }),
        Command::Score {
            data,
            out,
            depth,
            weights,
        } => score_command(&data, &out, depth, weights.as_deref()),
        Command::HandSet { out } => std::fs::write(&out, Weights::hand_set().to_text())
            .with_context(|| format!("cannot write {}", out.display())),
        Command::Bench {
            samples,
            features,
            nonzero,
            iterations,
        } => bench_command(samples, features, nonzero, iterations),
    }
}

fn spsa_command(command: SpsaCommand) -> Result<()> {
    match command {
        SpsaCommand::Init {
            state,
            engine,
            params,
            limit,
            pairs,
            batch,
            planned,
            seed,
            force,
        } => {
            if state.exists() && !force {
                bail!(
                    "{} exists: continue it with `spsa jobs`, or pass --force to start over",
                    state.display()
                );
            }
            if pairs == 0 || batch == 0 || planned == 0 {
                bail!("--pairs, --batch and --planned must be positive");
            }
            let run = spsa::State {
                engine,
                limit,
                pairs,
                batch,
                planned,
                seed,
                next: 0,
                params,
            };
            std::fs::create_dir_all(spsa::jobs_dir(&state))?;
            run.save(&state)
        }
        SpsaCommand::Jobs { state: path } => {
            let run = spsa::State::load(&path)?;
            let exe = std::env::current_exe().context("cannot find onca-tune's own path")?;
            for k in run.batch_iterations() {
                if !spsa::result_path(&path, k).exists() {
                    println!(
                        "{} spsa play --state {} --iteration {k}",
                        exe.display(),
                        path.display()
                    );
                }
            }
            Ok(())
        }
        SpsaCommand::Play {
            state: path,
            iteration,
            batch_index,
            runner,
        } => {
            let run = spsa::State::load(&path)?;
            let iteration = match (iteration, batch_index) {
                (Some(k), _) => k,
                (None, Some(index)) if index >= 1 => run.next + index - 1,
                _ => bail!("--batch-index counts from 1"),
            };
            if !run.batch_iterations().contains(&iteration) {
                bail!(
                    "iteration {iteration} is not in the current batch ({:?})",
                    run.batch_iterations()
                );
            }
            let result = spsa::result_path(&path, iteration);
            if result.exists() {
                return Ok(());
            }
            std::fs::create_dir_all(spsa::jobs_dir(&path))?;
            let pdn = spsa::pdn_path(&path, iteration);
            let mut args = run.match_arguments(iteration, &pdn);
            if pdn.exists() {
                args.push("--resume".into());
            }
            let runner = runner.unwrap_or_else(|| run.engine.clone());
            let output = std::process::Command::new(&runner)
                .args(&args)
                .stderr(std::process::Stdio::null())
                .output()
                .with_context(|| format!("cannot run {runner}"))?;
            let summary = String::from_utf8_lossy(&output.stdout);
            if !output.status.success() {
                bail!("the match of iteration {iteration} failed: {summary}");
            }
            let (wins, losses, draws) = spsa::parse_match_score(&summary)
                .ok_or_else(|| anyhow!("no score in the match summary: {summary}"))?;
            let temporary = result.with_extension("tmp");
            std::fs::write(&temporary, format!("{wins} {losses} {draws}\n"))?;
            std::fs::rename(&temporary, &result)?;
            Ok(())
        }
        SpsaCommand::Update { state: path } => {
            let mut run = spsa::State::load(&path)?;
            let mut results = Vec::new();
            for k in run.batch_iterations() {
                let file = spsa::result_path(&path, k);
                let text = std::fs::read_to_string(&file).with_context(|| {
                    format!("iteration {k} has not ended (no {})", file.display())
                })?;
                let numbers: Vec<i64> = text
                    .split_whitespace()
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .with_context(|| format!("bad result in {}", file.display()))?;
                let [wins, losses, _draws] = numbers[..] else {
                    bail!("bad result in {}", file.display());
                };
                results.push((k, wins - losses));
            }
            for &(k, net) in &results {
                run.apply(k, net);
            }
            run.next += u64::from(run.batch);
            run.save(&path)?;
            let net: i64 = results.iter().map(|&(_, net)| net).sum();
            print!("iterations {}: plus engines net {net:+};", run.next);
            for param in &run.params {
                print!(" {}={:.2}", param.name, param.value);
            }
            println!();
            Ok(())
        }
        SpsaCommand::Show { state: path } => {
            let run = spsa::State::load(&path)?;
            println!("# after {} iterations", run.next);
            for param in &run.params {
                println!("search-{}={}", param.name, param.value.round() as i64);
            }
            Ok(())
        }
    }
}

fn datagen_command(out: &Path, config: &datagen::Config) -> Result<()> {
    let plan = datagen::prepare(out, config)?;
    if plan.dropped_bytes > 0 {
        eprintln!(
            "dropped {} bytes of an unfinished game at the end of {}",
            plan.dropped_bytes,
            out.display()
        );
    }
    let finished = plan.finished;
    if finished > 0 {
        eprintln!(
            "{finished} games already in {}, {} to play",
            out.display(),
            plan.remaining.len()
        );
    }
    let in_shard = (0..config.games)
        .filter(|&game| config.shard.contains(game))
        .count() as u64;
    let bar = progress_bar(
        in_shard,
        in_shard - plan.remaining.len() as u64,
        "games {pos}/{len} {wide_bar} {elapsed_precise} eta {eta_precise}  {msg}",
    );
    let started = Instant::now();
    let summary = datagen::run(plan, config, &|summary| {
        bar.set_message(format!("{} positions", summary.positions));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    println!(
        "{} positions from {} games ({} White wins, {} draws, {} Black wins) written to {} in {:.1} s; {} games of this seed and node count in the file",
        summary.positions,
        summary.games,
        summary.white_wins,
        summary.draws,
        summary.black_wins,
        out.display(),
        started.elapsed().as_secs_f64(),
        finished + summary.games
    );
    Ok(())
}

struct TuneArgs {
    data: PathBuf,
    out: PathBuf,
    start: Option<PathBuf>,
    iterations: usize,
    pattern_anchor: tune::PatternAnchor,
    settings: tune::Settings,
    validation: f64,
    checkpoint_every: usize,
    resume: bool,
    score_weight: f64,
    tables: tune::Tables,
}

fn score_command(data: &Path, out: &Path, depth: u32, weights: Option<&Path>) -> Result<()> {
    let weights = match weights {
        Some(path) => Some(std::sync::Arc::new(
            load_weights(path).map_err(anyhow::Error::msg)?,
        )),
        None => None,
    };
    let lines = std::io::BufRead::lines(std::io::BufReader::new(
        std::fs::File::open(data).with_context(|| format!("cannot open {}", data.display()))?,
    ))
    .count() as u64;
    let bar = progress_bar(
        lines,
        0,
        "lines {pos}/{len} {wide_bar} {elapsed_precise} eta {eta_precise}",
    );
    let started = Instant::now();
    let summary = rescore::rescore(data, out, depth, weights, &|done| bar.set_position(done))?;
    bar.finish_and_clear();
    println!(
        "{} positions searched to depth {depth} in {:.1} s ({} lines were already in {})",
        summary.scored,
        started.elapsed().as_secs_f64(),
        summary.resumed,
        out.display()
    );
    Ok(())
}

fn tune_command(args: TuneArgs) -> Result<()> {
    if !(0.0..1.0).contains(&args.validation) {
        bail!("--validation must be in [0, 1)");
    }
    let base = match &args.start {
        Some(path) => load_weights(path).map_err(anyhow::Error::msg)?,
        None => Weights::default(),
    };
    let reading = Instant::now();
    let text = std::fs::read_to_string(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must be in [0, 1]");
    }
    let mut data =
        tune::parse_data_with(&text, args.validation, &args.tables).map_err(anyhow::Error::msg)?;
    drop(text);
    if data.training.is_empty() {
        bail!("no training positions in {}", args.data.display());
    }
    println!(
        "{} training and {} validation positions ({} skipped: fixed-rule endgames), {:.1} non-zero features each, read in {:.1} s",
        data.training.len(),
        data.validation.len(),
        data.skipped,
        data.training.entries() as f64 / data.training.len() as f64,
        reading.elapsed().as_secs_f64()
    );
    println!("{} games", data.variant);
    println!(
        "{} distinct training positions; {} lines of held-out games left out of validation as copies of training positions",
        data.distinct_training, data.validation_in_training
    );
    let names = Weights::tunable_names();
    let unused: Vec<&str> = data
        .training
        .occurrences(TUNABLE)
        .iter()
        .zip(&names)
        .filter(|(count, _)| **count == 0)
        .map(|(_, name)| name.as_str())
        .collect();
    if !unused.is_empty() {
        println!(
            "features never seen (their weights keep the start value): {}",
            unused.join(", ")
        );
    }
    let occurrences = data.training.occurrences(tune::WEIGHT_COUNT);
    let seen_patterns = occurrences[TUNABLE..]
        .iter()
        .filter(|&&count| count > 0)
        .count();
    println!(
        "pattern weights seen in training: {seen_patterns} of {}",
        tune::WEIGHT_COUNT - TUNABLE
    );
    let anchor = tune::anchor(&tune::to_floats(&base), args.pattern_anchor);
    let checkpoint_path = with_suffix(&args.out, ".checkpoint");
    let (k, first_step, start) = if args.resume {
        let checkpoint = Checkpoint::load(&checkpoint_path)?;
        println!(
            "resuming from {} at step {} (K = {:.6}; Adam restarts)",
            checkpoint_path.display(),
            checkpoint.step,
            checkpoint.k
        );
        (checkpoint.k, checkpoint.step + 1, checkpoint.weights)
    } else {
        let start = tune::to_floats(&base);
        (tune::fit_k(&data.training, &start), 1, start)
    };
    if args.score_weight > 0.0 {
        data.training
            .blend_scores(k, args.score_weight)
            .map_err(|missing| {
                anyhow::anyhow!(
                    "--score-weight needs a search score on every line; {missing} training lines have none (write them with `onca-tune score`)"
                )
            })?;
        println!(
            "training labels: {:.2} result + {:.2} sigmoid(K * search score)",
            1.0 - args.score_weight,
            args.score_weight
        );
    }
    let settings = tune::Settings { k, ..args.settings };
    let report = |label: &str, weights: &[f64]| {
        let validation = if data.validation.is_empty() {
            String::from("none")
        } else {
            format!("{:.6}", tune::error(&data.validation, weights, k))
        };
        println!(
            "{label}: training error {:.6}, validation error {validation}",
            tune::error(&data.training, weights, k)
        );
    };
    println!(
        "K = {k:.6}, lambda = {:e}, pattern lambda = {:e}",
        settings.lambda, settings.pattern_lambda
    );
    report("start weights", &tune::to_floats(&base));
    if args.resume {
        report("checkpoint", &start);
    }
    let steps = args.iterations.saturating_sub(first_step - 1) as u64;
    let bar = progress_bar(
        args.iterations as u64,
        args.iterations as u64 - steps,
        "step {pos}/{len} {wide_bar} {elapsed_precise} eta {eta_precise}  {msg}",
    );
    let started = Instant::now();
    let mut failure = None;
    let tuned = tune::descend(
        &data.training,
        &anchor,
        &start,
        &settings,
        first_step,
        args.iterations,
        &mut |step, weights, error| {
            bar.set_message(format!("error {error:.6}"));
            bar.inc(1);
            if args.checkpoint_every > 0 && step % args.checkpoint_every == 0 {
                let checkpoint = Checkpoint {
                    step,
                    k,
                    weights: weights.to_vec(),
                };
                if let Err(error) = checkpoint.save(&checkpoint_path) {
                    failure.get_or_insert(error);
                }
            }
        },
    );
    bar.finish_and_clear();
    if let Some(error) = failure {
        return Err(error);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{steps} steps in {seconds:.1} s ({:.1} ms per step)",
        1000.0 * seconds / steps.max(1) as f64
    );
    Checkpoint {
        step: args.iterations.max(first_step - 1),
        k,
        weights: tuned.clone(),
    }
    .save(&checkpoint_path)?;
    // The weights are fitted to the data's variant, whatever variant the start weights were for
    // (a first Russian fit starts from the Brazilian weights).
    let weights = Weights {
        variant: data.variant,
        ..tune::to_weights(&base, &tuned)
    };
    report("tuned weights (rounded)", &tune::to_floats(&weights));
    std::fs::write(&args.out, weights.to_text())
        .with_context(|| format!("cannot write {}", args.out.display()))
}

fn bench_command(samples: usize, features: usize, nonzero: usize, iterations: usize) -> Result<()> {
    if features == 0 || nonzero > features || features > 1 << 24 {
        bail!("need 0 < features <= 16777216 and nonzero <= features");
    }
    let building = Instant::now();
    let mut rng = Rng::new(1);
    let mut data = Samples::default();
    let mut dense = vec![0.0f32; features];
    for _ in 0..samples {
        dense.iter_mut().for_each(|x| *x = 0.0);
        for _ in 0..nonzero {
            dense[rng.below(features)] = rng.below(9) as f32 - 4.0 + 0.5;
        }
        data.push(&dense, rng.below(3) as f32 / 2.0);
    }
    println!(
        "{} samples, {} features, {:.1} non-zero each ({:.0} MB), built in {:.1} s",
        data.len(),
        features,
        data.entries() as f64 / data.len().max(1) as f64,
        (data.entries() * 6 + data.len() * 8) as f64 / 1e6,
        building.elapsed().as_secs_f64()
    );
    let weights: Vec<f64> = (0..features).map(|i| (i % 17) as f64 - 8.0).collect();
    let started = Instant::now();
    let mut total = 0.0;
    for _ in 0..iterations {
        total += tune::gradient(&data, &weights, 0.01).1;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{iterations} gradient passes in {seconds:.2} s: {:.3} s per pass on {} threads (mean error {:.4})",
        seconds / iterations.max(1) as f64,
        rayon::current_num_threads(),
        total / iterations.max(1) as f64
    );
    Ok(())
}

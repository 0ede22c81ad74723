//! `onca-tune`: generate self-play data, tune the evaluation weights, export them as Rust (or
//! write the built-in ones as a weights file).

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use onca::weights::{Weights, TUNABLE};
use onca_tuning::{datagen, export, tune};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "onca-tune",
    about = "Self-play data and Texel tuning for Onça's evaluation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games at fixed nodes and append quiet `FEN;result` lines to a file.
    Datagen {
        #[arg(long)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 1000)]
        nodes: u64,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Index of the first game (to resume an interrupted run with the same seed: pass the
        /// number of games already finished; each game's opening depends on seed and index only).
        #[arg(long, default_value_t = 0)]
        first_game: u64,
    },
    /// Fit K, then the weights, on a `FEN;result` file; write the weights as `name value` lines.
    Tune {
        #[arg(long)]
        data: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Gradient steps.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Step size in score units.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
    },
    /// Write the hand-set weights (`Weights::HAND_SET`) as `name opening endgame` lines, the
    /// format `onca hub --weights=FILE` reads (tuning/weights/hand-set.txt is written this way).
    HandSet {
        #[arg(long)]
        out: PathBuf,
    },
    /// Write a weights file (from `tune`) as Rust source defining `TUNED`.
    Export {
        #[arg(long)]
        weights: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> std::process::ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("onca-tune: {error:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Datagen {
            games,
            nodes,
            out,
            seed,
            first_game,
        } => {
            // Appending: a second run (another seed) adds to an interrupted or finished one.
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .with_context(|| format!("cannot open {}", out.display()))?;
            let mut writer = BufWriter::new(file);
            let started = Instant::now();
            let progress = |done: u64| {
                let elapsed = started.elapsed().as_secs_f64();
                let eta = elapsed / done as f64 * (games - done) as f64;
                eprint!("\rgames {done}/{games}  elapsed {elapsed:.0} s  eta {eta:.0} s   ");
            };
            let written = datagen::run(first_game, games, nodes, seed, &mut writer, &progress)?;
            writer.flush()?;
            eprintln!();
            println!(
                "{written} positions from {games} games written to {}",
                out.display()
            );
        }
        Command::Tune {
            data,
            out,
            iterations,
            rate,
        } => {
            let text = std::fs::read_to_string(&data)
                .with_context(|| format!("cannot read {}", data.display()))?;
            let base = Weights::DEFAULT;
            let samples = tune::parse_samples(&text).map_err(anyhow::Error::msg)?;
            if samples.is_empty() {
                bail!("no positions in {}", data.display());
            }
            let start = tune::to_floats(&base);
            let k = tune::fit_k(&samples, &start);
            let before = tune::error(&samples, &start, k);
            println!(
                "{} positions, K = {k:.6}, error before {before:.6}",
                samples.len()
            );
            // Nothing is collinear: the man's value is its square table, anchored by K.
            let frozen = [false; TUNABLE];
            let started = Instant::now();
            let tuned = tune::descend(
                &samples,
                &start,
                k,
                &frozen,
                iterations,
                rate,
                &mut |step, e| {
                    let elapsed = started.elapsed().as_secs_f64();
                    let eta = elapsed / step as f64 * (iterations - step) as f64;
                    eprint!("\rstep {step}/{iterations}  error {e:.6}  eta {eta:.0} s   ");
                },
            );
            eprintln!();
            let weights = tune::to_weights(&base, &tuned);
            let after = tune::error(&samples, &tune::to_floats(&weights), k);
            println!("error after {after:.6} (rounded weights)");
            std::fs::write(&out, weights.to_text())
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        Command::HandSet { out } => {
            std::fs::write(&out, Weights::HAND_SET.to_text())
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        Command::Export { weights, out } => {
            let text = std::fs::read_to_string(&weights)
                .with_context(|| format!("cannot read {}", weights.display()))?;
            let parsed = Weights::parse_text(&text).map_err(anyhow::Error::msg)?;
            let mut file =
                File::create(&out).with_context(|| format!("cannot write {}", out.display()))?;
            file.write_all(export::to_rust(&parsed).as_bytes())?;
        }
    }
    Ok(())
}

//! The `onca` command line: subcommands for perft, move listing and engine matches.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use onca::fen;
use onca::movegen;
use onca::perft;
use onca::position::Position;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "onca",
    version,
    about = "Onça: a Brazilian draughts engine (8x8, international rules)",
    long_about = "Onça: a Brazilian draughts engine (8x8 board, flying kings, men capture backwards, \
the majority capture is compulsory).\n\nPositions are given as FEN (W:W21,22,K5:B1-12; squares 1-32 \
as in lidraughts, 1 = b8, 32 = g1, or algebraic) or as Hub position strings (W followed by 32 \
characters w/b/W/B/e for squares 1..32)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (checks the move generator). The last line is
    /// `<N> nodes <seconds> s <nodes per second> nps`.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position as FEN or Hub string (default: the start position).
        #[arg(long, short)]
        position: Option<String>,
        /// Also print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Threads to count with.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// List the legal moves in Hub notation, one per line, sorted by from, to and captured squares.
    Moves {
        /// Position as FEN or Hub string (default: the start position).
        #[arg(long, short)]
        position: Option<String>,
    },
    /// Play a match between two Hub engines (opening ballots, clocks, adjudication, PDN, Elo, SPRT).
    /// Progress goes to stderr, the summary to stdout.
    Match(Box<onca::match_cli::MatchArgs>),
}

fn read_position(text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(text) => fen::parse_position(text).context("bad --position"),
    }
}

fn run(cli: Cli) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Perft {
            depth,
            position,
            divide,
            threads,
        } => {
            let position = read_position(position.as_deref())?;
            let started = Instant::now();
            let nodes = if divide {
                let mut rows = perft::divide(&position, depth, threads as usize)?;
                rows.sort_by_key(|(mv, _)| mv.sort_key());
                for (mv, count) in &rows {
                    writeln!(out, "{mv} {count}")?;
                }
                rows.iter().map(|(_, count)| count).sum()
            } else {
                perft::perft_threads(&position, depth, threads as usize)?
            };
            let seconds = started.elapsed().as_secs_f64();
            let speed = nodes as f64 / seconds.max(1e-9);
            writeln!(out, "{nodes} nodes {seconds:.3} s {speed:.0} nps")?;
        }
        Command::Moves { position } => {
            let position = read_position(position.as_deref())?;
            let mut moves = movegen::legal_moves(&position);
            moves.sort_by_key(|mv| mv.sort_key());
            for mv in moves {
                writeln!(out, "{mv}")?;
            }
        }
        Command::Match(args) => onca::match_cli::run(&args, &mut out)?,
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("onca: {error:#}");
            ExitCode::from(2)
        }
    }
}

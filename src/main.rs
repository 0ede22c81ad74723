//! The `onca` command line: the Hub protocol loop (no subcommand, or `hub`) and subcommands for
//! perft, move listing, evaluation breakdown, bench, analysis, engine matches, the endgame databases
//! and the opening book.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use onca::notation::fen;
use onca::rules::movegen;
use onca::rules::perft;
use onca::rules::position::Position;
use onca::rules::variant::{Brazilian, Russian, Variant};
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
characters w/b/W/B/e for squares 1..32).\n\nWith no subcommand, or with `hub`, the engine speaks the Hub \
protocol on standard input and output (see engine-protocol.md). Set RUST_LOG=debug to log the \
protocol traffic on standard error."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Hub protocol on standard input and output (the default without a subcommand).
    Hub {
        /// Parameters to set before the session, as `--name=value` (how lidraughts-bot passes its
        /// engine_options), e.g. `onca hub --hash=256 --move-numbering=mirrored`. Same names and
        /// values as Hub's `set-param`; unknown names are ignored, bad values answered with
        /// `error` lines. `--weights=FILE` plays with the evaluation weights of FILE
        /// (e.g. tuning/weights/hand-set.txt) instead of the built-in ones, in games of the
        /// variant FILE was fitted to. `--egtb-path=DIR` probes the endgame tables of DIR instead
        /// of the built-in ones of up to 4 pieces (computed when a game nears an ending;
        /// `--egtb-path=` for none). `--contempt=N` makes a draw cost the engine N hundredths of
        /// a man in games (default 0). engine-protocol.md lists every parameter.
        #[arg(
            value_name = "--NAME=VALUE",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        params: Vec<String>,
    },
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
        /// The rules to count under: brazilian or russian.
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
    /// List the legal moves in Hub notation, one per line, sorted by from, to and captured squares.
    Moves {
        /// Position as FEN or Hub string (default: the start position).
        #[arg(long, short)]
        position: Option<String>,
        /// The rules to list them under: brazilian or russian.
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
    /// Search fixed positions to a fixed depth (the search's behaviour checksum). The last line is
    /// `<N> nodes <nodes per second> nps`.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = onca::search::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=100))]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Evaluation weights file (`name opening endgame` lines, e.g. tuning/weights/hand-set.txt),
        /// fitted to the variant's games. Default: the variant's built-in weights.
        #[arg(long, value_name = "FILE")]
        weights: Option<std::path::PathBuf>,
        /// A search parameter, as the Hub's `search-NAME` sets it (repeatable), e.g. `--search
        /// probcut=1`. engine-protocol.md lists the names.
        #[arg(long = "search", value_name = "NAME=VALUE",
              value_parser = onca::cli::analyze::parse_search_setting)]
        search: Vec<onca::cli::analyze::SearchSetting>,
        /// The rules to search under: brazilian or russian (same positions, another node count).
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
    /// Print the static evaluation broken down by term for White and Black (in men), and the
    /// total from the side to move.
    Eval {
        /// Position as FEN or Hub string (default: the start position).
        #[arg(long, short)]
        position: Option<String>,
        /// Evaluation weights file (`name opening endgame` lines), fitted to the variant's games.
        /// Default: the variant's built-in weights.
        #[arg(long, value_name = "FILE")]
        weights: Option<std::path::PathBuf>,
        /// The rules whose endgame knowledge and weights apply: brazilian or russian.
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
    /// Search one position and print a line per iteration, then `bestmove <move>`; or, with
    /// --pdn, review every game of a PDN file (classed moves, annotated PDN, graphs).
    Analyze(onca::cli::analyze::AnalyzeArgs),
    /// Play a match or a tournament between Hub engines (opening ballots, clocks, pondering,
    /// adjudication, PDN with resume, logs, Elo, pentanomial SPRT, ratings and crosstable).
    /// Progress goes to stderr, the summary to stdout.
    Match(Box<onca::cli::match_command::MatchArgs>),
    /// Endgame databases: generate them, check them, or look a position up.
    Egtb {
        #[command(subcommand)]
        command: onca::cli::egtb::EgtbCommand,
        /// The rules of the tables: brazilian or russian (different tables; each file names its
        /// variant and a directory of the other variant's is refused).
        #[arg(long, global = true, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
    /// A board in the browser: play against the engine, analyse, import and review PDN games.
    /// Serves a page on http://127.0.0.1:8080 (only this machine) until ended with Ctrl-C.
    Serve(onca::cli::serve::ServeArgs),
    /// The opening book: build one from our own searches, teach it the results of games, list a
    /// position's book moves, or summarise a book.
    Book {
        #[command(subcommand)]
        command: onca::cli::book::BookCommand,
        /// The rules of the book: brazilian or russian. A book file of the other variant is
        /// refused; the shipped book is Brazilian (there is no shipped Russian book).
        #[arg(long, global = true, default_value_t = Variant::Brazilian)]
        variant: Variant,
    },
}

fn read_position(text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(text) => fen::parse_position(text).context("bad --position"),
    }
}

fn run(command: Command) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match command {
        // Handled in `main` before stdout is locked here.
        Command::Hub { .. } => {}
        Command::Perft {
            depth,
            position,
            divide,
            threads,
            variant,
        } => {
            let position = read_position(position.as_deref())?;
            let started = Instant::now();
            let nodes = if divide {
                let mut rows = perft::divide_in(variant, &position, depth, threads as usize)?;
                rows.sort_by_key(|(mv, _)| mv.sort_key());
                for (mv, count) in &rows {
                    writeln!(out, "{mv} {count}")?;
                }
                rows.iter().map(|(_, count)| count).sum()
            } else {
                perft::perft_threads_in(variant, &position, depth, threads as usize)?
            };
            let seconds = started.elapsed().as_secs_f64();
            let speed = nodes as f64 / seconds.max(1e-9);
            writeln!(out, "{nodes} nodes {seconds:.3} s {speed:.0} nps")?;
        }
        Command::Bench {
            depth,
            threads,
            hash,
            weights,
            search,
            variant,
        } => onca::cli::analyze::run_bench(
            variant,
            depth,
            threads as usize,
            hash as usize,
            weights.as_deref(),
            &search,
            &mut out,
        )?,
        Command::Analyze(args) => onca::cli::analyze::run_analyze(&args, &mut out)?,
        Command::Match(args) => onca::cli::match_command::run(&args, &mut out)?,
        Command::Egtb { command, variant } => onca::cli::egtb::run(command, variant, &mut out)?,
        Command::Book { command, variant } => onca::cli::book::run(command, variant, &mut out)?,
        Command::Serve(args) => onca::cli::serve::run(&args, &mut out)?,
        Command::Eval {
            position,
            weights,
            variant,
        } => {
            let position = read_position(position.as_deref())?;
            let weights = match weights {
                Some(path) => onca::eval::weights_file::load_weights(&path)
                    .and_then(|weights| {
                        onca::eval::weights_file::for_variant(weights, &path, variant)
                    })
                    .map_err(anyhow::Error::msg)?,
                None => onca::eval::weights::Weights::builtin_for(variant).clone(),
            };
            onca::eval::report::write_report(&position, &weights, &mut out)?;
        }
        Command::Moves { position, variant } => {
            let position = read_position(position.as_deref())?;
            let mut moves = match variant {
                Variant::Brazilian => movegen::legal_moves_for::<Brazilian>(&position),
                Variant::Russian => movegen::legal_moves_for::<Russian>(&position),
            };
            moves.sort_by_key(|mv| mv.sort_key());
            for mv in moves {
                writeln!(out, "{mv}")?;
            }
        }
    }
    Ok(())
}

/// Whether `error` comes from writing to a standard output whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    // Silent unless RUST_LOG asks: Hub hosts may read our stderr as protocol output.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let command = match cli.command {
        None => {
            onca::hub::reader::run(std::io::stdin(), std::io::stdout());
            return ExitCode::SUCCESS;
        }
        Some(Command::Hub { params }) => {
            onca::hub::reader::run_with_params(std::io::stdin(), std::io::stdout(), &params);
            return ExitCode::SUCCESS;
        }
        Some(command) => command,
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader stopped listening (`onca book stats | head`): as for any Unix filter, that
        // is not an error of ours.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("onca: {error:#}");
            ExitCode::from(2)
        }
    }
}

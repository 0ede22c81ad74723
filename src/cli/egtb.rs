//! The `onca egtb` subcommands: generate, verify and probe the endgame databases, with their
//! progress and result text. Each works on the tables of one variant (`--variant`, Brazilian by
//! default): it generates that variant's tables, and verifies and probes with its moves; a
//! directory of the other variant's tables is refused in one line that says which they are.

use crate::egtb::generate::{self, Progress};
use crate::egtb::store::variant_title;
use crate::egtb::store::{Kind, TableFile};
use crate::egtb::{verify, Tablebases};
use crate::notation::fen;
use crate::rules::variant::Variant;
use anyhow::{Context, Result};
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The `onca egtb` subcommands and their arguments, as parsed by clap in `src/main.rs`.
#[derive(Subcommand)]
pub enum EgtbCommand {
    /// Generate every table up to N pieces (resumes: finished tables in DIR are kept). Progress and
    /// an estimate of the time left go to stderr; a summary per piece count to stdout.
    Generate {
        /// Largest number of pieces.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=6))]
        pieces: u32,
        /// Directory for the table files.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Also store distances to conversion for tables up to this many pieces.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=6))]
        distance_pieces: u32,
    },
    /// Check every table file in full (payload checksum, every block decoded) and every loaded
    /// table against one ply of real move generation (values, and distances where stored).
    /// Prints one line per table; fails if a file is damaged or any position disagrees.
    Verify {
        /// Directory of the table files.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// Check only tables with this many pieces or fewer.
        #[arg(long, default_value_t = 6)]
        pieces: u32,
        /// Check about this many positions per table (evenly spread) instead of all of them.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        sample: Option<u64>,
    },
    /// Print a position's value by the tables and the best move(s).
    Probe {
        /// Position as FEN or Hub string.
        #[arg(long, short)]
        position: String,
        /// Directory of the table files.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
    },
}

fn show_progress(progress: &Progress) {
    for table in &progress.finished {
        let name = table.key.map(|key| key.name()).unwrap_or_default();
        if table.resumed {
            eprintln!("  {name}: already on disk");
        } else {
            eprintln!(
                "  {name}: {} positions, {} wins {} draws {} losses, longest {} plies, {:.1} s",
                table.positions,
                table.wins,
                table.draws,
                table.losses,
                table.longest,
                table.seconds
            );
        }
    }
    let eta = progress
        .eta_seconds
        .map_or_else(|| "-".to_string(), |seconds| format!("{seconds:.0} s"));
    eprintln!(
        "[{}/{} tables, {:.1}% of positions] elapsed {:.1} s, ETA {eta}",
        progress.tables_done,
        progress.tables_total,
        100.0 * progress.positions_done as f64 / progress.positions_total.max(1) as f64,
        progress.elapsed_seconds,
    );
}

/// Loads the tables of `variant` in `dir`. Fails in one line when the directory holds only the
/// other variant's tables; otherwise warns (stderr) about each refused file.
pub fn load_tables(variant: Variant, dir: &Path) -> Result<Tablebases> {
    let tables = Tablebases::load_in(variant, dir)?;
    if let (0, (count, Some(other))) = (tables.keys().len(), tables.foreign()) {
        anyhow::bail!(
            "{} holds {} endgame tables ({count} files), not {} (choose them with --variant {other})",
            dir.display(),
            variant_title(other),
            variant_title(variant)
        );
    }
    for refused in tables.refused() {
        eprintln!("onca: warning: {refused}");
    }
    Ok(tables)
}

/// Runs one `onca egtb` subcommand on the tables of `variant`, writing its results to `out`.
pub fn run(command: EgtbCommand, variant: Variant, out: &mut impl Write) -> Result<()> {
    match command {
        EgtbCommand::Generate {
            pieces,
            dir,
            threads,
            distance_pieces,
        } => {
            let mut pool = rayon::ThreadPoolBuilder::new();
            if let Some(threads) = threads {
                pool = pool.num_threads(threads as usize);
            }
            let pool = pool.build().context("cannot start worker threads")?;
            let options = generate::Options {
                max_pieces: pieces,
                distance_pieces,
                dir,
            };
            let started = Instant::now();
            let (reports, _) = pool
                .install(|| generate::generate_in(variant, &options, &mut |p| show_progress(p)))?;
            writeln!(
                out,
                "pieces tables positions wdl_bytes dtc_bytes seconds (resumed tables count 0 s)"
            )?;
            for count in 2..=pieces {
                let rows: Vec<_> = reports
                    .iter()
                    .filter(|r| r.key.is_some_and(|key| key.pieces() == count))
                    .collect();
                let positions: u64 = rows.iter().map(|r| r.positions).sum();
                let wdl: u64 = rows.iter().map(|r| r.wdl_bytes).sum();
                let dtc: u64 = rows.iter().map(|r| r.dtc_bytes).sum();
                let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
                writeln!(
                    out,
                    "{count} {} {positions} {wdl} {dtc} {seconds:.1}",
                    rows.len()
                )?;
            }
            writeln!(out, "total {:.1} s", started.elapsed().as_secs_f64())?;
        }
        EgtbCommand::Verify {
            dir,
            pieces,
            sample,
        } => {
            let tablebases = load_tables(variant, &dir)?;
            let mut bad = tablebases.refused().len() as u64;
            for key in tablebases.keys() {
                if key.pieces() > pieces {
                    continue;
                }
                let started = Instant::now();
                for kind in [Kind::Wdl, Kind::Dtc] {
                    if kind == Kind::Dtc && !tablebases.has_distances(key) {
                        continue;
                    }
                    let file = TableFile::open_in(variant, &dir, key, kind);
                    if let Err(error) = file.and_then(|file| file.verify()) {
                        writeln!(out, "{key} damaged: {error:#}")?;
                        bad += 1;
                    }
                }
                let every = sample.map_or(1, |wanted| {
                    (crate::egtb::index::Indexer::new(key).size() / wanted).max(1)
                });
                let report = verify::verify_table(&tablebases, key, every);
                writeln!(
                    out,
                    "{key} {} positions {} mismatches ({}) {:.1} s {}",
                    report.positions,
                    report.mismatches,
                    if report.with_distances {
                        "wdl+distance"
                    } else {
                        "wdl"
                    },
                    started.elapsed().as_secs_f64(),
                    report.examples.join(" ")
                )?;
                bad += report.mismatches;
            }
            if bad > 0 {
                anyhow::bail!("{bad} positions or files are wrong");
            }
        }
        EgtbCommand::Probe { position, dir } => {
            let position = fen::parse_position(&position).context("bad --position")?;
            let tablebases = load_tables(variant, &dir)?;
            match tablebases.best_moves(&position) {
                None => writeln!(
                    out,
                    "not in the tables (complete up to {} pieces)",
                    tablebases.max_pieces()
                )?,
                Some((result, moves)) => {
                    match result.plies {
                        Some(plies) => writeln!(
                            out,
                            "{}, {plies} {} to conversion",
                            result.wdl,
                            if plies == 1 { "ply" } else { "plies" }
                        )?,
                        None => writeln!(out, "{}", result.wdl)?,
                    }
                    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
                    writeln!(out, "best: {}", moves.join(" "))?;
                }
            }
        }
    }
    Ok(())
}

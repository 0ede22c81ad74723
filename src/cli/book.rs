//! `onca book`: build a book, teach it the results of games, list a position's book moves,
//! summarise a book, each for one variant (`--variant`, Brazilian by default). A book file of
//! another variant, or games of another variant to learn from, are refused by name; the shipped
//! book is Brazilian and there is no shipped Russian one, so Russian commands name a file.

use crate::book::build::{self, SearchLimit, Settings};
use crate::book::{file, learn, Book};
use crate::game::openings;
use crate::game::pdn::PdnReader;
use crate::notation::fen;
use crate::notation::squares::game_type_number;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `onca book` subcommands, as parsed by clap in `src/main.rs`.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Grow a book of the chosen variant by best-first expansion from the start position and the
    /// ballots, scoring each move with a search under its rules. Resumable: the state goes to OUT.state and a rerun with the same
    /// settings continues; the result does not depend on the thread count. Progress and an
    /// estimate of the time left go to stderr.
    Build {
        /// The book file to write (under a temporary name, then renamed).
        #[arg(long)]
        out: PathBuf,
        /// Roots, comma-separated: `start`, `ballots` (the 342 ballot positions) or an opening
        /// file (one move list or FEN per line).
        #[arg(long, default_value = "start,ballots")]
        from: String,
        /// Positions to expand in all.
        #[arg(long, default_value_t = 20_000)]
        positions: usize,
        /// Nodes per move search (default 20000 unless --depth is given).
        #[arg(long, conflicts_with = "depth")]
        nodes: Option<u64>,
        /// Depth per move search, instead of --nodes.
        #[arg(long)]
        depth: Option<u32>,
        /// Threads searching moves in parallel (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Seed of the order among equally promising positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Positions expanded per round (part of the settings a resumed build must keep).
        #[arg(long, default_value_t = 64)]
        batch: usize,
    },
    /// Add the results of played games to a book (games of another variant than the book's are
    /// refused): every book move played in a game adds that
    /// game's result, for the side that played it, to the move's record. In play, a move whose
    /// record is clearly worse than another's is dropped from the book's choices. Learn from
    /// games between equal engines (the engine against itself, or with its book against itself
    /// without) at the speed the book is to be played at; learning from the same games twice
    /// counts them twice.
    Learn {
        /// The book to start from (default: the book shipped with the engine, which is Brazilian).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book file to write (under a temporary name, then renamed; may be --book).
        #[arg(long)]
        out: PathBuf,
        /// PDN files of the games (games without a result are skipped).
        #[arg(required = true)]
        games: Vec<PathBuf>,
    },
    /// List a position's book moves with their scores (in men, for the side to move), the
    /// plies of book below them and the results of the games learned from; moves too near the
    /// book's edge or that their games show worse than another are marked "not played".
    Probe {
        /// Position as FEN or Hub string (default: the start position).
        #[arg(long, short)]
        position: Option<String>,
        /// Book file (default: the book shipped with the engine, which is Brazilian).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Print a book's size, positions, moves per position and depth distribution.
    Stats {
        /// Book file (default: the book shipped with the engine, which is Brazilian).
        #[arg(long)]
        book: Option<PathBuf>,
    },
}

/// Runs one `onca book` subcommand for books of `variant`.
pub fn run(command: BookCommand, variant: Variant, out: &mut impl Write) -> Result<()> {
    match command {
        BookCommand::Build {
            out: path,
            from,
            positions,
            nodes,
            depth,
            threads,
            seed,
            batch,
        } => {
            let limit = match (depth, nodes) {
                (Some(depth), _) => SearchLimit::Depth(depth),
                (None, nodes) => SearchLimit::Nodes(nodes.unwrap_or(20_000)),
            };
            let threads = threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |t| t as usize,
            );
            let settings = Settings {
                variant,
                positions,
                limit,
                threads,
                seed,
                batch,
            };
            build_book(&path, &from, &settings, out)
        }
        BookCommand::Learn {
            book,
            out: path,
            games,
        } => learn_book(variant, book.as_deref(), &path, &games, out),
        BookCommand::Probe { position, book } => {
            let book = load(variant, book.as_deref())?;
            let position = match position {
                Some(text) => fen::parse_position(&text).context("bad --position")?,
                None => Position::start(),
            };
            let moves = book.moves(&position);
            let playable = book.playable(&position);
            if moves.is_empty() {
                writeln!(out, "not in the book")?;
            }
            for entry in moves {
                write!(
                    out,
                    "{:<12} {:>7.2}  {} plies of book below",
                    entry.mv.to_string(),
                    f64::from(entry.score) / 100.0,
                    entry.depth
                )?;
                let record = entry.record;
                if record.games() > 0 {
                    write!(
                        out,
                        "  games +{} ={} -{}",
                        record.wins, record.draws, record.losses
                    )?;
                }
                if !playable.contains(&entry) {
                    write!(out, "  (not played)")?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
        BookCommand::Stats { book } => {
            let book = load(variant, book.as_deref())?;
            write_stats(&book, out)
        }
    }
}

/// The book of `path` (default: the shipped one), refused unless it is a `variant` book.
fn load(variant: Variant, path: Option<&Path>) -> Result<Arc<Book>> {
    match path {
        Some(path) => Book::load_for(path, variant)
            .map(Arc::new)
            .map_err(|why| anyhow!(why)),
        None if Book::builtin().variant() == variant => Ok(Book::builtin()),
        None => bail!(
            "the book shipped with the engine is a {} book and there is no {variant} one: name a \
             {variant} book file with --book",
            Book::builtin().variant()
        ),
    }
}

/// Reads every game of `games`, adds the results to the `variant` book and writes it to `path`.
/// A game of another variant stops the command before anything is written.
fn learn_book(
    variant: Variant,
    book: Option<&Path>,
    path: &Path,
    games: &[PathBuf],
    out: &mut impl Write,
) -> Result<()> {
    let mut entries = load(variant, book)?.entries().to_vec();
    let (mut total, mut refused) = (learn::Learned::default(), 0usize);
    for pdn in games {
        let pdn_file =
            std::fs::File::open(pdn).with_context(|| format!("cannot open {}", pdn.display()))?;
        let mut read = Vec::new();
        let mut refused_here = 0usize;
        for game in PdnReader::new(std::io::BufReader::new(pdn_file)) {
            match game {
                Ok(game) if game.variant != variant => bail!(
                    "{}: game {} is a {} game (GameType {}), not {variant}: a {variant} book \
                     learns only from {variant} games",
                    pdn.display(),
                    read.len() + refused_here + 1,
                    game.variant,
                    game_type_number(game.variant)
                ),
                Ok(game) => read.push(game),
                Err(error) => {
                    eprintln!("{}: skipped: {error}", pdn.display());
                    refused_here += 1;
                }
            }
        }
        refused += refused_here;
        total += learn::learn(&mut entries, &read);
    }
    let bytes = file::encode(variant, &mut entries);
    file::write_atomically(path, &bytes)
        .with_context(|| format!("cannot write the book {}", path.display()))?;
    writeln!(
        out,
        "learned from {} games ({} book moves played); skipped {} without a result and {} unreadable; wrote {}",
        total.games,
        total.book_moves,
        total.unfinished,
        refused,
        path.display()
    )?;
    Ok(())
}

/// The roots named by `--from`, read under `variant`'s rules.
fn roots(variant: Variant, from: &str) -> Result<Vec<Position>> {
    let mut roots = Vec::new();
    let mut seen = HashSet::new();
    for spec in from.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let openings = openings::load_in(variant, spec).map_err(|e| anyhow!("--from: {e}"))?;
        for opening in openings {
            let position = *opening.game_in(variant).current();
            if seen.insert(position.key()) {
                roots.push(position);
            }
        }
    }
    if roots.is_empty() {
        bail!("--from names no positions");
    }
    Ok(roots)
}

fn build_book(path: &Path, from: &str, settings: &Settings, out: &mut impl Write) -> Result<()> {
    let roots = roots(settings.variant, from)?;
    let mut state = path.as_os_str().to_owned();
    state.push(".state");
    let state = PathBuf::from(state);
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(settings.positions as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "book {bar:30} {pos}/{len} positions, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    let started = std::time::Instant::now();
    let mut first = None;
    let mut entries = build::build(&roots, settings, &state, &mut |expanded| {
        let done = *first.get_or_insert(expanded);
        // The ETA counts only this run's work, not positions read back from the state file.
        if expanded == done {
            bar.set_position(expanded as u64);
            bar.reset_eta();
        } else {
            bar.set_position(expanded as u64);
        }
    })?;
    bar.finish_and_clear();
    let bytes = file::encode(settings.variant, &mut entries);
    file::write_atomically(path, &bytes)
        .with_context(|| format!("cannot write the book {}", path.display()))?;
    let book = Book::from_entries(settings.variant, entries);
    writeln!(
        out,
        "wrote {} ({} book, {} bytes) from {} roots in {:.1} s",
        path.display(),
        settings.variant,
        bytes.len(),
        roots.len(),
        started.elapsed().as_secs_f64()
    )?;
    write_stats(&book, out)
}

/// Variant, size, positions, moves per position and the depth distribution of the best moves.
fn write_stats(book: &Book, out: &mut impl Write) -> Result<()> {
    let entries = book.entries();
    writeln!(out, "{} book", book.variant())?;
    let mut positions: BTreeMap<u64, (usize, u16)> = BTreeMap::new();
    for entry in entries {
        let slot = positions.entry(entry.key).or_insert((0, 0));
        slot.0 += 1;
        slot.1 = slot.1.max(entry.depth);
    }
    writeln!(
        out,
        "{} entries ({} bytes as a version-{} file), {} positions, {:.2} moves per position",
        entries.len(),
        file::HEADER_BYTES + entries.len() * file::ENTRY_BYTES,
        file::VERSION,
        positions.len(),
        entries.len() as f64 / positions.len().max(1) as f64
    )?;
    let start = book.moves(&Position::start());
    writeln!(out, "start position: {} book moves", start.len())?;
    let mut by_depth: BTreeMap<u16, usize> = BTreeMap::new();
    for &(_, depth) in positions.values() {
        *by_depth.entry(depth).or_default() += 1;
    }
    writeln!(out, "positions by plies of book below them:")?;
    for (depth, count) in by_depth {
        writeln!(out, "  {depth:>3}: {count}")?;
    }
    Ok(())
}

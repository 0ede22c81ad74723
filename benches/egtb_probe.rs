//! Endgame table probe benchmark: how long opening a table directory takes, and nanoseconds per
//! probe warm (the files in the page cache) and cold (the files' pages evicted from the cache
//! first, so each probe's block comes from the disk), on positions without a capture pending (as
//! the search probes them), spread over every loaded table of the largest complete piece count.
//!
//! `cargo bench --bench egtb_probe -- DIR [PROBES]` (DIR from `onca egtb generate`; PROBES
//! defaults to 200,000). Cold timings need the right to evict the files' cached pages
//! (`posix_fadvise`), which any reader of the files has.

use onca::egtb::index::Indexer;
use onca::egtb::Tablebases;
use onca::rules::movegen;
use onca::rules::position::Position;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// SplitMix64: reproducible positions without a dependency.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `count` random positions of the tables with `pieces` pieces, none with a capture pending.
fn positions(tables: &Tablebases, pieces: u32, count: usize) -> Vec<Position> {
    let keys: Vec<_> = tables
        .keys()
        .into_iter()
        .filter(|key| key.pieces() == pieces)
        .collect();
    let mut state = 0x5EED;
    let mut found = Vec::with_capacity(count);
    let mut attempts = 0;
    while found.len() < count && attempts < 100 * count {
        attempts += 1;
        let key = keys[(next(&mut state) % keys.len() as u64) as usize];
        let indexer = Indexer::new(key);
        let index = next(&mut state) % indexer.size();
        if let Some(canonical) = indexer.position(index) {
            let position = canonical.position();
            if !movegen::has_capture(&position) {
                found.push(position);
            }
        }
    }
    found
}

/// Asks the kernel to drop the cached pages of every table file in `dir`.
fn evict(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let file = std::fs::File::open(&path)?;
        // Safety: a plain system call on a file descriptor we own.
        let status =
            unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        if status != 0 {
            return Err(std::io::Error::from_raw_os_error(status));
        }
    }
    Ok(())
}

fn time_probes(tables: &Tablebases, positions: &[Position]) -> (f64, usize) {
    let started = Instant::now();
    let mut found = 0;
    for position in positions {
        found += usize::from(tables.probe(position).is_some());
    }
    (
        started.elapsed().as_secs_f64() * 1e9 / positions.len().max(1) as f64,
        found,
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: cargo bench --bench egtb_probe -- DIR [PROBES]");
        return ExitCode::from(2);
    };
    let probes: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(200_000);
    if let Err(error) = evict(&dir) {
        eprintln!("cannot evict the cached pages: {error}");
    }
    let opened = Instant::now();
    let tables = match Tablebases::load(&dir) {
        Ok(tables) => tables,
        Err(error) => {
            eprintln!("{error:#}");
            return ExitCode::FAILURE;
        }
    };
    let open_ms = opened.elapsed().as_secs_f64() * 1e3;
    let pieces = tables.max_pieces();
    if pieces == 0 {
        eprintln!("no complete table set in {}", dir.display());
        return ExitCode::FAILURE;
    }
    let (count, bytes) = tables.memory();
    println!(
        "opened {count} tables ({:.1} MB of files, complete to {pieces} pieces) in {open_ms:.1} ms (cold)",
        bytes as f64 / 1e6
    );
    let sample = positions(&tables, pieces, probes);
    if let Err(error) = evict(&dir) {
        eprintln!("cannot evict the cached pages: {error}");
    }
    let (cold, found) = time_probes(&tables, &sample);
    let (warm, again) = time_probes(&tables, &sample);
    if found != sample.len() || again != sample.len() {
        eprintln!("{} of {} probes answered", found.min(again), sample.len());
        return ExitCode::FAILURE;
    }
    println!(
        "{} probes of {pieces}-piece positions: cold {cold:.0} ns/probe, warm {warm:.0} ns/probe",
        sample.len()
    );
    ExitCode::SUCCESS
}

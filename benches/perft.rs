//! Perft benchmark: fixed positions and depths with known leaf counts, timed on one thread and on
//! all requested threads. A wrong count fails the benchmark, so a fast but broken generator cannot
//! pass. Run with `cargo bench --bench perft` (add `-- --quick` to skip depth 12 from the start).

use onca::notation::fen::parse_position;
use onca::rules::perft::perft_threads;
use std::process::ExitCode;
use std::time::Instant;

/// (position, depth, leaf count). The start-position counts are the published ones (RULES.md);
/// the others are ours, checked at shallower depths against pydraughts (tests/data/perft.txt).
const CASES: &[(&str, u32, u64)] = &[
    ("W:W21-32:B1-12", 10, 21_560_022),
    ("W:W21-32:B1-12", 11, 105_491_257),
    ("W:W21-32:B1-12", 12, 511_882_477),
    ("W:WK29,K32,23,27:BK4,K1,10,11", 11, 71_736_455),
    ("B:WK18:B1,2,3,5,6,7,9,10,11", 11, 140_079_242),
    (
        "W:W18,19,22,23,25,26,29,30:B5,6,9,10,11,13,14,3",
        14,
        258_462_349,
    ),
    ("W:WK22:B9,10,17,18,K1", 10, 368_758_161),
    (
        "W:W17,21,22,23,25,26,27,28,30,31:B3,5,6,7,9,10,11,12,13,16",
        12,
        58_482_748,
    ),
];

fn main() -> ExitCode {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let mut failed = false;
    println!(
        "{:<64} {:>5} {:>12} {:>9} {:>9} {:>8}",
        "position", "depth", "nodes", "1 thread", "2 threads", "speedup"
    );
    for &(fen, depth, expected) in CASES {
        if quick && depth >= 12 && fen.starts_with("W:W21-32") {
            continue;
        }
        let Ok(position) = parse_position(fen) else {
            eprintln!("bad FEN in benchmark: {fen}");
            return ExitCode::FAILURE;
        };
        let mut seconds = [0.0; 2];
        for (slot, threads) in [1usize, 2].into_iter().enumerate() {
            let started = Instant::now();
            let nodes = match perft_threads(&position, depth, threads) {
                Ok(nodes) => nodes,
                Err(error) => {
                    eprintln!("cannot start threads: {error}");
                    return ExitCode::FAILURE;
                }
            };
            seconds[slot] = started.elapsed().as_secs_f64();
            if nodes != expected {
                eprintln!("WRONG COUNT: perft({depth}) of {fen} = {nodes}, expected {expected}");
                failed = true;
            }
        }
        println!(
            "{fen:<64} {depth:>5} {expected:>12} {:>8.3}s {:>8.3}s {:>7.2}x",
            seconds[0],
            seconds[1],
            seconds[0] / seconds[1]
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

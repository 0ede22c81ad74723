//! Perft benchmark: fixed positions and depths with known leaf counts, timed on one thread and on
//! all requested threads. A wrong count fails the benchmark, so a fast but broken generator cannot
//! pass. Run with `cargo bench --bench perft` (add `-- --quick` to skip depth 12 from the start).

use onca::notation::fen::parse_position;
use onca::rules::perft::perft_threads_in;
use onca::rules::variant::Variant;
use std::process::ExitCode;
use std::time::Instant;

/// (variant, position, depth, leaf count). The start-position counts are the published ones
/// (RULES.md for Brazilian; the Russian ones as published for Russian draughts); the others are
/// ours, checked at shallower depths against pydraughts (tests/data/perft.txt).
const CASES: &[(Variant, &str, u32, u64)] = &[
    (Variant::Brazilian, "W:W21-32:B1-12", 10, 21_560_022),
    (Variant::Brazilian, "W:W21-32:B1-12", 11, 105_491_257),
    (Variant::Brazilian, "W:W21-32:B1-12", 12, 511_882_477),
    (
        Variant::Brazilian,
        "W:WK29,K32,23,27:BK4,K1,10,11",
        11,
        71_736_455,
    ),
    (
        Variant::Brazilian,
        "B:WK18:B1,2,3,5,6,7,9,10,11",
        11,
        140_079_242,
    ),
    (
        Variant::Brazilian,
        "W:W18,19,22,23,25,26,29,30:B5,6,9,10,11,13,14,3",
        14,
        258_462_349,
    ),
    (Variant::Brazilian, "W:WK22:B9,10,17,18,K1", 10, 368_758_161),
    (
        Variant::Brazilian,
        "W:W17,21,22,23,25,26,27,28,30,31:B3,5,6,7,9,10,11,12,13,16",
        12,
        58_482_748,
    ),
    (Variant::Russian, "W:W21-32:B1-12", 10, 22_444_032),
    (Variant::Russian, "W:W21-32:B1-12", 11, 110_917_189),
    (Variant::Russian, "W:W21-32:B1-12", 12, 544_770_444),
];

fn main() -> ExitCode {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let mut failed = false;
    println!(
        "{:<9} {:<64} {:>5} {:>12} {:>9} {:>9} {:>8}",
        "variant", "position", "depth", "nodes", "1 thread", "2 threads", "speedup"
    );
    for &(variant, fen, depth, expected) in CASES {
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
            let nodes = match perft_threads_in(variant, &position, depth, threads) {
                Ok(nodes) => nodes,
                Err(error) => {
                    eprintln!("cannot start threads: {error}");
                    return ExitCode::FAILURE;
                }
            };
            seconds[slot] = started.elapsed().as_secs_f64();
            if nodes != expected {
                eprintln!(
                    "WRONG COUNT: {variant} perft({depth}) of {fen} = {nodes}, expected {expected}"
                );
                failed = true;
            }
        }
        println!(
            "{variant:<9} {fen:<64} {depth:>5} {expected:>12} {:>8.3}s {:>8.3}s {:>7.2}x",
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

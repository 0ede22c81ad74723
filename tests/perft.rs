//! Perft: the leaf counts of tests/data/perft.txt (Brazilian) and tests/data/perft_russian.txt
//! (Russian), one driver per table.

use onca::notation::fen::parse_position;
use onca::rules::perft::{divide, divide_in, perft, perft_for, perft_threads, perft_threads_in};
use onca::rules::position::Position;
use onca::rules::variant::{Russian, Variant};

fn table(text: &str) -> Vec<(String, u32, u64)> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "bad perft line: {line}");
            (
                fields[0].to_string(),
                fields[1].parse().expect("depth"),
                fields[2].parse().expect("count"),
            )
        })
        .collect()
}

#[test]
fn perft_table() {
    let rows = table(include_str!("data/perft.txt"));
    assert!(rows.len() >= 14);
    for (fen, depth, expected) in rows {
        let position = parse_position(&fen).expect("valid FEN");
        assert_eq!(perft(&position, depth), expected, "perft({depth}) of {fen}");
    }
}

#[test]
fn russian_perft_table() {
    let rows = table(include_str!("data/perft_russian.txt"));
    assert!(rows.len() >= 14);
    for (fen, depth, expected) in rows {
        let position = parse_position(&fen).expect("valid FEN");
        assert_eq!(
            perft_for::<Russian>(&position, depth),
            expected,
            "Russian perft({depth}) of {fen}"
        );
    }
}

/// Russian depths 10 and 11 from the start (the published counts); depth 12 is in the perft
/// benchmark. Slow for the default run: `cargo test --profile test-opt --test perft -- --ignored`.
#[test]
#[ignore]
fn russian_perft_deep() {
    let start = Position::start();
    assert_eq!(
        perft_threads_in(Variant::Russian, &start, 10, 2).expect("pool"),
        22_444_032
    );
    assert_eq!(
        perft_threads_in(Variant::Russian, &start, 11, 2).expect("pool"),
        110_917_189
    );
}

#[test]
fn threads_and_divide_agree_with_the_plain_count() {
    let start = Position::start();
    assert_eq!(perft_threads(&start, 8, 2).expect("pool"), 907_830);
    let rows = divide(&start, 6, 2).expect("pool");
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.iter().map(|(_, count)| count).sum::<u64>(), 37_628);
    assert_eq!(
        perft_threads_in(Variant::Russian, &start, 8, 2).expect("pool"),
        929_899
    );
    let rows = divide_in(Variant::Russian, &start, 6, 2).expect("pool");
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.iter().map(|(_, count)| count).sum::<u64>(), 37_986);
}

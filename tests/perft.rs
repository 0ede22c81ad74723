//! Perft: the leaf counts of tests/data/perft.txt, one driver for the whole table.

use onca::notation::fen::parse_position;
use onca::rules::perft::{divide, perft, perft_threads};
use onca::rules::position::Position;

fn table() -> Vec<(String, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
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
    let rows = table();
    assert!(rows.len() >= 14);
    for (fen, depth, expected) in rows {
        let position = parse_position(&fen).expect("valid FEN");
        assert_eq!(perft(&position, depth), expected, "perft({depth}) of {fen}");
    }
}

#[test]
fn threads_and_divide_agree_with_the_plain_count() {
    let start = Position::start();
    assert_eq!(perft_threads(&start, 8, 2).expect("pool"), 907_830);
    let rows = divide(&start, 6, 2).expect("pool");
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.iter().map(|(_, count)| count).sum::<u64>(), 37_628);
}

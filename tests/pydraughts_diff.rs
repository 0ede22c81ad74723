//! Differential test against pydraughts 0.6.7, an independent implementation of the rules, in
//! Brazilian and in Russian draughts.
//!
//! Thousands of positions (every position of seeded random games, plus random king-rich
//! placements) go to `tests/oracle/pydraughts_oracle.py`, which answers with pydraughts' legal
//! moves (routes merged by from, to and captured set) and the position after each. Both the move
//! sets and the resulting positions must agree exactly.
//!
//! The Python comes from `ONCA_PYDRAUGHTS_PYTHON`, or else `.venv/pydraughts-0.6.7/bin/python`
//! (which `scripts/test` creates). Without either the test says so and passes, unless
//! `ONCA_REQUIRE_ORACLE=1` (set by `scripts/test` and so by CI), when it fails.

mod common;

use onca::notation::fen::{to_fen, to_hub_position};
use onca::rules::movegen;
use onca::rules::position::Position;
use onca::rules::variant::{Brazilian, Rules, Russian};
use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Our answer in the oracle's terms under the rules `R`: Hub move text -> Hub position after it.
fn our_moves<R: Rules>(position: &Position) -> BTreeMap<String, String> {
    movegen::legal_moves_for::<R>(position)
        .iter()
        .map(|mv| (mv.to_string(), to_hub_position(&position.play_for::<R>(mv))))
        .collect()
}

fn parse_oracle_line(line: &str) -> Result<BTreeMap<String, String>, String> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("moves") => words
            .map(|word| {
                word.split_once('=')
                    .map(|(mv, after)| (mv.to_string(), after.to_string()))
                    .ok_or_else(|| format!("malformed oracle word '{word}'"))
            })
            .collect(),
        _ => Err(format!("oracle: {line}")),
    }
}

/// The seeded positions of the test under the rules `R`: every position of random games played
/// under them, plus random king-rich placements, without repeats.
fn test_positions<R: Rules>(game_seed: u64, placement_seed: u64) -> Vec<Position> {
    let mut positions = common::random_game_positions_for::<R>(game_seed, 40, 160);
    positions.extend(common::random_sparse_positions(placement_seed, 1200));
    let mut seen = HashSet::new();
    positions.retain(|position| seen.insert(position.key()));
    assert!(
        positions.len() >= 2000,
        "only {} distinct positions",
        positions.len()
    );
    positions
}

/// Asks the oracle for every position under the rules `R` and fails on the first ten that
/// differ; returns how many positions agreed, of which how many had a capture.
fn compare_with_oracle<R: Rules>(python: &Path, positions: &[Position]) -> (usize, usize) {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/pydraughts_oracle.py");
    let mut child = Command::new(python)
        .arg(&script)
        .arg("--plain")
        .arg("--variant")
        .arg(R::VARIANT.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", python.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let fens: Vec<String> = positions.iter().map(to_fen).collect();
    let writer = std::thread::spawn(move || {
        for fen in fens {
            writeln!(stdin, "{fen}").expect("oracle accepts input");
        }
    });
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));

    let mut failures = Vec::new();
    let mut answered = 0;
    let mut with_capture = 0;
    for (position, line) in positions.iter().zip(stdout.lines()) {
        let line = line.expect("oracle output");
        answered += 1;
        let ours = our_moves::<R>(position);
        match parse_oracle_line(&line) {
            Ok(theirs) if theirs == ours => {
                with_capture += usize::from(movegen::has_capture(position));
            }
            Ok(theirs) => failures.push(format!(
                "{}\n  onca:       {:?}\n  pydraughts: {:?}",
                to_fen(position),
                ours,
                theirs
            )),
            Err(error) => failures.push(format!("{}: {error}", to_fen(position))),
        }
    }
    writer.join().expect("writer thread");
    let status = child.wait().expect("oracle exits");
    assert!(status.success(), "oracle failed: {status}");
    assert_eq!(
        answered,
        positions.len(),
        "oracle answered too few positions"
    );
    assert!(
        failures.is_empty(),
        "{} {} of {} positions differ:\n{}",
        R::VARIANT,
        failures.len(),
        positions.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    (answered, with_capture)
}

#[test]
fn move_generation_agrees_with_pydraughts() {
    let Some(python) = common::required_pydraughts_python() else {
        return;
    };
    let positions = test_positions::<Brazilian>(0x0_5EED, 0xBEEF);
    compare_with_oracle::<Brazilian>(&python, &positions);
}

#[test]
fn russian_move_generation_agrees_with_pydraughts() {
    let Some(python) = common::required_pydraughts_python() else {
        return;
    };
    let positions = test_positions::<Russian>(0x0_5EED, 0xBEEF);
    let (agreed, with_capture) = compare_with_oracle::<Russian>(&python, &positions);
    eprintln!("Russian: {agreed} positions agree with pydraughts, {with_capture} with a capture");
    assert!(
        with_capture >= 500,
        "only {with_capture} positions with a capture"
    );
}

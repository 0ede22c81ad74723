//! The `onca egtb` subcommands as a user meets them: generate, probe, verify.

use std::path::PathBuf;
use std::process::{Command, Output};

fn onca(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_onca"))
        .args(args)
        .output()
        .expect("onca runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir() -> PathBuf {
    let path = std::env::temp_dir().join(format!("onca-egtb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    path
}

#[test]
fn generate_then_probe_and_verify() {
    let dir = temp_dir();
    let dir_text = dir.to_string_lossy().into_owned();
    let generated = onca(&[
        "egtb",
        "generate",
        "--pieces",
        "3",
        "--dir",
        &dir_text,
        "--threads",
        "1",
    ]);
    assert!(generated.status.success(), "{}", text(&generated.stderr));
    let summary = text(&generated.stdout);
    assert!(summary.contains("\n2 4 3488 "), "{summary}");
    assert!(summary.contains("\n3 12 196032 "), "{summary}");
    let progress = text(&generated.stderr);
    assert!(
        progress.contains("[16/16 tables, 100.0% of positions]"),
        "{progress}"
    );
    assert!(progress.contains("ETA"), "{progress}");

    // Two kings against a man: a win, and every best move keeps the shortest distance.
    let probed = onca(&[
        "egtb",
        "probe",
        "--position",
        "W:WK1,K2:B12",
        "--dir",
        &dir_text,
    ]);
    assert!(probed.status.success(), "{}", text(&probed.stderr));
    let lines = text(&probed.stdout);
    assert!(lines.starts_with("win, "), "{lines}");
    assert!(lines.contains("\nbest: "), "{lines}");

    let drawn = onca(&[
        "egtb",
        "probe",
        "--position",
        "B:WK1:BK32",
        "--dir",
        &dir_text,
    ]);
    assert!(
        text(&drawn.stdout).starts_with("draw\nbest: 32-"),
        "{}",
        text(&drawn.stdout)
    );

    let outside = onca(&[
        "egtb",
        "probe",
        "--dir",
        &dir_text,
        "--position",
        "W:W21,22,23:B1,2",
    ]);
    assert!(outside.status.success());
    assert!(text(&outside.stdout).starts_with("not in the tables"));

    // The line of table m1k1_m0k1 in verify's output and the positions it checked.
    let table_line = |stdout: &[u8]| {
        let line = text(stdout)
            .lines()
            .find(|line| line.starts_with("m1k1_m0k1 "))
            .map(str::to_string)
            .expect("a line for m1k1_m0k1");
        let checked: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a count");
        (line, checked)
    };
    let verified = onca(&["egtb", "verify", "--dir", &dir_text]);
    assert!(verified.status.success(), "{}", text(&verified.stdout));
    // Of the 26,040 positions of the table, those where the side to move must capture hold no
    // stored value and are not counted.
    let (line, checked) = table_line(&verified.stdout);
    assert!((10_000..26_040).contains(&checked), "{line}");
    assert!(line.contains(" 0 mismatches (wdl+distance)"), "{line}");
    let sampled = onca(&["egtb", "verify", "--dir", &dir_text, "--sample", "100"]);
    assert!(sampled.status.success(), "{}", text(&sampled.stdout));
    let (line, few) = table_line(&sampled.stdout);
    assert!((20..=110).contains(&few), "{line}");

    // A second run finds everything on disk.
    let again = onca(&["egtb", "generate", "--pieces", "3", "--dir", &dir_text]);
    assert!(again.status.success());
    assert!(text(&again.stderr).contains("already on disk"));

    let bad = onca(&[
        "egtb",
        "probe",
        "--position",
        "nonsense",
        "--dir",
        &dir_text,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("bad --position"));
    let missing = onca(&[
        "egtb",
        "probe",
        "--position",
        "W:WK1:BK32",
        "--dir",
        "/nonexistent/x",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read table directory"));
    let _ = std::fs::remove_dir_all(&dir);
}

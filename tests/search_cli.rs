//! The `bench` and `analyze` subcommands as a user runs them.

mod hub_support;

use hub_support::run_onca as onca;

#[test]
fn bench_ends_with_nodes_and_nps() {
    let (code, stdout, _) = onca(&["bench", "--depth", "3"]);
    assert_eq!(code, 0);
    let last = stdout.lines().last().expect("bench prints lines");
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{last}");
    assert!(fields[0].parse::<u64>().is_ok(), "{last}");
    assert_eq!(fields[1], "nodes");
    assert!(fields[2].parse::<u64>().is_ok(), "{last}");
    assert_eq!(fields[3], "nps");
    let (_, again, _) = onca(&["bench", "--depth", "3"]);
    assert_eq!(
        again.lines().last().map(|l| l.split_whitespace().next()),
        Some(Some(fields[0]))
    );
}

#[test]
fn analyze_prints_diagram_iterations_and_bestmove() {
    let (code, stdout, _) = onca(&["analyze", "--depth", "4", "--moves", "22-18 11-15"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(" 32"), "diagram with numbers:\n{stdout}");
    assert!(stdout.lines().filter(|l| l.starts_with("depth ")).count() >= 4);
    let last = stdout.lines().last().expect("output");
    assert!(
        last.starts_with("bestmove 18x11x15") || last.starts_with("bestmove "),
        "{last}"
    );
    let (code, stdout, _) = onca(&["analyze", "--nodes", "2000", "--multipv", "2"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("multipv 2"), "{stdout}");
}

#[test]
fn analyze_rejects_bad_input_with_exit_code_2() {
    for args in [
        &["analyze", "--position", "W:W99:B1"][..],
        &["analyze", "--moves", "22-17 1-2"][..],
        &["analyze", "--movetime", "0"][..],
    ] {
        let (code, stdout, stderr) = onca(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn analyze_with_the_built_in_tables_scores_a_won_ending_by_them() {
    // Three kings against a king off the long diagonal: won, but beyond a two-ply search.
    let args = ["analyze", "-p", "W:WK4,K11,K26:BK14", "--depth", "2"];
    let (code, without, _) = onca(&args);
    assert_eq!(code, 0);
    assert!(!without.contains("db win"), "{without}");
    let mut with_tables = args.to_vec();
    with_tables.extend(["--egtb", "builtin"]);
    let (code, stdout, stderr) = onca(&with_tables);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("endgame tables: built in, up to 4 pieces"),
        "{stderr}"
    );
    let last_iteration = stdout
        .lines()
        .rfind(|line| line.starts_with("depth 2/"))
        .expect("a depth-2 iteration");
    assert!(
        last_iteration.contains("score db win") && last_iteration.contains("tbhits"),
        "{last_iteration}"
    );
}

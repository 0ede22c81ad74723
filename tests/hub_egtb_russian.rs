//! Russian endgame tables against the real binary: `onca egtb generate|probe|verify --variant
//! russian`, `onca analyze --variant russian --egtb` (and its one-line refusal of Brazilian
//! tables), and the Hub: a Russian game probes Russian tables (`tbhits`), tables of the other
//! variant are reported in an `error` line and the engine plays on without them.

mod hub_support;

use hub_support::{check_search_in, field, run_onca, Engine};
use onca::notation::fen::parse_position;
use onca::rules::variant::Variant;

/// Every table of `variant` up to 3 pieces, written by `onca egtb generate` into a fresh
/// temporary directory.
fn tables(variant: Variant) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("onca-hub-egtb-{variant}-"))
        .tempdir()
        .expect("temporary directory");
    let path = dir.path().display().to_string();
    let (code, out, err) = run_onca(&[
        "egtb",
        "generate",
        "--variant",
        variant.name(),
        "--pieces",
        "3",
        "--dir",
        &path,
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    dir
}

/// A man crowned during a capture goes on as a king in Russian (a win), not in Brazilian (a draw).
const CROWNING: &str = "W:W11:B7,K9";

#[test]
fn the_egtb_command_builds_probes_and_verifies_russian_tables() {
    let russian = tables(Variant::Russian);
    let brazilian = tables(Variant::Brazilian);
    let russian_dir = russian.path().display().to_string();
    let brazilian_dir = brazilian.path().display().to_string();

    let probe = |variant: &str, dir: &str| {
        run_onca(&[
            "egtb",
            "probe",
            "--variant",
            variant,
            "--dir",
            dir,
            "-p",
            CROWNING,
        ])
    };
    let (code, out, err) = probe("russian", &russian_dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("win, 1 ply to conversion"), "{out}");
    assert!(out.contains("best: 11x13x7x9"), "{out}");
    let (code, out, err) = probe("brazilian", &brazilian_dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("draw"), "{out}");

    // The other variant's directory: one line naming what the tables are.
    let (code, out, err) = probe("brazilian", &russian_dir);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("holds Russian endgame tables") && err.contains("not Brazilian"),
        "{err}"
    );

    let (code, out, err) = run_onca(&[
        "egtb",
        "verify",
        "--variant",
        "russian",
        "--dir",
        &russian_dir,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 16, "{out}");
    assert!(
        out.lines().all(|line| line.contains(" 0 mismatches")),
        "{out}"
    );
    let (code, _, err) = run_onca(&["egtb", "verify", "--dir", &russian_dir]);
    assert_eq!(code, 2);
    assert!(err.contains("holds Russian endgame tables"), "{err}");

    // A fresh run over a finished directory resumes everything.
    let (code, out, err) = run_onca(&[
        "egtb",
        "generate",
        "--variant",
        "russian",
        "--pieces",
        "3",
        "--dir",
        &russian_dir,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("m0k1_m0k1: already on disk"), "{err}");
    assert!(!err.contains("positions,"), "{err}");

    // `analyze`: Russian tables in a Russian search; Brazilian ones refused in one line.
    let (code, out, err) = run_onca(&[
        "analyze",
        "--variant",
        "russian",
        "--egtb",
        &russian_dir,
        "-p",
        "W:WK1,K2:BK28",
        "--depth",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bestmove"), "{out}");
    assert!(err.contains("endgame tables: 16 loaded"), "{err}");
    let (code, out, err) = run_onca(&[
        "analyze",
        "--variant",
        "russian",
        "--egtb",
        &brazilian_dir,
        "-p",
        "W:WK1,K2:BK28",
    ]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("holds Brazilian endgame tables") && err.contains("not Russian"),
        "{err}"
    );
}

/// Analyses `fen` to depth 4 and returns the last `info` line.
fn analyse(engine: &mut Engine, variant: Variant, fen: &str) -> String {
    engine.send(&format!("pos pos={fen}"));
    engine.send("level depth=4");
    engine.send("go analyze");
    let search = engine.search_result();
    let position = parse_position(fen).expect("valid position");
    check_search_in(variant, &search, &position);
    search.infos.last().expect("an info line").clone()
}

#[test]
fn the_hub_probes_tables_of_the_game_variant_and_reports_the_others() {
    let russian = tables(Variant::Russian);
    let mut engine = Engine::start();
    engine.handshake();
    // The path comes before the variant, as hosts send them: no complaint yet.
    engine.send(&format!(
        "set-param name=egtb-path value=\"{}\"",
        russian.path().display()
    ));
    engine.send("set-param name=variant value=russian");
    engine.barrier();
    // Two kings against one: won by the tables, 7 plies to the conversion.
    let info = analyse(&mut engine, Variant::Russian, "W:WK1,K2:BK28");
    assert!(
        field(&info, "score").is_some_and(|s| s.starts_with("89.")),
        "{info}"
    );
    let hits: u64 = field(&info, "tbhits")
        .and_then(|h| h.parse().ok())
        .unwrap_or(0);
    assert!(hits > 0, "{info}");
    engine.barrier();

    // A Brazilian game with the Russian tables: one error line at its first go, then searches
    // without them (no tbhits), and no repeat of the error.
    engine.send("set-param name=variant value=brazilian");
    engine.send(&format!("pos pos={CROWNING}"));
    engine.send("level depth=4");
    engine.send("go analyze");
    let error = engine.recv();
    assert_eq!(
        error,
        format!(
            "error message=\"go: the endgame tables of egtb-path '{}' are Russian, this game is \
             Brazilian: searching without them\"",
            russian.path().display()
        )
    );
    let search = engine.search_result();
    check_search_in(
        Variant::Brazilian,
        &search,
        &parse_position(CROWNING).expect("valid position"),
    );
    assert!(search
        .infos
        .iter()
        .all(|info| field(info, "tbhits").is_none()));
    let info = analyse(&mut engine, Variant::Brazilian, "W:WK1,K2:BK28");
    assert!(field(&info, "tbhits").is_none(), "{info}");
    assert!(
        !field(&info, "score").is_some_and(|s| s.starts_with("89.")),
        "{info}"
    );

    // Back to Russian: the tables are used again.
    engine.send("set-param name=variant value=russian");
    let info = analyse(&mut engine, Variant::Russian, "W:WK1,K2:BK28");
    assert!(field(&info, "tbhits").is_some(), "{info}");
    engine.barrier();
}

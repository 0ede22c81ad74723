//! Integration tests of `onca match`: the real binary against scripted fake engines
//! (tests/fake_engines/fake_engine.py, Python 3 standard library), each misbehaving one way.

use onca::game::pdn::{read_games, GameResult, PdnGame};
use std::path::PathBuf;
use std::process::Command;

const ONCA: &str = env!("CARGO_BIN_EXE_onca");

fn fake(mode: &str) -> String {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py");
    format!("python3 '{}' {mode} '{ONCA}'", script.display())
}

struct MatchRun {
    success: bool,
    stdout: String,
    stderr: String,
    games: Vec<PdnGame>,
}

/// Runs `onca match` with the two engine commands and extra arguments, writing a PDN file.
fn run_match(name: &str, first: &str, second: &str, extra: &[&str]) -> MatchRun {
    let pdn =
        std::env::temp_dir().join(format!("onca-match-test-{name}-{}.pdn", std::process::id()));
    let output = Command::new(ONCA)
        .args([
            "match", "--engine", first, "--engine", second, "--seed", "7", "--pdn",
        ])
        .arg(&pdn)
        .args(extra)
        .output()
        .expect("onca runs");
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    let _ = std::fs::remove_file(&pdn);
    let games = read_games(&text).expect("the match writes readable PDN");
    MatchRun {
        success: output.status.success(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        games,
    }
}

/// Whether `loser` (an engine name) lost `game`.
fn lost_by(game: &PdnGame, loser: &str) -> bool {
    match game.result {
        GameResult::WhiteWins => game.tag("Black") == Some(loser),
        GameResult::BlackWins => game.tag("White") == Some(loser),
        _ => false,
    }
}

#[test]
fn an_illegal_move_loses_and_the_match_goes_on() {
    let run = run_match(
        "illegal",
        &fake("legal"),
        &fake("illegal"),
        &["--games", "2", "--depth", "1"],
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Score of fake-legal vs fake-illegal: 2 - 0 - 0"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("illegal move (fake-illegal loses): 2"),
        "{}",
        run.stdout
    );
    assert_eq!(run.games.len(), 2);
    for game in &run.games {
        assert!(lost_by(game, "fake-illegal"));
        assert_eq!(
            game.tag("Termination"),
            Some("illegal move '32-1' by fake-illegal")
        );
        assert_eq!(game.tag("GameType"), Some("26"));
    }
    // Colours are reversed between the two games of an opening.
    assert_eq!(run.games[0].tag("White"), run.games[1].tag("Black"));
    assert_eq!(run.games[0].tag("Opening"), run.games[1].tag("Opening"));
}

#[test]
fn an_engine_that_exits_mid_game_loses_and_is_restarted() {
    let run = run_match(
        "crash",
        &fake("crash"),
        &fake("legal"),
        &["--games", "4", "--depth", "1", "--concurrency", "2"],
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout.contains("crash (fake-crash loses): 4"),
        "{}",
        run.stdout
    );
    assert_eq!(run.games.len(), 4);
    for game in &run.games {
        assert!(lost_by(game, "fake-crash"));
        let termination = game.tag("Termination").unwrap_or("");
        assert!(
            termination.starts_with("crash: engine exited"),
            "{termination}"
        );
        // The crashing engine played one move and died at its second `go`: two or three plies
        // after the opening (whose moves the Opening tag lists after the colon).
        let opening = game.tag("Opening").unwrap_or("");
        let opening_plies = opening
            .split(':')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .count();
        let played = game.moves.len() - opening_plies;
        assert!(played == 2 || played == 3, "{played} plies after {opening}");
    }
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    // Timing is the subject here, so the margins are wide: the legal fake (Python starting a
    // process per move) must answer within 1.1 s even on a loaded machine.
    let run = run_match(
        "hang",
        &fake("legal"),
        &fake("hang"),
        &[
            "--games",
            "2",
            "--movetime",
            "0.1",
            "--time-margin",
            "1",
            "--openings",
            "start",
        ],
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout.contains("hang (fake-hang loses): 2"),
        "{}",
        run.stdout
    );
    for game in &run.games {
        assert!(lost_by(game, "fake-hang"));
        assert_eq!(
            game.tag("Termination"),
            Some("hang: no move within 1.1 s by fake-hang")
        );
    }
    let clock = run_match(
        "flag",
        &fake("hang"),
        &fake("legal"),
        &[
            "--games",
            "1",
            "--tc",
            "0.2+0",
            "--time-margin",
            "0.1",
            "--openings",
            "start",
        ],
    );
    assert!(clock.success, "{}", clock.stderr);
    assert!(
        clock.stdout.contains("flag fall (fake-hang loses): 1"),
        "{}",
        clock.stdout
    );
    assert_eq!(
        clock.games[0].tag("Termination"),
        Some("flag fall: no move within 0.300 s by fake-hang")
    );
}

#[test]
fn junk_lines_are_ignored_and_games_are_refereed_to_the_end() {
    let run = run_match(
        "junk",
        &fake("junk"),
        &fake("legal"),
        &[
            "--games",
            "2",
            "--tc",
            "30+1",
            "--max-plies",
            "40",
            "--name",
            "J",
            "--name",
            "L",
        ],
    );
    assert!(run.success, "{}", run.stderr);
    for bad in ["illegal", "crash", "hang", "flag"] {
        assert!(!run.stdout.contains(bad), "{bad} in {}", run.stdout);
    }
    assert!(run.stdout.contains("Score of J vs L:"), "{}", run.stdout);
    assert_eq!(run.games.len(), 2);
    for game in &run.games {
        let termination = game.tag("Termination").unwrap_or("");
        if termination == "adjudicated draw after 40 plies" {
            assert_eq!(game.result, GameResult::Draw);
            assert_eq!(game.moves.len(), 40);
        } else {
            assert_eq!(termination, "no legal move");
            assert_ne!(game.result, GameResult::Draw);
        }
    }
    // The progress line carries the running score, Elo and LOS.
    assert!(run.stderr.contains("game   2/2"), "{}", run.stderr);
    assert!(run.stderr.contains("Elo"), "{}", run.stderr);
}

#[test]
fn sprt_bounds_and_a_fen_opening_file() {
    let openings = std::env::temp_dir().join(format!("onca-openings-{}.txt", std::process::id()));
    std::fs::write(
        &openings,
        "# a test file\nB:W18,22,23,24,25,26,27,28,29,30,31,32:B1-12  # FEN line\n",
    )
    .expect("temp file");
    let path = openings.display().to_string();
    let run = run_match(
        "sprt",
        &fake("legal"),
        &fake("illegal"),
        &[
            "--games",
            "2",
            "--depth",
            "3",
            "--openings",
            &path,
            "--sprt",
            "elo0=0,elo1=10",
        ],
    );
    let _ = std::fs::remove_file(&openings);
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 on the pairs: LLR 0.00 [-2.94, 2.94] (trinomial LLR 0.00)"),
        "{}",
        run.stdout
    );
    // The one opening's two games, both won by the first engine, make one pair of 2 points.
    assert!(
        run.stdout
            .contains("by points 0, 0.5, 1, 1.5, 2: 0, 0, 0, 0, 1; pairs Elo +inf +/- n/a"),
        "{}",
        run.stdout
    );
    let opening = onca::notation::fen::parse_fen("B:W18,22,23,24,25,26,27,28,29,30,31,32:B1-12")
        .expect("FEN");
    for game in &run.games {
        assert_eq!(game.start, opening);
        // The standard form: algebraic squares under GameType 26.
        assert_eq!(
            game.tag("FEN"),
            Some("B:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
        );
        assert!(game.moves.is_empty() || game.moves.len() == 1);
    }
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let cases: [&[&str]; 5] = [
        &["match", "--engine", "x", "--engine", "y"],
        &[
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "y",
            "--depth",
            "1",
        ],
        &["match", "--engine", "a 'b", "--engine", "y", "--depth", "1"],
        &["match", "--engine", "x", "--depth", "1"],
        &["match", "--engine", "x", "--engine", "y", "--tc", "fast"],
    ];
    for args in cases {
        let output = Command::new(ONCA).args(args).output().expect("onca runs");
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?}");
    }
}

#[test]
fn an_engine_that_never_answers_the_handshake_stops_the_match_with_a_message() {
    let output = Command::new(ONCA)
        .args([
            "match",
            "--engine",
            &fake("mute"),
            "--engine",
            &fake("legal"),
        ])
        .args(["--games", "2", "--depth", "1", "--startup-timeout", "0.5"])
        .output()
        .expect("onca runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 1")
            && stderr.contains("fake_engine.py' mute")
            && stderr.contains("Hub handshake")
            && stderr.contains("did not answer in time"),
        "{stderr}"
    );
}

#[test]
fn onca_plays_itself() {
    let engine = format!("'{ONCA}' hub");
    let run = run_match(
        "self",
        &engine,
        &engine,
        &["--games", "2", "--movetime", "0.05", "--max-plies", "200"],
    );
    assert!(run.success, "{}", run.stderr);
    assert_eq!(run.games.len(), 2);
    for bad in ["illegal", "crash", "hang", "flag"] {
        assert!(!run.stdout.contains(bad), "{bad} in {}", run.stdout);
    }
}

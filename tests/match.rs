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

impl MatchRun {
    /// The run succeeded and no game ended by an illegal move, a crash, a hang or a flag fall.
    fn assert_clean(&self) {
        assert!(self.success, "{}", self.stderr);
        for bad in ["illegal", "crash", "hang", "flag"] {
            assert!(!self.stdout.contains(bad), "{bad} in {}", self.stdout);
        }
    }
}

/// Runs `onca match` with the two engine commands and extra arguments, writing a PDN file.
fn run_match(name: &str, first: &str, second: &str, extra: &[&str]) -> MatchRun {
    let pdn = temp_path(&format!("{name}.pdn"));
    let mut args = vec!["--seed", "7"];
    args.extend_from_slice(extra);
    let run = run_engines(&[first, second], &pdn, &args);
    let _ = std::fs::remove_file(&pdn);
    run
}

/// A path in the temporary directory unique to this test process.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("onca-match-test-{}-{name}", std::process::id()))
}

/// Runs `onca match` with every engine command, the PDN file `pdn` and extra arguments (the
/// file is left in place), and reads the games back.
fn run_engines(engines: &[&str], pdn: &PathBuf, extra: &[&str]) -> MatchRun {
    let mut command = Command::new(ONCA);
    command.arg("match");
    for engine in engines {
        command.args(["--engine", engine]);
    }
    let output = command
        .arg("--pdn")
        .arg(pdn)
        .args(extra)
        .output()
        .expect("onca runs");
    let text = std::fs::read_to_string(pdn).unwrap_or_default();
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
    run.assert_clean();
    assert!(run.stdout.contains("Score of J vs L:"), "{}", run.stdout);
    assert_eq!(run.games.len(), 2);
    for game in &run.games {
        let termination = game.tag("Termination").unwrap_or("");
        if termination == "adjudicated draw after 40 plies" {
            assert_eq!(game.result, GameResult::Draw);
            assert_eq!(game.moves.len(), 40);
        } else {
            assert!(termination.ends_with("has no legal move"), "{termination}");
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
    // A second of margin: this checks that games finish without hangs, crashes or illegal moves,
    // not how late a loaded test machine lets the engine answer (scripts/latency measures that).
    let run = run_match(
        "self",
        &engine,
        &engine,
        &[
            "--games",
            "2",
            "--movetime",
            "0.05",
            "--max-plies",
            "200",
            "--time-margin",
            "1",
        ],
    );
    run.assert_clean();
    assert_eq!(run.games.len(), 2);
}

#[test]
fn onca_plays_itself_in_russian() {
    // The referee plays the Brazilian ballots under Russian rules, tells both engines the variant
    // and checks every move by Russian rules; the PDN file says GameType 25 and reads back.
    let engine = format!("'{ONCA}' hub");
    let run = run_match(
        "russian",
        &engine,
        &engine,
        &[
            "--games",
            "2",
            "--depth",
            "3",
            "--max-plies",
            "200",
            "--variant",
            "russian",
        ],
    );
    run.assert_clean();
    assert_eq!(run.games.len(), 2);
    for game in &run.games {
        assert_eq!(game.variant, onca::rules::variant::Variant::Russian);
        assert_eq!(game.tag("GameType"), Some("25"));
    }
    // Brazilian tables cannot referee Russian games: refused, naming what they are.
    let brazilian = tempfile::Builder::new()
        .prefix("onca-match-brazilian-tables-")
        .tempdir()
        .expect("temporary directory");
    let options = onca::egtb::generate::Options {
        max_pieces: 2,
        distance_pieces: 2,
        dir: brazilian.path().to_path_buf(),
    };
    onca::egtb::generate::generate(&options, &mut |_| {}).expect("generation works");
    let refused = Command::new(ONCA)
        .args([
            "match", "--engine", &engine, "--engine", &engine, "--games", "2",
        ])
        .args(["--depth", "1", "--variant", "russian", "--egtb"])
        .arg(brazilian.path())
        .output()
        .expect("onca runs");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("holds Brazilian endgame tables"),
        "{stderr}"
    );
}

/// Three deterministic fake engines: L plays legally, I always answers an illegal move, J prints
/// junk and then plays legally.
fn three_fakes() -> [String; 3] {
    [fake("legal"), fake("illegal"), fake("junk")]
}

/// Runs L, I and J (see [`three_fakes`]) at depth 1 with a 30-ply limit and `extra`
/// arguments, the games going to `pdn` (left in place).
fn run_three(pdn: &PathBuf, extra: &[&str]) -> MatchRun {
    let [l, i, j] = three_fakes();
    let mut args = vec![
        "--name",
        "L",
        "--name",
        "I",
        "--name",
        "J",
        "--depth",
        "1",
        "--max-plies",
        "30",
    ];
    args.extend_from_slice(extra);
    run_engines(&[&l, &i, &j], pdn, &args)
}

#[test]
fn a_round_robin_of_three_engines_rates_them_and_prints_a_crosstable() {
    let pdn = temp_path("round-robin.pdn");
    let run = run_three(&pdn, &["--games", "2", "--seed", "3"]);
    let _ = std::fs::remove_file(&pdn);
    assert!(run.success, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("Tournament of 3 engines, 3 pairings"), "{out}");
    // Every pairing plays its two games; I loses all four of its games by illegal moves.
    assert!(out.contains("Score of L vs I: 2 - 0 - 0"), "{out}");
    assert!(out.contains("Score of I vs J: 0 - 2 - 0"), "{out}");
    assert!(out.contains("Score of L vs J:"), "{out}");
    assert!(out.contains("illegal move (I loses): 4"), "{out}");
    // The rating table puts I last, and the crosstable gives I nothing against anyone.
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("Rank")).collect();
    assert!(table[3].contains(" I "), "{out}");
    assert!(
        table[1].contains("ref") || table[2].contains("ref"),
        "{out}"
    );
    let crosstable_row = out
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .find(|l| l.starts_with("I "))
        .expect("a crosstable row for I");
    assert_eq!(crosstable_row.matches("0/2").count(), 2, "{crosstable_row}");
    // Six games, numbered once each; each pairing's two games share an opening, colours swapped.
    assert_eq!(run.games.len(), 6);
    let mut numbers: Vec<usize> = run
        .games
        .iter()
        .map(|g| {
            g.tag("Round")
                .and_then(|r| r.parse().ok())
                .expect("a number")
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=6).collect::<Vec<_>>());
    for first in &run.games {
        let partner = run
            .games
            .iter()
            .find(|g| g.tag("White") == first.tag("Black") && g.tag("Black") == first.tag("White"))
            .expect("the reversed game");
        assert_eq!(partner.tag("Opening"), first.tag("Opening"));
    }
    // The progress lines carry the pairing's score and the ratings; the standings come after
    // each round of all pairings.
    assert!(
        run.stderr.contains("| L vs I: +1 -0 =0 | ratings: L +0.0"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Crosstable"), "{}", run.stderr);
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_one() {
    let pdn = temp_path("gauntlet.pdn");
    let run = run_three(&pdn, &["--format", "gauntlet", "--games", "2"]);
    let _ = std::fs::remove_file(&pdn);
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout.contains("Score of L vs I: 2 - 0 - 0"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Score of L vs J:"), "{}", run.stdout);
    assert!(!run.stdout.contains("Score of I vs J"), "{}", run.stdout);
    assert_eq!(run.games.len(), 4);
    // The match format takes two engines only, and the SPRT needs two engines.
    let run = run_three(&pdn, &["--format", "match"]);
    assert!(
        !run.success && run.stderr.contains("exactly two engines"),
        "{}",
        run.stderr
    );
    let run = run_three(&pdn, &["--sprt", "elo0=0,elo1=5"]);
    assert!(
        !run.success && run.stderr.contains("--sprt needs exactly two engines"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_file(&pdn);
}

#[test]
fn an_interrupted_tournament_resumes_from_its_pdn() {
    let whole = temp_path("resume-whole.pdn");
    let full = run_three(&whole, &["--games", "2", "--seed", "11"]);
    assert!(full.success, "{}", full.stderr);
    // Keep the first two games, as if the run had been stopped there.
    let text = std::fs::read_to_string(&whole).expect("the PDN file");
    let cut = text
        .match_indices("[Event ")
        .nth(2)
        .expect("a third game")
        .0;
    let part = temp_path("resume-part.pdn");
    std::fs::write(&part, &text[..cut]).expect("written");
    // The seed comes from the file.
    let resumed = run_three(&part, &["--games", "2", "--resume"]);
    assert!(resumed.success, "{}", resumed.stderr);
    assert!(resumed.stderr.contains("seed 11"), "{}", resumed.stderr);
    assert!(
        resumed.stderr.contains("resuming after 2 games"),
        "{}",
        resumed.stderr
    );
    let progress_lines = resumed.stderr.lines().filter(|l| l.starts_with("game "));
    assert_eq!(progress_lines.count(), 4, "{}", resumed.stderr);
    assert_eq!(resumed.games.len(), 6);
    let mut numbers: Vec<&str> = resumed
        .games
        .iter()
        .filter_map(|g| g.tag("Round"))
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "6"]);
    // The deterministic engines give the same tournament as the uninterrupted run.
    let scores = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("Score of") || l.starts_with("  "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(scores(&resumed.stdout), scores(&full.stdout));
    // Other settings are refused, naming the one that differs, and the file is left alone.
    let refused = run_three(&part, &["--games", "2", "--resume", "--max-plies", "31"]);
    assert!(!refused.success);
    assert!(
        refused.stderr.contains("MatchAdjudication"),
        "{}",
        refused.stderr
    );
    assert_eq!(refused.games.len(), 6);
    // Resuming a finished run plays nothing and prints the same summary.
    let again = run_three(&part, &["--games", "2", "--resume"]);
    assert!(again.success, "{}", again.stderr);
    assert_eq!(scores(&again.stdout), scores(&full.stdout));
    assert_eq!(again.games.len(), 6);
    let _ = std::fs::remove_file(&whole);
    let _ = std::fs::remove_file(&part);
}

#[test]
fn logs_hold_each_engines_traffic_and_stderr_per_game() {
    let dir = temp_path("logs");
    let dir_text = dir.display().to_string();
    let run = run_match(
        "logs",
        &fake("legal"),
        &fake("illegal"),
        &["--games", "2", "--depth", "1", "--log-dir", &dir_text],
    );
    assert!(run.success, "{}", run.stderr);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    // The ballots leave Black to move: in game 1 the illegal engine (Black) moves first and
    // loses at once, in game 2 the legal engine (Black) plays.
    let first = read("game-00001-fake-legal.log");
    assert!(first.contains("host   hub"), "{first}");
    assert!(first.contains("engine id name=fake-legal"), "{first}");
    assert!(
        first.contains("stderr fake engine legal starting"),
        "{first}"
    );
    let second = read("game-00002-fake-legal.log");
    assert!(second.contains("host   go think"), "{second}");
    assert!(
        !second.contains("host   hub"),
        "the process is kept: {second}"
    );
    let illegal = read("game-00001-fake-illegal.log");
    assert!(illegal.contains("engine done move=32-1"), "{illegal}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn score_adjudication_ends_games_the_engines_agree_on() {
    // The optimist sees itself +5, the pessimist sees itself -5: both agree who is winning.
    let run = run_match(
        "win-adjudication",
        &fake("optimist"),
        &fake("pessimist"),
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--win-adjudication",
            "movecount=2,score=3",
        ],
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("win adjudication (fake-pessimist loses): 2"),
        "{}",
        run.stdout
    );
    for game in &run.games {
        assert!(lost_by(game, "fake-pessimist"));
        assert_eq!(
            game.tag("Termination"),
            Some("adjudicated win: both engines agreed on a lead of 3.00 or more for 2 moves")
        );
    }
    // Two legal players at 0.00: drawn after three moves each, from move 1 on.
    let run = run_match(
        "draw-adjudication",
        &fake("legal"),
        &fake("junk"),
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--draw-adjudication",
            "movenumber=1,movecount=3,score=0.1",
        ],
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout.contains("draw adjudication: 2"),
        "{}",
        run.stdout
    );
    for game in &run.games {
        assert_eq!(game.result, GameResult::Draw);
        let opening = game.tag("Opening").unwrap_or("");
        let opening_plies = opening
            .split(':')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .count();
        assert_eq!(game.moves.len(), opening_plies + 6, "{opening}");
    }
    // Malformed settings are refused.
    let run = run_match(
        "bad-adjudication",
        &fake("legal"),
        &fake("legal"),
        &["--depth", "1", "--draw-adjudication", "movecount=3"],
    );
    assert!(
        !run.success && run.stderr.contains("--draw-adjudication"),
        "{}",
        run.stderr
    );
}

#[test]
fn table_adjudication_ends_positions_the_tables_cover() {
    let tables = temp_path("egtb");
    let status = Command::new(ONCA)
        .args([
            "egtb",
            "generate",
            "--pieces",
            "3",
            "--threads",
            "1",
            "--dir",
        ])
        .arg(&tables)
        .output()
        .expect("onca runs");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let openings = temp_path("egtb-openings.txt");
    // A won position (the defender has no king), a drawn one, and a won one with a defending
    // king (played on: the move-count rules could still draw it).
    std::fs::write(
        &openings,
        "W:WK32:B1 # won\nW:WK1:BK32 # drawn\nW:WK10,K14:BK5 # king\n",
    )
    .expect("written");
    let tables_text = tables.display().to_string();
    let openings_text = openings.display().to_string();
    let run = run_match(
        "egtb",
        &fake("legal"),
        &fake("junk"),
        &[
            "--games",
            "6",
            "--depth",
            "1",
            "--openings",
            &openings_text,
            "--egtb",
            &tables_text,
        ],
    );
    let _ = std::fs::remove_dir_all(&tables);
    let _ = std::fs::remove_file(&openings);
    assert!(run.success, "{}", run.stderr);
    assert_eq!(run.games.len(), 6);
    for game in &run.games {
        let termination = game.tag("Termination").unwrap_or("");
        match game.tag("Opening").unwrap_or("") {
            "won" => {
                assert_eq!(termination, "adjudicated win by the endgame tables");
                assert_eq!(game.result, GameResult::WhiteWins);
                assert!(game.moves.is_empty());
            }
            "drawn" => {
                assert_eq!(termination, "adjudicated draw by the endgame tables");
                assert_eq!(game.result, GameResult::Draw);
            }
            other => {
                // Played on (it may reach a table draw later, after the defender's king moved).
                assert_eq!(other, "king");
                assert!(!game.moves.is_empty(), "{termination}");
            }
        }
    }
}

#[test]
fn pondering_engines_get_ponder_hits_and_misses() {
    let engine = format!("'{ONCA}' hub");
    let dir = temp_path("ponder-logs");
    let dir_text = dir.display().to_string();
    let run = run_match(
        "ponder",
        &engine,
        &engine,
        &[
            "--games",
            "2",
            "--depth",
            "3",
            "--ponder",
            "--max-plies",
            "60",
            "--log-dir",
            &dir_text,
        ],
    );
    run.assert_clean();
    let logs: String = std::fs::read_dir(&dir)
        .expect("the log directory")
        .filter_map(|entry| entry.ok())
        .map(|entry| std::fs::read_to_string(entry.path()).unwrap_or_default())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(logs.contains("host   go ponder"), "no pondering");
    assert!(logs.contains("host   ponder-hit"), "no ponder hit");
    assert!(logs.contains("host   stop"), "no ponder miss");
}

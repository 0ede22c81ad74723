//! PDN files between Onça and pydraughts 0.6.7, an independent reader and writer of the standard:
//! pydraughts' `PDNReader` reads the files we write (annotated ones too) and its board replays every move legally to
//! the position we reach; we read the files its `PDNWriter` writes to the positions its board
//! reached; our files read back to the same games in every notation; and three hand-written
//! files of one game, one per notation, read to the same moves.
//!
//! The Python half is `tests/interop/pdn_interop.py`; the Python comes from the pydraughts
//! virtualenv as in `tests/pydraughts_diff.rs` (required under `ONCA_REQUIRE_ORACLE=1`).

mod common;

use onca::game::pdn::write::{write_annotated, MoveNote};
use onca::game::pdn::{read_games, write_game, GameResult, PdnGame, SquareNotation};
use onca::notation::fen::parse_fen;
use onca::rules::movegen;
use onca::rules::moves::Move;
use onca::rules::position::Position;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Seeded random games: captures preferred half the time, so kings and long captures appear.
fn random_games(seed: u64, count: usize) -> Vec<PdnGame> {
    let mut rng = common::Rng::new(seed);
    let starts = [
        Position::start(),
        parse_fen("W:WK29,22,23,24,26,27:B5,6,9,10,K4,12").expect("FEN"),
        parse_fen("B:W18,22,23,24,25,26,27,28,29,30,31,32:B1-12").expect("FEN"),
        // From 20 to 31 there are two captures with different captured pieces: the written
        // moves need their landing squares.
        parse_fen("W:WK20,23:B5,9,10,16,K19,K26,28").expect("FEN"),
    ];
    (0..count)
        .map(|index| {
            let start = starts[index % starts.len()];
            let mut position = start;
            let mut moves: Vec<Move> = Vec::new();
            for _ in 0..10 + rng.below(90) {
                let legal = movegen::legal_moves(&position);
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                moves.push(mv);
                position = position.play(&mv);
            }
            PdnGame {
                variant: onca::rules::variant::Variant::Brazilian,
                tags: vec![
                    ("Event".into(), format!("interop {index}")),
                    ("White".into(), "Onça".into()),
                    ("Black".into(), "Onça".into()),
                ],
                start,
                moves,
                result: GameResult::Unknown,
            }
        })
        .collect()
}

fn final_position(game: &PdnGame) -> Position {
    game.moves
        .iter()
        .fold(game.start, |position, mv| position.play(mv))
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("onca-pdn-interop-{}-{name}", std::process::id()))
}

/// Runs the Python half; one JSON line per game: (moves, FEN) or the error.
fn python_lines(python: &Path, args: &[&str]) -> Vec<Result<(usize, String), String>> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/pdn_interop.py");
    let output = Command::new(python)
        .arg(&script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            // Flat JSON objects with a number and a string, or an error string.
            if let Some(error) = line.split("\"error\": \"").nth(1) {
                return Err(error.trim_end_matches("\"}").to_string());
            }
            let moves = line
                .split("\"moves\": ")
                .nth(1)
                .and_then(|rest| rest.split(',').next())
                .and_then(|n| n.trim().parse().ok())
                .ok_or_else(|| format!("bad line {line}"))?;
            let fen = line
                .split("\"fen\": \"")
                .nth(1)
                .map(|rest| rest.trim_end_matches("\"}").to_string())
                .ok_or_else(|| format!("bad line {line}"))?;
            Ok((moves, fen))
        })
        .collect()
}

#[test]
fn pydraughts_replays_our_files_in_the_standard_notation() {
    let Some(python) = common::required_pydraughts_python() else {
        return;
    };
    let games = random_games(0x9D17, 40);
    let captures: usize = games
        .iter()
        .map(|game| game.moves.iter().filter(|mv| mv.is_capture()).count())
        .sum();
    assert!(captures > 100, "only {captures} captures");
    let path = scratch("ours.pdn");
    // Every other game annotated as `onca analyze --pdn --out` writes them: a comment before
    // the first move, and a NAG and a comment after moves.
    let text: String = games
        .iter()
        .enumerate()
        .map(|(index, game)| {
            if index % 2 == 0 {
                return write_game(game, SquareNotation::Algebraic);
            }
            let notes: Vec<MoveNote> = (0..game.moves.len())
                .map(|ply| MoveNote {
                    nag: [None, Some("?!"), Some("??"), Some("!")][ply % 4],
                    comment: Some(format!(
                        "-0.{ply}; blunder, loses 1.{ply}; best c3-d4 (+0.1)"
                    )),
                })
                .collect();
            write_annotated(game, SquareNotation::Algebraic, Some("A review."), &notes)
        })
        .collect();
    assert!(text.contains("xd"), "algebraic captures expected");
    assert!(text.contains("?? {"), "annotations expected");
    std::fs::write(&path, &text).expect("write");
    let replayed = python_lines(&python, &["replay", &path.display().to_string()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(replayed.len(), games.len());
    for (index, (game, answer)) in games.iter().zip(replayed).enumerate() {
        let (moves, fen) = answer.unwrap_or_else(|error| panic!("game {index}: {error}"));
        assert_eq!(moves, game.moves.len(), "game {index}");
        let theirs = parse_fen(&fen).unwrap_or_else(|e| panic!("game {index}: {fen}: {e}"));
        assert_eq!(theirs, final_position(game), "game {index}");
    }
}

#[test]
fn we_read_what_pydraughts_writes() {
    let Some(python) = common::required_pydraughts_python() else {
        return;
    };
    let path = scratch("theirs.pdn");
    let written = python_lines(&python, &["write", &path.display().to_string(), "30", "5"]);
    let text = std::fs::read_to_string(&path).expect("pydraughts wrote the file");
    let _ = std::fs::remove_file(&path);
    let games = read_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), written.len());
    for (index, (game, answer)) in games.iter().zip(written).enumerate() {
        let (moves, fen) = answer.expect("pydraughts played");
        assert_eq!(game.moves.len(), moves, "game {index}");
        let theirs = parse_fen(&fen).unwrap_or_else(|e| panic!("game {index}: {fen}: {e}"));
        assert_eq!(final_position(game), theirs, "game {index}");
    }
}

#[test]
fn our_files_read_back_in_every_notation() {
    let games = random_games(0x51DE, 60);
    for notation in SquareNotation::ALL {
        let text: String = games
            .iter()
            .map(|game| write_game(game, notation))
            .collect();
        let back = read_games(&text).unwrap_or_else(|e| panic!("{notation:?}: {e}"));
        assert_eq!(back.len(), games.len());
        for (game, read) in games.iter().zip(&back) {
            assert_eq!(read.start, game.start, "{notation:?}");
            assert_eq!(read.moves, game.moves, "{notation:?}");
            assert_eq!(read.tag("Event"), game.tag("Event"));
            assert_eq!(read.tag("GameType"), Some(notation.game_type()));
        }
    }
}

#[test]
fn hand_written_files_in_each_notation_read_to_the_same_game() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn");
    let read = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).expect("test file");
        let mut games = read_games(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(games.len(), 1, "{name}");
        games.remove(0)
    };
    let algebraic = read("algebraic.pdn");
    let hub = read("hub-numeric.pdn");
    let a1 = read("a1-numeric.pdn");
    assert_eq!(algebraic.moves.len(), 30);
    assert_eq!(hub.moves, algebraic.moves);
    assert_eq!(a1.moves, algebraic.moves);
    assert_eq!(a1.start, Position::start());
    assert_eq!(
        (algebraic.result, hub.result, a1.result),
        (
            GameResult::BlackWins,
            GameResult::BlackWins,
            GameResult::Unknown
        )
    );
    // The first move, c3-b4, is 22-17 in the Hub numbering.
    assert_eq!(algebraic.moves[0].to_string(), "22-17");
    // Black's king, crowned on e1 (square 31) at move 13, steps to d2 (square 26).
    assert_eq!(algebraic.moves[27].to_string(), "31-26");
}

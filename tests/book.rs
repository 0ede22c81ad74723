//! The opening book against the real binary: building (deterministic, the same with any thread
//! count, resumable), learning from games, probing, damaged files refused with the engine still
//! playing, and the book in Hub play (game play only, never analysis; pondering after a book
//! move; switched off by parameters).

mod hub_support;

use hub_support::{build_small_book, check_search, field, run_onca, Engine};
use onca::book::file::{self, Entry};
use onca::book::learn::GameRecord;
use onca::book::Book;
use onca::game::pdn::{write_game, GameResult, PdnGame, SquareNotation};
use onca::rules::bitboard::Bitboard;
use onca::rules::moves::Move;
use onca::rules::position::Position;
use onca::rules::square::Square;
use onca::rules::variant::Variant;
use std::path::{Path, PathBuf};

/// A path under the system temporary directory for this test process.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("onca-book-{}-{name}", std::process::id()))
}

/// Builds a small book of the start position (depth-2 searches) into `out`; returns stdout.
fn build(out: &Path, positions: usize, threads: u32) -> String {
    let (code, stdout, stderr) = build_small_book(out, "brazilian", "start", positions, threads);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

/// The position count of `onca book stats` output (`... bytes), N positions, ...`).
fn positions(stats: &str) -> usize {
    stats
        .split(", ")
        .find_map(|part| part.strip_suffix(" positions"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no position count in {stats}"))
}

fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
    let mut state = path.as_os_str().to_owned();
    state.push(".state");
    let _ = std::fs::remove_file(PathBuf::from(state));
}

#[test]
fn builds_are_deterministic_across_thread_counts_and_resume_where_they_stopped() {
    let one = temp("one.book");
    let two = temp("two.book");
    let resumed = temp("resumed.book");
    // Whole rounds of up to four, so at least the number asked for.
    let stats = build(&one, 24, 1);
    assert!(positions(&stats) >= 24, "{stats}");
    build(&two, 24, 2);
    // Stopped after 12 positions, then run again to 24.
    build(&resumed, 12, 1);
    build(&resumed, 24, 2);
    let bytes = |path: &Path| std::fs::read(path).expect("the book file");
    assert!(bytes(&one) == bytes(&two), "one and two threads differ");
    assert!(bytes(&one) == bytes(&resumed), "the resumed build differs");
    let book = Book::load(&one).expect("a valid book");
    assert!(book.moves(&Position::start()).len() >= 3);
    for path in [&one, &two, &resumed] {
        remove(path);
    }
}

#[test]
fn probe_and_stats_show_the_book() {
    let path = temp("probe.book");
    build(&path, 8, 1);
    let text = path.to_str().expect("UTF-8");
    let (code, stdout, _) = run_onca(&["book", "probe", "--book", text]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 3, "{stdout}");
    assert!(lines[0].contains("plies of book below"), "{stdout}");
    let (code, stdout, _) = run_onca(&["book", "probe", "--book", text, "-p", "W:W32:B1"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.trim(), "not in the book");
    let (code, stdout, _) = run_onca(&["book", "stats", "--book", text]);
    assert_eq!(code, 0);
    assert!(positions(&stdout) >= 8, "{stdout}");
    assert!(
        stdout.contains("positions by plies of book below them"),
        "{stdout}"
    );
    // The shipped book covers the start position and every ballot.
    let (code, stdout, _) = run_onca(&["book", "stats"]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("start position: 0 book moves"), "{stdout}");
    let builtin = Book::builtin();
    for opening in onca::game::openings::load("ballots").expect("ballots") {
        let position = *opening.game().current();
        assert!(
            !builtin.moves(&position).is_empty(),
            "ballot {} not in the book",
            opening.label
        );
    }
    remove(&path);
}

#[test]
fn damaged_books_are_refused_by_name_and_the_engine_plays_on() {
    let path = temp("damaged.book");
    build(&path, 8, 1);
    let mut bytes = std::fs::read(&path).expect("the book");
    let truncated = temp("truncated.book");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).expect("written");
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    let corrupted = temp("corrupted.book");
    std::fs::write(&corrupted, &bytes).expect("written");
    for (file, why) in [(&truncated, "truncated"), (&corrupted, "checksum")] {
        let name = file.to_str().expect("UTF-8");
        let (code, _, stderr) = run_onca(&["book", "stats", "--book", name]);
        assert_ne!(code, 0, "{stderr}");
        assert!(stderr.contains(name) && stderr.contains(why), "{stderr}");
        let mut engine = Engine::start();
        engine.handshake();
        engine.send(&format!("set-param name=book value=\"{name}\""));
        let error = engine.expect("error");
        assert!(
            error.contains(why) && error.contains("book unchanged"),
            "{error}"
        );
        engine.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        engine.send("level depth=3");
        engine.send("go think");
        let search = engine.search_result();
        check_search(&search, &Position::start());
    }
    for path in [&path, &truncated, &corrupted] {
        remove(path);
    }
}

/// A book that lists only an illegal move and one legal move for the start position, the
/// illegal one scored far better.
fn lying_book(path: &Path) -> Move {
    let start = Position::start();
    let square = |n| Square::from_number(n).expect("a square");
    let legal = onca::rules::movegen::legal_moves(&start)[2];
    let mut entries = vec![
        Entry {
            key: start.key(),
            mv: Move {
                from: square(32),
                to: square(1),
                captured: Bitboard::EMPTY,
            },
            score: 900,
            depth: 99,
            record: GameRecord::NONE,
        },
        Entry {
            key: start.key(),
            mv: legal,
            score: -10,
            depth: onca::book::MIN_PLAYED_DEPTH,
            record: GameRecord::NONE,
        },
    ];
    std::fs::write(path, file::encode(Variant::Brazilian, &mut entries)).expect("written");
    legal
}

const START_POS: &str = "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// Searches the start position with `go` (`think` or `analyze`) to `depth` and returns whether
/// the answer came from the book.
fn from_book(engine: &mut Engine, go: &str, depth: u32) -> bool {
    engine.send(START_POS);
    engine.send(&format!("level depth={depth}"));
    engine.send(&format!("go {go}"));
    let search = engine.search_result();
    check_search(&search, &Position::start());
    search
        .infos
        .iter()
        .any(|line| line.ends_with("source=book"))
}

#[test]
fn hub_play_uses_the_book_in_games_only() {
    let path = temp("hub.book");
    let legal = lying_book(&path);
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("set-param name=book value=\"{}\"", path.display()));
    engine.send("set-param name=book-variety value=1000");
    engine.barrier();
    // Game play: the only legal book move, at once, marked as a book move.
    engine.send(START_POS);
    engine.send("level move-time=5");
    engine.send("go think");
    let search = engine.search_result();
    assert_eq!(check_search(&search, &Position::start()), legal);
    let info = search.infos.last().expect("an info line");
    assert!(info.ends_with("source=book"), "{info}");
    assert_eq!(field(info, "nodes").as_deref(), Some("0"));
    // Analysis and infinite searches ignore the book.
    assert!(!from_book(&mut engine, "analyze", 3));
    // book-plies 0 and an empty book switch it off.
    engine.send("set-param name=book-plies value=0");
    assert!(!from_book(&mut engine, "think", 3));
    engine.send("set-param name=book-plies value=40");
    assert!(from_book(&mut engine, "think", 3));
    engine.send("set-param name=book value=\"\"");
    assert!(!from_book(&mut engine, "think", 3));
    remove(&path);
}

#[test]
fn pondering_on_a_book_position_waits_for_the_hit() {
    let mut engine = Engine::start();
    engine.handshake();
    // The shipped book (the default): after 22-18 (hub numbering) Black's reply is in it.
    engine.send("set-param name=book value=builtin");
    engine.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18\"");
    engine.send("level move-time=1");
    engine.send("go ponder");
    // Nothing may come before the hit: `ping` is answered at once.
    engine.barrier();
    engine.send("ponder-hit");
    let search = engine.search_result();
    let after = Position::start().play(
        &onca::rules::moves::find_hub_move(
            &onca::rules::movegen::legal_moves(&Position::start()),
            "22-18",
        )
        .expect("legal"),
    );
    check_search(&search, &after);
    assert!(search
        .infos
        .last()
        .is_some_and(|line| line.ends_with("source=book")));
    // The engine goes on normally.
    engine.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    engine.send("level depth=2");
    engine.send("go analyze");
    check_search(&engine.search_result(), &Position::start());
}

#[test]
fn analyze_lists_the_book_moves_of_a_book_position() {
    let (code, stdout, stderr) = run_onca(&["analyze", "--depth", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let line = stdout
        .lines()
        .find(|line| line.starts_with("book: "))
        .unwrap_or_else(|| panic!("no book line in {stdout}"));
    assert!(line.contains(" plies"), "{line}");
    // The shipped book learned from games played from the start position, and its games
    // dropped some of the first moves.
    assert!(line.contains(" games "), "{line}");
    assert!(line.contains(", not played)"), "{line}");
    let (code, stdout, _) = run_onca(&["analyze", "--depth", "2", "--book", ""]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("book: "), "{stdout}");
}

#[test]
fn the_shipped_book_is_on_by_default_and_can_be_turned_off() {
    let mut engine = Engine::start();
    engine.send("hub");
    let variety = engine.expect("param name=book-variety ");
    assert!(variety.contains(" value=25 "), "{variety}");
    let declaration = engine.expect("param name=book ");
    assert_eq!(declaration, "param name=book value=\"builtin\" type=string");
    engine.expect("wait");
    assert!(from_book(&mut engine, "think", 2));
    engine.send("set-param name=book value=\"\"");
    assert!(!from_book(&mut engine, "think", 2));
}

#[test]
fn learning_from_games_drops_the_move_that_lost_them() {
    let start = Position::start();
    let legal = onca::rules::movegen::legal_moves(&start);
    let (best, other) = (legal[0], legal[1]);
    let entry = |mv, score| Entry {
        key: start.key(),
        mv,
        score,
        depth: onca::book::MIN_PLAYED_DEPTH,
        record: GameRecord::NONE,
    };
    let book = temp("unlearned.book");
    std::fs::write(
        &book,
        file::encode(Variant::Brazilian, &mut [entry(best, 20), entry(other, 0)]),
    )
    .expect("written");
    // Forty games lost by the book's best move, forty drawn by the other.
    let game = |mv, result| PdnGame {
        variant: onca::rules::variant::Variant::Brazilian,
        tags: vec![("Event".into(), "learning".into())],
        start,
        moves: vec![mv],
        result,
    };
    let text: String = (0..40)
        .flat_map(|_| {
            [
                game(best, GameResult::BlackWins),
                game(other, GameResult::Draw),
            ]
        })
        .map(|game| write_game(&game, SquareNotation::Algebraic) + "\n")
        .collect();
    // And one game with an illegal move, which is skipped by name.
    let text = text + "[Event \"broken\"]\n\n1. a1-h8 *\n";
    let games = temp("games.pdn");
    std::fs::write(&games, text).expect("written");
    let learned = temp("learned.book");
    let arg = |path: &Path| path.to_str().expect("UTF-8").to_owned();
    let learn = |games: &str| {
        run_onca(&[
            "book",
            "learn",
            "--book",
            &arg(&book),
            "--out",
            &arg(&learned),
            games,
        ])
    };
    let (code, stdout, stderr) = learn(&arg(&games));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("learned from 80 games (80 book moves played)")
            && stdout.contains("1 unreadable"),
        "{stdout}"
    );
    assert!(
        stderr.contains(&arg(&games)) && stderr.contains("skipped"),
        "{stderr}"
    );
    let (code, stdout, _) = run_onca(&["book", "probe", "--book", &arg(&learned)]);
    assert_eq!(code, 0);
    let line = |text: &str| {
        stdout
            .lines()
            .find(|line| line.contains(text))
            .unwrap_or_else(|| panic!("no '{text}' in {stdout}"))
            .to_owned()
    };
    assert!(
        line("games +0 =0 -40").ends_with("(not played)"),
        "{stdout}"
    );
    assert!(!line("games +0 =40 -0").contains("not played"), "{stdout}");
    // Before learning the book plays its best-scored move; after, the one that held.
    for (path, expected) in [(&book, best), (&learned, other)] {
        let mut engine = Engine::start();
        engine.handshake();
        engine.send(&format!("set-param name=book value=\"{}\"", path.display()));
        engine.send("set-param name=book-variety value=0");
        engine.send(START_POS);
        engine.send("level move-time=5");
        engine.send("go think");
        let search = engine.search_result();
        assert_eq!(check_search(&search, &start), expected);
    }
    // A missing file stops with a one-line error naming it.
    let (code, _, stderr) = learn("/nonexistent/games.pdn");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("/nonexistent/games.pdn"), "{stderr}");
    for path in [&book, &learned, &games] {
        remove(path);
    }
}

/// A hand-written `variant` book of one legal start move with enough book below it to be played.
fn one_move_book(path: &Path, variant: Variant) -> Move {
    let start = Position::start();
    let mv = onca::rules::movegen::legal_moves_in(variant, &start)[3];
    let mut entries = vec![Entry {
        key: start.key(),
        mv,
        score: 0,
        depth: onca::book::MIN_PLAYED_DEPTH,
        record: GameRecord::NONE,
    }];
    std::fs::write(path, file::encode(variant, &mut entries)).expect("written");
    mv
}

/// Whether `text` names the book file `path` and both variants.
fn names_file_and_variants(text: &str, path: &Path) -> bool {
    text.contains(path.to_str().expect("UTF-8"))
        && text.contains("russian")
        && text.contains("brazilian")
}

#[test]
fn the_command_line_refuses_a_book_of_the_other_variant_by_name() {
    let russian = temp("cli-russian.book");
    let brazilian = temp("cli-brazilian.book");
    one_move_book(&russian, Variant::Russian);
    one_move_book(&brazilian, Variant::Brazilian);
    let name = |path: &Path| path.to_str().expect("UTF-8").to_owned();
    for (path, variant) in [(&russian, "brazilian"), (&brazilian, "russian")] {
        for args in [
            vec!["book", "stats", "--book", &name(path), "--variant", variant],
            vec!["book", "probe", "--book", &name(path), "--variant", variant],
            vec![
                "analyze",
                "--depth",
                "1",
                "--book",
                &name(path),
                "--variant",
                variant,
            ],
        ] {
            let (code, stdout, stderr) = run_onca(&args);
            assert_eq!(code, 2, "{args:?}: {stdout}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(names_file_and_variants(&stderr, path), "{args:?}: {stderr}");
        }
    }
    // Of its own variant, the Russian book is read and used.
    let (code, stdout, stderr) = run_onca(&[
        "book",
        "stats",
        "--book",
        &name(&russian),
        "--variant",
        "russian",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("russian book\n1 entries"), "{stdout}");
    let (code, stdout, stderr) = run_onca(&[
        "analyze",
        "--depth",
        "1",
        "--book",
        &name(&russian),
        "--variant",
        "russian",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.lines().any(|line| line.starts_with("book: ")),
        "{stdout}"
    );
    // Russian commands without a file: there is no shipped Russian book.
    let (code, _, stderr) = run_onca(&["book", "probe", "--variant", "russian"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no russian one"), "{stderr}");
    // A Russian analysis without --book lists no book moves (the shipped book is Brazilian).
    let (code, stdout, _) = run_onca(&["analyze", "--depth", "1", "--variant", "russian"]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("book: "), "{stdout}");
    for path in [&russian, &brazilian] {
        remove(path);
    }
}

#[test]
fn hub_refuses_a_book_file_of_the_other_variant_at_go_once_and_plays_on_without_it() {
    let russian = temp("hub-russian.book");
    let brazilian = temp("hub-brazilian.book");
    let russian_move = one_move_book(&russian, Variant::Russian);
    one_move_book(&brazilian, Variant::Brazilian);
    for (path, game_variant) in [(&russian, "brazilian"), (&brazilian, "russian")] {
        let mut engine = Engine::start();
        engine.handshake();
        engine.send(&format!("set-param name=variant value={game_variant}"));
        engine.send(&format!("set-param name=book value=\"{}\"", path.display()));
        // Setting the book says nothing: the host may set the variant after it.
        engine.barrier();
        engine.send(START_POS);
        engine.send("level depth=2");
        engine.send("go think");
        let error = engine.expect("error");
        assert!(names_file_and_variants(&error, path), "{error}");
        assert!(error.contains("playing without a book"), "{error}");
        let search = engine.search_result();
        assert!(!search
            .infos
            .iter()
            .any(|line| line.ends_with("source=book")));
        // Said once: the next search has no error and no book move. The book stays set, for
        // games of its own variant.
        assert!(!from_book(&mut engine, "think", 2));
        engine.send("hub");
        let declaration = engine.expect("param name=book ");
        assert_eq!(
            declaration,
            format!("param name=book value=\"{}\" type=string", path.display())
        );
        engine.expect("wait");
    }
    // A Russian book in a Russian game is played from, whichever parameter came first.
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!(
        "set-param name=book value=\"{}\"",
        russian.display()
    ));
    engine.send("set-param name=variant value=russian");
    engine.send(START_POS);
    engine.send("level depth=2");
    engine.send("go think");
    let search = engine.search_result();
    assert!(search
        .infos
        .last()
        .is_some_and(|line| line.ends_with("source=book")));
    assert_eq!(
        hub_support::check_search_in(Variant::Russian, &search, &Position::start()),
        russian_move
    );
    // The shipped book stays silent in a Russian game: the engine searches, without an error.
    engine.send("set-param name=book value=builtin");
    assert!(!from_book(&mut engine, "think", 2));
    for path in [&russian, &brazilian] {
        remove(path);
    }
}

#[test]
fn a_russian_build_follows_russian_rules() {
    // The start, and a position where White's man on 22 may take 18 and 10 (22x6, the only
    // Brazilian capture) or 17 alone (22x13, Russian only); the two score close enough for both to
    // stay in the book.
    let differing = "W:W22,19,27,31:B18,17,10,2";
    let roots_file = temp("russian-roots.txt");
    std::fs::write(&roots_file, format!("{differing}\n")).expect("written");
    let out = temp("russian.book");
    let roots = format!("start,{}", roots_file.display());
    // A small build of `positions` from the two roots, under `variant`'s rules.
    let build =
        |variant: &str, positions: usize| build_small_book(&out, variant, &roots, positions, 1);
    let (code, stdout, stderr) = build("russian", 8);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(russian book, "), "{stdout}");
    let book = Book::load(&out).expect("a valid book");
    assert_eq!(book.variant(), Variant::Russian);
    let root = onca::notation::fen::parse_position(differing).expect("valid");
    // Every entry is a move legal under Russian rules in a position a few Russian moves from the
    // roots (eight positions expanded from two roots lie within four plies of them).
    let mut positions = std::collections::HashMap::new();
    let mut layer = vec![Position::start(), root];
    for _ in 0..=4 {
        let mut next = Vec::new();
        for position in layer {
            if positions.insert(position.key(), position).is_none() {
                for mv in onca::rules::movegen::legal_moves_in(Variant::Russian, &position) {
                    next.push(position.play_in(Variant::Russian, &mv));
                }
            }
        }
        layer = next;
    }
    for entry in book.entries() {
        let position = positions
            .get(&entry.key)
            .unwrap_or_else(|| panic!("an entry of no position near the roots: {entry:?}"));
        assert!(
            onca::rules::movegen::legal_moves_in(Variant::Russian, position).contains(&entry.mv),
            "{entry:?} is not a Russian move"
        );
    }
    // At the differing root the book has the Russian-only capture.
    let brazilian_legal = onca::rules::movegen::legal_moves_in(Variant::Brazilian, &root);
    let root_moves: Vec<String> = book.moves(&root).iter().map(|m| m.mv.to_string()).collect();
    assert!(
        book.moves(&root)
            .iter()
            .any(|m| !brazilian_legal.contains(&m.mv)),
        "{root_moves:?}"
    );
    // Resuming under the other rules is refused: the state file names the variant.
    let (code, _, stderr) = build("brazilian", 12);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("other settings"), "{stderr}");
    remove(&out);
    let _ = std::fs::remove_file(&roots_file);
}

#[test]
fn learning_refuses_games_of_the_other_variant_by_name() {
    let russian_book = temp("learn-russian.book");
    let brazilian_book = temp("learn-brazilian.book");
    let russian_move = one_move_book(&russian_book, Variant::Russian);
    let brazilian_move = one_move_book(&brazilian_book, Variant::Brazilian);
    let games = |variant, mv| -> String {
        let game = PdnGame {
            variant,
            tags: vec![("Event".into(), "variant".into())],
            start: Position::start(),
            moves: vec![mv],
            result: GameResult::Draw,
        };
        write_game(&game, SquareNotation::Algebraic)
    };
    let russian_games = temp("russian-games.pdn");
    let brazilian_games = temp("brazilian-games.pdn");
    std::fs::write(&russian_games, games(Variant::Russian, russian_move)).expect("written");
    std::fs::write(&brazilian_games, games(Variant::Brazilian, brazilian_move)).expect("written");
    assert!(std::fs::read_to_string(&russian_games)
        .expect("read")
        .contains("[GameType \"25"));
    let out = temp("learn-out.book");
    let name = |path: &Path| path.to_str().expect("UTF-8").to_owned();
    for (variant, book, pdn) in [
        ("brazilian", &brazilian_book, &russian_games),
        ("russian", &russian_book, &brazilian_games),
    ] {
        let (code, _, stderr) = run_onca(&[
            "book",
            "learn",
            "--variant",
            variant,
            "--book",
            &name(book),
            "--out",
            &name(&out),
            &name(pdn),
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(names_file_and_variants(&stderr, pdn), "{stderr}");
        assert!(!out.exists(), "nothing is written");
    }
    // Games of the book's variant teach it, and the book stays Russian.
    let (code, stdout, stderr) = run_onca(&[
        "book",
        "learn",
        "--variant",
        "russian",
        "--book",
        &name(&russian_book),
        "--out",
        &name(&out),
        &name(&russian_games),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("learned from 1 games (1 book moves played)"),
        "{stdout}"
    );
    let learned = Book::load(&out).expect("a valid book");
    assert_eq!(learned.variant(), Variant::Russian);
    assert_eq!(learned.entries()[0].record.draws, 1);
    for path in [
        &russian_book,
        &brazilian_book,
        &russian_games,
        &brazilian_games,
        &out,
    ] {
        remove(path);
    }
}

//! Hub sessions against the real binary: handshake, parameters, every kind of `go`, `stop`,
//! `ping` and pondering. Each expected line has a timeout, so a hang fails.

mod hub_support;

use hub_support::{analysis_last_info, check_search, done_move, field, Engine, START};
use onca::hub::numbering::MoveNumbering;
use onca::notation::fen::parse_position;
use onca::rules::movegen::legal_moves;
use onca::rules::moves::find_hub_move;
use onca::rules::position::Position;

#[test]
fn handshake_declares_parameters_and_init_repeats() {
    for args in [&[][..], &["hub"][..]] {
        let mut engine = Engine::start_with(args);
        engine.send("hub");
        let id = engine.recv();
        assert!(id.starts_with("id name="), "{id}");
        let mut params = Vec::new();
        loop {
            let line = engine.recv();
            if line == "wait" {
                break;
            }
            assert!(line.starts_with("param name="), "{line}");
            params.push(line);
        }
        let names: Vec<String> = params.iter().filter_map(|p| field(p, "name")).collect();
        for wanted in [
            "variant",
            "threads",
            "hash",
            "ponder",
            "move-overhead",
            "move-numbering",
            "multipv",
            "skill",
        ] {
            assert!(
                names.iter().any(|n| n == wanted),
                "no param {wanted}: {params:?}"
            );
        }
        let variant = params.iter().find(|p| p.contains("name=variant")).unwrap();
        assert_eq!(field(variant, "value").as_deref(), Some("brazilian"));
        assert_eq!(field(variant, "type").as_deref(), Some("enum"));
        assert_eq!(
            field(variant, "values").as_deref(),
            Some("brazilian russian")
        );
        for _ in 0..3 {
            engine.send("init");
            assert_eq!(engine.recv(), "ready");
        }
        engine.send("new-game");
        engine.barrier();
        engine.send("quit");
        assert!(engine.wait_exit().success());
        assert_eq!(engine.stderr(), "", "stderr must stay silent by default");
    }
}

#[test]
fn stop_right_after_go_gives_a_legal_move() {
    let mut engine = Engine::start();
    engine.handshake();
    for mode in ["think", "analyze", "ponder"] {
        engine.send_raw(format!("pos pos={START}\ngo {mode}\nstop\n").as_bytes());
        let search = engine.search_result();
        check_search(&search, &Position::start());
        engine.barrier();
    }
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("pos pos={START}"));
    engine.send("level infinite");
    engine.send("go analyze");
    let mut infos = Vec::new();
    engine.send("ping");
    assert_eq!(engine.recv_non_info(&mut infos), "pong");
    engine.send("ping");
    assert_eq!(engine.recv_non_info(&mut infos), "pong");
    engine.send("stop");
    let mut search = engine.search_result();
    infos.append(&mut search.infos);
    search.infos = infos;
    check_search(&search, &Position::start());
    // Stop when idle does nothing; exactly one done per go.
    engine.send("stop");
    engine.send("ponder-hit");
    engine.barrier();
}

#[test]
fn ponder_hit_and_ponder_miss() {
    let mut engine = Engine::start();
    engine.handshake();
    let mut position = Position::start();
    let first = legal_moves(&position)[0];
    position = position.play(&first);
    // Hit: the search may finish its depth before the hit; its done must wait for the hit.
    engine.send(&format!("pos pos={START} moves=\"{first}\""));
    engine.send("level depth=1");
    engine.send("go ponder");
    engine.send("ping");
    // Progress lines may come before the pong; they belong to this search.
    let mut early_infos = Vec::new();
    let line = engine.recv_non_info(&mut early_infos);
    assert_eq!(line, "pong", "no done before ponder-hit");
    engine.send("ponder-hit");
    let mut search = engine.search_result();
    early_infos.append(&mut search.infos);
    search.infos = early_infos;
    check_search(&search, &position);
    engine.barrier();

    // Miss: the host stops the ponder search and starts a new one on another position.
    engine.send(&format!("pos pos={START} moves=\"{first}\""));
    engine.send("go ponder");
    engine.send("stop");
    let search = engine.search_result();
    check_search(&search, &position);
    let other = legal_moves(&Position::start())[1];
    let other_position = Position::start().play(&other);
    engine.send(&format!("pos pos={START} moves=\"{other}\""));
    engine.send("level depth=2");
    engine.send("go think");
    let search = engine.search_result();
    check_search(&search, &other_position);
    engine.barrier();

    // A new command during a ponder search ends it first (its done comes before the new one).
    engine.send(&format!("pos pos={START} moves=\"{first}\""));
    engine.send("go ponder");
    engine.send(&format!("pos pos={START} moves=\"{other}\""));
    engine.send("level depth=1");
    engine.send("go think");
    check_search(&engine.search_result(), &position);
    check_search(&engine.search_result(), &other_position);
    engine.barrier();
}

#[test]
fn no_legal_move_and_single_legal_move_answer_at_once() {
    let mut engine = Engine::start();
    engine.handshake();
    // A white man on a1 boxed in by black men on b2 and c3: no legal move. No level: only an
    // immediate answer avoids a hang here.
    engine.send("pos pos=W:W29:B25,22");
    engine.send("go think");
    let mut saw_error = false;
    let mut saw_score = false;
    loop {
        let line = engine.recv();
        if line.starts_with("done") {
            assert_eq!(line, "done move=\"\"");
            break;
        }
        saw_error |= line.starts_with("error");
        saw_score |=
            line.starts_with("info") && field(&line, "score").as_deref() == Some("-100.00");
    }
    assert!(saw_error && saw_score, "{:#?}", engine.transcript);
    engine.barrier();

    // One legal move (29-25), no level: done at once for think.
    engine.send("pos pos=W:W29:B1");
    engine.send("go think");
    let search = engine.search_result();
    let mv = check_search(&search, &parse_position("W:W29:B1").unwrap());
    assert_eq!(mv.to_string(), "29-25");
    // Ponder with a single reply: held until the hit.
    engine.send("pos pos=W:W29:B1");
    engine.send("level depth=2");
    engine.send("go ponder");
    engine.send("ponder-hit");
    let search = engine.search_result();
    assert_eq!(field(&search.done, "move").as_deref(), Some("29-25"));
    engine.barrier();
}

#[test]
fn set_param_between_searches_and_mirrored_numbering() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("set-param name=hash value=lots");
    assert!(engine.recv().starts_with("error message="));
    engine.send("set-param name=variant value=international");
    assert!(engine.recv().starts_with("error message="));
    engine.send("set-param name=initial-time value=300");
    engine.send("set-param name=tt-size value=16");
    engine.send("set-param name=variant value=brazilian");
    engine.send("set-param name=threads value=1");
    // The searches below are from book positions: they test the search, not the book.
    engine.send("set-param name=book value=\"\"");
    engine.barrier();

    engine.send(&format!("pos pos={START}"));
    engine.send("level depth=2");
    engine.send("go think");
    check_search(&engine.search_result(), &Position::start());

    engine.send("set-param name=hash value=2");
    engine.send("set-param name=move-numbering value=mirrored");
    engine.send("set-param name=multipv value=2");
    // Mirrored 9-13 is our 21-17.
    engine.send(&format!("pos pos={START} moves=\"9-13\""));
    engine.send("level depth=2");
    engine.send("go think");
    let search = engine.search_result();
    let after =
        Position::start().play(&find_hub_move(&legal_moves(&Position::start()), "21-17").unwrap());
    let text = field(&search.done, "move").unwrap();
    let standard = MoveNumbering::Mirrored.move_text_to_standard(&text);
    find_hub_move(&legal_moves(&after), &standard)
        .unwrap_or_else(|why| panic!("mirrored done move {text} is not legal: {why}"));
    assert!(!search.infos.is_empty());

    assert!(search.infos.iter().any(|info| info.ends_with(" multipv=2")));

    engine.send("set-param name=move-numbering value=standard");
    engine.send("set-param name=multipv value=1");
    engine.send(&format!("pos pos={START} moves=\"21-17\""));
    engine.send("level depth=2");
    engine.send("go think");
    check_search(&engine.search_result(), &after);

    // A weakened engine still plays legal moves and shows only its main line.
    engine.send("set-param name=skill value=0");
    engine.send(&format!("pos pos={START} moves=\"21-17\""));
    engine.send("level depth=20");
    engine.send("go think");
    let search = engine.search_result();
    check_search(&search, &after);
    assert!(search.infos.iter().all(|info| !info.contains("multipv=")));
    engine.barrier();
}

#[test]
fn clock_levels_negative_time_and_move_time() {
    let mut engine = Engine::start();
    engine.handshake();
    for level in [
        "level time=-1",
        "level time=-0.05 inc=0.1",
        "level time=0 moves=5",
        "level move-time=0.05",
        "level move-time=0",
        "level time=2 inc=0.1",
        "level nodes=1000",
    ] {
        engine.send(&format!("pos pos={START}"));
        engine.send(level);
        engine.send("go think");
        check_search(&engine.search_result(), &Position::start());
    }
    // Levels are cumulative until the search: depth and move-time together.
    engine.send(&format!("pos pos={START}"));
    engine.send("level depth=3");
    engine.send("level move-time=5");
    engine.send("go think");
    check_search(&engine.search_result(), &Position::start());
    engine.barrier();
}

#[test]
fn refused_position_gives_error_and_still_a_done() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("pos pos=Wxyz");
    assert!(engine.recv().starts_with("error message="));
    engine.send(&format!("pos pos={START} moves=\"21-17 21-17\""));
    assert!(engine.recv().starts_with("error message="));
    engine.send("go think");
    assert!(engine.recv().starts_with("error message="));
    assert_eq!(engine.recv(), "done move=\"\"");
    // A good position afterwards works again.
    engine.send(&format!("pos pos={START}"));
    engine.send("level depth=1");
    engine.send("go think");
    done_move(&engine.search_result().done, &Position::start());
    engine.barrier();
}

#[test]
fn proven_results_are_scored_near_100() {
    let mut engine = Engine::start();
    engine.handshake();
    // White's man on c3 takes Black's last piece on d4: a win in 1 ply, and for Black to move the
    // mirror image (Black takes White's last piece).
    for position in ["W:W22:B18", "B:W22:B18"] {
        engine.send(&format!("pos pos={position}"));
        engine.send("level depth=3");
        engine.send("go analyze");
        let search = engine.search_result();
        check_search(&search, &parse_position(position).unwrap());
        let last = search.infos.last().expect("an info line");
        assert_eq!(field(last, "score").as_deref(), Some("99.99"), "{last}");
        engine.barrier();
    }
}

#[test]
fn command_line_parameters_are_set_before_the_session() {
    let mut engine =
        Engine::start_with(&["hub", "--move-numbering=mirrored", "--hash=8", "--cpuct=3"]);
    engine.send("hub");
    engine.expect("id");
    let mut seen = Vec::new();
    loop {
        let line = engine.recv();
        if line == "wait" {
            break;
        }
        seen.push(line);
    }
    assert!(
        seen.iter()
            .any(|p| p.starts_with("param name=move-numbering value=mirrored")),
        "{seen:?}"
    );
    assert!(
        seen.iter()
            .any(|p| p.starts_with("param name=hash value=8 ")),
        "{seen:?}"
    );
    engine.send("init");
    assert_eq!(engine.recv(), "ready");
    // Mirrored 9-13 is our 21-17; the reply comes in mirrored numbers too.
    engine.send(&format!("pos pos={START} moves=\"9-13\""));
    engine.send("level depth=1");
    engine.send("go think");
    let search = engine.search_result();
    let text = field(&search.done, "move").unwrap();
    let after =
        Position::start().play(&find_hub_move(&legal_moves(&Position::start()), "21-17").unwrap());
    find_hub_move(
        &legal_moves(&after),
        &MoveNumbering::Mirrored.move_text_to_standard(&text),
    )
    .unwrap_or_else(|why| panic!("{text}: {why}"));
}

/// The nodes of the last `info` line of a fixed-depth analysis of the start position.
fn start_nodes(engine: &mut Engine, depth: u32) -> u64 {
    engine.send("new-game");
    field(&analysis_last_info(engine, START, depth), "nodes")
        .and_then(|nodes| nodes.parse().ok())
        .expect("a node count")
}

#[test]
fn search_parameters_reach_the_search_and_bad_ones_are_refused() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("set-param name=book value=\"\"");
    let default = start_nodes(&mut engine, 9);
    assert_eq!(start_nodes(&mut engine, 9), default, "one thread repeats");
    engine.send("set-param name=search-probcut value=false");
    let without = start_nodes(&mut engine, 9);
    assert_ne!(without, default, "turning ProbCut off changed nothing");
    engine.send("set-param name=search-probcut value=1");
    assert_eq!(start_nodes(&mut engine, 9), default);
    engine.send("set-param name=search-lmr value=maybe");
    assert!(engine.recv().starts_with("error message="));
    engine.send("set-param name=search-probcut-margin value=1000");
    assert!(engine.recv().starts_with("error message="));
    engine.send("set-param name=search-no-such-switch value=1");
    assert!(engine.recv().starts_with("error message="));
    assert_eq!(
        start_nodes(&mut engine, 9),
        default,
        "refused values change nothing"
    );
}

/// pydraughts sends `stop` from its main thread while its ponder thread may not have sent `go
/// ponder` yet: the early `stop` must end that ponder search, or the host waits forever.
#[test]
fn a_stop_that_overtakes_its_go_ponder_still_ends_the_ponder_search() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("set-param name=book value=\"\"");
    engine.send(&format!("pos pos={START}"));
    engine.send("stop");
    engine.send("level time=3 inc=0.1");
    engine.send("go ponder");
    // `recv` fails the test if no line comes in time.
    check_search(&engine.search_result(), &Position::start());
    engine.barrier();

    // Only a ponder search takes an early stop: a search to think is never cut short by one.
    engine.send("stop");
    engine.send(&format!("pos pos={START}"));
    engine.send("level depth=6");
    engine.send("go think");
    let search = engine.search_result();
    check_search(&search, &Position::start());
    let last = search.infos.last().expect("an info line");
    assert_eq!(field(last, "depth").as_deref(), Some("6"), "{last}");

    // And a `go think` in between uses the early stop up: the next ponder search waits.
    engine.send("stop");
    engine.send("level depth=2");
    engine.send("go think");
    engine.search_result();
    engine.send("level time=3 inc=0.1");
    engine.send("go ponder");
    engine.send("ping");
    // The ponder search may report progress before the pong; it must not have ended.
    let mut reply = engine.recv();
    while reply.starts_with("info ") {
        reply = engine.recv();
    }
    assert_eq!(reply, "pong", "the ponder search must still be running");
    engine.send("stop");
    check_search(&engine.search_result(), &Position::start());
}

//! Search behaviour: legal moves always, stopping at once, draw rules, determinism of bench,
//! evaluation symmetry and evaluation tables loaded at run time. Depths and node limits are small
//! so the whole file runs in seconds.

use onca::eval::evaluate::evaluate;
use onca::eval::score::Score;
use onca::eval::weights::{Weights, MAN_SQUARE};
use onca::game::draw::DrawRules;
use onca::game::record::Game;
use onca::notation::fen::parse_position;
use onca::rules::movegen::legal_moves;
use onca::rules::moves::Move;
use onca::rules::position::Position;
use onca::rules::variant::Variant;
use onca::search::bench;
use onca::search::control::{SearchControl, SearchResult, SearchSettings};
use onca::search::limits::Limits;
use onca::search::params::SearchParams;
use onca::search::searcher::Searcher;
use std::sync::Arc;

/// Positions that exercise the rules: long king captures, majority capture, promotion, blocked
/// men, kings against men.
const RULE_POSITIONS: &[&str] = &[
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:WK29:B25,18,11,10",
    "W:WK22:B18,10,11,19,27",
    "B:W14,15,22,23,30:BK1,6",
    "W:W5,6,21:B14,15,2",
    "B:W18,19,26,27:B9,10,14,15",
    "W:W9,30:B13,14,23,26",
    "B:WK4,K29:BK32,K1",
    "W:W6:B2,3,10",
    "W:W17,18,22,25,26:B1,5,9,10,13,14",
    "B:W5,6,7,8:B24,27,28",
    "W:WK15,27,28:B11,12,19,20,22,23",
];

fn search(
    game: &Game,
    limits: Limits,
    settings: SearchSettings,
    control: &SearchControl,
) -> SearchResult {
    let mut searcher = Searcher::new(4);
    searcher.search(game, &limits, &settings, control, &mut |_| {})
}

fn at_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn analysis() -> SearchSettings {
    SearchSettings {
        instant_single_reply: false,
        ..SearchSettings::default()
    }
}

#[test]
fn returned_move_is_legal_on_rule_positions() {
    for text in RULE_POSITIONS {
        let position = parse_position(text).expect("valid test position");
        let legal = legal_moves(&position);
        let game = Game::new(position);
        for threads in [1, 2] {
            let settings = SearchSettings {
                threads,
                ..analysis()
            };
            let result = search(&game, at_depth(6), settings, &SearchControl::new());
            match result.best {
                Some(mv) => assert!(legal.contains(&mv), "{text}: {mv} is illegal"),
                None => assert!(legal.is_empty(), "{text}: no move returned"),
            }
            if let Some(ponder) = result.ponder {
                let after = position.play(&result.best.expect("ponder implies a best move"));
                assert!(
                    legal_moves(&after).contains(&ponder),
                    "{text}: bad ponder move"
                );
            }
        }
    }
}

#[test]
fn several_threads_finish_the_asked_depth_and_report_rising_depths() {
    // Lazy SMP threads abandon and skip depths that another thread completes or searches: the
    // main thread must still report every line it ends on, deeper each time, up to the limit.
    let game = Game::new(parse_position(RULE_POSITIONS[0]).expect("valid"));
    for threads in [2, 3] {
        for multipv in [1, 2] {
            let settings = SearchSettings {
                threads,
                multipv,
                ..analysis()
            };
            let mut reported: Vec<(u32, usize)> = Vec::new();
            let mut searcher = Searcher::new(4);
            let result = searcher.search(
                &game,
                &at_depth(9),
                &settings,
                &SearchControl::new(),
                &mut |report| reported.push((report.depth, report.multipv)),
            );
            assert_eq!(result.depth, 9, "{threads} threads, multipv {multipv}");
            let mut depths: Vec<u32> = reported
                .iter()
                .filter(|&&(_, line)| line == 1)
                .map(|&(depth, _)| depth)
                .collect();
            // The closing report repeats the last depth with the final node count.
            if depths.len() >= 2 && depths[depths.len() - 1] == depths[depths.len() - 2] {
                depths.pop();
                reported.pop();
            }
            assert!(
                depths.windows(2).all(|pair| pair[0] < pair[1]),
                "depths not rising: {depths:?}"
            );
            assert_eq!(depths.last(), Some(&9), "{threads} threads: {depths:?}");
            // With several lines wanted, the main thread searches every depth itself.
            if multipv == 2 {
                assert_eq!(depths, (1..=9).collect::<Vec<_>>());
                assert!(reported.iter().all(|&(_, line)| line <= 2));
                assert_eq!(reported.iter().filter(|&&(_, line)| line == 2).count(), 9);
            }
            let legal = legal_moves(game.current());
            assert!(legal.contains(&result.best.expect("the start has moves")));
        }
    }
}

#[test]
fn no_legal_move_is_a_loss_without_a_move() {
    // The white man on a1 is blocked by b2 (and c3 behind it prevents the capture).
    let game = Game::new(parse_position("W:W29:B22,25").expect("valid"));
    let result = search(&game, at_depth(3), analysis(), &SearchControl::new());
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::loss_in(0));
}

#[test]
fn a_search_stopped_at_once_still_returns_a_legal_move() {
    for text in RULE_POSITIONS {
        let position = parse_position(text).expect("valid");
        let legal = legal_moves(&position);
        if legal.is_empty() {
            continue;
        }
        let game = Game::new(position);
        for threads in [1, 2] {
            let control = SearchControl::new();
            control.stop();
            let infinite = Limits {
                infinite: true,
                ..Limits::default()
            };
            let settings = SearchSettings {
                threads,
                ..analysis()
            };
            let result = search(&game, infinite, settings, &control);
            let best = result.best.expect("a legal move exists");
            assert!(legal.contains(&best), "{text}: {best} is illegal");
        }
    }
}

#[test]
fn a_single_reply_is_played_at_once_in_games_but_searched_in_analysis() {
    // White must capture 22x13 (the only legal move).
    let game = Game::new(parse_position("W:W22,30:B17,1").expect("valid"));
    assert_eq!(legal_moves(game.current()).len(), 1);
    let instant = search(
        &game,
        at_depth(8),
        SearchSettings::default(),
        &SearchControl::new(),
    );
    assert!(instant.nodes <= 1);
    let searched = search(&game, at_depth(8), analysis(), &SearchControl::new());
    assert!(searched.nodes > 1);
    assert_eq!(instant.best, searched.best);
}

#[test]
fn node_limit_is_respected_exactly_with_one_thread() {
    let game = Game::new(Position::start());
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let result = search(&game, limits, analysis(), &SearchControl::new());
    assert!(result.nodes <= 5_000, "searched {}", result.nodes);
    assert!(result.best.is_some());
}

fn repetition_game() -> Game {
    // Three white kings against a lone black king; White shuffles 32-28-32 while Black went 1-5.
    // Black to move can play 5-1 and repeat the first position of the game.
    let mut game = Game::new(parse_position("W:WK30,K31,K32:BK1").expect("valid"));
    for text in ["32-28", "1-5", "28-32"] {
        game.play_text(text).expect("legal");
    }
    game
}

#[test]
fn repetition_against_the_game_is_a_draw() {
    let game = repetition_game();
    let with = SearchSettings {
        draw_rules: DrawRules {
            repetition: true,
            move_count: false,
        },
        ..analysis()
    };
    let result = search(&game, at_depth(6), with, &SearchControl::new());
    assert_eq!(result.best.map(|mv| mv.to_string()).as_deref(), Some("5-1"));
    assert_eq!(result.score, Score::DRAW);
    let without = SearchSettings {
        draw_rules: DrawRules {
            repetition: false,
            move_count: false,
        },
        ..analysis()
    };
    let result = search(&game, at_depth(6), without, &SearchControl::new());
    assert!(
        result.score.0 < -200,
        "lone king is lost: {:?}",
        result.score
    );
}

#[test]
fn contempt_makes_a_draw_cost_the_side_to_move_at_the_root() {
    // The lone king still takes the repetition (the rest loses), but it is worth the contempt
    // less than a draw to the side that searched; so is a move-count draw.
    let contempt = Score(30);
    let with = |draw_rules| SearchSettings {
        draw_rules,
        contempt,
        ..analysis()
    };
    let repetition_only = DrawRules {
        repetition: true,
        move_count: false,
    };
    let result = search(
        &repetition_game(),
        at_depth(6),
        with(repetition_only),
        &SearchControl::new(),
    );
    assert_eq!(result.best.map(|mv| mv.to_string()).as_deref(), Some("5-1"));
    assert_eq!(result.score, -contempt);
    let result = search(
        &move_count_game(),
        at_depth(5),
        with(DrawRules::default()),
        &SearchControl::new(),
    );
    assert_eq!(result.score, -contempt);
}

/// Three kings against a lone king, 29 plies after the last capture: whatever the side to move
/// plays (without capturing) reaches the 30-ply limit of the move-count rules.
fn move_count_game() -> Game {
    let mut game = Game::new(parse_position("W:WK30,K31,K32:BK1").expect("valid"));
    let rules = DrawRules {
        repetition: true,
        move_count: false,
    };
    let mut seen = vec![game.current().key()];
    while game.counters().plies_since_material_change < 29 {
        let mut moves = legal_moves(game.current());
        moves.sort_by_key(Move::sort_key);
        let next = moves.into_iter().find(|mv| {
            let mut trial = game.clone();
            trial.play(*mv);
            let after = trial.current();
            !mv.is_capture()
                && !seen.contains(&after.key())
                && trial.outcome(&rules).is_none()
                && !onca::rules::movegen::has_capture(after)
        });
        let mv = next.expect("a quiet, safe, new move exists");
        game.play(mv);
        seen.push(game.current().key());
    }
    game
}

#[test]
fn move_count_rule_draws_inside_the_search() {
    let game = move_count_game();
    assert_eq!(game.counters().plies_since_material_change, 29);
    assert!(!onca::rules::movegen::has_capture(game.current()));
    let with = SearchSettings {
        draw_rules: DrawRules::default(),
        ..analysis()
    };
    let result = search(&game, at_depth(5), with, &SearchControl::new());
    assert_eq!(result.score, Score::DRAW);
    let without = SearchSettings {
        draw_rules: DrawRules {
            repetition: true,
            move_count: false,
        },
        ..analysis()
    };
    let result = search(&game, at_depth(5), without, &SearchControl::new());
    assert!(result.score.0.abs() > 200, "score {:?}", result.score);
}

#[test]
fn bench_node_counts_repeat() {
    let first = bench::run(
        Variant::Brazilian,
        5,
        1,
        2,
        None,
        SearchParams::default(),
        |_| {},
    )
    .expect("bench positions are valid");
    let second = bench::run(
        Variant::Brazilian,
        5,
        1,
        2,
        None,
        SearchParams::default(),
        |_| {},
    )
    .expect("bench positions are valid");
    assert!(first.len() >= 30);
    let nodes = |results: &[bench::PositionResult]| -> Vec<u64> {
        results.iter().map(|found| found.nodes).collect()
    };
    assert_eq!(nodes(&first), nodes(&second));
    assert!(first
        .iter()
        .all(|found| found.best.is_some() && found.depth <= 5));
}

#[test]
fn the_search_evaluates_with_the_weights_it_is_given() {
    // A copy of the built-in weights: exactly the built-in search, node for node.
    let copy = Arc::new(Weights::default());
    let built_in = bench::run(
        Variant::Brazilian,
        4,
        1,
        2,
        None,
        SearchParams::default(),
        |_| {},
    )
    .expect("bench positions are valid");
    let copied = bench::run(
        Variant::Brazilian,
        4,
        1,
        2,
        Some(copy),
        SearchParams::default(),
        |_| {},
    )
    .expect("bench positions are valid");
    let nodes = |results: &[bench::PositionResult]| -> Vec<u64> {
        results.iter().map(|found| found.nodes).collect()
    };
    assert_eq!(nodes(&built_in), nodes(&copied));

    // Men worth less than nothing: a man up is now a bad position.
    let game = Game::new(parse_position("W:W21,22,23,24,25:B1,2,3,4").expect("valid"));
    let mut absurd = Weights::default();
    absurd.opening[MAN_SQUARE..MAN_SQUARE + 32].fill(-1000);
    absurd.endgame[MAN_SQUARE..MAN_SQUARE + 32].fill(-1000);
    let mut searcher = Searcher::new(2);
    let score = |searcher: &mut Searcher| {
        searcher
            .search(
                &game,
                &at_depth(5),
                &analysis(),
                &SearchControl::new(),
                &mut |_| {},
            )
            .score
    };
    let default_score = score(&mut searcher);
    searcher.set_weights(Some(Arc::new(absurd)));
    assert_eq!(
        searcher
            .weights(onca::rules::variant::Variant::Brazilian)
            .opening[0],
        -1000
    );
    let absurd_score = score(&mut searcher);
    assert!(default_score.0 > 50, "{default_score:?}");
    assert!(absurd_score.0 < -500, "{absurd_score:?}");
    searcher.set_weights(None);
    assert_eq!(score(&mut searcher), default_score);
}

#[test]
fn evaluation_is_symmetric() {
    let mut positions: Vec<Position> = bench::POSITIONS
        .iter()
        .chain(RULE_POSITIONS)
        .map(|text| parse_position(text).expect("valid"))
        .collect();
    // And every position along a few deterministic playouts.
    for seed in 0..8usize {
        let mut position = Position::start();
        for ply in 0..80 {
            let moves = legal_moves(&position);
            if moves.is_empty() {
                break;
            }
            position = position.play(&moves[(seed * 7 + ply * 13) % moves.len()]);
            positions.push(position);
        }
    }
    for position in &positions {
        assert_eq!(
            evaluate(position),
            evaluate(&position.color_flipped()),
            "{position:?}"
        );
    }
}

#[test]
fn multipv_reports_distinct_lines() {
    let game = Game::new(Position::start());
    let settings = SearchSettings {
        multipv: 3,
        ..analysis()
    };
    let mut searcher = Searcher::new(4);
    let mut lines = Vec::new();
    searcher.search(
        &game,
        &at_depth(4),
        &settings,
        &SearchControl::new(),
        &mut |report| {
            if report.depth == 4 {
                lines.push((report.multipv, report.pv.first().copied()));
            }
        },
    );
    let firsts: Vec<_> = lines
        .iter()
        .filter(|(index, _)| *index <= 3)
        .take(3)
        .map(|(_, mv)| mv.expect("a line has a move"))
        .collect();
    assert_eq!(firsts.len(), 3);
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
}

#[test]
fn skill_plays_legal_and_repeatable_moves() {
    let game = Game::new(Position::start());
    let legal = legal_moves(game.current());
    for skill in [0, 5, 19] {
        let settings = SearchSettings {
            skill: Some(skill),
            ..SearchSettings::default()
        };
        let first = search(&game, Limits::default(), settings, &SearchControl::new());
        let second = search(&game, Limits::default(), settings, &SearchControl::new());
        let mv = first.best.expect("legal move");
        assert!(legal.contains(&mv));
        assert_eq!(first.best, second.best, "skill {skill} is deterministic");
    }
}

/// A move's time counts from when the host asked, not from when the search thread first ran: a
/// search that starts after its fixed time is over (a thread the system scheduled late) stops at
/// its first look at the clock, which comes after a fixed number of nodes, long before the depth
/// that ten seconds of search would reach.
#[test]
fn deadlines_count_from_the_clock_start_not_from_the_search_start() {
    let game = Game::new(Position::start());
    let legal = legal_moves(game.current());
    let now = std::time::Instant::now();
    let late = search(
        &game,
        Limits {
            move_time: Some(std::time::Duration::from_secs(10)),
            clock_start: now.checked_sub(std::time::Duration::from_secs(20)),
            ..Limits::default()
        },
        SearchSettings::default(),
        &SearchControl::new(),
    );
    assert!(
        late.depth <= 8,
        "a late start searched to depth {}",
        late.depth
    );
    assert!(legal.contains(&late.best.expect("a legal move")));
}

#[test]
fn pondering_and_infinite_searches_wait_to_be_released() {
    let game = Game::new(Position::start());
    // Pondering with a depth-1 limit: the search is done at once but must not return before the
    // ponder hit.
    let control = SearchControl::new();
    control.set_pondering(true);
    let limits = Limits {
        depth: Some(1),
        move_time: Some(std::time::Duration::from_millis(1)),
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| search(&game, limits, SearchSettings::default(), &control));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!handle.is_finished(), "returned while pondering");
        control.ponder_hit();
        let result = handle.join().expect("search thread");
        assert!(result.best.is_some());
    });
    // Infinite: returns only when stopped.
    let control = SearchControl::new();
    let limits = Limits {
        infinite: true,
        depth: Some(2),
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| search(&game, limits, analysis(), &control));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !handle.is_finished(),
            "an infinite search returned by itself"
        );
        control.stop();
        assert!(handle.join().expect("search thread").best.is_some());
    });
}

#[test]
fn quiescence_sacrifices_find_a_shot_that_standing_pat_misses() {
    // Black is a man down; 20-24 gives one man and 12-16 another, and 8x22x11x18 takes two back
    // (a 12-ply search plays the same line). Searched one ply deep, only a quiescence that tries
    // the men's sacrifices in this kingless quiet position sees it.
    let position = parse_position("B:W13,18,23,26,27,29,30,31,32:B1,2,3,4,5,8,12,20,21")
        .expect("valid position");
    let at_depth_one = |sacrifices: bool| {
        let mut searcher = Searcher::new(4);
        searcher.set_params(SearchParams {
            quiescence_sacrifices: sacrifices,
            ..SearchParams::default()
        });
        searcher.search(
            &Game::new(position),
            &at_depth(1),
            &analysis(),
            &SearchControl::new(),
            &mut |_| {},
        )
    };
    let with = at_depth_one(true);
    assert_eq!(with.best.map(|mv| mv.to_string()).as_deref(), Some("20-24"));
    assert!(with.score > Score(-50), "{:?}", with.score);
    let without = at_depth_one(false);
    assert_ne!(without.best, with.best);
    // Without them it stands on a man down (worth 0.87 to 1 man, by the weights).
    assert!(without.score < Score(-70), "{:?}", without.score);
}

/// `tests/data/proof_losses.txt` (read by `scripts/loss-suite`): every position is valid, its
/// losing move and the review's best move are legal there and differ, and each loss is a man or
/// more (the review's threshold for a blunder).
#[test]
fn the_proof_loss_positions_name_legal_moves() {
    use onca::notation::pdn::read_move;
    use onca::notation::squares::SquareNotation;
    let lines: Vec<&str> = include_str!("data/proof_losses.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .collect();
    assert!(lines.len() >= 15, "only {} positions", lines.len());
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "five tab-separated fields: {line}");
        let position = parse_position(fields[0]).expect("a valid position");
        let losing = read_move(&position, fields[1], SquareNotation::HubNumbers)
            .unwrap_or_else(|error| panic!("losing move {}: {error:?}", fields[1]));
        let best = read_move(&position, fields[2], SquareNotation::HubNumbers)
            .unwrap_or_else(|error| panic!("best move {}: {error:?}", fields[2]));
        assert_ne!(losing, best, "{line}");
        let men: f64 = fields[3].parse().expect("men lost is a number");
        assert!(men >= 1.0, "{line}");
    }
}

//! The tuner recovers known weights from synthetic data, the L2 penalty pulls toward the anchor,
//! checkpoints resume, datagen resumes to the same lines as an uninterrupted run, data files
//! parse with a deterministic validation split, shards merge into one run, pattern weights are
//! recovered, self-play games from one opening differ, search scores are appended, resumed and
//! blended into the labels, a fit can leave pattern tables out, and a refit anchors the patterns
//! at its start weights.

use onca::eval::weights::{Weights, TUNABLE};
use onca::notation::fen::to_fen;
use onca::rules::variant::Variant;
use onca_tuning::checkpoint::Checkpoint;
use onca_tuning::datagen::{self, Config, Shard};
use onca_tuning::rng::Rng;
use onca_tuning::samples::Samples;
use onca_tuning::tune::{descend, error, fit_k, parse_data, Settings};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const SIZE: usize = 24;

fn truth() -> Vec<f64> {
    (0..SIZE).map(|i| (i as f64 * 7.0) % 41.0 - 20.0).collect()
}

/// Sparse random features; the result is the expected score, so the error is zero at the truth.
fn synthetic(k: f64) -> Samples {
    let truth = truth();
    let mut rng = Rng::new(7);
    let mut samples = Samples::default();
    for _ in 0..4000 {
        let features: Vec<f32> = (0..SIZE)
            .map(|_| {
                if rng.below(3) == 0 {
                    0.0
                } else {
                    rng.below(5) as f32 - 2.0
                }
            })
            .collect();
        let eval: f64 = truth
            .iter()
            .zip(&features)
            .map(|(w, f)| w * f64::from(*f))
            .sum();
        samples.push(&features, (1.0 / (1.0 + (-k * eval).exp())) as f32);
    }
    samples
}

#[test]
fn tuner_recovers_known_weights_on_synthetic_data() {
    let k = 0.01;
    let samples = synthetic(k);
    assert_eq!(samples.len(), 4000);
    let start = vec![0.0; SIZE];
    let settings = Settings {
        k,
        lambda: 0.0,
        pattern_lambda: 0.0,
        rate: 1.0,
    };
    let tuned = descend(
        &samples,
        &start,
        &start,
        &settings,
        1,
        1500,
        &mut |_, _, _| {},
    );
    for (i, (t, w)) in truth().iter().zip(&tuned).enumerate() {
        assert!((t - w).abs() < 1.0, "weight {i}: truth {t}, tuned {w}");
    }
    assert!(error(&samples, &tuned, k) < 1e-5);
    let fitted = fit_k(&samples, &truth());
    assert!((fitted - k).abs() < 1e-3, "K {fitted}");
}

#[test]
fn the_penalty_pulls_toward_the_anchor() {
    let k = 0.01;
    let samples = synthetic(k);
    let anchor = vec![0.0; SIZE];
    let settings = Settings {
        k,
        lambda: 1e-2,
        pattern_lambda: 1e-2,
        rate: 1.0,
    };
    let tuned = descend(
        &samples,
        &anchor,
        &anchor,
        &settings,
        1,
        600,
        &mut |_, _, _| {},
    );
    let distance = |w: &[f64]| w.iter().map(|x| x * x).sum::<f64>();
    assert!(distance(&tuned) < 0.1 * distance(&truth()));
}

#[test]
fn a_refit_anchors_the_patterns_at_the_start_weights() {
    use onca_tuning::tune::{anchor, to_floats, PatternAnchor};
    let start = to_floats(&Weights::default());
    let patterns = |weights: &[f64]| weights[TUNABLE..].iter().filter(|&&w| w != 0.0).count();
    assert!(
        patterns(&start) > 1000,
        "the built-in weights have pattern entries"
    );
    let scratch = anchor(&start, PatternAnchor::Zero);
    assert_eq!(scratch[..TUNABLE], start[..TUNABLE]);
    assert_eq!(patterns(&scratch), 0);
    assert_eq!(anchor(&start, PatternAnchor::Start), start);
}

#[test]
fn a_checkpoint_resumes_the_descent() {
    let k = 0.01;
    let samples = synthetic(k);
    let start = vec![0.0; SIZE];
    let settings = Settings {
        k,
        lambda: 0.0,
        pattern_lambda: 0.0,
        rate: 1.0,
    };
    let mut saved = None;
    descend(
        &samples,
        &start,
        &start,
        &settings,
        1,
        700,
        &mut |step, weights, _| {
            if step == 700 {
                saved = Some(weights.to_vec());
            }
        },
    );
    let saved = saved.expect("step 700 reported");
    // Through the text form, with the engine's names (the first SIZE weights are synthetic here).
    let mut weights = vec![0.5; onca_tuning::tune::WEIGHT_COUNT];
    weights[..SIZE].copy_from_slice(&saved);
    let checkpoint = Checkpoint {
        step: 700,
        k,
        weights,
    };
    let dir = scratch("checkpoint");
    let path = dir.path().join("w.txt.checkpoint");
    checkpoint.save(&path).expect("save");
    let loaded = Checkpoint::load(&path).expect("load");
    assert_eq!(loaded, checkpoint);
    let resumed = descend(
        &samples,
        &start,
        &loaded.weights[..SIZE],
        &settings,
        loaded.step + 1,
        1500,
        &mut |_, _, _| {},
    );
    for (i, (t, w)) in truth().iter().zip(&resumed).enumerate() {
        assert!((t - w).abs() < 1.0, "weight {i}: truth {t}, resumed {w}");
    }
    assert!(Checkpoint::parse_text("step 3\nk 0.1\nqueen 1\n").is_err());
    assert!(Checkpoint::parse_text("step 3\nk 0.1\nman 1\n").is_err());
}

/// A fresh scratch directory for one test, removed when the test ends.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("onca-tune-test-{name}-"))
        .tempdir()
        .expect("scratch directory")
}

fn sorted_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("data file");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.sort();
    lines
}

fn datagen(path: &Path, config: &Config) -> anyhow::Result<datagen::Summary> {
    let plan = datagen::prepare(path, config)?;
    datagen::run(plan, config, &|_| {})
}

#[test]
fn datagen_resumes_to_the_same_lines_as_an_uninterrupted_run() {
    let dir = scratch("datagen");
    let full = Config {
        games: 6,
        nodes: 150,
        seed: 3,
        shard: Shard::WHOLE,
        variant: Variant::Brazilian,
        force: false,
    };
    let whole = dir.path().join("whole.txt");
    let summary = datagen(&whole, &full).expect("uninterrupted run");
    assert_eq!(summary.games, 6);
    assert!(summary.positions > 0);
    // Each position line carries its game's result and its own search's score, from White's
    // view: a side far ahead in material is never scored clearly behind by its search (it may
    // be near zero where the lead cannot win, e.g. a man about to crown against king and man),
    // and is scored clearly ahead somewhere.
    let text = std::fs::read_to_string(&whole).expect("data file");
    assert!(text.starts_with("# onca-tune datagen v3 seed=3 nodes=150 variant=brazilian\n"));
    // A file from before the variants names none: it is Brazilian, and resumes as such.
    let unnamed = dir.path().join("unnamed.txt");
    std::fs::write(&unnamed, text.replace(" variant=brazilian", "")).expect("copy");
    let plan = datagen::prepare(&unnamed, &full).expect("resumes a header without a variant");
    assert_eq!((plan.finished, plan.remaining.len()), (6, 0));
    let mut scored = 0;
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[1]), "{line}");
        let score: i32 = fields[2].parse().expect("an integer score");
        assert!(score.abs() <= onca_tuning::rescore::SCORE_CLAMP, "{line}");
        let position = onca::notation::fen::parse_position(fields[0]).expect("a position");
        let material = |color| {
            let men = position.men(color).count() as i32;
            men + 3 * position.kings(color).count() as i32
        };
        let lead = material(onca::rules::position::Color::White)
            - material(onca::rules::position::Color::Black);
        if lead.abs() >= 3 {
            assert!(score * lead.signum() > -100, "{line}");
            scored += usize::from(score * lead.signum() >= 100);
        }
    }
    assert!(
        scored > 0,
        "no lopsided position scored clearly for its leader"
    );

    let pieces = dir.path().join("pieces.txt");
    let first = datagen(&pieces, &Config { games: 2, ..full }).expect("first part");
    assert_eq!(first.games, 2);
    // An interrupted write: half a line at the end is dropped on resume.
    let mut text = std::fs::read_to_string(&pieces).expect("data file");
    text.push_str("W:W21,22;1.");
    std::fs::write(&pieces, text).expect("data file");
    let plan = datagen::prepare(&pieces, &full).expect("resume");
    assert_eq!(plan.finished, 2);
    assert_eq!(plan.remaining, vec![2, 3, 4, 5]);
    assert_eq!(plan.dropped_bytes, 11);
    let rest = datagen::run(plan, &full, &|_| {}).expect("rest");
    assert_eq!(rest.games, 4);
    assert_eq!(first.positions + rest.positions, summary.positions);
    assert_eq!(sorted_lines(&pieces), sorted_lines(&whole));

    // Nothing left: a third run plays no game and changes nothing.
    assert_eq!(datagen(&pieces, &full).expect("done").games, 0);
    assert_eq!(sorted_lines(&pieces), sorted_lines(&whole));

    // Other settings on the same file are refused unless forced.
    let other = Config { nodes: 151, ..full };
    let refused = datagen::prepare(&pieces, &other).expect_err("other nodes refused");
    assert!(refused.to_string().contains("other settings"), "{refused}");
    let forced = datagen(
        &pieces,
        &Config {
            games: 1,
            force: true,
            ..other
        },
    )
    .expect("forced");
    assert_eq!(forced.games, 1);
    // The original settings still resume their own games only.
    assert_eq!(
        datagen::prepare(&pieces, &full).expect("resume").finished,
        6
    );

    // A file from before the header is refused.
    let old = dir.path().join("old.txt");
    std::fs::write(&old, "W:W21:B1;0.5\n").expect("old file");
    assert!(datagen::prepare(&old, &full).is_err());
}

#[test]
fn data_files_parse_with_a_deterministic_validation_split() {
    let start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let mut text = String::from("# onca-tune datagen v1 seed=1 nodes=10\n\n");
    for i in 0..400 {
        let result = ["0.0", "0.5", "1.0"][i % 3];
        let fen = to_fen(&datagen::random_opening(
            &mut datagen::game_rng(5, i as u64),
            Variant::Brazilian,
        ));
        text.push_str(&format!("{fen};{result}\n"));
        text.push_str(&format!("# game {i}\n"));
    }
    let a = parse_data(&text, 0.25).expect("parses");
    let b = parse_data(&text, 0.25).expect("parses");
    let held_out = a.validation.len() + a.validation_in_training as usize;
    assert_eq!(a.training.len() + held_out, 400);
    assert!((60..140).contains(&held_out), "{held_out}");
    assert_eq!(a.training, b.training);
    assert_eq!(a.validation, b.validation);
    let none = parse_data(&text, 0.0).expect("parses");
    assert_eq!(none.training.len(), 400);
    assert!(none.validation.is_empty());
    // Every game reaching the same position: one distinct training position, and every held-out
    // line is a copy of a training line, so none is kept for validation.
    let mut copies = String::from("# onca-tune datagen v2 seed=1 nodes=10\n");
    for i in 0..100 {
        copies.push_str(&format!("{start};0.5\n# game {i}\n"));
    }
    let copied = parse_data(&copies, 0.3).expect("parses");
    assert_eq!(copied.distinct_training, 1);
    assert!(copied.validation.is_empty());
    assert!((10..60).contains(&copied.validation_in_training));
    assert_eq!(
        copied.training.len() as u64 + copied.validation_in_training,
        100
    );
    let bad = parse_data(&format!("{start};0.5\n{start};2\n"), 0.1).expect_err("bad result");
    assert!(bad.contains("line 2"), "{bad}");
    assert!(parse_data("x;0.5\n", 0.1).is_err());
    assert!(parse_data("no result here\n", 0.1).is_err());
}

#[test]
fn every_position_of_a_game_lands_on_the_same_side_of_the_split() {
    use onca_tuning::tune::{is_validation, split_keys};
    let lines = [
        "# onca-tune datagen v1 seed=1 nodes=10",
        "a;0.5",
        "b;0.5",
        "# game 0",
        "c;1.0",
        "# game 1",
        "# onca-tune datagen v1 seed=2 nodes=10",
        "d;0.0",
        "# game 0",
        "loose;0.5",
    ];
    let keys = split_keys(&lines);
    assert_eq!(keys[1], keys[2]);
    assert_eq!(keys[1], "# onca-tune datagen v1 seed=1 nodes=10|# game 0");
    assert_ne!(keys[4], keys[1]);
    // Game 0 of another seed is another game.
    assert_ne!(keys[7], keys[1]);
    assert_eq!(keys[9], "loose;0.5");
    // With half the games held out, some games go each way, never split.
    let held: Vec<bool> = (0..200)
        .map(|game| is_validation(&format!("h|# game {game}"), 0.5))
        .collect();
    assert!(held.iter().any(|&v| v) && held.iter().any(|&v| !v));
}

/// Positions of seeded random games, for tests that need real feature vectors.
fn random_game_positions(games: u64, plies: usize) -> Vec<onca::rules::position::Position> {
    use onca::rules::movegen::legal_moves;
    use onca::rules::position::Position;
    let mut rng = Rng::new(11);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::start();
        for _ in 0..plies {
            let moves = legal_moves(&position);
            if moves.is_empty() {
                break;
            }
            position = position.play(&moves[rng.below(moves.len())]);
            positions.push(position);
        }
    }
    positions
}

#[test]
fn tuner_recovers_known_pattern_weights_on_synthetic_data() {
    use onca::eval::patterns::TABLE_LEN;
    use onca_tuning::tune::{features_of, to_floats, WEIGHT_COUNT};
    // The truth: the built-in terms, and in region 12 (the centre block, read by both sides) a
    // weight of +60 / +60 for every configuration whose first digit is an own man.
    let mut truth = Weights::default();
    for index in 0..TABLE_LEN {
        if index % 3 == 1 {
            truth.patterns.set(12 * TABLE_LEN + index, [60, 60]);
        }
    }
    let truth = to_floats(&truth);
    let k = 0.01;
    let mut samples = Samples::default();
    for position in random_game_positions(300, 40) {
        let Some(entries) = features_of(&position) else {
            continue;
        };
        let eval: f64 = entries
            .iter()
            .map(|&(index, value)| truth[index as usize] * f64::from(value))
            .sum();
        samples.push_sparse(&entries, (1.0 / (1.0 + (-k * eval).exp())) as f32);
    }
    assert!(samples.len() > 10_000, "{}", samples.len());
    // Start from the truth's terms with zero patterns; fit only what the data shows.
    let mut start = truth.clone();
    start[TUNABLE..].iter_mut().for_each(|w| *w = 0.0);
    let settings = Settings {
        k,
        lambda: 0.0,
        pattern_lambda: 1e-7,
        rate: 2.0,
    };
    let before = error(&samples, &start, k);
    let tuned = descend(
        &samples,
        &truth,
        &start,
        &settings,
        1,
        300,
        &mut |_, _, _| {},
    );
    let after = error(&samples, &tuned, k);
    assert!(after < before / 10.0, "error {before} -> {after}");
    // The most common own-man-first entries of the centre block come out near +60 at the
    // phase of these positions (20 to 24 pieces: the opening share is about 0.9).
    let occurrences = samples.occurrences(WEIGHT_COUNT);
    let mut common: Vec<usize> = (0..TABLE_LEN)
        .filter(|index| index % 3 == 1)
        .map(|index| TUNABLE + 2 * (12 * TABLE_LEN + index))
        .collect();
    common.sort_by_key(|&at| std::cmp::Reverse(occurrences[at]));
    for &at in &common[..5] {
        let fitted = 0.9 * tuned[at] + 0.1 * tuned[at + 1];
        assert!((fitted - 60.0).abs() < 20.0, "entry {at}: {fitted}");
    }
}

#[test]
fn shards_played_apart_and_merged_equal_one_run() {
    let dir = scratch("shards");
    let full = Config {
        games: 7,
        nodes: 150,
        seed: 5,
        shard: Shard::WHOLE,
        variant: Variant::Brazilian,
        force: false,
    };
    let whole = dir.path().join("whole.txt");
    datagen(&whole, &full).expect("one run");
    let mut parts = Vec::new();
    for index in 0..3 {
        let shard = Shard { index, count: 3 };
        let path = dir.path().join(format!("part{index}.txt"));
        let summary = datagen(&path, &Config { shard, ..full }).expect("shard");
        assert_eq!(summary.games, [3, 2, 2][index as usize]);
        parts.push(path);
    }
    // One shard is cut off mid-game; a copy of another repeats its games.
    let mut text = std::fs::read_to_string(&parts[2]).expect("shard file");
    text.push_str("W:W21,22:B1;0.5\nW:W2");
    std::fs::write(&parts[2], text).expect("shard file");
    let copy = dir.path().join("copy.txt");
    std::fs::copy(&parts[1], &copy).expect("copy");
    let mut inputs: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    inputs.push(&copy);
    let merged = dir.path().join("merged.txt");
    let summary = datagen::merge(&inputs, &merged).expect("merge");
    assert_eq!(summary.games, 7);
    assert_eq!(summary.duplicates, 2);
    assert!(summary.dropped_bytes > 0);
    assert_eq!(sorted_lines(&merged), sorted_lines(&whole));
    // The merged file resumes like a whole run: nothing is left to play.
    assert!(datagen::prepare(&merged, &full)
        .expect("resume")
        .remaining
        .is_empty());
    // Shards of another run are refused.
    let other = dir.path().join("other.txt");
    datagen(
        &other,
        &Config {
            games: 1,
            nodes: 151,
            ..full
        },
    )
    .expect("other run");
    let refused =
        datagen::merge(&[&parts[0], &other], &dir.path().join("bad.txt")).expect_err("mixed");
    assert!(refused.to_string().contains("differs"), "{refused}");
    assert!(Shard::parse("3/3").is_err() && Shard::parse("x").is_err());
    assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
}

#[test]
fn games_from_one_opening_part_ways_yet_each_game_repeats() {
    // With one fixed budget every game from an opening was the same game; the random budgets
    // must make games differ while a game's seed still reproduces it.
    let opening = datagen::random_opening(&mut datagen::game_rng(3, 0), Variant::Brazilian);
    let game =
        |stream: u64| datagen::play_game(opening, Variant::Brazilian, 300, &mut Rng::new(stream));
    let first = game(1);
    assert_eq!(first, game(1));
    let distinct: std::collections::HashSet<Vec<(String, i32)>> = (2..8)
        .map(|stream| game(stream).0)
        .chain([first.0])
        .collect();
    assert!(
        distinct.len() >= 5,
        "{} distinct games of 7",
        distinct.len()
    );
}

#[test]
fn search_scores_are_appended_resumed_and_blended_into_the_labels() {
    use onca_tuning::rescore::{rescore, score_position};
    let dir = scratch("score");
    // White a man up (its sixth man on 22), then Black a man up, then an even position.
    let white_up = "W:W21,22,25,26,27,28:B1,2,3,4,5";
    let black_up = "W:W25,26,27,28:B1,2,3,4,5";
    let even = "B:W25,26,27,28:B1,2,3,4";
    let input = dir.path().join("data.txt");
    std::fs::write(
        &input,
        format!("# onca-tune datagen v3 seed=1 nodes=10\n{white_up};1.0;-999\n{black_up};0.0\n# game 0\n{even};0.5\n# game 1\n"),
    )
    .expect("data file");
    let whole = dir.path().join("whole.txt");
    let summary = rescore(&input, &whole, 3, None, &|_| {}).expect("scores");
    assert_eq!((summary.resumed, summary.scored), (0, 3));
    let text = std::fs::read_to_string(&whole).expect("scored file");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0], "# onca-tune datagen v3 seed=1 nodes=10");
    assert_eq!(lines[3], "# game 0");
    let score_of = |line: &str| -> i32 {
        line.rsplit(';')
            .next()
            .and_then(|s| s.parse().ok())
            .expect("a score")
    };
    let mut searcher = onca::search::searcher::Searcher::new(1);
    assert_eq!(
        score_of(lines[1]),
        score_position(&mut searcher, Variant::Brazilian, white_up, 3).expect("fen")
    );
    assert!(
        lines[1].starts_with(&format!("{white_up};1.0;")),
        "{}",
        lines[1]
    );
    assert!(score_of(lines[1]) > 50, "{}", lines[1]);
    assert!(score_of(lines[2]) < -50, "{}", lines[2]);
    // The first line's datagen score (-999) was replaced, not kept beside the new one.
    assert_eq!(lines[1].matches(';').count(), 2, "{}", lines[1]);
    let crowded = dir.path().join("crowded.txt");
    std::fs::write(&crowded, format!("{white_up};1.0;5;6\n")).expect("data file");
    assert!(rescore(
        &crowded,
        &dir.path().join("crowded-out.txt"),
        3,
        None,
        &|_| {}
    )
    .is_err());

    // A run cut off mid-line resumes to the same file.
    let cut = dir.path().join("cut.txt");
    std::fs::write(
        &cut,
        format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..10]),
    )
    .expect("cut");
    let resumed = rescore(&input, &cut, 3, None, &|_| {}).expect("resumed");
    assert_eq!((resumed.resumed, resumed.scored), (2, 2));
    assert_eq!(std::fs::read_to_string(&cut).expect("resumed file"), text);

    // The tuner reads the scores and blends them into the training labels only.
    let mut data = parse_data(&text, 0.0).expect("scored data parses");
    let before: Vec<f32> = (0..3)
        .map(|i| data.training.chunks()[0].result(i))
        .collect();
    assert_eq!(before, vec![1.0, 0.0, 0.5]);
    let k = 0.01;
    data.training
        .blend_scores(k, 0.5)
        .expect("every line has a score");
    for (i, line) in lines.iter().filter(|l| !l.starts_with('#')).enumerate() {
        let probability = 1.0 / (1.0 + (-k * f64::from(score_of(line))).exp());
        let expected = 0.5 * f64::from(before[i]) + 0.5 * probability;
        let label = f64::from(data.training.chunks()[0].result(i));
        assert!(
            (label - expected).abs() < 1e-6,
            "line {i}: {label} vs {expected}"
        );
    }
    // Data without scores cannot be blended, and bad score fields are refused by line.
    let mut plain = parse_data(&format!("{white_up};1.0\n{even};0.5\n"), 0.0).expect("plain");
    assert_eq!(plain.training.blend_scores(k, 0.5), Err(2));
    let bad = parse_data(&format!("{white_up};1.0;x\n"), 0.0).expect_err("bad score");
    assert!(bad.contains("line 1") && bad.contains("bad score"), "{bad}");
    assert!(parse_data(&format!("{white_up};1.0;3;4\n"), 0.0).is_err());
}

#[test]
fn a_fit_can_leave_pattern_tables_out() {
    use onca::eval::patterns::{FIRST_KING_ENTRY, TABLE_LEN};
    use onca_tuning::tune::{features_of, features_with, Tables};
    let centre = Tables::parse("block_r2_c2, kings_r2_c2").expect("known tables");
    let men_only = Tables::parse("block_r0_c0,block_r2_c2").expect("known tables");
    assert_eq!(Tables::parse("all"), Ok(Tables::all()));
    let refused = Tables::parse("block_r9_c9").expect_err("unknown table");
    assert!(refused.contains("block_r9_c9"), "{refused}");
    let pattern = |index: u32| index as usize >= TUNABLE;
    let entry = |index: u32| (index as usize - TUNABLE) / 2;
    let (mut kept, mut king_entries) = (0, 0);
    for position in random_game_positions(40, 30) {
        let (Some(every), Some(only_centre), Some(men)) = (
            features_of(&position),
            features_with(&position, &centre),
            features_with(&position, &men_only),
        ) else {
            continue;
        };
        // The terms are untouched.
        let terms = |entries: &[(u32, f32)]| -> Vec<(u32, f32)> {
            entries
                .iter()
                .copied()
                .filter(|&(i, _)| !pattern(i))
                .collect()
        };
        assert_eq!(terms(&only_centre), terms(&every));
        for &(index, _) in only_centre.iter().filter(|&&(i, _)| pattern(i)) {
            let entry = entry(index);
            let in_centre_men = (12 * TABLE_LEN..13 * TABLE_LEN).contains(&entry);
            let in_centre_kings = entry >= FIRST_KING_ENTRY + 12 * 9;
            assert!(in_centre_men || in_centre_kings, "entry {entry}");
            assert!(every.iter().any(|&(i, _)| i == index));
            kept += 1;
            king_entries += usize::from(in_centre_kings);
        }
        assert!(men
            .iter()
            .filter(|&&(i, _)| pattern(i))
            .all(|&(i, _)| entry(i) < FIRST_KING_ENTRY));
    }
    assert!(kept > 0 && king_entries < kept, "{kept} {king_entries}");
}

#[test]
fn russian_data_is_played_by_russian_rules_and_fits_russian_weights() {
    let dir = scratch("russian");
    let russian = Config {
        games: 4,
        nodes: 150,
        seed: 8,
        shard: Shard::WHOLE,
        variant: Variant::Russian,
        force: false,
    };
    let path = dir.path().join("russian.txt");
    datagen(&path, &russian).expect("Russian run");
    let text = std::fs::read_to_string(&path).expect("data file");
    assert_eq!(
        text.lines().next(),
        Some("# onca-tune datagen v3 seed=8 nodes=150 variant=russian")
    );
    // Resuming needs the same variant: the Brazilian run of the same seed is another run.
    let brazilian = Config {
        variant: Variant::Brazilian,
        ..russian
    };
    let refused = datagen(&path, &brazilian).expect_err("another variant");
    assert!(refused.to_string().contains("variant=russian"), "{refused}");
    // The same seed's openings differ by variant once a capture choice comes up; each opening is
    // reached by moves legal under its variant's rules.
    let differ = (0..50).any(|game| {
        datagen::random_opening(&mut datagen::game_rng(8, game), Variant::Russian)
            != datagen::random_opening(&mut datagen::game_rng(8, game), Variant::Brazilian)
    });
    assert!(
        differ,
        "50 random openings never met a Russian capture choice"
    );
    // The fit knows the data's variant, and data of both variants is refused.
    let data = parse_data(&text, 0.1).expect("Russian data");
    assert_eq!(data.variant, Variant::Russian);
    let mixed = format!("{text}# onca-tune datagen v3 seed=1 nodes=10\n");
    let why = parse_data(&mixed, 0.1).expect_err("two variants");
    assert!(why.contains("brazilian games after russian games"), "{why}");
}

#[test]
fn tune_writes_weights_named_by_the_data_variant() {
    let dir = scratch("tune-russian");
    let data = dir.path().join("russian.txt");
    datagen(
        &data,
        &Config {
            games: 3,
            nodes: 150,
            seed: 9,
            shard: Shard::WHOLE,
            variant: Variant::Russian,
            force: false,
        },
    )
    .expect("Russian run");
    let out = dir.path().join("weights.txt");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_onca-tune"))
        .args(["tune", "--iterations", "2", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("onca-tune runs");
    assert!(status.status.success(), "{status:?}");
    let weights = Weights::parse_text(&std::fs::read_to_string(&out).expect("weights written"))
        .expect("weights parse");
    // Started from the Brazilian built-in weights, fitted to Russian games: Russian weights.
    assert_eq!(weights.variant, Variant::Russian);
}

#[test]
fn russian_data_is_scored_by_russian_rules() {
    use onca_tuning::rescore::{rescore, score_position, SCORE_CLAMP};
    let dir = scratch("score-russian");
    // White's man on 11 takes 7, is crowned on 2 and, in Russian only, flies on over 9: Black has
    // nothing left. In Brazilian the capture ends on 2 with a man of Black's still on the board.
    let crowning = "W:W11:B7,9";
    let mut searcher = onca::search::searcher::Searcher::new(1);
    let russian = score_position(&mut searcher, Variant::Russian, crowning, 1).expect("fen");
    let brazilian = score_position(&mut searcher, Variant::Brazilian, crowning, 1).expect("fen");
    assert_eq!(russian, SCORE_CLAMP);
    assert!(brazilian < SCORE_CLAMP, "{brazilian}");

    let input = dir.path().join("russian.txt");
    std::fs::write(
        &input,
        format!("# onca-tune datagen v3 seed=1 nodes=10 variant=russian\n{crowning};1.0\n"),
    )
    .expect("data file");
    let out = dir.path().join("scored.txt");
    rescore(&input, &out, 1, None, &|_| {}).expect("scores");
    let text = std::fs::read_to_string(&out).expect("scored file");
    assert!(
        text.ends_with(&format!("\n{crowning};1.0;{SCORE_CLAMP}\n")),
        "{text}"
    );
    // Weights fitted to the other variant's games are refused, and so is data of both variants.
    let brazilian_weights =
        std::sync::Arc::new(onca::eval::weights::Weights::builtin_for(Variant::Brazilian).clone());
    let why = rescore(
        &input,
        &dir.path().join("other.txt"),
        1,
        Some(brazilian_weights),
        &|_| {},
    )
    .expect_err("Brazilian weights on Russian data");
    assert!(why.to_string().contains("for brazilian draughts"), "{why}");
    let mixed = dir.path().join("mixed.txt");
    std::fs::write(
        &mixed,
        format!(
            "{}# onca-tune datagen v3 seed=1 nodes=10\n",
            std::fs::read_to_string(&input).expect("data file")
        ),
    )
    .expect("mixed file");
    assert!(rescore(&mixed, &dir.path().join("mixed-out.txt"), 1, None, &|_| {}).is_err());
}

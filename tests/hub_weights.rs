//! The `weights` Hub parameter and the `--weights` options against the real binary: a missing or
//! garbled file gives an `error` line and changes nothing; a valid file really changes the
//! evaluation the search uses; an empty value goes back to the built-in weights; a file fitted to
//! another variant than the game's is refused by name.

mod hub_support;

use hub_support::{analysis_score, field, run_onca, Engine};
use onca::eval::weights::Weights;
use onca::eval::weights_file::load_weights;
use onca::rules::variant::Variant;
use std::path::{Path, PathBuf};

/// White to move, a man up: the built-in weights score it well above zero.
const MAN_UP: &str = "W:W21,22,23,24,25:B1,2,3,4";

/// The weights shipped in the repository (the hand-set evaluation).
const HAND_SET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/weights/hand-set.txt");

/// A weights file in which every man is worth -10 men.
fn men_worth_minus_ten() -> String {
    (0..32)
        .map(|i| format!("man_square[{i}] -1000 -1000\n"))
        .collect()
}

/// A file under the system temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("onca-weights-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("write a temporary file");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The score (in men, as text) of a depth-5 analysis of [`MAN_UP`].
fn score(engine: &mut Engine) -> f64 {
    let text = analysis_score(engine, MAN_UP, 5);
    text.parse().unwrap_or_else(|_| panic!("score {text}"))
}

/// The `param name=weights` line of the `hub` reply.
fn declaration(engine: &mut Engine) -> String {
    engine.send("hub");
    let line = engine.expect("param name=weights");
    engine.expect("wait");
    line
}

#[test]
fn shipped_hand_set_weights_load() {
    assert!(load_weights(Path::new(HAND_SET)).is_ok());
}

#[test]
fn weights_parameter_changes_the_evaluation_and_refuses_bad_files() {
    let absurd = TempFile::new(
        "absurd.txt",
        &format!("# men are a burden\n{}", men_worth_minus_ten()),
    );
    let garbage = TempFile::new("garbage.txt", "man lots\n");
    let mut engine = Engine::start();
    assert_eq!(
        declaration(&mut engine),
        "param name=weights value=\"\" type=string"
    );
    engine.send("init");
    engine.expect("ready");
    let built_in = score(&mut engine);
    assert!(built_in > 0.5, "a man up scores {built_in}");

    // A missing file: an error naming it, the built-in weights stay, the engine answers.
    engine.send("set-param name=weights value=/nonexistent/onca-weights.txt");
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains("/nonexistent/onca-weights.txt"), "{error}");
    engine.barrier();
    assert_eq!(score(&mut engine), built_in);

    // Weights that value men negatively: the extra man is now a burden.
    engine.send(&format!(
        "set-param name=weights value=\"{}\"",
        absurd.0.display()
    ));
    engine.barrier();
    let negative = score(&mut engine);
    assert!(
        negative < -5.0,
        "with men worth -10 a man up scores {negative}"
    );
    let declared = declaration(&mut engine);
    assert_eq!(
        field(&declared, "value").as_deref(),
        Some(absurd.0.to_string_lossy().as_ref())
    );

    // A garbled file: an error with the line, the loaded weights stay.
    engine.send(&format!(
        "set-param name=weights value=\"{}\"",
        garbage.0.display()
    ));
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains("line 1"), "{error}");
    engine.barrier();
    assert_eq!(score(&mut engine), negative);

    // An empty value: the built-in weights again.
    engine.send("set-param name=weights value=\"\"");
    engine.barrier();
    assert_eq!(score(&mut engine), built_in);
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn weights_on_the_hub_command_line() {
    let mut engine = Engine::start_with(&["hub", &format!("--weights={HAND_SET}")]);
    let declared = declaration(&mut engine);
    assert_eq!(field(&declared, "value").as_deref(), Some(HAND_SET));
    engine.send("init");
    engine.expect("ready");
    score(&mut engine);
    engine.barrier();

    // Without `init` the first `go` creates the searcher: it must get the weights too.
    let absurd = TempFile::new("command-line.txt", &men_worth_minus_ten());
    let mut engine = Engine::start_with(&["hub", &format!("--weights={}", absurd.0.display())]);
    let negative = score(&mut engine);
    assert!(
        negative < -5.0,
        "with men worth -10 a man up scores {negative}"
    );
    engine.barrier();
}

#[test]
fn analyze_and_bench_take_a_weights_file() {
    let absurd = TempFile::new("cli-absurd.txt", &men_worth_minus_ten());
    let path = absurd.0.to_string_lossy().into_owned();
    let analyze = |weights: Option<&str>| {
        let mut args = vec!["analyze", "--depth", "5", "--position", MAN_UP];
        args.extend(weights.iter().flat_map(|file| ["--weights", *file]));
        let (code, stdout, stderr) = run_onca(&args);
        assert_eq!(code, 0, "{stderr}");
        let last = stdout
            .lines()
            .rfind(|line| line.starts_with("depth "))
            .expect("an iteration line")
            .to_string();
        last.split_whitespace()
            .nth(3)
            .and_then(|score| score.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no score in '{last}'"))
    };
    assert!(analyze(None) > 0.5);
    assert!(analyze(Some(&path)) < -5.0);

    for command in [
        &["analyze", "--depth", "2"][..],
        &["bench", "--depth", "1"][..],
    ] {
        let mut args = command.to_vec();
        args.extend(["--weights", "/nonexistent/onca-weights.txt"]);
        let (code, stdout, stderr) = run_onca(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("/nonexistent/onca-weights.txt"), "{stderr}");
    }
    let (code, stdout, _) = run_onca(&["bench", "--depth", "2", "--weights", &path]);
    assert_eq!(code, 0);
    assert!(stdout.lines().last().is_some_and(|l| l.ends_with(" nps")));
}

/// A version-2 weights file fitted (as it says) to `variant`, in which every man is worth -10.
fn men_worth_minus_ten_for(variant: Variant) -> String {
    let mut weights = Weights {
        variant,
        ..Weights::builtin_for(variant).clone()
    };
    let men = Weights::feature_names()
        .iter()
        .position(|name| name == "man_square[0]")
        .expect("the man table");
    weights.opening[men..men + 32].fill(-1000);
    weights.endgame[men..men + 32].fill(-1000);
    weights.to_text()
}

#[test]
fn weights_of_another_variant_are_refused_by_name() {
    let russian = TempFile::new("russian.txt", &men_worth_minus_ten_for(Variant::Russian));
    let path = russian.0.to_string_lossy().into_owned();
    let refusal = format!("weights file '{path}' is for russian draughts, not brazilian");

    // The Hub: a host may set the file before the variant, so the file is kept, and a search of
    // a Brazilian game says why it uses the built-in Brazilian weights instead.
    let mut engine = Engine::start();
    engine.handshake();
    let built_in = score(&mut engine);
    engine.send(&format!("set-param name=weights value=\"{path}\""));
    engine.barrier();
    engine.send(&format!("pos pos={MAN_UP}"));
    engine.send("level depth=5");
    engine.send("go analyze");
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains(&refusal), "{error}");
    let search = engine.search_result();
    assert_eq!(
        field(search.infos.last().expect("info"), "score"),
        Some(format!("{built_in:.2}"))
    );
    // Said once per setting and variant: the next search has no error line.
    assert_eq!(score(&mut engine), built_in);
    // In a Russian game the same file plays: the extra man is a burden.
    engine.send("set-param name=variant value=russian");
    engine.barrier();
    let negative = score(&mut engine);
    assert!(
        negative < -5.0,
        "with men worth -10 a man up scores {negative}"
    );
    engine.send("quit");
    assert!(engine.wait_exit().success());

    // The command line refuses it in one line and exits 2; with --variant russian it plays.
    for command in [
        &["analyze", "--depth", "2"][..],
        &["bench", "--depth", "1"][..],
        &["eval"][..],
    ] {
        let mut args = command.to_vec();
        args.extend(["--weights", &path]);
        let (code, stdout, stderr) = run_onca(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.trim(), format!("onca: {refusal}"), "{args:?}");
        args.extend(["--variant", "russian"]);
        let (code, _, stderr) = run_onca(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
}

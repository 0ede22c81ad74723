//! The `egtb-path` Hub parameter against the real binary: by default the built-in tables give
//! database scores (89.xx) once computed, and an empty path turns them off; tables loaded from a
//! directory give them at once; a bad directory gives an `error` line and the engine plays on;
//! `init` loads tables that appeared in the directory since.

mod hub_support;

use hub_support::{analysis_score, check_search, Engine};
use onca::egtb::generate::{self, Options};
use onca::notation::fen::parse_position;

/// Every table up to 3 pieces, written into a fresh temporary directory.
fn three_piece_tables(tag: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("onca-hub-egtb-{tag}-"))
        .tempdir()
        .expect("temporary directory");
    let options = Options {
        max_pieces: 3,
        distance_pieces: 3,
        dir: dir.path().to_path_buf(),
    };
    generate::generate(&options, &mut |_| {}).expect("generation works");
    dir
}

/// Two kings against one, won by the tables (7 plies to the conversion).
const WON: &str = "W:WK1,K2:BK28";

fn analyse(engine: &mut Engine) -> String {
    analysis_score(engine, WON, 4)
}

#[test]
fn egtb_path_gives_database_scores_and_a_bad_path_an_error() {
    let tables = three_piece_tables("path");
    let mut engine = Engine::start();
    engine.send("hub");
    let declared = engine.expect("param name=egtb-path");
    assert_eq!(
        declared,
        "param name=egtb-path value=\"builtin\" type=string"
    );
    engine.expect("wait");
    engine.send("set-param name=egtb-path value=\"\"");
    engine.send("init");
    engine.expect("ready");

    let without = analyse(&mut engine);
    assert!(!without.starts_with("89."), "{without}");

    engine.send(&format!(
        "set-param name=egtb-path value=\"{}\"",
        tables.path().display()
    ));
    engine.barrier();
    let with = analyse(&mut engine);
    assert!(with.starts_with("89."), "{with}");
    engine.barrier();

    // A directory that does not exist: an error, then searches as before (no tables).
    engine.send("set-param name=egtb-path value=/nonexistent/onca-tables");
    let error = engine.recv();
    assert!(error.starts_with("error message="), "{error}");
    let after = analyse(&mut engine);
    assert!(!after.starts_with("89."), "{after}");
    engine.send(&format!("pos pos={WON}"));
    engine.send("level move-time=0.2");
    engine.send("go");
    let search = engine.search_result();
    check_search(&search, &parse_position(WON).expect("valid position"));
    engine.barrier();
}

#[test]
fn the_built_in_tables_answer_without_a_directory_once_computed() {
    let mut engine = Engine::start();
    engine.send("hub");
    engine.expect("wait");
    engine.send("init");
    engine.expect("ready");
    // The first search of a small ending starts the computation (a few seconds); until it is
    // done the engine searches without tables.
    let started = std::time::Instant::now();
    let mut score = analyse(&mut engine);
    while !score.starts_with("89.") && started.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(200));
        score = analyse(&mut engine);
    }
    assert!(score.starts_with("89."), "{score}");
    engine.send("set-param name=egtb-path value=\"\"");
    assert!(!analyse(&mut engine).starts_with("89."));
    engine.send("set-param name=egtb-path value=builtin");
    assert!(analyse(&mut engine).starts_with("89."));
    engine.barrier();
}

#[test]
fn init_reloads_tables_that_appeared_after_the_path_was_set() {
    let tables = three_piece_tables("reload");
    let later = tempfile::Builder::new()
        .prefix("onca-hub-egtb-later-")
        .tempdir()
        .expect("temporary directory");
    let mut engine = Engine::start();
    engine.send("hub");
    engine.expect("wait");
    engine.send(&format!(
        "set-param name=egtb-path value=\"{}\"",
        later.path().display()
    ));
    let error = engine.recv();
    assert!(error.contains("holds no endgame tables"), "{error}");
    // Nothing changed in the directory: init does not load it again.
    engine.send("init");
    assert_eq!(engine.recv(), "ready");
    assert!(!analyse(&mut engine).starts_with("89."));
    // The tables are generated into the directory; the next init maps them.
    for entry in std::fs::read_dir(tables.path()).expect("tables") {
        let path = entry.expect("entry").path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, later.path().join(name)).expect("copy");
        }
    }
    engine.send("init");
    engine.expect("ready");
    assert!(analyse(&mut engine).starts_with("89."));
    engine.barrier();
}

//! Russian endgame tables: generated with the Russian move generator up to four pieces and checked
//! position by position against it; positions whose value differs from the Brazilian tables
//! because a man crowned during a capture goes on capturing, or because any capture may be chosen;
//! the compiled-in three-kings tables equal to the Russian ones; files of the wrong variant
//! refused by name; and the search probing tables of its own variant only.

use onca::egtb::generate::{self, Options};
use onca::egtb::index::Indexer;
use onca::egtb::store::{self, Kind};
use onca::egtb::{verify, MaterialKey, Tablebases, Wdl};
use onca::game::record::Game;
use onca::notation::fen::parse_position;
use onca::rules::position::Position;
use onca::rules::variant::Variant;
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Tables of `variant` up to `pieces`, with distances, written into a fresh temporary directory.
fn generate_into(variant: Variant, pieces: u32, tag: &str) -> (tempfile::TempDir, Tablebases) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("onca-egtb-{tag}-"))
        .tempdir()
        .expect("temporary directory");
    let options = Options {
        max_pieces: pieces,
        distance_pieces: pieces,
        dir: dir.path().to_path_buf(),
    };
    let (_, tables) =
        generate::generate_in(variant, &options, &mut |_| {}).expect("generation works");
    (dir, tables)
}

/// The Russian tables up to four pieces (about 5 s on two cores), generated once for this file.
fn russian() -> &'static (tempfile::TempDir, Tablebases) {
    static TABLES: OnceLock<(tempfile::TempDir, Tablebases)> = OnceLock::new();
    TABLES.get_or_init(|| generate_into(Variant::Russian, 4, "russian4"))
}

/// The Brazilian tables up to three pieces, generated once for this file.
fn brazilian() -> &'static (tempfile::TempDir, Tablebases) {
    static TABLES: OnceLock<(tempfile::TempDir, Tablebases)> = OnceLock::new();
    TABLES.get_or_init(|| generate_into(Variant::Brazilian, 3, "brazilian3"))
}

fn position(text: &str) -> Position {
    parse_position(text).expect("valid test position")
}

#[test]
fn russian_tables_agree_with_the_russian_moves_position_by_position() {
    let (dir, generated) = russian();
    let loaded = Tablebases::load_in(Variant::Russian, dir.path()).expect("directory readable");
    assert!(loaded.refused().is_empty(), "{:?}", loaded.refused());
    assert_eq!(loaded.variant(), Variant::Russian);
    assert_eq!(generated.variant(), Variant::Russian);
    assert_eq!(loaded.max_pieces(), 4);
    for key in loaded.keys() {
        // Up to three pieces every position; the four-piece tables on every 5th index number
        // (a full check of those takes 20 s on two cores, `onca egtb verify` does it).
        let every = if key.pieces() <= 3 { 1 } else { 5 };
        let report = verify::verify_table(&loaded, key, every);
        assert!(report.with_distances, "{key}");
        assert!(report.positions > 0, "{key}");
        assert_eq!(report.mismatches, 0, "{key}: {:?}", report.examples);
        // The values held in memory after generation are those the files give back.
        let indexer = Indexer::new(key);
        for index in (0..indexer.size()).step_by(97) {
            if let Some(canonical) = indexer.position(index) {
                let board = canonical.position();
                assert_eq!(generated.probe(&board), loaded.probe(&board), "{key}");
            }
        }
    }
}

#[test]
fn crowning_during_a_capture_changes_the_value() {
    let russian = &russian().1;
    let brazilian = &brazilian().1;
    // White's man on 11 takes 7 and lands on 2, the far row. In Russian it is crowned there and
    // goes on as a king over the empty 6 to take the king on 9, landing on 13: Black has nothing
    // left. In Brazilian the man stops on 2 (crowned only as the move ends), and a king each is a
    // draw.
    let crowning = position("W:W11:B7,K9");
    assert_eq!(russian.probe(&crowning), Some(Wdl::Win));
    assert_eq!(brazilian.probe(&crowning), Some(Wdl::Draw));
    let (value, moves) = russian.best_moves(&crowning).expect("in the tables");
    assert_eq!(value.wdl, Wdl::Win);
    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["11x13x7x9"]);

    // Four pieces: White's man on 9 must take the king on 6 and lands on 2. In Brazilian it goes
    // on as a man, backwards over 7 to 11 (two pieces, the only legal move), where Black's king on
    // 22 takes it: lost. In Russian it goes on as a king, over 7 and then along the long way down
    // over 22: all three taken, won.
    let four = position("W:W9:BK6,K7,K22");
    assert_eq!(russian.probe(&four), Some(Wdl::Win));
    // (A position that must capture is answered from the positions after its captures: the
    // three-piece Brazilian tables suffice.)
    assert_eq!(brazilian.probe(&four), Some(Wdl::Loss));
}

#[test]
fn three_kings_against_one_are_the_same_tables_in_both_variants() {
    // The evaluation compiles in the Brazilian tables of three kings against one and uses them in
    // Russian games too: with kings only, the variants differ in the lone king's choice between
    // taking one hunter or two, and either leaves a draw. The Russian tables must say the same.
    let (russian_dir, _) = russian();
    let compiled = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/egtb");
    for key in [MaterialKey::new(0, 3, 0, 1), MaterialKey::new(0, 1, 0, 3)] {
        for kind in [Kind::Wdl, Kind::Dtc] {
            let russian = store::read_in(Variant::Russian, russian_dir.path(), key, kind)
                .expect("Russian table with distances");
            let brazilian = store::read(&compiled, key, kind).expect("compiled table");
            assert!(
                russian == brazilian,
                "{key} {kind:?} differs between the variants"
            );
        }
    }
}

#[test]
fn a_table_of_the_other_variant_is_refused_by_name() {
    let (russian_dir, _) = russian();
    let (brazilian_dir, _) = brazilian();
    let key = MaterialKey::new(0, 1, 0, 1);

    // Russian files asked for as Brazilian: each refused, naming the file and its variant.
    let loaded = Tablebases::load(russian_dir.path()).expect("directory readable");
    assert!(loaded.keys().is_empty());
    assert_eq!(loaded.variant(), Variant::Brazilian);
    let (foreign, other) = loaded.foreign();
    assert_eq!(other, Some(Variant::Russian));
    assert_eq!(foreign, loaded.refused().len());
    assert!(
        loaded
            .refused()
            .iter()
            .any(|message| message.contains("m0k1_m0k1.wdl: a Russian table, not Brazilian")),
        "{:?}",
        loaded.refused()
    );
    let error = store::read(russian_dir.path(), key, Kind::Wdl).expect_err("other variant");
    assert!(
        format!("{error:#}").contains("a Russian table, not Brazilian"),
        "{error:#}"
    );
    let error = store::read_in(Variant::Russian, brazilian_dir.path(), key, Kind::Dtc)
        .expect_err("other variant");
    assert!(
        format!("{error:#}").contains("m0k1_m0k1.dtc: a Brazilian table, not Russian"),
        "{error:#}"
    );
    assert_eq!(
        store::peek_variant(&store::path(russian_dir.path(), key, Kind::Wdl)),
        Some(Variant::Russian)
    );

    // Files written before Russian tables existed (variant byte 0) stay Brazilian: the
    // compiled-in three-kings tables read as Brazilian and are refused as Russian.
    let three_kings = include_bytes!("../data/egtb/m0k3_m0k1.wdl");
    let key = MaterialKey::new(0, 3, 0, 1);
    assert!(store::decode(three_kings, key, Kind::Wdl).is_ok());
    let error = store::decode_in(Variant::Russian, three_kings, key, Kind::Wdl)
        .expect_err("Brazilian file");
    assert!(
        format!("{error:#}").contains("a Brazilian table, not Russian"),
        "{error:#}"
    );

    // A mixed directory: loaded in the variant most files name, the odd file refused by name.
    let mixed = tempfile::Builder::new()
        .prefix("onca-egtb-mixed-")
        .tempdir()
        .expect("temporary directory");
    copy_tables(russian_dir.path(), mixed.path(), |name| {
        name.starts_with("m0")
    });
    let odd = "m0k1_m0k2.wdl";
    std::fs::copy(brazilian_dir.path().join(odd), mixed.path().join(odd)).expect("copy");
    let loaded = Tablebases::load_own_variant(mixed.path()).expect("directory readable");
    assert_eq!(loaded.variant(), Variant::Russian);
    assert_eq!(loaded.foreign(), (1, Some(Variant::Brazilian)));
    assert_eq!(loaded.refused().len(), 1);
    assert!(
        loaded.refused()[0].contains("m0k1_m0k2.wdl: a Brazilian table, not Russian"),
        "{:?}",
        loaded.refused()
    );
    assert!(!loaded.has(MaterialKey::new(0, 1, 0, 2)));
    assert!(loaded.has(MaterialKey::new(0, 2, 0, 1)));
    let loaded = Tablebases::load_own_variant(brazilian_dir.path()).expect("readable");
    assert_eq!(loaded.variant(), Variant::Brazilian);
    assert!(loaded.refused().is_empty());

    // Generating one variant's tables where the other's are is refused, and nothing is touched.
    let before = std::fs::read(brazilian_dir.path().join(odd)).expect("table");
    let options = Options {
        max_pieces: 3,
        distance_pieces: 3,
        dir: brazilian_dir.path().to_path_buf(),
    };
    let error = generate::generate_in(Variant::Russian, &options, &mut |_| {})
        .expect_err("a Brazilian directory");
    assert!(
        format!("{error:#}").contains("is a Brazilian table, not Russian"),
        "{error:#}"
    );
    let after = std::fs::read(brazilian_dir.path().join(odd)).expect("table");
    assert_eq!(before, after);
}

/// Copies the table files of `from` whose names `keep` accepts into `to`.
fn copy_tables(from: &Path, to: &Path, keep: impl Fn(&str) -> bool) {
    for entry in std::fs::read_dir(from).expect("tables") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        if keep(name) {
            std::fs::copy(&path, to.join(name)).expect("copy");
        }
    }
}

/// Searches `fen` under `variant` to depth 4 with `tables` and returns the table hits.
fn table_hits(variant: Variant, fen: &str, tables: &Tablebases) -> u64 {
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Arc::new(tables.clone()));
    let game = Game::in_variant(variant, position(fen));
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let result = searcher.search(
        &game,
        &limits,
        &SearchSettings::default(),
        &SearchControl::new(),
        &mut |_| {},
    );
    assert!(result.best.is_some());
    result.tbhits
}

#[test]
fn a_search_probes_the_tables_of_its_own_variant_only() {
    let russian = &russian().1;
    let brazilian = &brazilian().1;
    let fen = "W:WK1,K2:BK28";
    assert!(table_hits(Variant::Russian, fen, russian) > 0);
    assert!(table_hits(Variant::Brazilian, fen, brazilian) > 0);
    assert_eq!(table_hits(Variant::Russian, fen, brazilian), 0);
    assert_eq!(table_hits(Variant::Brazilian, fen, russian), 0);
}

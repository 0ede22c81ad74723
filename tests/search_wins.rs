//! The forced-win suite: every position of `tests/data/forced_wins.txt` has a proven forced win
//! (see `tests/search_wins_builder.rs` for how each was proved), and the search must play one of
//! the winning first moves and score the position as a win.

use onca::game::record::Game;
use onca::notation::fen::parse_position;
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::params::{SearchParams, TUNABLES};
use onca::search::searcher::Searcher;

const SUITE: &str = include_str!("data/forced_wins.txt");
/// Plies past the proven distance that a search with a switch turned may take to prove a win.
const SWITCH_EXTRA_DEPTH: u32 = 8;

struct Case {
    fen: String,
    winners: Vec<String>,
    plies: u32,
}

fn cases() -> Vec<Case> {
    SUITE
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            assert!(fields.len() >= 3, "bad suite line: {line}");
            Case {
                fen: fields[0].to_string(),
                winners: fields[1].split_whitespace().map(String::from).collect(),
                plies: fields[2].parse().expect("plies is a number"),
            }
        })
        .collect()
}

/// The suite positions the search with `params`, to the proven distance plus `extra_depth` plies,
/// fails: a move that does not win, or a score that is not a win.
fn failures_with(params: SearchParams, extra_depth: u32) -> Vec<String> {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} positions", cases.len());
    let mut searcher = Searcher::new(16);
    searcher.set_params(params);
    let settings = SearchSettings {
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    let mut failures = Vec::new();
    for case in &cases {
        let position = parse_position(&case.fen).expect("suite positions are valid");
        searcher.clear();
        let limits = Limits {
            depth: Some(case.plies + extra_depth),
            ..Limits::default()
        };
        let result = searcher.search(
            &Game::new(position),
            &limits,
            &settings,
            &SearchControl::new(),
            &mut |_| {},
        );
        let best = result.best.map(|mv| mv.to_string()).unwrap_or_default();
        let wins = result.score.plies_to_win().is_some_and(|plies| plies > 0);
        if !case.winners.contains(&best) || !wins {
            failures.push(format!(
                "{}: played {best} scored {} (winning: {})",
                case.fen,
                result.score,
                case.winners.join(" ")
            ));
        }
    }
    failures
}

#[test]
fn the_search_finds_every_forced_win() {
    let failures = failures_with(SearchParams::default(), 2);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every search switch, turned the other way, still finds every forced win: prunings and
/// extensions may change which nodes are searched, never what a deep enough search proves. A
/// pruning search may need more nominal depth for the same proof (ProbCut verifies at 40% of the
/// depth), so these search [`SWITCH_EXTRA_DEPTH`] plies past the proven distance.
#[test]
fn every_search_switch_still_finds_every_forced_win() {
    let mut report = Vec::new();
    for tunable in TUNABLES.iter().filter(|tunable| tunable.switch) {
        let mut params = SearchParams::default();
        let flipped = 1 - tunable.get(&params);
        assert!(tunable.set(&mut params, flipped));
        let failures = failures_with(params, SWITCH_EXTRA_DEPTH);
        if !failures.is_empty() {
            report.push(format!(
                "search-{}={flipped}:\n{}",
                tunable.name,
                failures.join("\n")
            ));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

//! The forced-win suite: every position of `tests/data/forced_wins.txt` has a proven forced win
//! (see `tests/search_wins_builder.rs` for how each was proved), and the search must play one of
//! the winning first moves and score the position as a win.

use onca::game::record::Game;
use onca::notation::fen::parse_position;
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;

const SUITE: &str = include_str!("data/forced_wins.txt");

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

#[test]
fn the_search_finds_every_forced_win() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} positions", cases.len());
    let mut searcher = Searcher::new(16);
    let settings = SearchSettings {
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    let mut failures = Vec::new();
    for case in &cases {
        let position = parse_position(&case.fen).expect("suite positions are valid");
        searcher.clear();
        let limits = Limits {
            depth: Some(case.plies + 2),
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
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! What `onca match` prints: the live progress line, the rating table and crosstable of a
//! tournament, and the final summary.

use crate::arena::elo::{self, Sprt, SprtVerdict, Tally};
use crate::arena::pentanomial::Pentanomial;
use crate::arena::ratings::{self, PairingResult, Rating};
use crate::arena::runner::{GameReport, MatchConfig, MatchState, PairingState, Termination};
use std::collections::BTreeMap;
use std::io::Write;

/// Virtual draws per pairing in the tournament ratings (see [`ratings`]).
const PRIOR_DRAWS: f64 = 1.0;

/// `+12.3`, `-inf` or `n/a`.
fn signed(value: f64) -> String {
    if value.is_nan() {
        "n/a".into()
    } else if value.is_infinite() {
        if value > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // Adding 0.0 turns -0.0 into 0.0 so an even score does not print as "-0.0".
        format!("{:+.1}", value + 0.0)
    }
}

/// Elo with error bar and LOS, e.g. `Elo +35.0 +/- 80.2, LOS 80.1%`.
fn elo_text(tally: &Tally) -> String {
    let elo = match elo::elo_estimate(tally) {
        Some(estimate) if estimate.error_95.is_finite() => {
            format!("Elo {} +/- {:.1}", signed(estimate.elo), estimate.error_95)
        }
        Some(estimate) => format!("Elo {} +/- n/a", signed(estimate.elo)),
        None => "Elo n/a".into(),
    };
    let los = elo::likelihood_of_superiority(tally)
        .map(|los| format!("{:.1}%", 100.0 * los))
        .unwrap_or_else(|| "n/a".into());
    format!("{elo}, LOS {los}")
}

/// The pairs' Elo, e.g. `pairs Elo +35.0 +/- 60.1`.
fn pair_elo_text(pairs: &Pentanomial) -> String {
    match pairs.elo_estimate() {
        Some(estimate) if estimate.error_95.is_finite() => {
            format!(
                "pairs Elo {} +/- {:.1}",
                signed(estimate.elo),
                estimate.error_95
            )
        }
        Some(estimate) => format!("pairs Elo {} +/- n/a", signed(estimate.elo)),
        None => "pairs Elo n/a".into(),
    }
}

/// The SPRT's log-likelihood ratio on the pairs and its bounds.
fn sprt_text(sprt: &Sprt, pairs: &Pentanomial) -> String {
    let (lower, upper) = sprt.bounds();
    format!("LLR {:.2} [{lower:.2}, {upper:.2}]", pairs.llr(sprt))
}

/// How a game ended, naming the loser where it lost by its own fault or had no move.
pub fn how_it_ended(report: &GameReport, names: &[String]) -> String {
    match report.loser {
        Some(index) if report.termination == Termination::NoLegalMove => {
            format!("{} has no legal move", names[index])
        }
        Some(index) if report.termination.is_fault() => {
            format!("{} by {}", report.termination, names[index])
        }
        _ => report.termination.to_string(),
    }
}

/// The key under which the summary counts a game's termination: its category and the loser.
pub fn termination_key(report: &GameReport, names: &[String]) -> String {
    match report.loser {
        Some(index) => format!("{} ({} loses)", report.termination.category(), names[index]),
        None => report.termination.category().to_string(),
    }
}

/// The live line printed after each game.
pub fn progress_line(
    report: &GameReport,
    state: &MatchState,
    config: &MatchConfig,
    names: &[String],
) -> String {
    let slot = &report.slot;
    let mut line = format!(
        "game {:>3}/{} #{} {} - {} {} ({})",
        state.finished,
        config.schedule().total(),
        slot.number,
        names[slot.players[0]],
        names[slot.players[1]],
        report.result.pdn(),
        how_it_ended(report, names)
    );
    let Some(pairing) = state.pairings.get(slot.pairing) else {
        return line;
    };
    let tally = &pairing.tally;
    let [first, second] = pairing.engines;
    if state.pairings.len() == 1 {
        line.push_str(&format!(
            " | {}: +{} -{} ={} score {:.1}% | {}, {}",
            names[first],
            tally.wins,
            tally.losses,
            tally.draws,
            100.0 * tally.score().unwrap_or(0.5),
            elo_text(tally),
            pair_elo_text(&pairing.pairs)
        ));
        if let Some(sprt) = &config.sprt {
            line.push_str(&format!(" | {}", sprt_text(sprt, &pairing.pairs)));
        }
    } else {
        line.push_str(&format!(
            " | {} vs {}: +{} -{} ={} | ratings: {}",
            names[first],
            names[second],
            tally.wins,
            tally.losses,
            tally.draws,
            compact_ratings(state, names)
        ));
    }
    line
}

/// Every engine's rating from the tournament's results (engine 0 at 0).
fn fit_ratings(state: &MatchState, engines: usize) -> Vec<Option<Rating>> {
    let results: Vec<PairingResult> = state
        .pairings
        .iter()
        .map(|pairing| PairingResult {
            first: pairing.engines[0],
            second: pairing.engines[1],
            tally: pairing.tally,
        })
        .collect();
    ratings::fit(engines, &results, PRIOR_DRAWS)
}

/// `A 0, B +12 +/- 40, C -30 +/- 38`, in engine order.
fn compact_ratings(state: &MatchState, names: &[String]) -> String {
    fit_ratings(state, names.len())
        .iter()
        .zip(names)
        .map(|(rating, name)| match rating {
            Some(Rating {
                elo,
                error_95: Some(error),
            }) => format!("{name} {} +/- {error:.0}", signed(elo.round())),
            Some(Rating { elo, .. }) => format!("{name} {}", signed(elo.round())),
            None => format!("{name} n/a"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Games, points and draws of each engine over all its pairings.
fn engine_totals(pairings: &[PairingState], engines: usize) -> Vec<Tally> {
    let mut totals = vec![Tally::default(); engines];
    for pairing in pairings {
        let [first, second] = pairing.engines;
        let add = |total: &mut Tally, tally: &Tally| {
            total.wins += tally.wins;
            total.draws += tally.draws;
            total.losses += tally.losses;
        };
        add(&mut totals[first], &pairing.tally);
        add(&mut totals[second], &pairing.tally.reversed());
    }
    totals
}

/// Points as `12.5`, `12` for whole numbers.
fn points_text(tally: &Tally) -> String {
    let points = f64::from(tally.wins) + 0.5 * f64::from(tally.draws);
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// The rating table (engines by rating, best first) and the crosstable (each row engine's points
/// against each column engine, out of the games they played).
pub fn write_standings(
    out: &mut impl Write,
    state: &MatchState,
    names: &[String],
) -> std::io::Result<()> {
    let engines = names.len();
    let ratings = fit_ratings(state, engines);
    let totals = engine_totals(&state.pairings, engines);
    let mut order: Vec<usize> = (0..engines).collect();
    order.sort_by(|&a, &b| {
        let elo = |i: usize| ratings[i].map_or(f64::NEG_INFINITY, |r| r.elo);
        elo(b).total_cmp(&elo(a)).then(a.cmp(&b))
    });
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        out,
        "{:>4}  {:<width$}  {:>7}  {:>6}  {:>5}  {:>6}  {:>6}  {:>6}",
        "Rank", "Engine", "Elo", "+/-", "Games", "Points", "Score", "Draws"
    )?;
    for (rank, &engine) in order.iter().enumerate() {
        let tally = &totals[engine];
        let (elo, error) = match ratings[engine] {
            Some(rating) => (
                signed(rating.elo),
                rating
                    .error_95
                    .map_or_else(|| "ref".to_string(), |e| format!("{e:.1}")),
            ),
            None => ("n/a".into(), "n/a".into()),
        };
        let games = tally.games();
        let share = |count: u32| {
            if games == 0 {
                "n/a".to_string()
            } else {
                format!("{:.1}%", 100.0 * f64::from(count) / f64::from(games))
            }
        };
        writeln!(
            out,
            "{:>4}  {:<width$}  {elo:>7}  {error:>6}  {games:>5}  {:>6}  {:>6}  {:>6}",
            rank + 1,
            names[engine],
            points_text(tally),
            tally
                .score()
                .map_or_else(|| "n/a".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            share(tally.draws)
        )?;
    }
    writeln!(
        out,
        "Crosstable (points of the row engine against the column engine):"
    )?;
    let cell = 9.max(width.min(12));
    let short = |name: &str| name.chars().take(cell).collect::<String>();
    write!(out, "{:<width$}", "")?;
    for &engine in &order {
        write!(out, "  {:>cell$}", short(&names[engine]))?;
    }
    writeln!(out)?;
    for &row in &order {
        write!(out, "{:<width$}", names[row])?;
        for &column in &order {
            let text = if row == column {
                "-".to_string()
            } else {
                state
                    .pairings
                    .iter()
                    .find_map(|pairing| match pairing.engines {
                        [a, b] if a == row && b == column => Some(pairing.tally),
                        [a, b] if a == column && b == row => Some(pairing.tally.reversed()),
                        _ => None,
                    })
                    .filter(|tally| tally.games() > 0)
                    .map_or_else(
                        || ".".to_string(),
                        |tally| format!("{}/{}", points_text(&tally), tally.games()),
                    )
            };
            write!(out, "  {text:>cell$}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// One pairing's score, Elo and pairs, e.g. `A vs B: 12 - 7 - 21 [0.562] 40 games ...`.
fn write_pairing(
    out: &mut impl Write,
    pairing: &PairingState,
    names: &[String],
) -> std::io::Result<()> {
    let tally = &pairing.tally;
    let [first, second] = pairing.engines;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {} [{:.3}] {} games (wins - losses - draws)",
        names[first],
        names[second],
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score().unwrap_or(0.5),
        tally.games()
    )?;
    writeln!(out, "{}", elo_text(tally))?;
    let [ll, ld, even, wd, ww] = pairing.pairs.counts;
    writeln!(
        out,
        "Pairs (one opening, both colours) by points 0, 0.5, 1, 1.5, 2: {ll}, {ld}, {even}, {wd}, {ww}; {}",
        pair_elo_text(&pairing.pairs)
    )
}

/// The summary: each pairing's score (and the SPRT), for a tournament the ratings and the
/// crosstable, then the terminations.
pub fn write_summary(
    out: &mut impl Write,
    config: &MatchConfig,
    names: &[String],
    state: &MatchState,
    terminations: &BTreeMap<String, usize>,
) -> std::io::Result<()> {
    if state.pairings.len() == 1 {
        writeln!(
            out,
            "Match {} vs {} ({}, seed {})",
            names[0], names[1], config.limit, config.seed
        )?;
    } else {
        writeln!(
            out,
            "Tournament of {} engines, {} pairings ({}, seed {}): {} games",
            names.len(),
            state.pairings.len(),
            config.limit,
            config.seed,
            state.finished
        )?;
        write_standings(out, state, names)?;
    }
    for pairing in &state.pairings {
        write_pairing(out, pairing, names)?;
    }
    if let (Some(sprt), Some(pairing)) = (&config.sprt, state.pairings.first()) {
        let verdict = match (state.sprt_verdict, state.sprt_decided_after) {
            (Some(SprtVerdict::AcceptH0), Some(after)) => {
                format!("H0 accepted after {after} games")
            }
            (Some(SprtVerdict::AcceptH1), Some(after)) => {
                format!("H1 accepted after {after} games")
            }
            _ => "no decision".to_string(),
        };
        writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={} on the pairs: {} (trinomial LLR {:.2}), {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt_text(sprt, &pairing.pairs),
            sprt.llr(&pairing.tally)
        )?;
    }
    writeln!(out, "Terminations:")?;
    for (reason, count) in terminations {
        writeln!(out, "  {reason}: {count}")?;
    }
    Ok(())
}

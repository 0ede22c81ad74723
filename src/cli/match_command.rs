//! The `onca match` command: its arguments, the live progress line, the PDN file and the summary.
//!
//! Engine commands are split into words like a shell would ([`split_command`]) and started
//! directly, without a shell; write `--engine "sh -c '...'"` for shell features. Before the match
//! each engine is started once for the handshake, to learn its name and fail early with a clear
//! message if it does not speak Hub.

use crate::arena::elo::{self, Sprt, SprtVerdict, Tally};
use crate::arena::engine::{split_command, EngineInfo, HubEngine};
use crate::arena::pentanomial::Pentanomial;
use crate::arena::runner::{self, EngineSpec, GameReport, Limit, MatchConfig, MatchState};
use crate::game::draw::DrawRules;
use crate::game::openings;
use crate::game::pdn::{self, PdnGame};
use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgGroup, Args};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Arguments of `onca match`.
#[derive(Args, Debug)]
#[command(args_override_self = true)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "movetime", "depth", "nodes"])))]
pub struct MatchArgs {
    /// Engine command, given twice (split into words like a shell would, run without a shell).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the name the engine gives in `id`).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Engine parameter `ENGINE:name=value`, ENGINE being a --name or 1/2; sent as set-param.
    #[arg(long = "option", value_name = "ENGINE:NAME=VALUE")]
    pub options: Vec<String>,
    /// Number of games (pairs of games share an opening, colours reversed).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Clock per engine: seconds+increment, e.g. 10+0.1 or 1:00+1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at the same time (one thread and one process per engine each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// `ballots` (the built-in Brazilian 3-move ballots), `start`, or a ballot file.
    #[arg(long, default_value = "ballots")]
    pub openings: String,
    /// Write the games to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Square names in the PDN file (the help text is `notation_arg::HELP`).
    #[arg(long, help = crate::cli::notation_arg::HELP, default_value = "algebraic",
          value_parser = crate::cli::notation_arg::parse)]
    pub pdn_notation: crate::notation::squares::SquareNotation,
    /// Stop when the SPRT decides: elo0=E0,elo1=E1[,alpha=0.05,beta=0.05].
    #[arg(long)]
    pub sprt: Option<String>,
    /// Adjudicate a draw when the game (opening included) reaches this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Seed for the order of the openings (default: from the clock; printed in the summary).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seconds an engine may overrun its clock or move time before it loses on time.
    #[arg(long, default_value_t = 0.1)]
    pub time_margin: f64,
    /// Seconds to wait for a move under --depth or --nodes before the engine counts as hung.
    #[arg(long, default_value_t = 60.0)]
    pub hang_timeout: f64,
    /// Seconds an engine may take to answer `hub` (handshake) and `init`.
    #[arg(long, default_value_t = 10.0)]
    pub startup_timeout: f64,
}

/// Runs the match: progress on stderr, summary on `out`.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<()> {
    if args.engines.len() != 2 {
        bail!(
            "give exactly two --engine commands (got {})",
            args.engines.len()
        );
    }
    if args.names.len() > 2 {
        bail!("give at most two --name values");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let limit = limit_from(args)?;
    let seconds = |value: f64, what: &str| -> Result<Duration> {
        Duration::try_from_secs_f64(value).map_err(|_| anyhow!("bad {what} '{value}'"))
    };
    let time_margin = seconds(args.time_margin, "--time-margin")?;
    let hang_timeout = seconds(args.hang_timeout, "--hang-timeout")?;
    let startup_timeout = seconds(args.startup_timeout, "--startup-timeout")?;
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| anyhow!("--sprt: {e}"))?;
    let openings = openings::load(&args.openings).map_err(|e| anyhow!("--openings: {e}"))?;
    let argvs = args
        .engines
        .iter()
        .map(|command| split_command(command).map_err(|e| anyhow!("--engine: {e}")))
        .collect::<Result<Vec<_>>>()?;
    // Probe each engine once: its name, and an early clear error if it does not speak Hub.
    let mut infos = Vec::new();
    for (index, argv) in argvs.iter().enumerate() {
        let mut engine = HubEngine::start(argv, &format!("probe{}", index + 1))
            .with_context(|| format!("engine {} ({})", index + 1, args.engines[index]))?;
        let info = engine.handshake(startup_timeout).with_context(|| {
            format!(
                "engine {} ({}): Hub handshake",
                index + 1,
                args.engines[index]
            )
        })?;
        infos.push(info);
    }
    let names = engine_names(&args.names, &infos);
    let mut options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    for text in &args.options {
        let (index, name, value) = parse_option(text, &names)?;
        if !infos[index].params.iter().any(|param| param.name == name) {
            log::warn!(
                "engine {} does not declare a parameter '{name}'",
                names[index]
            );
            eprintln!(
                "warning: engine {} does not declare a parameter '{name}'",
                names[index]
            );
        }
        options[index].push((name, value));
    }
    let [options0, options1] = options;
    let [argv0, argv1]: [Vec<String>; 2] = argvs
        .try_into()
        .map_err(|_| anyhow!("give exactly two --engine commands"))?;
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let config = MatchConfig {
        engines: [
            EngineSpec {
                name: names[0].clone(),
                argv: argv0,
                options: options0,
            },
            EngineSpec {
                name: names[1].clone(),
                argv: argv1,
                options: options1,
            },
        ],
        games: args.games,
        limit,
        concurrency: args.concurrency as usize,
        openings,
        max_plies: args.max_plies,
        seed,
        time_margin,
        hang_timeout,
        startup_timeout,
        draw_rules: DrawRules::default(),
        sprt,
    };
    let mut pdn = match &args.pdn {
        Some(path) => Some(
            File::create(path)
                .with_context(|| format!("cannot create PDN file {}", path.display()))?,
        ),
        None => None,
    };
    eprintln!(
        "onca match: {} vs {}, {} games, {}, {} openings from '{}', seed {seed}, concurrency {}",
        names[0],
        names[1],
        args.games,
        config.limit,
        config.openings.len(),
        args.openings,
        config.concurrency
    );
    let date = today();
    let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
    let mut pdn_error = None;
    let state = runner::run_match(&config, |report, state| {
        let loser_name = report.loser.map(|index| names[index].as_str());
        let reason = match loser_name {
            Some(name) => format!("{} ({} loses)", report.termination.category(), name),
            None => report.termination.category().to_string(),
        };
        *terminations.entry(reason).or_default() += 1;
        if let (Some(file), None) = (pdn.as_mut(), &pdn_error) {
            let text = pdn::write_game(&pdn_record(report, &names, &date), args.pdn_notation);
            if let Err(error) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                pdn_error = Some(error);
            }
        }
        eprintln!("{}", progress_line(report, state, &config, &names));
    });
    if let Some(error) = pdn_error {
        bail!("writing the PDN file failed: {error}");
    }
    write_summary(out, &config, &names, &state, &terminations)?;
    Ok(())
}

/// The search limit from the mutually exclusive limit arguments.
fn limit_from(args: &MatchArgs) -> Result<Limit> {
    if let Some(tc) = &args.tc {
        return Limit::parse_clock(tc).map_err(|e| anyhow!("--tc: {e}"));
    }
    if let Some(seconds) = args.movetime {
        if !(seconds.is_finite() && seconds > 0.0) {
            bail!("--movetime must be a positive number of seconds");
        }
        return Ok(Limit::MoveTime(seconds));
    }
    if let Some(depth) = args.depth {
        return Ok(Limit::Depth(depth));
    }
    if let Some(nodes) = args.nodes {
        return Ok(Limit::Nodes(nodes));
    }
    bail!("give one of --tc, --movetime, --depth, --nodes")
}

/// Names: --name if given, else the engine's `id name`, else `engine N`; equal names get `(N)`.
fn engine_names(given: &[String], infos: &[EngineInfo]) -> [String; 2] {
    let name = |index: usize| {
        given
            .get(index)
            .cloned()
            .or_else(|| infos.get(index).and_then(|info| info.name.clone()))
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| format!("engine {}", index + 1))
    };
    let (first, second) = (name(0), name(1));
    if first == second {
        [format!("{first} (1)"), format!("{second} (2)")]
    } else {
        [first, second]
    }
}

/// Reads `ENGINE:name=value`, ENGINE being an engine name or 1/2.
fn parse_option(text: &str, names: &[String; 2]) -> Result<(usize, String, String)> {
    let bad = || anyhow!("--option '{text}': write ENGINE:name=value (ENGINE = a --name, 1 or 2)");
    let (engine, setting) = text.split_once(':').ok_or_else(bad)?;
    let (name, value) = setting.split_once('=').ok_or_else(bad)?;
    let engine = engine.trim();
    let index = names
        .iter()
        .position(|known| known == engine)
        .or(match engine {
            "1" => Some(0),
            "2" => Some(1),
            _ => None,
        })
        .ok_or_else(|| anyhow!("--option '{text}': no engine named '{engine}'"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad());
    }
    Ok((index, name.to_string(), value.trim().to_string()))
}

/// The PDN record of a finished game.
fn pdn_record(report: &GameReport, names: &[String; 2], date: &str) -> PdnGame {
    let termination = match report.loser {
        Some(index) if report.termination != runner::Termination::NoLegalMove => {
            format!("{} by {}", report.termination, names[index])
        }
        _ => report.termination.to_string(),
    };
    PdnGame {
        tags: vec![
            (
                "Event".into(),
                format!("onca match: {} vs {}", names[0], names[1]),
            ),
            ("Site".into(), "onca match".into()),
            ("Date".into(), date.to_string()),
            ("Round".into(), report.number.to_string()),
            ("White".into(), names[report.white].clone()),
            ("Black".into(), names[1 - report.white].clone()),
            ("Opening".into(), report.opening.clone()),
            ("Termination".into(), termination),
        ],
        start: report.start,
        moves: report.moves.clone(),
        result: report.result,
    }
}

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

/// The live line printed after each game.
fn progress_line(
    report: &GameReport,
    state: &MatchState,
    config: &MatchConfig,
    names: &[String; 2],
) -> String {
    let tally = &state.tally;
    let score = tally.score().unwrap_or(0.5);
    let how = match report.loser {
        Some(index) if report.termination == runner::Termination::NoLegalMove => {
            format!("{} has no legal move", names[index])
        }
        Some(index) => format!("{} by {}", report.termination, names[index]),
        None => report.termination.to_string(),
    };
    let mut line = format!(
        "game {:>3}/{} #{} {} - {} {} ({how}) | {}: +{} -{} ={} score {:.1}% | {}",
        state.finished,
        config.games,
        report.number,
        names[report.white],
        names[1 - report.white],
        report.result.pdn(),
        names[0],
        tally.wins,
        tally.losses,
        tally.draws,
        100.0 * score,
        elo_text(tally)
    );
    line.push_str(&format!(", {}", pair_elo_text(&state.pairs)));
    if let Some(sprt) = &config.sprt {
        line.push_str(&format!(" | {}", sprt_text(sprt, &state.pairs)));
    }
    line
}

fn write_summary(
    out: &mut impl Write,
    config: &MatchConfig,
    names: &[String; 2],
    state: &MatchState,
    terminations: &BTreeMap<String, usize>,
) -> Result<()> {
    let tally = &state.tally;
    writeln!(
        out,
        "Match {} vs {} ({}, seed {})",
        names[0], names[1], config.limit, config.seed
    )?;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {} [{:.3}] {} games (wins - losses - draws)",
        names[0],
        names[1],
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score().unwrap_or(0.5),
        tally.games()
    )?;
    writeln!(out, "{}", elo_text(tally))?;
    let [ll, ld, even, wd, ww] = state.pairs.counts;
    writeln!(
        out,
        "Pairs (one opening, both colours) by points 0, 0.5, 1, 1.5, 2: {ll}, {ld}, {even}, {wd}, {ww}; {}",
        pair_elo_text(&state.pairs)
    )?;
    if let Some(sprt) = &config.sprt {
        let verdict = match state.sprt_verdict {
            Some(SprtVerdict::AcceptH0) => "H0 accepted",
            Some(SprtVerdict::AcceptH1) => "H1 accepted",
            _ => "no decision",
        };
        writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={} on the pairs: {} (trinomial LLR {:.2}), {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt_text(sprt, &state.pairs),
            sprt.llr(tally)
        )?;
    }
    writeln!(out, "Terminations:")?;
    for (reason, count) in terminations {
        writeln!(out, "  {reason}: {count}")?;
    }
    Ok(())
}

/// Today's date as PDN wants it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn options_name_engines_by_name_or_number() {
        let names = ["alpha".to_string(), "beta".to_string()];
        assert_eq!(
            parse_option("beta:hash=64", &names).expect("valid"),
            (1, "hash".to_string(), "64".to_string())
        );
        assert_eq!(parse_option("1:x=a b", &names).expect("valid").0, 0);
        assert!(parse_option("gamma:x=1", &names).is_err());
        assert!(parse_option("alpha:x", &names).is_err());
        assert!(parse_option("alpha", &names).is_err());
    }

    #[test]
    fn names_fall_back_and_stay_distinct() {
        let info = |name: &str| EngineInfo {
            name: Some(name.into()),
            ..EngineInfo::default()
        };
        assert_eq!(
            engine_names(&[], &[info("x"), info("x")]),
            ["x (1)", "x (2)"]
        );
        assert_eq!(
            engine_names(&["a".into()], &[info("x"), info("y")]),
            ["a", "y"]
        );
        assert_eq!(
            engine_names(&[], &[EngineInfo::default(), info("y")]),
            ["engine 1", "y"]
        );
    }
}

//! The `onca match` command: its arguments, the tournament set-up, the PDN file (appended game
//! by game, read back by `--resume`) and the output of [`match_report`](crate::cli::match_report).
//!
//! Engine commands are split into words like a shell would ([`split_command`]) and started
//! directly, without a shell; write `--engine "sh -c '...'"` for shell features. Before the
//! tournament each engine is started once for the handshake, to learn its name and fail early
//! with a clear message if it does not speak Hub.
//!
//! Every game in the PDN file carries the settings it was played with (`Match...` tags), so that
//! `--resume` can refuse to continue a file with other settings and skip the games it holds.
//!
//! The file only ever holds whole games: a write that fails (a full disk) is cut back off, and
//! then, like SIGTERM or Ctrl-C ([`crate::cli::interrupt`]), stops the run with a message that
//! says how many games the file holds and to run again with `--resume`.

use crate::arena::adjudication::{Adjudication, DrawByScores, WinByScores};
use crate::arena::elo::Sprt;
use crate::arena::engine::{split_command, EngineInfo, HubEngine};
use crate::arena::runner::{self, EngineSpec, GameReport, Limit, MatchConfig, MatchState};
use crate::arena::schedule::Format;
use crate::cli::interrupt::Interrupt;
use crate::cli::match_report::{
    how_it_ended, progress_line, termination_key, write_standings, write_summary,
};
use crate::egtb::Tablebases;
use crate::game::draw::DrawRules;
use crate::game::openings;
use crate::game::pdn::{self, PdnGame};
use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgGroup, Args};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Arguments of `onca match`.
#[derive(Args, Debug)]
#[command(args_override_self = true)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "movetime", "depth", "nodes"])))]
pub struct MatchArgs {
    /// Engine command, once per engine (split into words like a shell would, run without a
    /// shell); the first engine is the reference of the ratings.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the name the engine gives in `id`).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Engine parameter `ENGINE:name=value`, ENGINE being a --name or the engine's number
    /// (1, 2, ...); sent as set-param.
    #[arg(long = "option", value_name = "ENGINE:NAME=VALUE")]
    pub options: Vec<String>,
    /// `match` (two engines), `gauntlet` (the first engine against each other one) or
    /// `round-robin` (everyone against everyone). Default: match for two engines, round-robin
    /// for more.
    #[arg(long)]
    pub format: Option<String>,
    /// Games per pairing (pairs of games share an opening, colours reversed).
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
    /// `ballots` (the built-in Brazilian 3-move ballots, all legal in Russian too), `unbalanced`
    /// (215 of them plus one move that leaves one side 0.6-1.2 men ahead: fewer draws, so a
    /// match decides in fewer games, on a larger Elo scale; Brazilian), `start`, or a ballot file;
    /// read under the rules of --variant.
    #[arg(long, default_value = "ballots")]
    pub openings: String,
    /// The rules the games are played and refereed by: brazilian or russian. Russian sends
    /// `set-param name=variant value=russian` to every engine.
    #[arg(long, default_value_t = crate::rules::variant::Variant::Brazilian)]
    pub variant: crate::rules::variant::Variant,
    /// Append each game to this PDN file as it finishes (with --resume: continue the file).
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Square names in the PDN file (the help text is `notation_arg::HELP`).
    #[arg(long, help = crate::cli::notation_arg::HELP, default_value = "algebraic",
          value_parser = crate::cli::notation_arg::parse)]
    pub pdn_notation: crate::notation::squares::SquareNotation,
    /// Continue an interrupted run from its --pdn file: the games in it count, the others are
    /// played. The settings must be the ones the file was written with (the seed is taken from
    /// the file when --seed is not given).
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Stop when the SPRT (on the pairs) decides: elo0=E0,elo1=E1[,alpha=0.05,beta=0.05]. Two
    /// engines only.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Adjudicate a draw when the game (opening included) reaches this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Adjudicate a draw when both engines report a score within SCORE men of zero for COUNT
    /// moves each, from move NUMBER on: `movenumber=NUMBER,movecount=COUNT,score=SCORE`
    /// (e.g. movenumber=30,movecount=10,score=0.05). Off by default.
    #[arg(long, value_name = "SETTINGS")]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a win when both engines agree that one side is ahead by SCORE men or more for
    /// COUNT moves each: `movecount=COUNT,score=SCORE` (e.g. movecount=4,score=5). Off by
    /// default.
    #[arg(long, value_name = "SETTINGS")]
    pub win_adjudication: Option<String>,
    /// End games in positions these endgame tables cover with the tables' result (draws always;
    /// wins when the defender has no king, since the move-count rules need kings on both sides).
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
    /// Let the engines think on their opponent's time (go ponder / ponder-hit / stop).
    #[arg(long)]
    pub ponder: bool,
    /// Write each engine's protocol traffic and standard error to one file per engine and game
    /// in this directory (created if missing): game-00001-NAME.log.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
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

/// Runs the match or tournament: progress on stderr, summary on `out`.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<()> {
    let interrupt = Interrupt::install();
    let format = match args.format.as_deref() {
        Some(text) => Format::parse(text).map_err(|e| anyhow!("--format: {e}"))?,
        None if args.engines.len() == 2 => Format::Match,
        None => Format::RoundRobin,
    };
    let pairings = format
        .pairings(args.engines.len())
        .map_err(|e| anyhow!("--engine: {e}"))?;
    if args.names.len() > args.engines.len() {
        bail!(
            "give at most one --name per --engine ({} names for {} engines)",
            args.names.len(),
            args.engines.len()
        );
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
    if sprt.is_some() && pairings.len() > 1 {
        bail!("--sprt needs exactly two engines (it tests one engine against the other)");
    }
    let adjudication = adjudication_from(args)?;
    let openings =
        openings::load_in(args.variant, &args.openings).map_err(|e| anyhow!("--openings: {e}"))?;
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
    if args.variant != crate::rules::variant::Variant::Brazilian {
        for (name, info) in names.iter().zip(&infos) {
            if !info.params.iter().any(|param| param.name == "variant") {
                eprintln!(
                    "warning: engine {name} declares no 'variant' parameter; it may not play {}",
                    args.variant
                );
            }
        }
    }
    let mut options: Vec<Vec<(String, String)>> = vec![Vec::new(); names.len()];
    for text in &args.options {
        let (index, name, value) = parse_option(text, &names)?;
        if !infos[index].params.iter().any(|param| param.name == name) {
            // Sent anyway: an engine may accept parameters it does not list (onca's `search-*`).
            eprintln!(
                "warning: engine {} does not declare a parameter '{name}'; sending it anyway",
                names[index]
            );
        }
        options[index].push((name, value));
    }
    let engines: Vec<EngineSpec> = names
        .iter()
        .zip(argvs)
        .zip(options)
        .map(|((name, argv), options)| EngineSpec {
            name: name.clone(),
            argv,
            options,
        })
        .collect();
    if args.ponder {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if 2 * args.concurrency as usize > cores {
            eprintln!(
                "warning: with --ponder both engines of a game think at once: concurrency {} needs {} cores, this machine has {cores}",
                args.concurrency,
                2 * args.concurrency
            );
        }
    }
    if let Some(dir) = &args.log_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the log directory {}", dir.display()))?;
    }
    let mut config = MatchConfig {
        engines,
        pairings,
        games: args.games,
        limit,
        concurrency: args.concurrency as usize,
        openings,
        variant: args.variant,
        max_plies: args.max_plies,
        seed: 0,
        time_margin,
        hang_timeout,
        startup_timeout,
        draw_rules: DrawRules::default(),
        sprt,
        adjudication,
        ponder: args.ponder,
        log_dir: args.log_dir.clone(),
    };
    let mut state = MatchState::new(&config);
    let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
    let resumed = match (&args.pdn, args.resume) {
        (Some(path), true) => Some(read_resumed(path)?),
        _ => None,
    };
    config.seed = match (args.seed, &resumed) {
        (Some(seed), _) => seed,
        (None, Some(games)) => match games.first().and_then(|game| game.tag("MatchSeed")) {
            Some(seed) => seed.parse().map_err(|_| {
                anyhow!("--resume: the file's MatchSeed tag '{seed}' is not a number")
            })?,
            None => clock_seed(),
        },
        (None, None) => clock_seed(),
    };
    let settings = settings_tags(args, format, &config);
    if let (Some(games), Some(path)) = (&resumed, &args.pdn) {
        restore(games, &settings, &config, &mut state, &mut terminations)
            .map_err(|why| anyhow!("--resume: {}: {why}", path.display()))?;
    }
    let mut pdn = match &args.pdn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(args.resume)
                .write(true)
                .truncate(!args.resume)
                .open(path)
                .with_context(|| format!("cannot open PDN file {}", path.display()))?,
        ),
        None => None,
    };
    let total = config.schedule().total();
    eprintln!(
        "onca match: {}, {} {}, {} games per pairing ({total} in all), {}, {} openings from '{}', seed {}, concurrency {}{}",
        names.join(" vs "),
        config.pairings.len(),
        if config.pairings.len() == 1 { "pairing" } else { "pairings" },
        args.games,
        config.limit,
        config.openings.len(),
        args.openings,
        config.seed,
        config.concurrency,
        if state.finished > 0 {
            format!(", resuming after {} games", state.finished)
        } else {
            String::new()
        }
    );
    let date = today();
    let resumed_games = state.finished;
    let mut saved = 0;
    let mut pdn_error = None;
    let block = 2 * config.pairings.len();
    let state = runner::run_match(&config, state, &interrupt.flag, |report, state| {
        *terminations
            .entry(termination_key(report, &names))
            .or_default() += 1;
        if let Some(file) = pdn.as_mut() {
            let record = pdn_record(report, config.variant, &names, &date, &settings);
            let text = pdn::write_game(&record, args.pdn_notation);
            match append_game(file, &text) {
                Ok(()) => saved += 1,
                Err(error) => {
                    // Nothing more can be kept: stop the run rather than play games for nothing.
                    pdn_error = Some(error);
                    interrupt.flag.store(true, Ordering::SeqCst);
                }
            }
        }
        eprintln!("{}", progress_line(report, state, &config, &names));
        if config.pairings.len() > 1 && state.finished % block == 0 {
            let _ = write_standings(&mut std::io::stderr(), state, &names);
        }
    });
    let kept = resumed_games + saved;
    let resume_hint = match &args.pdn {
        Some(path) => format!(
            "{} holds the {kept} finished games: run the same command with --resume to play the other {}",
            path.display(),
            total - kept
        ),
        None => "no --pdn file was given, so nothing can be resumed".to_string(),
    };
    if let Some(error) = pdn_error {
        bail!("writing the PDN file failed ({error}); stopped, {resume_hint}");
    }
    if let Some(signal) = interrupt.received() {
        // Without a PDN file the finished games are only counted, not kept.
        let finished = state.finished;
        bail!("stopped by {signal} after {finished} of {total} games; {resume_hint}");
    }
    write_summary(out, &config, &names, &state, &terminations)?;
    Ok(())
}

/// Appends one game's text and flushes it. On failure (a full disk) the file is cut back to
/// where it was, so that it holds complete games only and `--resume` can read it.
fn append_game(file: &mut File, text: &str) -> std::io::Result<()> {
    let before = file.metadata()?.len();
    let written = file.write_all(text.as_bytes()).and_then(|()| file.flush());
    if let Err(error) = written {
        if let Err(cut) = file.set_len(before) {
            return Err(std::io::Error::new(
                error.kind(),
                format!("{error}; cutting the unfinished game off the file failed too: {cut}"),
            ));
        }
        return Err(error);
    }
    Ok(())
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
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

/// Reads `key=value,key=value` into a map, refusing keys outside `known`.
fn settings_map(text: &str, known: &[&str], what: &str) -> Result<BTreeMap<String, f64>> {
    let mut map = BTreeMap::new();
    for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| anyhow!("{what}: '{field}' is not key=value"))?;
        let key = key.trim();
        if !known.contains(&key) {
            bail!("{what}: unknown key '{key}' (known: {})", known.join(", "));
        }
        let value: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| anyhow!("{what}: '{value}' is not a number of 0 or more"))?;
        map.insert(key.to_string(), value);
    }
    for key in known {
        if !map.contains_key(*key) {
            bail!(
                "{what}: give {}",
                known
                    .iter()
                    .map(|k| format!("{k}=..."))
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
    }
    Ok(map)
}

/// The adjudication rules from --draw-adjudication, --win-adjudication and --egtb.
fn adjudication_from(args: &MatchArgs) -> Result<Adjudication> {
    let draw = args
        .draw_adjudication
        .as_deref()
        .map(|text| -> Result<DrawByScores> {
            let map = settings_map(
                text,
                &["movenumber", "movecount", "score"],
                "--draw-adjudication",
            )?;
            Ok(DrawByScores {
                from_move: map["movenumber"] as usize,
                moves: (map["movecount"] as usize).max(1),
                score: map["score"],
            })
        })
        .transpose()?;
    let win = args
        .win_adjudication
        .as_deref()
        .map(|text| -> Result<WinByScores> {
            let map = settings_map(text, &["movecount", "score"], "--win-adjudication")?;
            Ok(WinByScores {
                moves: (map["movecount"] as usize).max(1),
                score: map["score"],
            })
        })
        .transpose()?;
    let tables = match &args.egtb {
        Some(dir) => {
            let tables = Tablebases::load_in(args.variant, dir)
                .with_context(|| format!("--egtb: cannot load tables from {}", dir.display()))?;
            if let (0, (count, Some(other))) = (tables.keys().len(), tables.foreign()) {
                bail!(
                    "--egtb: {} holds {} endgame tables ({count} files), which cannot referee {} games",
                    dir.display(),
                    crate::egtb::store::variant_title(other),
                    args.variant
                );
            }
            if tables.max_pieces() == 0 {
                bail!("--egtb: no endgame tables in {}", dir.display());
            }
            Some(Arc::new(tables))
        }
        None => None,
    };
    Ok(Adjudication { draw, win, tables })
}

/// Names: --name if given, else the engine's `id name`, else `engine N`; equal names get `(N)`.
fn engine_names(given: &[String], infos: &[EngineInfo]) -> Vec<String> {
    let name = |index: usize| {
        given
            .get(index)
            .cloned()
            .or_else(|| infos.get(index).and_then(|info| info.name.clone()))
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| format!("engine {}", index + 1))
    };
    let names: Vec<String> = (0..infos.len().max(given.len())).map(name).collect();
    names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            if names.iter().filter(|other| *other == name).count() > 1 {
                format!("{name} ({})", index + 1)
            } else {
                name.clone()
            }
        })
        .collect()
}

/// Reads `ENGINE:name=value`, ENGINE being an engine name or number (1-based).
fn parse_option(text: &str, names: &[String]) -> Result<(usize, String, String)> {
    let bad = || {
        anyhow!(
            "--option '{text}': write ENGINE:name=value (ENGINE = a --name or an engine number)"
        )
    };
    let (engine, setting) = text.split_once(':').ok_or_else(bad)?;
    let (name, value) = setting.split_once('=').ok_or_else(bad)?;
    let engine = engine.trim();
    let index = names
        .iter()
        .position(|known| known == engine)
        .or_else(|| {
            engine
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=names.len()).contains(n))
                .map(|n| n - 1)
        })
        .ok_or_else(|| anyhow!("--option '{text}': no engine named '{engine}'"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad());
    }
    Ok((index, name.to_string(), value.trim().to_string()))
}

/// The settings every game of the PDN file records, as `Match...` tags: what must be the same
/// for `--resume` to continue the file.
fn settings_tags(args: &MatchArgs, format: Format, config: &MatchConfig) -> Vec<(String, String)> {
    let optional = |value: &Option<String>| value.clone().unwrap_or_else(|| "off".into());
    let mut tags = vec![
        ("MatchFormat".to_string(), format.name().to_string()),
        ("MatchGames".into(), config.games.to_string()),
        (
            "MatchLimit".into(),
            format!("{}, time margin {} s", config.limit, args.time_margin),
        ),
        ("MatchOpenings".into(), args.openings.clone()),
        ("MatchSeed".into(), config.seed.to_string()),
        (
            "MatchAdjudication".into(),
            format!(
                "max plies {}; draws {}; wins {}; tables {}",
                args.max_plies
                    .map_or_else(|| "off".into(), |p| p.to_string()),
                optional(&args.draw_adjudication),
                optional(&args.win_adjudication),
                args.egtb
                    .as_ref()
                    .map_or_else(|| "off".into(), |dir| dir.display().to_string())
            ),
        ),
        (
            "MatchPonder".into(),
            if args.ponder { "on" } else { "off" }.into(),
        ),
        ("MatchSprt".into(), optional(&args.sprt)),
    ];
    for (index, (engine, command)) in config.engines.iter().zip(&args.engines).enumerate() {
        let options: Vec<String> = engine
            .options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        tags.push((
            format!("MatchEngine{}", index + 1),
            format!("{}: {command}; options: {}", engine.name, options.join(" ")),
        ));
    }
    tags
}

/// The games of an earlier run, from its PDN file (a file that does not exist yet holds none).
fn read_resumed(path: &std::path::Path) -> Result<Vec<PdnGame>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => bail!("--resume: cannot read {}: {error}", path.display()),
    };
    pdn::read_games(&text).map_err(|error| anyhow!("--resume: {}: {error}", path.display()))
}

/// Counts the games of an earlier run into `state` and `terminations`, after checking that each
/// was played with `settings` and where the schedule puts it.
fn restore(
    games: &[PdnGame],
    settings: &[(String, String)],
    config: &MatchConfig,
    state: &mut MatchState,
    terminations: &mut BTreeMap<String, usize>,
) -> Result<(), String> {
    let schedule = config.schedule();
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    for (position, game) in games.iter().enumerate() {
        let at = format!("game {} of the file", position + 1);
        if game.variant != config.variant {
            return Err(format!(
                "{at} is a {} game, this run plays {}: give the same --variant to resume",
                game.variant, config.variant
            ));
        }
        for (tag, value) in settings {
            match game.tag(tag) {
                Some(found) if found == value => {}
                Some(found) => {
                    return Err(format!(
                        "{at} was played with {tag} \"{found}\", this run has \"{value}\": give the same settings to resume"
                    ))
                }
                None => {
                    return Err(format!(
                        "{at} has no {tag} tag: the file was not written by onca match with these settings"
                    ))
                }
            }
        }
        let number: usize = game
            .tag("Round")
            .and_then(|round| round.parse().ok())
            .ok_or_else(|| format!("{at} has no game number in its Round tag"))?;
        let slot = number
            .checked_sub(1)
            .and_then(|index| schedule.slot(index))
            .ok_or_else(|| format!("{at}: game number {number} is not in the schedule"))?;
        let players = [names[slot.players[0]], names[slot.players[1]]];
        if game.tag("White") != Some(players[0]) || game.tag("Black") != Some(players[1]) {
            return Err(format!(
                "{at}: game {number} should be {} - {}",
                players[0], players[1]
            ));
        }
        if state.played.contains(&number) {
            return Err(format!("{at}: game {number} appears twice"));
        }
        state.record(&slot, game.result, config.sprt.as_ref());
        let reason = game.tag("Reason").unwrap_or("unknown (resumed)");
        *terminations.entry(reason.to_string()).or_default() += 1;
    }
    Ok(())
}

/// The PDN record of a finished game: the standard tags, the termination, the settings.
fn pdn_record(
    report: &GameReport,
    variant: crate::rules::variant::Variant,
    names: &[String],
    date: &str,
    settings: &[(String, String)],
) -> PdnGame {
    let slot = &report.slot;
    let event = if names.len() == 2 {
        format!("onca match: {} vs {}", names[0], names[1])
    } else {
        format!("onca match: {} engines", names.len())
    };
    let mut tags = vec![
        ("Event".into(), event),
        ("Site".into(), "onca match".into()),
        ("Date".into(), date.to_string()),
        ("Round".into(), slot.number.to_string()),
        ("White".into(), names[slot.players[0]].clone()),
        ("Black".into(), names[slot.players[1]].clone()),
        ("Opening".into(), report.opening.clone()),
        ("Termination".into(), how_it_ended(report, names)),
        ("Reason".into(), termination_key(report, names)),
    ];
    tags.extend(settings.iter().cloned());
    PdnGame {
        variant,
        tags,
        start: report.start,
        moves: report.moves.clone(),
        result: report.result,
    }
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

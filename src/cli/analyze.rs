//! Text for the `onca analyze` and `onca bench` subcommands: the board diagram and the progress
//! lines. The search itself never prints; this module turns its reports into text.

use crate::notation::fen::piece_letter;
use crate::rules::position::{Color, Position};
use crate::rules::square::Square;
use crate::search::control::Report;
use std::fmt::Write;

/// An ASCII diagram: pieces on the left (`w` `b` men, `W` `B` kings, `.` empty dark square),
/// square numbers on the right, White at the bottom.
pub fn board_diagram(position: &Position) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "   a  b  c  d  e  f  g  h");
    for rank in (1..=8u32).rev() {
        let mut pieces = String::new();
        let mut numbers = String::new();
        for file in 0..8u32 {
            match Square::from_file_rank(file, rank) {
                Some(square) => {
                    let symbol = position.piece_at(square).map_or('.', piece_letter);
                    let _ = write!(pieces, "  {symbol}");
                    let _ = write!(numbers, "{:>3}", square.number());
                }
                None => {
                    pieces.push_str("   ");
                    numbers.push_str("   ");
                }
            }
        }
        let _ = writeln!(text, "{rank}{pieces}   {rank}{numbers}");
    }
    let side = match position.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let _ = write!(
        text,
        "{side} to move   {}",
        crate::notation::fen::to_fen(position)
    );
    text
}

/// One progress line: `depth D/SEL [multipv K] score S nodes N [tbhits H] nps X time T pv M M ...`.
pub fn report_line(report: &Report, multipv: bool) -> String {
    let seconds = report.elapsed.as_secs_f64();
    let nps = (report.nodes as f64 / seconds.max(1e-6)) as u64;
    let mut line = format!("depth {}/{}", report.depth, report.seldepth);
    if multipv {
        let _ = write!(line, " multipv {}", report.multipv);
    }
    let score = if report.score.is_heuristic() {
        format!("{:+.2}", report.score.men())
    } else {
        report.score.to_string()
    };
    let _ = write!(line, " score {score} nodes {}", report.nodes);
    if report.tbhits > 0 {
        let _ = write!(line, " tbhits {}", report.tbhits);
    }
    let _ = write!(line, " nps {nps} time {seconds:.3} pv");
    for mv in &report.pv {
        let _ = write!(line, " {mv}");
    }
    line
}

/// Arguments of `onca analyze`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// Position as FEN or Hub string (default: the start position).
    #[arg(long, short, conflicts_with = "pdn")]
    pub position: Option<String>,
    /// Moves to play from the position first, in Hub notation, separated by spaces.
    #[arg(long, conflicts_with = "pdn")]
    pub moves: Option<String>,
    /// Review the games of this PDN file instead: every position searched (with --depth,
    /// --nodes or --movetime each; default depth 14), each move classed by the men it loses
    /// against the best move: inaccuracy (?!) from 0.25, mistake (?) from 0.5, blunder (??) from
    /// 1.0 (scores clamped at 5 men, wins and losses at the clamp); a move that lets a forced win
    /// go or turns a position that is not lost into a forced loss (win scores and endgame
    /// tables) is a blunder too; a best move whose alternatives are all mistakes gets `!`. Prints
    /// a summary per side.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// With --pdn: `all` games or game N (from 1).
    #[arg(long, requires = "pdn", default_value = "all",
          value_parser = crate::cli::game_analysis::parse_game_choice)]
    pub game: crate::cli::game_analysis::GameChoice,
    /// With --pdn: write the games annotated (values, NAGs, best moves in comments) to this PDN
    /// file, each game as soon as it is done.
    #[arg(long, requires = "pdn", value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// With --pdn: write an SVG evaluation graph per game (game-N.svg) into this directory.
    #[arg(long, requires = "pdn", value_name = "DIR")]
    pub svg: Option<std::path::PathBuf>,
    /// Square names in --pdn output (the help text is `notation_arg::HELP`).
    #[arg(long, help = crate::cli::notation_arg::HELP, default_value = "algebraic",
          value_parser = crate::cli::notation_arg::parse)]
    pub pdn_notation: crate::notation::squares::SquareNotation,
    /// Search to this depth (plies). Without a limit the depth is 16 (14 per position with --pdn).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long, group = "limit")]
    pub movetime: Option<f64>,
    /// Search this many nodes.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Lines to show.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64),
          conflicts_with = "pdn")]
    pub multipv: u32,
    /// Directory of endgame databases (`onca egtb generate`) to probe in the search, or `builtin`
    /// for the tables of up to 4 pieces computed first (about 5 s), as Hub games have them.
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
    /// With --egtb: at a root in the databases, search only their best moves (as in a game).
    #[arg(long, requires = "egtb", conflicts_with = "pdn")]
    pub table_moves: bool,
    /// Evaluation weights file (`name opening endgame` lines, e.g. tuning/weights/hand-set.txt; names left
    /// out keep their built-in values), fitted to the variant's games. Default: the variant's
    /// built-in weights.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Opening book whose moves are listed before the search when the position is in it
    /// (default: the book shipped with the engine, Brazilian games only; `--book ''` for none). A
    /// book file of another variant than --variant is refused.
    #[arg(long, value_name = "FILE", conflicts_with = "pdn")]
    pub book: Option<String>,
    /// A search parameter, as the Hub's `search-NAME` sets it (for experiments; repeatable), e.g.
    /// `--search probcut=1`. engine-protocol.md lists the names.
    #[arg(long = "search", value_name = "NAME=VALUE", value_parser = parse_search_setting)]
    pub search: Vec<SearchSetting>,
    /// The rules: brazilian or russian. --egtb must hold tables of these rules, --book and
    /// --weights files fitted to them. With --pdn, a game's GameType tag decides instead (games of
    /// another variant than the tables' are searched without them).
    #[arg(long, default_value_t = crate::rules::variant::Variant::Brazilian)]
    pub variant: crate::rules::variant::Variant,
}

/// One `--search NAME=VALUE` option, checked when parsed.
#[derive(Clone, Debug)]
pub struct SearchSetting {
    name: String,
    value: String,
}

/// Parses and checks `NAME=VALUE` for `--search`.
pub fn parse_search_setting(text: &str) -> Result<SearchSetting, String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': expected NAME=VALUE"))?;
    let setting = SearchSetting {
        name: name.trim().to_string(),
        value: value.trim().to_string(),
    };
    search_params(std::slice::from_ref(&setting))?;
    Ok(setting)
}

/// The default search parameters with `settings` applied in order.
pub fn search_params(settings: &[SearchSetting]) -> Result<SearchParams, String> {
    let mut params = SearchParams::default();
    for setting in settings {
        set_search_param(&mut params, &setting.name, &setting.value)?;
    }
    Ok(params)
}

use crate::hub::params::{set_search_param, BUILTIN_TABLES};
use crate::search::params::SearchParams;

/// The weights of the `--weights` file, if one was given; refused unless fitted to `variant`.
fn weights_option(
    path: Option<&std::path::Path>,
    variant: crate::rules::variant::Variant,
) -> anyhow::Result<Option<std::sync::Arc<crate::eval::weights::Weights>>> {
    use crate::eval::weights_file::{for_variant, load_shared};
    path.map(|path| load_shared(path).and_then(|weights| for_variant(weights, path, variant)))
        .transpose()
        .map_err(anyhow::Error::msg)
}

/// Depth of `onca analyze` when no limit is given.
const DEFAULT_ANALYZE_DEPTH: u32 = 16;

/// Runs `onca analyze`: one position, or with `--pdn` the games of a file.
pub fn run_analyze(args: &AnalyzeArgs, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let move_time = match args.movetime {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds < 1e7 => {
            Some(std::time::Duration::from_secs_f64(seconds))
        }
        Some(seconds) => {
            anyhow::bail!("bad --movetime {seconds}: give a positive number of seconds")
        }
        None => None,
    };
    let limits = crate::search::limits::Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time,
        ..crate::search::limits::Limits::default()
    };
    let settings = crate::search::control::SearchSettings {
        threads: args.threads as usize,
        multipv: args.multipv as usize,
        move_overhead: std::time::Duration::ZERO,
        instant_single_reply: false,
        table_root_moves: args.table_moves,
        ..crate::search::control::SearchSettings::default()
    };
    let mut searcher = crate::search::searcher::Searcher::new(args.hash as usize);
    searcher.set_weights(weights_option(args.weights.as_deref(), args.variant)?);
    searcher.set_params(search_params(&args.search).map_err(anyhow::Error::msg)?);
    if args.egtb.as_deref() == Some(std::path::Path::new(BUILTIN_TABLES)) {
        let started = std::time::Instant::now();
        let tables = crate::egtb::builtin::wait(args.variant);
        eprintln!(
            "endgame tables: built in, up to {} pieces ({:.1} s)",
            tables.max_pieces(),
            started.elapsed().as_secs_f64()
        );
        searcher.set_tablebases(tables);
    } else if let Some(dir) = &args.egtb {
        let tables = crate::egtb::Tablebases::load_in(args.variant, dir)?;
        if tables.keys().is_empty() {
            if let (count, Some(other)) = tables.foreign() {
                anyhow::bail!(
                    "--egtb {} holds {} endgame tables ({count} files), not {}",
                    dir.display(),
                    crate::egtb::store::variant_title(other),
                    crate::egtb::store::variant_title(args.variant)
                );
            }
            anyhow::bail!("no endgame tables in {}", dir.display());
        }
        for refused in tables.refused() {
            eprintln!("ignored: {refused}");
        }
        eprintln!(
            "endgame tables: {} loaded, complete up to {} pieces",
            tables.keys().len(),
            tables.max_pieces()
        );
        searcher.set_tablebases(std::sync::Arc::new(tables));
    }
    match &args.pdn {
        Some(pdn) => crate::cli::game_analysis::run(args, pdn, searcher, limits, settings, out),
        None => analyze_position(args, searcher, limits, settings, out),
    }
}

/// `onca analyze` of one position: the board, a line per iteration, the best move.
fn analyze_position(
    args: &AnalyzeArgs,
    mut searcher: crate::search::searcher::Searcher,
    mut limits: crate::search::limits::Limits,
    settings: crate::search::control::SearchSettings,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let start = match &args.position {
        None => Position::start(),
        Some(text) => crate::notation::fen::parse_position(text).context("bad --position")?,
    };
    let mut game = crate::game::record::Game::in_variant(args.variant, start);
    if let Some(moves) = &args.moves {
        for text in moves.split_whitespace() {
            game.play_text(text)
                .map_err(|error| anyhow::anyhow!("bad --moves: {error}"))?;
        }
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none() {
        limits.depth = Some(DEFAULT_ANALYZE_DEPTH);
    }
    writeln!(out, "{}", board_diagram(game.current()))?;
    let book = match args.book.as_deref() {
        Some("") => None,
        Some(path) => Some(std::sync::Arc::new(
            crate::book::Book::load_for(std::path::Path::new(path), args.variant)
                .map_err(anyhow::Error::msg)?,
        )),
        // The shipped book is Brazilian: an analysis of another variant lists no book moves.
        None => Some(crate::book::Book::builtin()).filter(|book| book.variant() == args.variant),
    };
    if let Some(book) = book {
        let playable = book.playable(game.current());
        let moves: Vec<String> = book
            .moves(game.current())
            .iter()
            .map(|entry| {
                let games = match entry.record.share() {
                    Some(share) => {
                        format!(", {} games {:.0}%", entry.record.games(), 100.0 * share)
                    }
                    None => String::new(),
                };
                let played = if playable.contains(entry) {
                    ""
                } else {
                    ", not played"
                };
                format!(
                    "{} {:+.2} ({} plies{games}{played})",
                    entry.mv,
                    f64::from(entry.score) / 100.0,
                    entry.depth
                )
            })
            .collect();
        if !moves.is_empty() {
            writeln!(out, "book: {}", moves.join(", "))?;
        }
    }
    let control = crate::search::control::SearchControl::new();
    let multipv = args.multipv > 1;
    let mut failure = None;
    let result = searcher.search(&game, &limits, &settings, &control, &mut |report| {
        if failure.is_none() {
            if let Err(error) = writeln!(out, "{}", report_line(report, multipv)) {
                failure = Some(error);
            }
        }
    });
    if let Some(error) = failure {
        return Err(error.into());
    }
    match result.best {
        Some(mv) => writeln!(out, "bestmove {mv}")?,
        None => writeln!(
            out,
            "bestmove none (the side to move has no legal move and loses)"
        )?,
    }
    Ok(())
}

/// Runs `onca bench`: one line per position, then the totals; the last line starts with the node
/// count. `weights` is a weights file to evaluate with instead of the built-in weights, `search`
/// the `--search` settings.
pub fn run_bench(
    variant: crate::rules::variant::Variant,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    weights: Option<&std::path::Path>,
    search: &[SearchSetting],
    out: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let weights = weights_option(weights, variant)?;
    let params = search_params(search).map_err(anyhow::Error::msg)?;
    let mut failure = None;
    let mut index = 0;
    let results =
        crate::search::bench::run(variant, depth, threads, hash_mb, weights, params, |found| {
            index += 1;
            let line = format!(
                "{index:>2} {:>10} nodes {:>9.4} s depth {:>2} best {:<10} {}",
                found.nodes,
                found.elapsed.as_secs_f64(),
                found.depth,
                found.best.as_deref().unwrap_or("none"),
                found.fen
            );
            if failure.is_none() {
                if let Err(error) = writeln!(out, "{line}") {
                    failure = Some(error);
                }
            }
        })?;
    if let Some(error) = failure {
        return Err(error.into());
    }
    let nodes: u64 = results.iter().map(|found| found.nodes).sum();
    let seconds: f64 = results
        .iter()
        .map(|found| found.elapsed.as_secs_f64())
        .sum();
    let nps = (nodes as f64 / seconds.max(1e-9)) as u64;
    writeln!(out, "{seconds:.3} s total")?;
    writeln!(out, "{nodes} nodes {nps} nps")?;
    Ok(())
}

//! `onca analyze --pdn FILE`: every game (or one) of a PDN file reviewed by the search
//! ([`crate::analysis::review`]), with a summary per side on stdout, an annotated PDN file
//! (`--out`), an evaluation graph per game (`--svg DIR`) and a progress bar on stderr.
//!
//! Games are read as a stream and each one is written as soon as it is reviewed (and flushed), so
//! an interrupted run keeps every finished game. A game the reader refuses is reported on stderr
//! and skipped; the exit status then says some games were not analysed.

use crate::analysis::review::{
    review_game, Flag, GameReview, MoveClass, PlyReview, ReviewConfig, Thresholds,
};
use crate::cli::analyze::AnalyzeArgs;
use crate::cli::eval_graph::evaluation_svg;
use crate::eval::score::Score;
use crate::game::pdn::write::{write_annotated, MoveNote};
use crate::game::pdn::{PdnGame, PdnReader};
use crate::notation::pdn::write_move_in;
use crate::notation::squares::SquareNotation;
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;
use crate::search::control::{SearchControl, SearchSettings};
use crate::search::limits::Limits;
use crate::search::searcher::Searcher;
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

/// Which games of the file to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Every game.
    All,
    /// Only game N (from 1).
    Number(usize),
}

/// Reads `--game`: `all` or a game number from 1.
pub fn parse_game_choice(text: &str) -> Result<GameChoice, String> {
    if text == "all" {
        return Ok(GameChoice::All);
    }
    match text.parse::<usize>() {
        Ok(number) if number >= 1 => Ok(GameChoice::Number(number)),
        _ => Err(format!(
            "'{text}' is neither 'all' nor a game number from 1"
        )),
    }
}

/// Depth of each position's search when no limit is given.
pub const DEFAULT_REVIEW_DEPTH: u32 = 14;

/// Runs `onca analyze --pdn`.
pub fn run(
    args: &AnalyzeArgs,
    pdn: &Path,
    mut searcher: Searcher,
    mut limits: Limits,
    settings: SearchSettings,
    out: &mut dyn Write,
) -> Result<()> {
    if limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none() {
        limits.depth = Some(DEFAULT_REVIEW_DEPTH);
    }
    let file = File::open(pdn).with_context(|| format!("cannot open {}", pdn.display()))?;
    let mut annotated = match &args.out {
        Some(path) => {
            Some(File::create(path).with_context(|| format!("cannot create {}", path.display()))?)
        }
        None => None,
    };
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    }
    let config = ReviewConfig {
        limits,
        settings,
        thresholds: Thresholds::DEFAULT,
    };
    let limit_text = limit_description(&config.limits);
    let control = SearchControl::new();
    let (mut analysed, mut refused) = (0usize, 0usize);
    for (index, read) in PdnReader::new(BufReader::new(file)).enumerate() {
        let number = index + 1;
        if let GameChoice::Number(wanted) = args.game {
            if number < wanted {
                continue;
            }
            if number > wanted {
                break;
            }
        }
        let game = match read {
            Ok(game) => game,
            Err(error) => {
                eprintln!("skipped: {error}");
                refused += 1;
                continue;
            }
        };
        let bar = progress_bar(number, game.moves.len() + 1);
        let review = review_game(
            &mut searcher,
            game.variant,
            game.start,
            &game.moves,
            &config,
            &control,
            &mut |done, _| bar.set_position(done as u64),
        );
        bar.finish_and_clear();
        write!(
            out,
            "{}",
            summary_text(number, &game, &review, &limit_text, args.pdn_notation)
        )?;
        out.flush()?;
        if let Some(file) = annotated.as_mut() {
            let text = annotated_game(&game, &review, &limit_text, args.pdn_notation);
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .context("cannot write the annotated PDN")?;
        }
        if let Some(dir) = &args.svg {
            let path = dir.join(format!("game-{number}.svg"));
            let title = format!("Game {number}: {}", players(&game));
            std::fs::write(&path, evaluation_svg(&title, &review))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        analysed += 1;
    }
    if let GameChoice::Number(wanted) = args.game {
        if analysed == 0 && refused == 0 {
            bail!("{} has no game {wanted}", pdn.display());
        }
    }
    if refused > 0 {
        bail!(
            "{refused} game(s) of {} could not be read (see above); {analysed} analysed",
            pdn.display()
        );
    }
    if analysed == 0 {
        bail!("no games in {}", pdn.display());
    }
    Ok(())
}

fn progress_bar(game: usize, positions: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(positions as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "game {prefix} {bar:30} {pos}/{len} positions, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar.set_prefix(game.to_string());
    bar
}

fn limit_description(limits: &Limits) -> String {
    match (limits.depth, limits.nodes, limits.move_time) {
        (Some(depth), _, _) => format!("depth {depth}"),
        (_, Some(nodes), _) => format!("{nodes} nodes"),
        (_, _, Some(time)) => format!("{} s", time.as_secs_f64()),
        _ => "unlimited".into(),
    }
}

fn players(game: &PdnGame) -> String {
    format!(
        "{} - {}",
        game.tag("White").unwrap_or("?"),
        game.tag("Black").unwrap_or("?")
    )
}

/// A score from White's view as a reader wants it: `+0.35`, `White wins in 7 plies`, `Black
/// wins (tables)`.
pub fn white_view_text(score: Score) -> String {
    let winner = if score > Score::DRAW {
        "White"
    } else {
        "Black"
    };
    if let Some(plies) = score.plies_to_win() {
        match plies.abs() {
            0 => format!("{winner} has won"),
            1 => format!("{winner} wins in 1 ply"),
            n => format!("{winner} wins in {n} plies"),
        }
    } else if score.is_db() {
        format!("{winner} wins (tables)")
    } else {
        format!("{:+.2}", score.men() + 0.0)
    }
}

fn white_view(score: Score, mover: Color) -> Score {
    match mover {
        Color::White => score,
        Color::Black => -score,
    }
}

/// The NAG for a reviewed move.
fn nag(ply: &PlyReview) -> Option<&'static str> {
    match ply.class {
        MoveClass::Blunder => Some("??"),
        MoveClass::Mistake => Some("?"),
        MoveClass::Inaccuracy => Some("?!"),
        MoveClass::Best if ply.only_move => Some("!"),
        MoveClass::Best | MoveClass::Good => None,
    }
}

/// What a flagged or classed move did, in words, with the better move (its value from White's
/// view).
fn verdict(
    ply: &PlyReview,
    variant: Variant,
    position: &Position,
    notation: SquareNotation,
) -> Option<String> {
    let best = ply
        .best
        .map(|best| write_move_in(variant, position, &best, notation))
        .unwrap_or_default();
    let best_value = white_view_text(white_view(ply.before, ply.mover));
    match (ply.flag, ply.class) {
        (Some(Flag::MissedWin), _) => {
            Some(format!("misses a forced win; {best} wins ({best_value})"))
        }
        (Some(Flag::ThrownDraw), _) => {
            Some(format!("loses by force where {best} holds ({best_value})"))
        }
        (None, MoveClass::Inaccuracy | MoveClass::Mistake | MoveClass::Blunder) => Some(format!(
            "{}, loses {:.2}; best {best} ({best_value})",
            ply.class.name(),
            ply.loss
        )),
        (None, MoveClass::Best) if ply.only_move => Some("the only move that holds".into()),
        (None, _) => None,
    }
}

/// The move's number as PDN writes it: `12.` for White, `12...` for Black.
fn move_number(ply_index: usize, start: &Position) -> String {
    let offset = usize::from(start.side_to_move() == Color::Black);
    let number = (ply_index + offset) / 2 + 1;
    if (ply_index + offset).is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn positions(game: &PdnGame) -> Vec<Position> {
    let mut positions = vec![game.start];
    for mv in &game.moves {
        let next = positions[positions.len() - 1].play_in(game.variant, mv);
        positions.push(next);
    }
    positions
}

/// The stdout summary of one game: players and result, a table per side, then every flagged or
/// classed move.
pub fn summary_text(
    number: usize,
    game: &PdnGame,
    review: &GameReview,
    limit: &str,
    notation: SquareNotation,
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Game {number}: {}, result {}, {} plies, {limit} per position, {} nodes",
        players(game),
        game.result.pdn(),
        game.moves.len(),
        review.nodes
    );
    let _ = writeln!(
        text,
        "         moves  best  inaccuracies  mistakes  blunders  missed wins  thrown draws  avg loss"
    );
    for color in [Color::White, Color::Black] {
        let side = review.summary(color);
        let _ = writeln!(
            text,
            "{:<8} {:>5} {:>5} {:>13} {:>9} {:>9} {:>12} {:>13} {:>9.2}",
            format!("{color:?}"),
            side.moves,
            side.best,
            side.inaccuracies,
            side.mistakes,
            side.blunders,
            side.missed_wins,
            side.thrown_draws,
            side.average_loss
        );
    }
    let positions = positions(game);
    for (index, ply) in review.plies.iter().enumerate() {
        if ply.class < MoveClass::Inaccuracy && ply.flag.is_none() {
            continue;
        }
        let position = &positions[index];
        let played = write_move_in(game.variant, position, &ply.played, notation);
        let _ = writeln!(
            text,
            "  {} {played}{} {}",
            move_number(index, &game.start),
            nag(ply).unwrap_or(""),
            verdict(ply, game.variant, position, notation).unwrap_or_default()
        );
    }
    let final_white = review.white_scores().last().copied().unwrap_or_default();
    let _ = writeln!(text, "  final position: {}\n", white_view_text(final_white));
    text
}

/// The game as annotated PDN: an Annotator tag, a comment with the totals before the first move,
/// after every move its value from White's view, and for classed moves the NAG and the verdict.
pub fn annotated_game(
    game: &PdnGame,
    review: &GameReview,
    limit: &str,
    notation: SquareNotation,
) -> String {
    let mut tagged = game.clone();
    tagged.tags.retain(|(name, _)| name != "Annotator");
    tagged.tags.push((
        "Annotator".into(),
        format!("Onca {} ({limit} per position)", env!("CARGO_PKG_VERSION")),
    ));
    // A review stopped early annotates the moves it reached.
    tagged.moves.truncate(review.plies.len());
    let positions = positions(game);
    let notes: Vec<MoveNote> = review
        .plies
        .iter()
        .enumerate()
        .map(|(index, ply)| {
            let value = white_view_text(white_view(ply.after, ply.mover));
            let comment = match verdict(ply, game.variant, &positions[index], notation) {
                Some(verdict) => format!("{value}; {verdict}"),
                None => value,
            };
            MoveNote {
                nag: nag(ply),
                comment: Some(comment),
            }
        })
        .collect();
    let mut intro = String::from("Onca review, values from White's view in men.");
    for color in [Color::White, Color::Black] {
        let side = review.summary(color);
        let _ = write!(
            intro,
            " {color:?}: {} inaccuracies, {} mistakes, {} blunders, average loss {:.2}.",
            side.inaccuracies, side.mistakes, side.blunders, side.average_loss
        );
    }
    write_annotated(&tagged, notation, Some(&intro), &notes)
}

//! Search scores for data lines: `onca-tune score` searches every `FEN;result` position of a
//! datagen file to a fixed depth and writes `FEN;result;score`, the score in evaluation units
//! from White's view, so the tuner can blend it into the game result as the label
//! (`tune --score-weight`). A line that has a score already (datagen records its own search's)
//! gets this search's instead.
//!
//! The output has one line for each input line (comments copied), so a rerun resumes by counting
//! the complete lines already written; an unfinished last line is cut off first. Each position is
//! searched by a cleared single-threaded searcher, so a line's score does not depend on which
//! lines the same worker searched before it: the file is the same on every run. The search plays
//! by the rules of the variant the file's datagen headers name.

use crate::tune::data_variant;
use anyhow::{bail, Context, Result};
use onca::eval::score::Score;
use onca::eval::weights::Weights;
use onca::game::record::Game;
use onca::notation::fen::parse_position;
use onca::rules::position::{Color, Position};
use onca::rules::variant::Variant;
use onca::search::control::{SearchControl, SearchResult, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;
use rayon::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// Scores beyond this (a won or lost game found by the search) are written as this: the label
/// is a probability, and twenty men ahead is already a certain win to the sigmoid.
pub const SCORE_CLAMP: i32 = 2_000;

/// Lines searched between two flushed writes.
const LINES_PER_BATCH: usize = 1 << 14;

/// What `onca-tune score` reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines found already scored in the output (an earlier run).
    pub resumed: u64,
    /// Position lines searched by this run.
    pub scored: u64,
}

/// The search score of `fen` under `variant`'s rules at `depth` plies, from White's view, clamped
/// to [`SCORE_CLAMP`].
pub fn score_position(
    searcher: &mut Searcher,
    variant: Variant,
    fen: &str,
    depth: u32,
) -> Result<i32, String> {
    let position = parse_position(fen).map_err(|e| format!("bad position: {e}"))?;
    searcher.clear();
    let settings = SearchSettings {
        instant_single_reply: false,
        ..SearchSettings::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let found = searcher.search(
        &Game::in_variant(variant, position),
        &limits,
        &settings,
        &SearchControl::new(),
        &mut |_| {},
    );
    Ok(label_score(&position, &found))
}

/// The score a data line records for `position` from the search `found` of it: from White's
/// view, clamped to [`SCORE_CLAMP`], a loss when the side to move has no legal move.
pub fn label_score(position: &Position, found: &SearchResult) -> i32 {
    let score = if found.best.is_some() {
        found.score
    } else {
        Score::loss_in(0)
    };
    let white = if position.side_to_move() == Color::White {
        score.0
    } else {
        -score.0
    };
    white.clamp(-SCORE_CLAMP, SCORE_CLAMP)
}

/// The output line for input `line`: comments and blank lines as they are, `FEN;result` and
/// `FEN;result;score` as `FEN;result;score` with this search's score.
fn scored_line(
    searcher: &mut Searcher,
    variant: Variant,
    line: &str,
    depth: u32,
) -> Result<String, String> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(line.to_string());
    }
    let mut fields = trimmed.split(';');
    let (Some(fen), Some(result), None) = (fields.next(), fields.next(), fields.nth(1)) else {
        return Err(String::from("expected `FEN;result` or `FEN;result;score`"));
    };
    let score = score_position(searcher, variant, fen.trim(), depth)?;
    Ok(format!("{fen};{result};{score}"))
}

/// Complete lines in `path` (0 when it does not exist), after cutting off an unfinished last
/// line.
fn complete_lines(path: &Path) -> Result<u64> {
    let Ok(mut file) = OpenOptions::new().read(true).write(true).open(path) else {
        return Ok(0);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let complete = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    if complete < bytes.len() {
        file.set_len(complete as u64)
            .with_context(|| format!("cannot truncate {}", path.display()))?;
    }
    Ok(bytes[..complete].iter().filter(|&&b| b == b'\n').count() as u64)
}

/// The variant of the data file at `path`: the one its datagen headers name (see
/// [`data_variant`]).
pub fn file_variant(path: &Path) -> Result<Variant> {
    let reader = BufReader::new(
        File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
    );
    let mut failed = None;
    let lines = reader.lines().map_while(|line| match line {
        Ok(line) => Some(line),
        Err(error) => {
            failed = Some(error);
            None
        }
    });
    let variant = data_variant(lines).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    if let Some(error) = failed {
        return Err(error).with_context(|| format!("cannot read {}", path.display()));
    }
    variant
}

/// Scores every line of `input` into `output` at `depth` under the rules of the variant its
/// headers name, with `weights` (`None`: the variant's built-in ones), in parallel on rayon's
/// threads, resuming a partial `output`; `on_batch` gets the lines done so far after each
/// flushed batch.
pub fn rescore(
    input: &Path,
    output: &Path,
    depth: u32,
    weights: Option<Arc<Weights>>,
    on_batch: &dyn Fn(u64),
) -> Result<Summary> {
    if depth == 0 {
        bail!("--depth must be at least 1");
    }
    let variant = file_variant(input)?;
    if let Some(weights) = &weights {
        if weights.variant != variant {
            bail!(
                "the weights are for {} draughts, but {} holds {variant} games",
                weights.variant,
                input.display()
            );
        }
    }
    let resumed = complete_lines(output)?;
    let reader = BufReader::new(
        File::open(input).with_context(|| format!("cannot open {}", input.display()))?,
    );
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(output)
        .with_context(|| format!("cannot open {}", output.display()))?;
    let mut lines = reader.lines().enumerate().skip(resumed as usize);
    let mut summary = Summary { resumed, scored: 0 };
    let mut done = resumed;
    loop {
        let batch: Vec<(usize, String)> = lines
            .by_ref()
            .take(LINES_PER_BATCH)
            .map(|(at, line)| line.map(|line| (at, line)))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("cannot read {}", input.display()))?;
        if batch.is_empty() {
            break;
        }
        let scored: Vec<String> = batch
            .par_iter()
            .map_init(
                || {
                    let mut searcher = Searcher::new(1);
                    searcher.set_weights(weights.clone());
                    searcher
                },
                |searcher, (at, line)| {
                    scored_line(searcher, variant, line, depth)
                        .map_err(|e| format!("{} line {}: {e}", input.display(), at + 1))
                },
            )
            .collect::<Result<_, String>>()
            .map_err(anyhow::Error::msg)?;
        let mut text = scored.join("\n");
        text.push('\n');
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write {}", output.display()))?;
        summary.scored += batch
            .iter()
            .filter(|(_, line)| !line.trim().is_empty() && !line.trim().starts_with('#'))
            .count() as u64;
        done += batch.len() as u64;
        on_batch(done);
    }
    Ok(summary)
}

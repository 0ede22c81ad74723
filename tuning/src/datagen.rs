//! Self-play data: games from randomised balanced openings, each move searched with a node
//! budget drawn at random between the run's node count and one and a half times that, played in parallel; every
//! quiet position (no capture for either side) is written as `FEN;result;score` with the result
//! 1.0 / 0.5 / 0.0 and the score of the search that chose the move there (evaluation units,
//! clamped as [`crate::rescore::label_score`] does), both from White's view: the tuner can blend
//! that score into the label (`tune --score-weight`) at no extra cost.
//!
//! The random budgets are what make the games differ: a fixed budget makes the engine
//! deterministic, so every game from one opening was the same game, and the 200,000 games of
//! version 1 held 287 K distinct positions among 10.3 M lines (a validation split by game then
//! shares its positions with training and rewards memorising them). Each game draws its budgets
//! from its own seed, so a game is still reproducible from the run's seed and its index.
//!
//! Games are played under the rules of the run's variant (Brazilian by default, or Russian), for
//! weights fitted to that variant.
//!
//! The data file resumes itself: it opens with a header comment naming the run's seed, node count
//! and variant (`# onca-tune datagen v3 seed=1 nodes=1000 variant=russian`; a header without a
//! variant, written before there were two, is Brazilian), and each game's lines are followed by a
//! marker comment `# game 17`, written together with them in one flushed write. Running the same
//! command again reads the markers, drops an unfinished tail (a game cut off mid-write) and plays
//! only the games still missing; a larger `--games` extends a finished run. The tuner skips `#`
//! lines.

use crate::rescore::label_score;
use crate::rng::Rng;
use anyhow::{bail, Context, Result};
use onca::eval::evaluate::{can_capture, evaluate_with};
use onca::game::draw::DrawRules;
use onca::game::record::{Game, Outcome};
use onca::notation::fen::to_fen;
use onca::rules::movegen::legal_moves_in;
use onca::rules::position::{Color, Position};
use onca::rules::variant::Variant;
use onca::search::control::{SearchControl, SearchSettings};
use onca::search::limits::Limits;
use onca::search::searcher::Searcher;
use rayon::prelude::*;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Mutex;

/// Random plies played from the start position before the engine takes over.
const RANDOM_PLIES: usize = 8;
/// An opening whose static evaluation is further from zero than this is drawn again.
const BALANCED_MARGIN: i32 = 60;
/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 300;
/// Start of the header comment of every version.
const HEADER_PREFIX: &str = "# onca-tune datagen v";
/// The version in the header; bump it when a change makes old games incomparable. Version 3
/// added the search score to each line (version 2 lines are `FEN;result`).
const VERSION: u32 = 3;
/// Start of the comment closing each game.
const GAME_MARKER: &str = "# game ";

/// A randomised balanced opening under `variant`'s rules (quiet, static evaluation near zero)
/// drawn from `rng`.
pub fn random_opening(rng: &mut Rng, variant: Variant) -> Position {
    let weights = onca::eval::weights::Weights::builtin_for(variant);
    loop {
        let mut position = Position::start();
        let mut ok = true;
        for _ in 0..RANDOM_PLIES {
            let moves = legal_moves_in(variant, &position);
            if moves.is_empty() {
                ok = false;
                break;
            }
            position = position.play_in(variant, &moves[rng.below(moves.len())]);
        }
        if ok && is_quiet(&position) && evaluate_with(&position, weights).0.abs() <= BALANCED_MARGIN
        {
            return position;
        }
    }
}

fn is_quiet(position: &Position) -> bool {
    !can_capture(position, Color::White) && !can_capture(position, Color::Black)
}

/// The random stream of game `index` of a run seeded by `seed`: its opening, then its node
/// budgets.
pub fn game_rng(seed: u64, index: u64) -> Rng {
    Rng::new(seed ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d))
}

/// Plays one game of `variant` from `opening`, each move with a budget drawn from `rng` in
/// `nodes..=nodes * 3 / 2`; returns the quiet positions' FENs, each with the score of its search
/// ([`label_score`]), and the result from White's view.
pub fn play_game(
    opening: Position,
    variant: Variant,
    nodes: u64,
    rng: &mut Rng,
) -> (Vec<(String, i32)>, f64) {
    let mut searcher = Searcher::new(1);
    let settings = SearchSettings::default();
    let rules = DrawRules::default();
    let control = SearchControl::new();
    let mut game = Game::in_variant(variant, opening);
    let mut quiet = Vec::new();
    let mut plies = 0;
    let result = loop {
        if let Some(outcome) = game.outcome(&rules) {
            break match outcome {
                Outcome::Win(Color::White) => 1.0,
                Outcome::Win(Color::Black) => 0.0,
                Outcome::Draw(_) => 0.5,
            };
        }
        if plies > MAX_PLIES {
            break 0.5;
        }
        let position = *game.current();
        let limits = Limits {
            nodes: Some(nodes + rng.below(nodes as usize / 2 + 1) as u64),
            ..Limits::default()
        };
        let found = searcher.search(&game, &limits, &settings, &control, &mut |_| {});
        if is_quiet(&position) {
            quiet.push((to_fen(&position), label_score(&position, &found)));
        }
        match found.best {
            Some(best) => {
                game.play(best);
                plies += 1;
            }
            None => {
                break if position.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
                }
            }
        }
    };
    (quiet, result)
}

/// One of `count` independent parts of a run: the games whose index leaves remainder `index`
/// when divided by `count`. Each shard writes its own file and resumes on its own; [`merge`]
/// combines the files. `Shard::WHOLE` is the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, `0..count`.
    pub index: u64,
    /// Number of parts, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole run as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `I/N` (e.g. `3/8`): part I of N, I < N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard `{text}` (expected I/N with 0 <= I < N, e.g. 3/8)");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game `game` belongs to this part.
    pub fn contains(&self, game: u64) -> bool {
        game % self.count == self.index
    }
}

/// What a datagen run should produce: the games of `shard` among `0..games` of `seed` at `nodes`
/// per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Games in the whole run (indices `0..games`, all shards together).
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Seed of the openings (game `i` of seed `s` always starts from the same position).
    pub seed: u64,
    /// The part of the run this file holds.
    pub shard: Shard,
    /// The rules the games are played by.
    pub variant: Variant,
    /// Append to a file written with another seed, node count or variant (or without a header).
    pub force: bool,
}

impl Config {
    fn header(&self) -> String {
        format!(
            "{HEADER_PREFIX}{VERSION} seed={} nodes={} {VARIANT_FIELD}{}",
            self.seed, self.nodes, self.variant
        )
    }
}

/// The field of a header naming the variant.
const VARIANT_FIELD: &str = "variant=";

/// `header` with its variant named: headers written before there were two variants name none and
/// are Brazilian, so that their runs resume and merge with the same settings.
fn with_variant(header: &str) -> String {
    if header.contains(VARIANT_FIELD) {
        header.to_string()
    } else {
        format!("{header} {VARIANT_FIELD}{}", Variant::Brazilian)
    }
}

/// The variant a datagen header line names (Brazilian if it names none, as before there were
/// two), or `None` if the line is no datagen header or names an unknown variant.
pub fn header_variant(line: &str) -> Option<Variant> {
    if !line.starts_with(HEADER_PREFIX) {
        return None;
    }
    match line
        .split_whitespace()
        .find_map(|field| field.strip_prefix(VARIANT_FIELD))
    {
        Some(name) => name.parse().ok(),
        None => Some(Variant::Brazilian),
    }
}

/// A data file opened for appending, with the games still to play.
#[derive(Debug)]
pub struct Plan {
    file: File,
    /// Games of this seed and node count already in the file (any index, even beyond `games`).
    pub finished: u64,
    /// Game indices still to play, ascending.
    pub remaining: Vec<u64>,
    /// Bytes of an unfinished game dropped from the end of the file.
    pub dropped_bytes: u64,
}

/// What the existing file says about earlier runs.
#[derive(Default)]
struct Scan {
    finished: HashSet<u64>,
    /// The last header line (without its newline), if any.
    last_header: Option<String>,
    any_header: bool,
    /// Data lines before the first header (a file from before the header existed).
    headerless_lines: u64,
    /// Bytes up to the end of the last header or game marker.
    complete_len: u64,
}

fn scan(path: &Path, config: &Config) -> Result<Scan> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let wanted = config.header();
    let mut reader = BufReader::new(file);
    let mut scan = Scan::default();
    let mut line = String::new();
    let mut offset = 0u64;
    let mut number = 0u64;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        // A line without its newline was cut off mid-write: it belongs to the unfinished tail.
        let Some(text) = line.strip_suffix('\n') else {
            break;
        };
        offset += read as u64;
        if text.starts_with(HEADER_PREFIX) {
            scan.any_header = true;
            scan.last_header = Some(with_variant(text));
            scan.complete_len = offset;
        } else if let Some(index) = text.strip_prefix(GAME_MARKER) {
            let index: u64 = index
                .trim()
                .parse()
                .with_context(|| format!("{} line {number}: bad game marker", path.display()))?;
            if scan.last_header.as_deref() == Some(wanted.as_str()) {
                scan.finished.insert(index);
            }
            scan.complete_len = offset;
        } else if !scan.any_header && !text.trim().is_empty() && !text.starts_with('#') {
            scan.headerless_lines += 1;
        }
    }
    if !scan.any_header {
        // Nothing written by this version: keep every complete line (appended to with --force).
        scan.complete_len = offset;
    }
    Ok(scan)
}

/// Opens (or creates) the data file at `path` for `config`: checks that an existing file was
/// written with the same seed, node count and variant (unless `config.force`), drops an unfinished last
/// game, writes the header when needed and lists the games still to play.
pub fn prepare(path: &Path, config: &Config) -> Result<Plan> {
    let scan = scan(path, config)?;
    let header = config.header();
    let matching = scan.finished.len() as u64 > 0 || scan.last_header.as_deref() == Some(&header);
    if !config.force {
        if scan.headerless_lines > 0 {
            bail!(
                "{} holds {} positions without a datagen header (an older format); \
                 write to a new file or pass --force to append anyway",
                path.display(),
                scan.headerless_lines
            );
        }
        if scan.any_header && !matching {
            bail!(
                "{} was written with other settings (last header `{}`, this run `{header}`); \
                 use the same --seed, --nodes and --variant to resume, a new file, or --force to append",
                path.display(),
                scan.last_header.as_deref().unwrap_or_default()
            );
        }
    }
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let length = file.metadata()?.len();
    let dropped_bytes = length.saturating_sub(scan.complete_len);
    if dropped_bytes > 0 {
        file.set_len(scan.complete_len)
            .with_context(|| format!("cannot truncate {}", path.display()))?;
    }
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    if scan.last_header.as_deref() != Some(&header) {
        writeln!(file, "{header}").with_context(|| format!("cannot write {}", path.display()))?;
    }
    let remaining = (0..config.games)
        .filter(|&index| config.shard.contains(index) && !scan.finished.contains(&index))
        .collect();
    Ok(Plan {
        file,
        finished: scan.finished.len() as u64,
        remaining,
        dropped_bytes,
    })
}

/// Totals of one [`run`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    /// Games won by White, drawn, won by Black.
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

/// Plays the plan's remaining games in parallel and appends each one's quiet positions and its
/// marker as it finishes (order varies from run to run; the set of lines does not). `progress`
/// gets the totals so far after each game.
pub fn run(plan: Plan, config: &Config, progress: &(dyn Fn(&Summary) + Sync)) -> Result<Summary> {
    let sink = Mutex::new((plan.file, Summary::default(), None::<std::io::Error>));
    plan.remaining.par_iter().for_each(|&index| {
        let mut rng = game_rng(config.seed, index);
        let opening = random_opening(&mut rng, config.variant);
        let (fens, result) = play_game(opening, config.variant, config.nodes, &mut rng);
        let mut text = String::new();
        for (fen, score) in &fens {
            text.push_str(&format!("{fen};{result:.1};{score}\n"));
        }
        text.push_str(&format!("{GAME_MARKER}{index}\n"));
        let Ok(mut guard) = sink.lock() else { return };
        let (file, summary, error) = &mut *guard;
        if error.is_some() {
            return;
        }
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
            *error = Some(e);
            return;
        }
        summary.games += 1;
        summary.positions += fens.len() as u64;
        match result {
            r if r > 0.75 => summary.white_wins += 1,
            r if r < 0.25 => summary.black_wins += 1,
            _ => summary.draws += 1,
        }
        progress(summary);
    });
    let (_, summary, error) = sink
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a datagen thread panicked"))?;
    match error {
        Some(error) => Err(error).context("cannot write the data file"),
        None => Ok(summary),
    }
}

/// Totals of one [`merge`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Complete games written.
    pub games: u64,
    /// Position lines written.
    pub positions: u64,
    /// Games left out because an earlier input already had the same index.
    pub duplicates: u64,
    /// Bytes of unfinished games (after an input's last marker) left out.
    pub dropped_bytes: u64,
}

/// Combines datagen files (the shards of one run) into `out`: one header, then every complete
/// game once (the first copy of a repeated index wins; an unfinished last game is left out). All
/// inputs must carry the same header (seed, node count and variant). Written to a temporary name and
/// renamed, so `out` never holds half a merge.
pub fn merge(inputs: &[&Path], out: &Path) -> Result<MergeSummary> {
    let mut header: Option<String> = None;
    let mut seen = HashSet::new();
    let mut summary = MergeSummary::default();
    let temporary = out.with_extension("merging");
    let mut writer = std::io::BufWriter::new(
        File::create(&temporary)
            .with_context(|| format!("cannot create {}", temporary.display()))?,
    );
    for input in inputs {
        let file = File::open(input).with_context(|| format!("cannot read {}", input.display()))?;
        let mut reader = BufReader::new(file);
        let mut game = String::new();
        let mut line = String::new();
        let mut number = 0u64;
        let mut has_header = false;
        loop {
            line.clear();
            let read = reader
                .read_line(&mut line)
                .with_context(|| format!("cannot read {}", input.display()))?;
            if read == 0 {
                break;
            }
            number += 1;
            let Some(text) = line.strip_suffix('\n') else {
                break; // cut off mid-write: part of the unfinished tail
            };
            if text.starts_with(HEADER_PREFIX) {
                let text = with_variant(text);
                match &header {
                    None => {
                        writeln!(writer, "{text}")?;
                        header = Some(text);
                    }
                    Some(first) if *first != text => bail!(
                        "{} line {number}: header `{text}` differs from `{first}` (another version, seed, node count or variant)",
                        input.display()
                    ),
                    Some(_) => {}
                }
                has_header = true;
                game.clear();
            } else if let Some(index) = text.strip_prefix(GAME_MARKER) {
                let index: u64 = index.trim().parse().with_context(|| {
                    format!("{} line {number}: bad game marker", input.display())
                })?;
                if seen.insert(index) {
                    writer.write_all(game.as_bytes())?;
                    writeln!(writer, "{text}")?;
                    summary.games += 1;
                    summary.positions += game.lines().count() as u64;
                } else {
                    summary.duplicates += 1;
                }
                game.clear();
            } else if !has_header {
                bail!(
                    "{} line {number}: data before a datagen header (not a datagen file)",
                    input.display()
                );
            } else {
                game.push_str(&line);
            }
        }
        summary.dropped_bytes += game.len() as u64 + line.len() as u64;
    }
    writer
        .into_inner()
        .map_err(|error| error.into_error())
        .and_then(|file| file.sync_all())
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, out)
        .with_context(|| format!("cannot rename {} to {}", temporary.display(), out.display()))?;
    Ok(summary)
}

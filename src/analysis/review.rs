//! Reviewing a finished game: every position of it searched once, each move judged by the value
//! it gives away, decisive mistakes flagged from win and table scores, totals per side.
//!
//! Position `i` (before ply `i`) is searched once with the game's history behind it. Its score is
//! the value of the best move for the side to move; the value of the move played is minus the
//! score of position `i + 1`. The difference, in men and never negative, is what the move lost.
//! Searching each position once (not the position and then every move) halves the cost, and the
//! search of position `i + 1` is at least as deep as a search of the move would have been.

use crate::eval::score::Score;
use crate::game::record::{Game, Outcome};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::variant::Variant;
use crate::search::control::{SearchControl, SearchSettings};
use crate::search::limits::Limits;
use crate::search::searcher::Searcher;

/// Values beyond this many men (and every win or loss) count as this many when a move's loss is
/// measured: a position that is lost anyway cannot lose more than a clear loss.
pub const SCORE_CAP_MEN: f64 = 5.0;

/// How much a move must lose, in men, to be named an inaccuracy, a mistake or a blunder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Loses at least this much: an inaccuracy (`?!`).
    pub inaccuracy: f64,
    /// Loses at least this much: a mistake (`?`).
    pub mistake: f64,
    /// Loses at least this much: a blunder (`??`).
    pub blunder: f64,
}

impl Thresholds {
    /// A quarter of a man is the smallest difference our evaluation tells apart reliably between
    /// two searches of one depth; half a man is a clear positional concession (a tempo, a weak
    /// back rank); a whole man is material, which in draughts usually decides the game.
    pub const DEFAULT: Thresholds = Thresholds {
        inaccuracy: 0.25,
        mistake: 0.5,
        blunder: 1.0,
    };
}

/// How a move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveClass {
    /// The move the search preferred.
    Best,
    /// Another move that loses less than an inaccuracy.
    Good,
    /// Loses at least [`Thresholds::inaccuracy`].
    Inaccuracy,
    /// Loses at least [`Thresholds::mistake`].
    Mistake,
    /// Loses at least [`Thresholds::blunder`], or turns a forced result (see [`Flag`]).
    Blunder,
}

impl MoveClass {
    /// The class in one lower-case word (`best`, `good`, `inaccuracy`, `mistake`, `blunder`).
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }
}

/// A move that changed a forced result, judged from win-by-distance and table scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The side to move had a forced win and the move lets it go.
    MissedWin,
    /// The position was not lost (neither a forced loss nor worse than a blunder's margin
    /// behind) and the move loses by force.
    ThrownDraw,
}

/// The review of one ply.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// Who played the move.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The position's value for the mover before the move (the best move's value).
    pub before: Score,
    /// The search's best move (`None` never happens for a position where a move was played).
    pub best: Option<Move>,
    /// The value of the move played for the mover.
    pub after: Score,
    /// The best value among the other moves, when the search reported a second line.
    pub second: Option<Score>,
    /// Men lost against the best move (0 for the best move itself).
    pub loss: f64,
    /// The move's class by `loss` (and by the flag).
    pub class: MoveClass,
    /// A forced result gained or given away.
    pub flag: Option<Flag>,
    /// Whether the move was the only one that holds: best, with every other move a mistake.
    pub only_move: bool,
    /// Legal moves in the position.
    pub legal_moves: usize,
    /// Depth of the search of the position before the move.
    pub depth: u32,
    /// The search's principal variation from the position before the move.
    pub pv: Vec<Move>,
}

/// A reviewed game: one [`PlyReview`] per move, and the value of the final position.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// The plies in order.
    pub plies: Vec<PlyReview>,
    /// The final position's value for its side to move.
    pub final_score: Score,
    /// The side to move in the final position.
    pub final_mover: Color,
    /// Nodes searched in the whole review.
    pub nodes: u64,
}

/// One side's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played by the side.
    pub moves: usize,
    /// Moves that were the search's best.
    pub best: usize,
    /// Inaccuracies, mistakes and blunders.
    pub inaccuracies: usize,
    /// See [`SideSummary::inaccuracies`].
    pub mistakes: usize,
    /// See [`SideSummary::inaccuracies`].
    pub blunders: usize,
    /// Forced wins let go and draws turned into losses.
    pub missed_wins: usize,
    /// See [`SideSummary::missed_wins`].
    pub thrown_draws: usize,
    /// Mean men lost per move.
    pub average_loss: f64,
}

impl GameReview {
    /// The totals of `color`'s moves.
    pub fn summary(&self, color: Color) -> SideSummary {
        let mut summary = SideSummary::default();
        let mut total = 0.0;
        for ply in self.plies.iter().filter(|ply| ply.mover == color) {
            summary.moves += 1;
            total += ply.loss;
            match ply.class {
                MoveClass::Best => summary.best += 1,
                MoveClass::Good => {}
                MoveClass::Inaccuracy => summary.inaccuracies += 1,
                MoveClass::Mistake => summary.mistakes += 1,
                MoveClass::Blunder => summary.blunders += 1,
            }
            match ply.flag {
                Some(Flag::MissedWin) => summary.missed_wins += 1,
                Some(Flag::ThrownDraw) => summary.thrown_draws += 1,
                None => {}
            }
        }
        summary.average_loss = total / summary.moves.max(1) as f64;
        summary
    }

    /// White's view of the value before each ply and after the last one: the evaluation graph.
    pub fn white_scores(&self) -> Vec<Score> {
        let white = |score: Score, mover: Color| match mover {
            Color::White => score,
            Color::Black => -score,
        };
        self.plies
            .iter()
            .map(|ply| white(ply.before, ply.mover))
            .chain([white(self.final_score, self.final_mover)])
            .collect()
    }
}

/// How to review: the search per position, its settings (their draw rules also end the game
/// being reviewed) and the thresholds.
#[derive(Clone, Debug)]
pub struct ReviewConfig {
    /// Limits of each position's search.
    pub limits: Limits,
    /// Threads and the like; `multipv` is set to 2 by the review (for only moves).
    pub settings: SearchSettings,
    /// Class boundaries.
    pub thresholds: Thresholds,
}

/// A score as a number of men for measuring losses: heuristic scores clamped to
/// [`SCORE_CAP_MEN`], wins and losses (by distance or by the tables) at the cap.
pub fn capped_men(score: Score) -> f64 {
    if score.is_heuristic() {
        score.men().clamp(-SCORE_CAP_MEN, SCORE_CAP_MEN)
    } else if score > Score::DRAW {
        SCORE_CAP_MEN
    } else {
        -SCORE_CAP_MEN
    }
}

fn is_forced_win(score: Score) -> bool {
    !score.is_heuristic() && score > Score::DRAW
}

fn is_forced_loss(score: Score) -> bool {
    !score.is_heuristic() && score < Score::DRAW
}

/// One position's search: its value, best move, the second line's value, depth and PV.
struct Searched {
    score: Score,
    best: Option<Move>,
    second: Option<Score>,
    depth: u32,
    nodes: u64,
    pv: Vec<Move>,
}

fn search_position(
    searcher: &mut Searcher,
    game: &Game,
    config: &ReviewConfig,
    control: &SearchControl,
) -> Searched {
    let settings = SearchSettings {
        multipv: 2,
        instant_single_reply: false,
        table_root_moves: false,
        ..config.settings
    };
    let mut lines: [Option<(u32, Score, Vec<Move>)>; 2] = [None, None];
    let result = searcher.search(game, &config.limits, &settings, control, &mut |report| {
        if let Some(slot) = lines.get_mut(report.multipv.wrapping_sub(1)) {
            *slot = Some((report.depth, report.score, report.pv.clone()));
        }
    });
    // The second line counts only if it comes from the iteration the answer comes from.
    let second = match &lines[1] {
        Some((depth, score, _)) if *depth == result.depth => Some(*score),
        _ => None,
    };
    let pv = match &lines[0] {
        Some((_, _, pv)) if pv.first() == result.best.as_ref() => pv.clone(),
        _ => result.best.into_iter().collect(),
    };
    Searched {
        score: result.score,
        best: result.best,
        second,
        depth: result.depth,
        nodes: result.nodes,
        pv,
    }
}

/// Reviews the game of `variant` from `start` with `moves` (all legal): searches each position with
/// `searcher` (its tables and weights as set by the caller) and calls `progress(done, total)`
/// after each search. Stops early, returning the plies reviewed so far, when `control` is stopped.
pub fn review_game(
    searcher: &mut Searcher,
    variant: Variant,
    start: Position,
    moves: &[Move],
    config: &ReviewConfig,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> GameReview {
    let total = moves.len() + 1;
    let mut game = Game::in_variant(variant, start);
    let mut nodes = 0;
    let mut searched = search_position(searcher, &game, config, control);
    nodes += searched.nodes;
    progress(1, total);
    let mut plies = Vec::with_capacity(moves.len());
    for (index, &played) in moves.iter().enumerate() {
        if control.is_stopped() {
            break;
        }
        let position = *game.current();
        let legal_moves = game.legal_moves().len();
        game.play(played);
        let next = match game.outcome(&config.settings.draw_rules) {
            Some(outcome) => Searched {
                score: match outcome {
                    Outcome::Win(winner) if winner == game.current().side_to_move() => {
                        Score::win_in(0)
                    }
                    Outcome::Win(_) => Score::loss_in(0),
                    Outcome::Draw(_) => Score::DRAW,
                },
                best: None,
                second: None,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            },
            None => search_position(searcher, &game, config, control),
        };
        nodes += next.nodes;
        progress(index + 2, total);
        let before = searched.score;
        let after = -next.score;
        let is_best = searched.best == Some(played);
        let loss = if is_best {
            0.0
        } else {
            (capped_men(before) - capped_men(after)).max(0.0)
        };
        let flag = if is_forced_win(before) && !is_forced_win(after) {
            Some(Flag::MissedWin)
        } else if !is_forced_loss(before)
            && !is_forced_win(before)
            && capped_men(before) > -config.thresholds.blunder
            && is_forced_loss(after)
        {
            Some(Flag::ThrownDraw)
        } else {
            None
        };
        let thresholds = &config.thresholds;
        let class = if flag.is_some() || loss >= thresholds.blunder {
            MoveClass::Blunder
        } else if is_best {
            MoveClass::Best
        } else if loss >= thresholds.mistake {
            MoveClass::Mistake
        } else if loss >= thresholds.inaccuracy {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        };
        let only_move = is_best
            && legal_moves > 1
            && searched.second.is_some_and(|second| {
                capped_men(before) - capped_men(second) >= thresholds.mistake
            });
        plies.push(PlyReview {
            mover: position.side_to_move(),
            played,
            before,
            best: searched.best,
            after,
            second: searched.second,
            loss,
            class,
            flag,
            only_move,
            legal_moves,
            depth: searched.depth,
            pv: std::mem::take(&mut searched.pv),
        });
        searched = next;
    }
    GameReview {
        plies,
        final_score: searched.score,
        final_mover: game.current().side_to_move(),
        nodes,
    }
}

//! Adjudication: ending a game early when its result is no longer in doubt, by the engines'
//! own scores or by the endgame tables. Everything is off unless asked for.
//!
//! * **Draw by scores**: from move M on, both engines reported a score within S of zero (in men,
//!   the Hub `score=`) for their last N moves each.
//! * **Win by scores**: both engines agree that one side is ahead by at least S (the leader's
//!   engine at +S or more, the other at -S or less) for their last N moves each.
//! * **Tables**: a position the tables cover ends as the tables say (the tables are of the match's
//!   variant, which `onca match` checks when it loads them). A table draw is always a draw
//!   in play too (the draw rules only add draws). A table win ignores the move-count rules, and
//!   those rules only ever apply while both sides have kings: so a table win is adjudicated only
//!   when the defending side has no king; otherwise the game is played on and the engines (and
//!   the rules) decide. A defender's man that later promotes into a rule-drawn ending is the one
//!   case this can misjudge; it needs the defender to be lost already, so it is rare.

use crate::egtb::{Tablebases, Wdl};
use crate::rules::position::{Color, Position};
use std::sync::Arc;

/// Draw adjudication by scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawByScores {
    /// The first full move number (counted from the start of the game, opening included) at
    /// which a draw may be adjudicated.
    pub from_move: usize,
    /// Consecutive moves of each engine that must stay within `score`.
    pub moves: usize,
    /// Largest absolute score, in men.
    pub score: f64,
}

/// Win adjudication by scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinByScores {
    /// Consecutive moves of each engine that must agree.
    pub moves: usize,
    /// Smallest lead, in men.
    pub score: f64,
}

/// Which adjudications a match applies (the default: none).
#[derive(Clone, Default)]
pub struct Adjudication {
    /// Draw by scores.
    pub draw: Option<DrawByScores>,
    /// Win by scores.
    pub win: Option<WinByScores>,
    /// Endgame tables that end covered positions.
    pub tables: Option<Arc<Tablebases>>,
}

impl std::fmt::Debug for Adjudication {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adjudication")
            .field("draw", &self.draw)
            .field("win", &self.win)
            .field("tables", &self.tables.as_ref().map(|t| t.max_pieces()))
            .finish()
    }
}

/// What an adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ruling {
    /// A draw by scores.
    ScoreDraw(DrawByScores),
    /// A win for the colour by scores.
    ScoreWin(Color, WinByScores),
    /// A draw by the tables.
    TableDraw,
    /// A win for the colour by the tables.
    TableWin(Color),
}

/// One engine move of the game: who moved and the score it reported (in men, its own view).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoredMove {
    /// The side that moved.
    pub mover: Color,
    /// The last `score=` of its search, if it sent one that reads as a number.
    pub score: Option<f64>,
}

/// Reads a Hub `score=` value (`0.35`, `-99.96`) in men; None for anything else.
pub fn parse_score(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|s| s.is_finite())
}

impl Adjudication {
    /// Whether any adjudication is on.
    pub fn is_active(&self) -> bool {
        self.draw.is_some() || self.win.is_some() || self.tables.is_some()
    }

    /// The ruling on the game so far: `history` is every engine move in order (opening moves
    /// left out), `plies` the plies played from the start (opening included) and `position`
    /// the current one.
    pub fn rule(
        &self,
        history: &[ScoredMove],
        plies: usize,
        position: &Position,
    ) -> Option<Ruling> {
        if let Some(tables) = &self.tables {
            if let Some(ruling) = table_ruling(tables, position) {
                return Some(ruling);
            }
        }
        if let Some(win) = self.win {
            if let Some(leader) = agreed_leader(history, win) {
                return Some(Ruling::ScoreWin(leader, win));
            }
        }
        if let Some(draw) = self.draw {
            let move_number = plies / 2 + 1;
            if move_number >= draw.from_move && both_near_zero(history, draw) {
                return Some(Ruling::ScoreDraw(draw));
            }
        }
        None
    }
}

/// The last `moves` moves of each engine (2 * moves entries), if there are that many and
/// each has a score.
fn last_scores(history: &[ScoredMove], moves: usize) -> Option<Vec<(Color, f64)>> {
    let needed = 2 * moves.max(1);
    let tail = history.get(history.len().checked_sub(needed)?..)?;
    tail.iter()
        .map(|entry| entry.score.map(|score| (entry.mover, score)))
        .collect()
}

fn both_near_zero(history: &[ScoredMove], rule: DrawByScores) -> bool {
    last_scores(history, rule.moves)
        .is_some_and(|tail| tail.iter().all(|(_, score)| score.abs() <= rule.score))
}

fn agreed_leader(history: &[ScoredMove], rule: WinByScores) -> Option<Color> {
    let tail = last_scores(history, rule.moves)?;
    [Color::White, Color::Black].into_iter().find(|&leader| {
        tail.iter().all(|&(mover, score)| {
            if mover == leader {
                score >= rule.score
            } else {
                score <= -rule.score
            }
        })
    })
}

fn table_ruling(tables: &Tablebases, position: &Position) -> Option<Ruling> {
    if position.occupied().count() > tables.max_pieces() {
        return None;
    }
    let to_move = position.side_to_move();
    let winner = match tables.probe(position)? {
        Wdl::Draw => return Some(Ruling::TableDraw),
        Wdl::Win => to_move,
        Wdl::Loss => to_move.opponent(),
    };
    // The move-count rules need kings on both sides: without a defending king the table's win
    // stands in play.
    position
        .kings(winner.opponent())
        .is_empty()
        .then_some(Ruling::TableWin(winner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::generate;
    use crate::notation::fen::parse_position;

    fn moves(scores: &[f64]) -> Vec<ScoredMove> {
        scores
            .iter()
            .enumerate()
            .map(|(ply, &score)| ScoredMove {
                mover: if ply % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                score: Some(score),
            })
            .collect()
    }

    #[test]
    fn draws_need_both_engines_near_zero_for_the_last_moves_after_the_first_move_number() {
        let draw = DrawByScores {
            from_move: 10,
            moves: 2,
            score: 0.1,
        };
        let rules = Adjudication {
            draw: Some(draw),
            ..Adjudication::default()
        };
        let start = Position::start();
        let history = moves(&[1.0, 0.05, -0.1, 0.0, 0.02]);
        assert_eq!(
            rules.rule(&history, 40, &start),
            Some(Ruling::ScoreDraw(draw))
        );
        // Before move 10 (18 plies played: move 10 starts), nothing.
        assert_eq!(rules.rule(&history, 17, &start), None);
        assert_eq!(
            rules.rule(&history, 18, &start),
            Some(Ruling::ScoreDraw(draw))
        );
        // One score too far from zero in the last four entries.
        assert_eq!(rules.rule(&moves(&[0.0, 0.11, 0.0, 0.0]), 40, &start), None);
        // Too few moves, or a move without a score.
        assert_eq!(rules.rule(&moves(&[0.0, 0.0, 0.0]), 40, &start), None);
        let mut unscored = moves(&[0.0, 0.0, 0.0, 0.0]);
        unscored[2].score = None;
        assert_eq!(rules.rule(&unscored, 40, &start), None);
    }

    #[test]
    fn wins_need_both_engines_to_agree_on_the_leader() {
        let win = WinByScores {
            moves: 2,
            score: 3.0,
        };
        let rules = Adjudication {
            win: Some(win),
            ..Adjudication::default()
        };
        let start = Position::start();
        // Black's engine (odd entries) is at -3 or worse, White's at +3 or better.
        let history = moves(&[0.0, -3.5, 3.0, -4.0, 5.0]);
        assert_eq!(
            rules.rule(&history[1..], 40, &start),
            Some(Ruling::ScoreWin(Color::White, win))
        );
        // Black's engine ahead: entries alternate Black (mover of odd plies) ... here White's
        // engine says -3 and Black's +3.
        let history = moves(&[-3.0, 3.0, -3.2, 4.0]);
        assert_eq!(
            rules.rule(&history, 40, &start),
            Some(Ruling::ScoreWin(Color::Black, win))
        );
        // Only one engine thinks it is winning.
        assert_eq!(rules.rule(&moves(&[3.0, 0.0, 3.0, 0.0]), 40, &start), None);
    }

    #[test]
    fn scores_read_as_men() {
        assert_eq!(parse_score("0.35"), Some(0.35));
        assert_eq!(parse_score("-99.96"), Some(-99.96));
        assert_eq!(parse_score("mate"), None);
        assert_eq!(parse_score("NaN"), None);
    }

    #[test]
    fn table_wins_stand_only_against_a_defender_without_kings() {
        let mut tables = Tablebases::empty();
        for keys in generate::pairs(3) {
            let codes = generate::solve_pair(&keys, &tables).expect("small tables solve");
            for (key, codes) in keys.into_iter().zip(codes) {
                tables.insert(key, &generate::wdl_symbols(&codes), Some(codes));
            }
        }
        let rules = Adjudication {
            tables: Some(Arc::new(tables)),
            ..Adjudication::default()
        };
        let rule = |fen: &str| rules.rule(&[], 0, &parse_position(fen).expect("valid"));
        // A king catches the man on its home square, whoever is to move.
        assert_eq!(rule("W:WK32:B1"), Some(Ruling::TableWin(Color::White)));
        assert_eq!(rule("B:WK10:B4"), Some(Ruling::TableWin(Color::White)));
        // Two kings win against the king on 5 (it is caught at once), but the defender has a
        // king, so the move-count rules could still apply: played on.
        assert_eq!(rule("W:WK10,K14:BK5"), None);
        // A king each: a table draw. Outside the tables (four pieces): nothing.
        assert_eq!(rule("W:WK1:BK32"), Some(Ruling::TableDraw));
        assert_eq!(rule("W:WK1,K2:BK31,K32"), None);
    }
}

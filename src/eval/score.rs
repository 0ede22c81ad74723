//! Scores and search depths as newtypes.
//!
//! A [`Score`] is always seen from the side to move. Heuristic scores are in internal units where
//! one man is worth [`Score::MAN`] = 100 units. Scores beyond [`Score::WIN_BOUND`] in absolute
//! value are exact game results: `WIN - n` means the side to move wins in `n` plies (the opponent
//! is left without a legal move after `n` plies), `-(WIN - n)` means it loses in `n` plies.
//!
//! Between the two lies the database band: `DB_WIN - n` means the endgame databases say the side
//! to move wins, found `n` plies from the root (a position of the tables reached after `n` plies).
//! Such a win is exact without the move-count draw rules but its length is unknown, so it ranks
//! below every win by distance and above every heuristic score.

use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A score from the side to move's view (100 units = one man; see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// One man in internal units.
    pub const MAN: i32 = 100;
    /// The draw score.
    pub const DRAW: Score = Score(0);
    /// Win at the root (0 plies): no legal move for the opponent now. Never reached as such.
    pub const WIN: i32 = 30_000;
    /// Scores at or beyond this (in absolute value) are wins or losses by distance.
    pub const WIN_BOUND: i32 = Score::WIN - 1_000;
    /// Larger than every real score: the initial alpha-beta window.
    pub const INFINITE: Score = Score(Score::WIN + 1);
    /// Heuristic scores are clamped to this so they never look like game results.
    pub const MAX_HEURISTIC: i32 = 7_999;
    /// A database win found at the root (0 plies): the top of the database band.
    pub const DB_WIN: i32 = 20_000;
    /// Scores at or beyond this (in absolute value) and below [`Score::WIN_BOUND`] are database
    /// results.
    pub const DB_BOUND: i32 = Score::DB_WIN - 1_000;

    /// The databases say the side to move wins, at a node `plies` plies from the root.
    pub const fn db_win_in(plies: u32) -> Score {
        let plies = if plies > 999 { 999 } else { plies };
        Score(Score::DB_WIN - plies as i32)
    }

    /// The databases say the side to move loses, at a node `plies` plies from the root.
    pub const fn db_loss_in(plies: u32) -> Score {
        Score(-Score::db_win_in(plies).0)
    }

    /// Whether this is a database win or loss (not a win by distance).
    pub const fn is_db(self) -> bool {
        let magnitude = self.0.abs();
        magnitude >= Score::DB_BOUND && magnitude < Score::WIN_BOUND
    }

    /// `Some(+n)` for a database win found `n` plies from the root, `Some(-n)` for a database
    /// loss, `None` otherwise.
    pub fn db_plies(self) -> Option<i32> {
        if !self.is_db() {
            None
        } else if self.0 > 0 {
            Some(Score::DB_WIN - self.0)
        } else {
            Some(-(Score::DB_WIN + self.0))
        }
    }

    /// Whether this is a heuristic score (neither a win by distance nor a database result).
    pub const fn is_heuristic(self) -> bool {
        !self.is_decisive() && !self.is_db()
    }

    /// The side to move wins in `plies` plies.
    pub const fn win_in(plies: u32) -> Score {
        let plies = if plies > 999 { 999 } else { plies };
        Score(Score::WIN - plies as i32)
    }

    /// The side to move loses in `plies` plies (`loss_in(0)`: no legal move now).
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Score::win_in(plies).0)
    }

    /// Whether this is an exact win or loss by distance.
    pub const fn is_decisive(self) -> bool {
        self.0 >= Score::WIN_BOUND || self.0 <= -Score::WIN_BOUND
    }

    /// `Some(+n)` when we win in `n` plies, `Some(-n)` when we lose in `n`, `None` for heuristic
    /// scores.
    pub fn plies_to_win(self) -> Option<i32> {
        if self.0 >= Score::WIN_BOUND {
            Some(Score::WIN - self.0)
        } else if self.0 <= -Score::WIN_BOUND {
            Some(-(Score::WIN + self.0))
        } else {
            None
        }
    }

    /// The heuristic score in men, clamped to +-79.99 (decisive scores give the clamp value).
    pub fn men(self) -> f64 {
        let men = f64::from(self.0) / f64::from(Score::MAN);
        men.clamp(-79.99, 79.99)
    }

    /// A heuristic value clamped into the heuristic range.
    pub fn heuristic(units: i32) -> Score {
        Score(units.clamp(-Score::MAX_HEURISTIC, Score::MAX_HEURISTIC))
    }

    /// Converts a score relative to the current node (`ply` plies from the root) into the
    /// root-independent form stored in the transposition table. Wins by distance and database
    /// results both count plies from the root, so both are shifted.
    pub fn to_table(self, ply: u32) -> Score {
        if self.0 >= Score::DB_BOUND {
            Score(self.0 + ply as i32)
        } else if self.0 <= -Score::DB_BOUND {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Score::to_table`].
    pub fn from_table(self, ply: u32) -> Score {
        if self.0 >= Score::DB_BOUND {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Score::DB_BOUND {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, units: i32) -> Score {
        Score(self.0 + units)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, units: i32) -> Score {
        Score(self.0 - units)
    }
}

impl fmt::Display for Score {
    /// `win in N` / `loss in N` (N in plies), `db win at N` / `db loss at N` (a database result
    /// reached after N plies) or the score in men with two decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.plies_to_win(), self.db_plies()) {
            (Some(n), _) if self.0 > 0 => write!(f, "win in {n}"),
            (Some(n), _) => write!(f, "loss in {}", -n),
            (None, Some(n)) if self.0 > 0 => write!(f, "db win at {n}"),
            (None, Some(n)) => write!(f, "db loss at {}", -n),
            (None, None) => write!(f, "{:.2}", self.men()),
        }
    }
}

/// A search depth in whole plies. Remaining depth may go negative inside quiescence.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Depth(pub i32);

impl Depth {
    /// No plies left: where the main search hands over to quiescence.
    pub const ZERO: Depth = Depth(0);
    /// The deepest iteration the search will start.
    pub const MAX: Depth = Depth(120);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_losses_by_distance() {
        assert_eq!(Score::win_in(5).plies_to_win(), Some(5));
        assert_eq!(Score::loss_in(4).plies_to_win(), Some(-4));
        assert_eq!(Score(250).plies_to_win(), None);
        assert!(Score::win_in(3) > Score::win_in(5));
        assert!(Score::loss_in(3) < Score::loss_in(5));
        assert_eq!(-Score::win_in(7), Score::loss_in(7));
        assert_eq!(Score(12_345).men(), 79.99);
        assert_eq!(Score(-150).men(), -1.5);
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [Score::win_in(9), Score::loss_in(12), Score(37)] {
            assert_eq!(score.to_table(6).from_table(6), score);
        }
        assert_eq!(Score::win_in(9).to_table(4), Score::win_in(5));
        for score in [Score::db_win_in(9), Score::db_loss_in(12)] {
            assert_eq!(score.to_table(6).from_table(6), score);
        }
        assert_eq!(Score::db_loss_in(9).to_table(4), Score::db_loss_in(5));
    }

    #[test]
    fn database_scores_lie_between_heuristic_scores_and_wins() {
        let db_win = Score::db_win_in(7);
        assert!(db_win.is_db() && !db_win.is_decisive() && !db_win.is_heuristic());
        assert_eq!(db_win.plies_to_win(), None);
        assert_eq!(db_win.db_plies(), Some(7));
        assert_eq!(Score::db_loss_in(3).db_plies(), Some(-3));
        assert_eq!(Score::db_win_in(0).db_plies(), Some(0));
        assert!(Score::win_in(999) > Score::db_win_in(0));
        assert!(Score::db_win_in(999) > Score(Score::MAX_HEURISTIC));
        assert!(Score::db_loss_in(999) < Score(-Score::MAX_HEURISTIC));
        assert!(Score::db_win_in(3) > Score::db_win_in(5));
        assert_eq!(-Score::db_win_in(4), Score::db_loss_in(4));
        assert!(Score(250).is_heuristic() && !Score::win_in(3).is_heuristic());
        assert_eq!(Score::db_win_in(2).to_string(), "db win at 2");
    }
}

//! Book learning: the results of games played from the book, kept per book move, and the rule
//! that drops a move its games show to be worse than another.
//!
//! A book's scores come from searches far deeper than a game's, so two moves can score the same
//! in the book and still not play the same at the speed the engine plays. Games between equal
//! engines measure what the searches cannot: each move played in a book position adds its game's
//! result, for the side that played it, to that move's [`GameRecord`]. A game teaches only a book
//! of its own variant: the caller checks that (`onca book learn` refuses the other variant's
//! games by name), and the moves are played under the game's rules.

use super::file::Entry;
use crate::game::pdn::{GameResult, PdnGame};
use crate::rules::position::Color;

/// How far apart two moves' results must be to drop one: each move's mean points, plus or minus
/// this many standard errors, and the intervals must not overlap (one sigma each way, so a
/// move no worse than its sibling is kept about 92% of the time).
pub const SIGMAS: f64 = 1.0;

/// Results of the games in which a book move was played, for the side that played it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Games the move won.
    pub wins: u16,
    /// Games drawn.
    pub draws: u16,
    /// Games the move lost.
    pub losses: u16,
}

impl GameRecord {
    /// No game yet.
    pub const NONE: GameRecord = GameRecord {
        wins: 0,
        draws: 0,
        losses: 0,
    };

    /// Games recorded.
    pub fn games(self) -> u32 {
        u32::from(self.wins) + u32::from(self.draws) + u32::from(self.losses)
    }

    /// The share of the points the move won in its games, None before any game.
    pub fn share(self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games))
    }

    /// Adds one game that ended in `points` (1, 0.5 or 0) for the move's side; a full counter
    /// stays full.
    fn add(&mut self, points: Points) {
        let counter = match points {
            Points::Win => &mut self.wins,
            Points::Draw => &mut self.draws,
            Points::Loss => &mut self.losses,
        };
        *counter = counter.saturating_add(1);
    }

    /// Mean points and the interval of [`SIGMAS`] standard errors around it. One won and one lost
    /// game are added to the real ones, so a move with few games has a wide interval centred
    /// near one half and is never dropped on the strength of a game or two.
    pub fn interval(self) -> (f64, f64) {
        let wins = f64::from(self.wins) + 1.0;
        let draws = f64::from(self.draws);
        let games = f64::from(self.games()) + 2.0;
        let mean = (wins + draws / 2.0) / games;
        let square_mean = (wins + draws / 4.0) / games;
        let error = ((square_mean - mean * mean).max(0.0) / games).sqrt();
        (mean - SIGMAS * error, mean + SIGMAS * error)
    }
}

/// One game's outcome for one side.
#[derive(Clone, Copy)]
enum Points {
    Win,
    Draw,
    Loss,
}

/// The points of `mover` in a finished game.
fn points_for(result: GameResult, mover: Color) -> Points {
    match result {
        GameResult::Draw => Points::Draw,
        won if won == GameResult::win_for(mover) => Points::Win,
        _ => Points::Loss,
    }
}

/// For each record of a position's moves, whether to keep the move: a move is dropped when its
/// results' interval lies wholly below another move's. At least one move is always kept.
pub fn kept(records: &[GameRecord]) -> Vec<bool> {
    let best_floor = records
        .iter()
        .map(|record| record.interval().0)
        .fold(f64::NEG_INFINITY, f64::max);
    records
        .iter()
        .map(|record| record.interval().1 >= best_floor)
        .collect()
}

/// What [`learn`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Games whose results were added.
    pub games: usize,
    /// Games without a result (`*`), which teach nothing.
    pub unfinished: usize,
    /// Book moves played in those games, counted once per game and ply.
    pub book_moves: usize,
}

impl std::ops::AddAssign for Learned {
    fn add_assign(&mut self, other: Learned) {
        self.games += other.games;
        self.unfinished += other.unfinished;
        self.book_moves += other.book_moves;
    }
}

/// Adds each game's result to the record of every book move played in it, for the side that
/// played it. `entries` must be sorted by key (as a book's are) and belong to a book of the
/// games' variant.
pub fn learn<'a>(entries: &mut [Entry], games: impl IntoIterator<Item = &'a PdnGame>) -> Learned {
    let mut learned = Learned::default();
    for game in games {
        if game.result == GameResult::Unknown {
            learned.unfinished += 1;
            continue;
        }
        learned.games += 1;
        let mut position = game.start;
        for mv in &game.moves {
            let key = position.key();
            let first = entries.partition_point(|entry| entry.key < key);
            if let Some(entry) = entries[first..]
                .iter_mut()
                .take_while(|entry| entry.key == key)
                .find(|entry| entry.mv == *mv)
            {
                entry
                    .record
                    .add(points_for(game.result, position.side_to_move()));
                learned.book_moves += 1;
            }
            position = position.play_in(game.variant, mv);
        }
    }
    learned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;

    fn record(wins: u16, draws: u16, losses: u16) -> GameRecord {
        GameRecord {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn a_move_is_dropped_only_when_its_games_are_clearly_worse() {
        // 60% against 40% over 100 games each: the intervals (one standard error, about 0.03)
        // are far apart.
        assert_eq!(
            kept(&[record(30, 60, 10), record(10, 60, 30)]),
            [true, false]
        );
        // 52% against 48%: within the noise, both stay.
        assert_eq!(
            kept(&[record(14, 76, 10), record(10, 76, 14)]),
            [true, true]
        );
        // One lost game against a hundred good ones proves nothing.
        assert_eq!(kept(&[record(30, 60, 10), record(0, 0, 1)]), [true, true]);
        // No games at all: everything stays.
        assert_eq!(kept(&[GameRecord::NONE; 3]), [true; 3]);
        assert_eq!(kept(&[]), Vec::<bool>::new());
    }

    #[test]
    fn games_add_their_result_for_the_side_that_played_each_book_move() {
        let start = Position::start();
        let first = legal_moves(&start)[0];
        let after = start.play(&first);
        let reply = legal_moves(&after)[0];
        let entry = |key, mv| Entry {
            key,
            mv,
            score: 0,
            depth: 4,
            record: GameRecord::NONE,
        };
        let mut entries = vec![entry(start.key(), first), entry(after.key(), reply)];
        entries.sort_by_key(|entry| entry.key);
        let game = |result| PdnGame {
            variant: crate::rules::variant::Variant::Brazilian,
            tags: Vec::new(),
            start,
            moves: vec![first, reply],
            result,
        };
        let games = [
            game(GameResult::WhiteWins),
            game(GameResult::Draw),
            game(GameResult::Unknown),
        ];
        let learned = learn(&mut entries, &games);
        assert_eq!(
            learned,
            Learned {
                games: 2,
                unfinished: 1,
                book_moves: 4
            }
        );
        let of = |key| entries.iter().find(|e| e.key == key).map(|e| e.record);
        assert_eq!(of(start.key()), Some(record(1, 1, 0)), "White's move");
        assert_eq!(of(after.key()), Some(record(0, 1, 1)), "Black's reply");
    }
}

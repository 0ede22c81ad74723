//! Who plays whom, with which opening and colour: the tournament formats and the game schedule.
//!
//! Every pairing plays the same openings, each twice with colours reversed. Games are scheduled
//! in blocks: block b plays opening `order[b mod n]` in every pairing, both colours, pairing by
//! pairing; with an odd number of games per pairing the last block gives each pairing one game.
//! Game numbers are therefore fixed by the settings alone, which is what resuming relies on.

use crate::arena::runner::shuffled_order;

/// How the engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two engines against each other.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl Format {
    /// Reads `match`, `gauntlet` or `round-robin`.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "match" => Ok(Format::Match),
            "gauntlet" => Ok(Format::Gauntlet),
            "round-robin" | "roundrobin" => Ok(Format::RoundRobin),
            _ => Err(format!(
                "unknown format '{text}': use match, gauntlet or round-robin"
            )),
        }
    }

    /// The name `parse` reads.
    pub fn name(self) -> &'static str {
        match self {
            Format::Match => "match",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "round-robin",
        }
    }

    /// The pairings of `engines` engines (each as [first, second] engine indices), or why the
    /// format does not fit that many.
    pub fn pairings(self, engines: usize) -> Result<Vec<[usize; 2]>, String> {
        if engines < 2 {
            return Err(format!(
                "a tournament needs two engines or more (got {engines})"
            ));
        }
        match self {
            Format::Match if engines == 2 => Ok(vec![[0, 1]]),
            Format::Match => Err(format!(
                "the match format takes exactly two engines (got {engines}): use --format gauntlet or round-robin"
            )),
            Format::Gauntlet => Ok((1..engines).map(|other| [0, other]).collect()),
            Format::RoundRobin => Ok((0..engines)
                .flat_map(|first| (first + 1..engines).map(move |second| [first, second]))
                .collect()),
        }
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 1-based game number.
    pub number: usize,
    /// Index into the pairings.
    pub pairing: usize,
    /// Engine indices as [White, Black].
    pub players: [usize; 2],
    /// Index into the openings.
    pub opening: usize,
    /// The game pair it belongs to (one opening, both colours, one pairing).
    pub pair: usize,
}

/// The whole schedule of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<[usize; 2]>,
    games_per_pairing: usize,
    order: Vec<usize>,
}

impl Schedule {
    /// `games_per_pairing` games for each pairing, the openings (`openings` of them) in an order
    /// fixed by `seed`.
    pub fn new(
        pairings: Vec<[usize; 2]>,
        games_per_pairing: usize,
        openings: usize,
        seed: u64,
    ) -> Schedule {
        Schedule {
            pairings,
            games_per_pairing,
            order: shuffled_order(openings, seed),
        }
    }

    /// The pairings, as [first, second] engine indices.
    pub fn pairings(&self) -> &[[usize; 2]] {
        &self.pairings
    }

    /// Games in the whole tournament (none without openings).
    pub fn total(&self) -> usize {
        if self.order.is_empty() {
            0
        } else {
            self.games_per_pairing * self.pairings.len()
        }
    }

    /// Game `index` (0-based) of the schedule; None past the end.
    pub fn slot(&self, index: usize) -> Option<Slot> {
        if index >= self.total() {
            return None;
        }
        let pairings = self.pairings.len();
        let block = index / (2 * pairings);
        let within = index % (2 * pairings);
        let (pairing, reversed) = if 2 * (block + 1) <= self.games_per_pairing {
            (within / 2, within % 2 == 1)
        } else {
            // The odd last game of every pairing.
            (within, false)
        };
        let [first, second] = self.pairings[pairing];
        Some(Slot {
            number: index + 1,
            pairing,
            players: if reversed {
                [second, first]
            } else {
                [first, second]
            },
            opening: self.order[block % self.order.len()],
            pair: block * pairings + pairing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_pair_engines() {
        assert_eq!(Format::Match.pairings(2), Ok(vec![[0, 1]]));
        assert!(Format::Match.pairings(3).is_err());
        assert!(Format::RoundRobin.pairings(1).is_err());
        assert_eq!(Format::Gauntlet.pairings(3), Ok(vec![[0, 1], [0, 2]]));
        assert_eq!(
            Format::RoundRobin.pairings(3),
            Ok(vec![[0, 1], [0, 2], [1, 2]])
        );
        for format in [Format::Match, Format::Gauntlet, Format::RoundRobin] {
            assert_eq!(Format::parse(format.name()), Ok(format));
        }
    }

    #[test]
    fn two_engines_keep_the_match_order() {
        // Game i plays opening order[(i / 2) % n], the first engine White when i is even.
        let schedule = Schedule::new(vec![[0, 1]], 7, 3, 5);
        let order = shuffled_order(3, 5);
        for index in 0..7 {
            let slot = schedule.slot(index).expect("scheduled");
            assert_eq!(slot.opening, order[(index / 2) % 3]);
            assert_eq!(slot.players, if index % 2 == 0 { [0, 1] } else { [1, 0] });
            assert_eq!(slot.pair, index / 2);
        }
        assert_eq!(schedule.slot(7), None);
    }

    #[test]
    fn every_pairing_plays_every_opening_with_both_colours() {
        let schedule = Schedule::new(Format::RoundRobin.pairings(3).expect("3"), 5, 4, 9);
        assert_eq!(schedule.total(), 15);
        let slots: Vec<Slot> = (0..15)
            .map(|i| schedule.slot(i).expect("in range"))
            .collect();
        for pairing in 0..3 {
            let games: Vec<&Slot> = slots.iter().filter(|s| s.pairing == pairing).collect();
            assert_eq!(games.len(), 5);
            // Two full pairs (same opening, colours swapped), then one odd game.
            for pair in games.chunks(2).filter(|pair| pair.len() == 2) {
                assert_eq!(pair[0].opening, pair[1].opening);
                assert_eq!(pair[0].pair, pair[1].pair);
                assert_eq!(pair[0].players, [pair[1].players[1], pair[1].players[0]]);
            }
        }
        // Every pairing plays the same openings in the same order.
        let openings = |pairing: usize| -> Vec<usize> {
            slots
                .iter()
                .filter(|s| s.pairing == pairing)
                .map(|s| s.opening)
                .collect()
        };
        assert_eq!(openings(0), openings(1));
        assert_eq!(openings(1), openings(2));
        let mut pairs: Vec<usize> = slots.iter().map(|s| s.pair).collect();
        pairs.dedup();
        assert_eq!(pairs.len(), 9, "six full pairs and three single games");
        assert_eq!(Schedule::new(vec![[0, 1]], 4, 0, 1).total(), 0);
    }
}

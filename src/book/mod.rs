//! The opening book: positions and their best moves found by our own searches, grown best-first
//! from the start position and the ballots ([`build`]), stored in a checked file of our own
//! ([`file`](mod@file)), taught by the results of games played from it ([`learn`]), and used in
//! play with some variety ([`Book::choose`]).
//!
//! A book belongs to one variant: its moves were searched and its games played under that
//! variant's rules, and its file names the variant ([`file`](mod@file)). The shipped book is
//! Brazilian; there is no shipped Russian book. A book is offered only to games of its variant:
//! [`Book::refuse_other`] words the refusal that the command line, the Hub and the browser board
//! give for a book file of another variant.
//!
//! Uses rules, notation, game and the search (to build); hub, cli and analysis use the book.
//! Floor 7 (see the crate documentation).

pub mod build;
pub mod file;
pub mod learn;

use crate::eval::score::Score;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::search::control::SearchResult;
use file::Entry;
use learn::GameRecord;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The book shipped with the engine (built by `scripts/build-book`; a version-2 file, so
/// Brazilian).
static BUILTIN_BYTES: &[u8] = include_bytes!("../../data/book/onca.book");

/// Plies of book a move needs below it to be played from the book: its score is then backed up
/// from a tree of searches, not taken from one search near the book's edge (which a search in
/// the game, given its own time, does better).
pub const MIN_PLAYED_DEPTH: u16 = 4;

/// The default variety of play (hundredths of a man; Hub `book-variety`, the browser board):
/// with the moves the book's games show worse left out, this much costs no strength against the
/// engine's own choices and varies the games (README.md, Opening book).
pub const DEFAULT_VARIETY: u32 = 25;

/// The default last ply played from the book (Hub `book-plies`, the browser board).
pub const DEFAULT_PLIES: u32 = 40;

/// A seed for one game's book choices, from the clock: games differ, runs are not repeated.
pub fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos() as u64)
        .unwrap_or(0)
}

/// Longest book file accepted (the shipped one is at most 8 MB).
const MAX_FILE_BYTES: u64 = 256 << 20;

/// A loaded book: its variant and its entries sorted by position key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    entries: Vec<Entry>,
}

/// A book move chosen for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the position it was chosen for).
    pub mv: Move,
    /// Its backed-up value for the side to move, in hundredths of a man.
    pub score: i16,
    /// Plies of the book tree below it.
    pub depth: u16,
    /// Results of the games learned from that played it, for its side.
    pub record: GameRecord,
}

impl Book {
    /// A `variant` book from checked entries (sorted by key).
    pub fn from_entries(variant: Variant, mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|entry| entry.key);
        Book { variant, entries }
    }

    /// The book shipped with the engine, decoded once. It is Brazilian.
    pub fn builtin() -> Arc<Book> {
        static BUILTIN: OnceLock<Arc<Book>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| {
            // The shipped file is checked by the tests; a damaged one would mean no book.
            Arc::new(
                file::decode(BUILTIN_BYTES)
                    .map(|(variant, entries)| Book::from_entries(variant, entries))
                    .unwrap_or_default(),
            )
        }))
    }

    /// Reads and checks the book file at `path`; the error names the file and the reason.
    pub fn load(path: &Path) -> Result<Book, String> {
        let cannot = |why: String| format!("book file '{}': {why}", path.display());
        let metadata = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
        if metadata.len() > MAX_FILE_BYTES {
            return Err(cannot(format!("larger than {MAX_FILE_BYTES} bytes")));
        }
        let bytes = std::fs::read(path).map_err(|e| cannot(e.to_string()))?;
        file::decode(&bytes)
            .map(|(variant, entries)| Book::from_entries(variant, entries))
            .map_err(cannot)
    }

    /// [`Book::load`], refusing a book of another variant than `wanted` (see
    /// [`Book::refuse_other`]).
    pub fn load_for(path: &Path, wanted: Variant) -> Result<Book, String> {
        let book = Book::load(path)?;
        book.refuse_other(&path.display().to_string(), wanted)?;
        Ok(book)
    }

    /// The variant whose rules the book's moves follow.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Ok for a book of `wanted`, else the one-line refusal naming the book (`file`, a path) and
    /// both variants.
    pub fn refuse_other(&self, file: &str, wanted: Variant) -> Result<(), String> {
        if self.variant == wanted {
            return Ok(());
        }
        Err(format!(
            "book file '{file}' is a {} book, not a {wanted} one (its moves follow {} rules)",
            self.variant, self.variant
        ))
    }

    /// Entries in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The book moves of `position` that are legal there under the book's rules, best first.
    pub fn moves(&self, position: &Position) -> Vec<BookMove> {
        let key = position.key();
        let start = self.entries.partition_point(|entry| entry.key < key);
        let legal = movegen::legal_moves_in(self.variant, position);
        let mut moves: Vec<BookMove> = self.entries[start..]
            .iter()
            .take_while(|entry| entry.key == key)
            // Keys can collide and files can lie: only a legal move is ever offered.
            .filter(|entry| legal.contains(&entry.mv))
            .map(|entry| BookMove {
                mv: entry.mv,
                score: entry.score,
                depth: entry.depth,
                record: entry.record,
            })
            .collect();
        moves.sort_by_key(|candidate| std::cmp::Reverse(candidate.score));
        moves
    }

    /// The book moves that [`Book::choose`] draws from in `position`, best first: those with at
    /// least [`MIN_PLAYED_DEPTH`] plies of book below them whose games do not show them worse
    /// than another ([`learn::kept`]).
    pub fn playable(&self, position: &Position) -> Vec<BookMove> {
        let mut moves = self.moves(position);
        moves.retain(|candidate| candidate.depth >= MIN_PLAYED_DEPTH);
        let records: Vec<GameRecord> = moves.iter().map(|candidate| candidate.record).collect();
        moves
            .into_iter()
            .zip(learn::kept(&records))
            .filter_map(|(candidate, kept)| kept.then_some(candidate))
            .collect()
    }

    /// A move to play in `position`, among its [`playable`](Book::playable) moves: the best with
    /// `variety` 0, else one drawn (by `seed`) among those within `variety` hundredths of a man
    /// of the best. None when there is none.
    pub fn choose(&self, position: &Position, variety: u32, seed: u64) -> Option<BookMove> {
        let moves = self.playable(position);
        let best = moves.first()?.score;
        let floor = i32::from(best) - variety as i32;
        let close: Vec<&BookMove> = moves
            .iter()
            .filter(|candidate| i32::from(candidate.score) >= floor)
            .collect();
        let pick = (mix(seed ^ position.key()) % close.len() as u64) as usize;
        close.get(pick).copied().copied()
    }

    /// The book's answer in `position` as a finished search: a move drawn by [`Book::choose`],
    /// its score and plies of book as score and depth, and the book's best reply as the ponder
    /// move. None when the position has no playable book move.
    pub fn answer(&self, position: &Position, variety: u32, seed: u64) -> Option<SearchResult> {
        let chosen = self.choose(position, variety, seed)?;
        let ponder = self
            .choose(&position.play_in(self.variant, &chosen.mv), 0, 0)
            .map(|reply| reply.mv);
        Some(SearchResult {
            best: Some(chosen.mv),
            ponder,
            score: Score(i32::from(chosen.score)),
            depth: u32::from(chosen.depth),
            nodes: 0,
            tbhits: 0,
        })
    }
}

/// Spreads a seed over all 64 bits (SplitMix64's output for it).
fn mix(seed: u64) -> u64 {
    crate::rules::zobrist::splitmix64(seed).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::square::Square;

    fn start_book() -> Book {
        let start = Position::start();
        let entries = legal_moves(&start)
            .into_iter()
            .enumerate()
            .map(|(i, mv)| Entry {
                key: start.key(),
                mv,
                score: 20 - 5 * i as i16,
                depth: MIN_PLAYED_DEPTH,
                record: GameRecord::NONE,
            })
            .collect();
        Book::from_entries(Variant::Brazilian, entries)
    }

    #[test]
    fn variety_zero_plays_the_best_move_and_variety_widens_the_choice() {
        let book = start_book();
        let start = Position::start();
        let best = book.moves(&start)[0];
        for seed in 0..20 {
            assert_eq!(book.choose(&start, 0, seed), Some(best));
        }
        // Within 10 hundredths: the three best moves, each drawn for some seed.
        let mut seen: Vec<Move> = (0..200)
            .filter_map(|seed| book.choose(&start, 10, seed))
            .map(|chosen| chosen.mv)
            .collect();
        seen.sort_by_key(|mv| (mv.from.number(), mv.to.number()));
        seen.dedup();
        assert_eq!(seen.len(), 3);
        assert!(
            book.choose(&start.play(&best.mv), 10, 1).is_none(),
            "out of book"
        );
    }

    #[test]
    fn a_move_its_games_show_worse_is_never_drawn() {
        let start = Position::start();
        let mut entries = start_book().entries().to_vec();
        // The best-scored move lost 40 games that the second-best drew.
        entries[0].record = GameRecord {
            wins: 0,
            draws: 0,
            losses: 40,
        };
        entries[1].record = GameRecord {
            wins: 0,
            draws: 40,
            losses: 0,
        };
        let (lost, held) = (entries[0].mv, entries[1].mv);
        let book = Book::from_entries(Variant::Brazilian, entries);
        assert_eq!(book.choose(&start, 0, 1).map(|m| m.mv), Some(held));
        let drawn: Vec<Move> = (0..200)
            .filter_map(|seed| book.choose(&start, 10, seed))
            .map(|chosen| chosen.mv)
            .collect();
        assert!(drawn.contains(&held) && !drawn.contains(&lost));
    }

    #[test]
    fn moves_near_the_edge_of_the_book_are_left_to_the_search() {
        let start = Position::start();
        let legal = legal_moves(&start);
        let entry = |mv, score, depth| Entry {
            key: start.key(),
            mv,
            score,
            depth,
            record: GameRecord::NONE,
        };
        // The best-scored move has only one search below it: the deeper one is played.
        let book = Book::from_entries(
            Variant::Brazilian,
            vec![
                entry(legal[0], 50, MIN_PLAYED_DEPTH - 1),
                entry(legal[1], 0, MIN_PLAYED_DEPTH),
            ],
        );
        assert_eq!(book.choose(&start, 0, 3).map(|m| m.mv), Some(legal[1]));
        let shallow = Book::from_entries(Variant::Brazilian, vec![entry(legal[0], 50, 0)]);
        assert_eq!(shallow.choose(&start, 100, 3), None);
    }

    #[test]
    fn an_illegal_book_move_is_never_offered() {
        let start = Position::start();
        let square = |n| Square::from_number(n).expect("a square");
        // 22-18 is legal at the start; 32-1 never is; a capture that does not exist neither.
        let legal = legal_moves(&start)[0];
        let illegal = Move {
            from: square(32),
            to: square(1),
            captured: crate::rules::bitboard::Bitboard::EMPTY,
        };
        let book = Book::from_entries(
            Variant::Brazilian,
            vec![
                Entry {
                    key: start.key(),
                    mv: illegal,
                    score: 500,
                    depth: 9,
                    record: GameRecord::NONE,
                },
                Entry {
                    key: start.key(),
                    mv: legal,
                    score: 0,
                    depth: MIN_PLAYED_DEPTH,
                    record: GameRecord::NONE,
                },
            ],
        );
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 1);
        for seed in 0..50 {
            assert_eq!(book.choose(&start, 1000, seed).map(|m| m.mv), Some(legal));
        }
    }

    #[test]
    fn the_shipped_book_is_valid_brazilian_and_covers_the_start() {
        let (variant, decoded) = file::decode(BUILTIN_BYTES).expect("the shipped book is valid");
        assert_eq!(variant, Variant::Brazilian);
        assert!(!decoded.is_empty());
        assert_eq!(Book::builtin().variant(), Variant::Brazilian);
        assert!(!Book::builtin().moves(&Position::start()).is_empty());
    }

    #[test]
    fn a_book_offers_the_moves_legal_under_its_own_rules() {
        use crate::notation::fen::parse_position;
        // White's man on 22 takes 18 then 10 (22x6), or 17 alone (22x13): Brazilian allows only
        // the longer capture, Russian both.
        let position = parse_position("W:W22:B18,17,10").expect("valid");
        let brazilian = movegen::legal_moves_in(Variant::Brazilian, &position);
        let russian = movegen::legal_moves_in(Variant::Russian, &position);
        let only_russian: Vec<Move> = russian
            .iter()
            .filter(|mv| !brazilian.contains(mv))
            .copied()
            .collect();
        assert!(!only_russian.is_empty(), "{russian:?} {brazilian:?}");
        let entries: Vec<Entry> = russian
            .iter()
            .map(|&mv| Entry {
                key: position.key(),
                mv,
                score: 0,
                depth: MIN_PLAYED_DEPTH,
                record: GameRecord::NONE,
            })
            .collect();
        let moves = |variant| -> Vec<Move> {
            Book::from_entries(variant, entries.clone())
                .moves(&position)
                .into_iter()
                .map(|chosen| chosen.mv)
                .collect()
        };
        assert_eq!(moves(Variant::Russian).len(), russian.len());
        assert!(moves(Variant::Brazilian)
            .iter()
            .all(|mv| !only_russian.contains(mv)));
    }

    #[test]
    fn a_book_of_another_variant_is_refused_by_name() {
        let book = Book::from_entries(Variant::Russian, Vec::new());
        assert_eq!(book.refuse_other("ru.book", Variant::Russian), Ok(()));
        let refusal = book
            .refuse_other("ru.book", Variant::Brazilian)
            .expect_err("refused");
        assert!(
            refusal.contains("'ru.book'")
                && refusal.contains("russian")
                && refusal.contains("brazilian"),
            "{refusal}"
        );
        assert_eq!(refusal.lines().count(), 1);
    }
}

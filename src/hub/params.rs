//! The engine parameters a Hub host can set: their declarations (the `param` lines answering
//! `hub`), their current values and the checking of `set-param`.
//!
//! Unknown names are ignored (pydraughts sends `initial-time`, other hosts send their own).
//! Scan's `tt-size` (log2 of the number of table entries) is accepted as another way to set
//! `hash`, converted with the real entry size of our table, but not declared.

use crate::eval::score::Score;
use crate::hub::numbering::MoveNumbering;
use crate::rules::variant::Variant;
use crate::search::control::SearchSettings;
use crate::search::params::{self as search_params, SearchParams};
use std::time::Duration;

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest table we allow (MiB).
pub const MAX_HASH_MB: usize = 16_384;
/// Most search threads we allow.
pub const MAX_THREADS: usize = 256;
/// Most root lines reported at once.
pub const MAX_MULTIPV: usize = 32;
/// Largest move overhead (ms).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;
/// Bytes per transposition-table entry (two 64-bit words in [`crate::search::tt`]), for `tt-size`.
pub const TT_ENTRY_BYTES: usize = 16;
pub use crate::search::control::FULL_SKILL;

/// The prefix of the search parameters ([`search_params::TUNABLES`]): `search-probcut`,
/// `search-lmr-full-moves`, ... They are accepted but not declared (they are for experiments and
/// the tuner, not for players).
pub const SEARCH_PREFIX: &str = "search-";

/// The parameter naming the endgame database directory (handled by the session, which owns the
/// loaded tables): [`BUILTIN_TABLES`] for the tables the engine computes itself (the default),
/// empty for none.
pub const EGTB_PATH: &str = "egtb-path";
/// The `egtb-path` value that selects the built-in tables of up to
/// [`crate::egtb::builtin::BUILTIN_PIECES`] pieces (the default).
pub const BUILTIN_TABLES: &str = "builtin";

/// The parameter naming a file of evaluation weights (handled by the session, which owns the
/// loaded weights; empty = the built-in weights).
pub const WEIGHTS: &str = "weights";

/// The parameter naming the opening book file (handled by the session, which owns the loaded
/// book): [`BUILTIN_BOOK`] for the book shipped with the engine (the default), empty for none.
pub const BOOK: &str = "book";
/// The `book` value that selects the book shipped with the engine (the default).
pub const BUILTIN_BOOK: &str = "builtin";
/// Largest `book-variety` (hundredths of a man).
pub const MAX_BOOK_VARIETY: u32 = 1_000;
/// Largest `book-plies`.
pub const MAX_BOOK_PLIES: u32 = 1_000;
/// Largest `contempt` (hundredths of a man): a whole man.
pub const MAX_CONTEMPT: u32 = 100;
/// The default `contempt` (hundredths of a man) of game play; see [`SearchSettings::contempt`].
pub const DEFAULT_CONTEMPT: u32 = 0;

/// The `param` line of a string parameter (a path) with its current value.
pub fn string_declaration(name: &str, value: &str) -> String {
    let shown: String = value
        .chars()
        .filter(|&c| c != '"' && !c.is_control())
        .collect();
    format!("param name={name} value=\"{shown}\" type=string")
}

/// Current parameter values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Params {
    /// The rules positions, moves and searches follow (`variant`: `brazilian`, the default, or
    /// `russian`).
    pub variant: Variant,
    /// Search threads, 1..=[`MAX_THREADS`] (`threads`).
    pub threads: usize,
    /// Transposition table size in MiB, 1..=[`MAX_HASH_MB`] (`hash`, or Scan's `tt-size`).
    pub hash_mb: usize,
    /// Whether the host will ponder (informational: pondering is driven by `go ponder`).
    pub ponder: bool,
    /// Time kept back from every move's budget for the host's and the pipe's delays, at most
    /// [`MAX_MOVE_OVERHEAD_MS`] (`move-overhead`, set in milliseconds).
    pub move_overhead: Duration,
    /// The square numbering of move text in `pos` and in our replies (`move-numbering`).
    pub numbering: MoveNumbering,
    /// Root lines searched and reported at once, 1..=[`MAX_MULTIPV`] (`multipv`).
    pub multipv: usize,
    /// 0..=[`FULL_SKILL`]; [`FULL_SKILL`] is full strength.
    pub skill: u32,
    /// Book moves within this many hundredths of a man of the best are chosen at random (0:
    /// always the best), `book-variety`.
    pub book_variety: u32,
    /// The book is used while the game (from its start position) has fewer plies than this,
    /// `book-plies`.
    pub book_plies: u32,
    /// What a draw costs the engine in game play, in hundredths of a man, at most
    /// [`MAX_CONTEMPT`] (`contempt`; analysis always searches without it).
    pub contempt: u32,
    /// The search's switches and constants (`search-*`, see [`SEARCH_PREFIX`]).
    pub search: SearchParams,
}

impl Default for Params {
    fn default() -> Self {
        let search = SearchSettings::default();
        Params {
            variant: Variant::Brazilian,
            threads: search.threads,
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            move_overhead: search.move_overhead,
            numbering: MoveNumbering::Standard,
            multipv: search.multipv,
            skill: FULL_SKILL,
            book_variety: crate::book::DEFAULT_VARIETY,
            book_plies: crate::book::DEFAULT_PLIES,
            contempt: DEFAULT_CONTEMPT,
            search: SearchParams::default(),
        }
    }
}

/// What a successful `set-param` changed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Change {
    /// A parameter we do not know: nothing changed.
    Ignored,
    /// The table size changed (the session resizes the table).
    Hash,
    /// The variant changed (the session reads its position again under the new rules).
    Variant,
    /// Any other parameter.
    Other,
}

impl Params {
    /// The `param` lines answering `hub`, with the current values as defaults.
    pub fn declarations(&self) -> Vec<String> {
        vec![
            format!(
                "param name=variant value={} type=enum values=\"{}\"",
                self.variant,
                Variant::ALL.map(Variant::name).join(" ")
            ),
            format!(
                "param name=threads value={} type=int min=1 max={MAX_THREADS}",
                self.threads
            ),
            format!(
                "param name=hash value={} type=int min=1 max={MAX_HASH_MB}",
                self.hash_mb
            ),
            format!("param name=ponder value={} type=bool", self.ponder),
            format!(
                "param name=move-overhead value={} type=int min=0 max={MAX_MOVE_OVERHEAD_MS}",
                self.move_overhead.as_millis()
            ),
            format!(
                "param name=move-numbering value={} type=enum values=\"standard mirrored\"",
                self.numbering.name()
            ),
            format!(
                "param name=multipv value={} type=int min=1 max={MAX_MULTIPV}",
                self.multipv
            ),
            format!(
                "param name=skill value={} type=int min=0 max={FULL_SKILL}",
                self.skill
            ),
            format!(
                "param name=book-variety value={} type=int min=0 max={MAX_BOOK_VARIETY}",
                self.book_variety
            ),
            format!(
                "param name=book-plies value={} type=int min=0 max={MAX_BOOK_PLIES}",
                self.book_plies
            ),
            format!(
                "param name=contempt value={} type=int min=0 max={MAX_CONTEMPT}",
                self.contempt
            ),
        ]
    }

    /// Applies `set-param name=<name> value=<value>`. `tt_entry_bytes` is the size of one
    /// transposition-table entry (for Scan's `tt-size`). Bad values leave everything unchanged.
    pub fn set(
        &mut self,
        name: &str,
        value: &str,
        tt_entry_bytes: usize,
    ) -> Result<Change, String> {
        let value = value.trim();
        match name {
            "variant" => {
                let variant: Variant = value.parse().map_err(|error| format!("{error}"))?;
                if variant == self.variant {
                    return Ok(Change::Other);
                }
                self.variant = variant;
                Ok(Change::Variant)
            }
            "threads" => {
                self.threads = integer(name, value, 1, MAX_THREADS as u64)? as usize;
                Ok(Change::Other)
            }
            "hash" => {
                self.hash_mb = integer(name, value, 1, MAX_HASH_MB as u64)? as usize;
                Ok(Change::Hash)
            }
            "tt-size" => {
                let log2 = integer(name, value, 0, 40)?;
                let bytes = (1u128 << log2) * tt_entry_bytes.max(1) as u128;
                let mb = bytes.div_ceil(1 << 20).max(1);
                if mb > MAX_HASH_MB as u128 {
                    return Err(format!(
                        "tt-size {log2} needs {mb} MiB, more than the {MAX_HASH_MB} MiB allowed"
                    ));
                }
                self.hash_mb = mb as usize;
                Ok(Change::Hash)
            }
            "ponder" => {
                self.ponder = boolean(name, value)?;
                Ok(Change::Other)
            }
            "move-overhead" => {
                let ms = integer(name, value, 0, MAX_MOVE_OVERHEAD_MS)?;
                self.move_overhead = Duration::from_millis(ms);
                Ok(Change::Other)
            }
            "move-numbering" => {
                self.numbering = MoveNumbering::from_name(value).ok_or_else(|| {
                    format!("move-numbering '{value}': expected standard or mirrored")
                })?;
                Ok(Change::Other)
            }
            "multipv" => {
                self.multipv = integer(name, value, 1, MAX_MULTIPV as u64)? as usize;
                Ok(Change::Other)
            }
            "skill" => {
                self.skill = integer(name, value, 0, u64::from(FULL_SKILL))? as u32;
                Ok(Change::Other)
            }
            "book-variety" => {
                self.book_variety = integer(name, value, 0, u64::from(MAX_BOOK_VARIETY))? as u32;
                Ok(Change::Other)
            }
            "contempt" => {
                self.contempt = integer(name, value, 0, u64::from(MAX_CONTEMPT))? as u32;
                Ok(Change::Other)
            }
            "book-plies" => {
                self.book_plies = integer(name, value, 0, u64::from(MAX_BOOK_PLIES))? as u32;
                Ok(Change::Other)
            }
            _ => match name.strip_prefix(SEARCH_PREFIX) {
                Some(search_name) => {
                    set_search_param(&mut self.search, search_name, value)?;
                    Ok(Change::Other)
                }
                None => Ok(Change::Ignored),
            },
        }
    }

    /// The search settings these parameters ask for, for game play (as opposed to analysis):
    /// a single legal move is played at once, a database root keeps to the databases' best
    /// moves, and the contempt applies.
    pub fn search_settings(&self, game_play: bool) -> SearchSettings {
        let contempt = if game_play { self.contempt } else { 0 };
        SearchSettings {
            threads: self.threads,
            multipv: self.multipv,
            move_overhead: self.move_overhead,
            skill: (self.skill < FULL_SKILL).then_some(self.skill),
            instant_single_reply: game_play,
            table_root_moves: game_play,
            contempt: Score(contempt as i32),
            ..SearchSettings::default()
        }
    }
}

/// Sets the search parameter `name` (without the [`SEARCH_PREFIX`]) from its text: a whole number
/// in its range, or for a switch also true/false. Bad values leave `search` unchanged.
pub fn set_search_param(search: &mut SearchParams, name: &str, value: &str) -> Result<(), String> {
    let full = format!("{SEARCH_PREFIX}{name}");
    let tunable =
        search_params::tunable(name).ok_or_else(|| format!("{full}: no such search parameter"))?;
    let value = value.trim();
    let number = match value.parse::<i32>() {
        Ok(number) => number,
        Err(_) if tunable.switch => i32::from(boolean(&full, value)?),
        Err(_) => i32::MIN,
    };
    if tunable.set(search, number) {
        Ok(())
    } else {
        Err(format!(
            "{full} '{value}': expected a whole number from {} to {}",
            tunable.min, tunable.max
        ))
    }
}

fn integer(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(number) if (min..=max).contains(&number) => Ok(number),
        _ => Err(format!(
            "{name} '{value}': expected a whole number from {min} to {max}"
        )),
    }
}

fn boolean(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(format!("{name} '{value}': expected true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contempt_is_checked_and_applies_to_game_play_only() {
        let mut params = Params::default();
        assert_eq!(
            params.search_settings(true).contempt,
            Score(DEFAULT_CONTEMPT as i32)
        );
        assert_eq!(params.set("contempt", "25", 16), Ok(Change::Other));
        assert_eq!(params.search_settings(true).contempt, Score(25));
        assert_eq!(params.search_settings(false).contempt, Score::DRAW);
        assert!(params.set("contempt", "101", 16).is_err());
        assert!(params.set("contempt", "-5", 16).is_err());
        assert_eq!(params.contempt, 25);
        assert!(params
            .declarations()
            .contains(&"param name=contempt value=25 type=int min=0 max=100".to_string()));
    }

    #[test]
    fn set_checks_values_and_ignores_unknown_names() {
        let mut params = Params::default();
        assert_eq!(params.set("initial-time", "300", 16), Ok(Change::Ignored));
        assert_eq!(params.set("hash", "128", 16), Ok(Change::Hash));
        assert_eq!(params.hash_mb, 128);
        assert!(params.set("hash", "0", 16).is_err());
        assert!(params.set("hash", "lots", 16).is_err());
        assert_eq!(params.hash_mb, 128);
        assert!(params.set("variant", "international", 16).is_err());
        assert_eq!(params.set("variant", "brazilian", 16), Ok(Change::Other));
        assert_eq!(params.set("variant", "russian", 16), Ok(Change::Variant));
        assert_eq!(params.variant, Variant::Russian);
        assert_eq!(params.set("variant", "Russian", 16), Ok(Change::Other));
        assert_eq!(
            params.set("move-numbering", "mirrored", 16),
            Ok(Change::Other)
        );
        assert_eq!(params.numbering, MoveNumbering::Mirrored);
        assert_eq!(params.set("ponder", "true", 16), Ok(Change::Other));
        assert!(params.ponder);
        assert_eq!(params.set("skill", "5", 16), Ok(Change::Other));
        assert_eq!(params.search_settings(true).skill, Some(5));
        assert!(params.set("skill", "21", 16).is_err());
    }

    #[test]
    fn search_parameters_are_set_by_name_and_checked() {
        let mut params = Params::default();
        assert_eq!(params.set("search-probcut", "true", 16), Ok(Change::Other));
        assert!(params.search.probcut);
        assert_eq!(params.set("search-probcut", "0", 16), Ok(Change::Other));
        assert!(!params.search.probcut);
        assert_eq!(
            params.set("search-probcut-margin", "12", 16),
            Ok(Change::Other)
        );
        assert_eq!(params.search.probcut_margin, 12);
        assert!(params.set("search-probcut-margin", "lots", 16).is_err());
        assert!(params.set("search-probcut-margin", "-1", 16).is_err());
        assert_eq!(params.search.probcut_margin, 12);
        let error = params.set("search-nonsense", "1", 16).unwrap_err();
        assert!(error.contains("search-nonsense"), "{error}");
    }

    #[test]
    fn tt_size_converts_entries_to_mebibytes() {
        let mut params = Params::default();
        // 2^22 entries of 16 bytes = 64 MiB.
        assert_eq!(params.set("tt-size", "22", 16), Ok(Change::Hash));
        assert_eq!(params.hash_mb, 64);
        // Tiny tables round up to 1 MiB.
        params.set("tt-size", "2", 16).unwrap();
        assert_eq!(params.hash_mb, 1);
        assert!(params.set("tt-size", "40", 16).is_err());
    }

    #[test]
    fn declarations_start_with_the_variant() {
        let lines = Params::default().declarations();
        assert_eq!(
            lines[0],
            "param name=variant value=brazilian type=enum values=\"brazilian russian\""
        );
        assert!(lines
            .iter()
            .any(|l| l.starts_with("param name=move-numbering")));
        assert!(lines.iter().all(|l| l.starts_with("param name=")));
    }
}

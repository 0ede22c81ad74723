//! The evaluation's weights as data: an opening and an endgame weight for every feature and for
//! every pattern entry ([`crate::eval::patterns`]).
//!
//! A feature is something [`crate::eval::evaluate`] counts for one side, from that side's point of view (a
//! man on its 17th square, its second king, a triangle of men...). The evaluation of a side is
//! `sum(count * weight)` in each phase, blended by the number of pieces on the board. The tuner
//! (the `tuning/` crate) works on the flat vector [`Weights::tunable`] (all opening weights, then
//! all endgame weights) plus the pattern entries; [`Weights::to_text`] and [`Weights::parse_text`]
//! give a text file of `name opening endgame` lines (version 2: with a header, the non-zero
//! pattern entries and a checksum line; version-1 files have terms only).
//!
//! [`Weights::hand_set`] are the values chosen by hand before any tuning; [`Weights::builtin_for`]
//! is what the engine plays with in each variant. Weights are fitted to one variant's games and
//! name it ([`Weights::variant`], the file's `variant` line), so that a file fitted to another
//! variant is refused by name rather than played.

use crate::egtb::codec::{fnv1a, FNV_START};
use crate::eval::patterns::{entry_name, parse_entry_name, PatternWeights};
use crate::rules::variant::Variant;

/// The first line of a version-2 weights file ([`Weights::to_text`]).
pub const FORMAT_HEADER: &str = "onca-weights 2";

/// The key of the line naming the variant the weights were fitted to (`variant russian`), written
/// after the header; a file without one is Brazilian.
const VARIANT_KEY: &str = "variant";

/// The text of a version-2 file without its `checksum` line, if that line is last and matches.
fn checked_body(text: &str) -> Result<&str, String> {
    let trimmed = text.trim_end_matches(['\n', '\r']);
    let (body, last) = match trimmed.rfind('\n') {
        Some(at) => (&text[..at + 1], &trimmed[at + 1..]),
        None => return Err(String::from("line 1: no `checksum` line")),
    };
    let line = body.lines().count() + 1;
    let stored = last
        .trim()
        .strip_prefix("checksum ")
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .ok_or_else(|| {
            format!("line {line}: expected `checksum` and 16 hex digits as the last line")
        })?;
    let actual = fnv1a(FNV_START, body.as_bytes());
    if stored != actual {
        return Err(format!(
            "line {line}: checksum mismatch (the file is damaged or was edited by hand)"
        ));
    }
    Ok(body)
}

/// A named run of consecutive features (one entry for plain features, several for tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureGroup {
    /// Name in weight files and in `onca eval`.
    pub name: &'static str,
    /// Index of its first feature.
    pub first: usize,
    /// Number of features (1, or a table's length).
    pub len: usize,
}

/// A man on one of its 32 squares, seen from its own side: index = square number − 1, where White
/// sees the board as numbered and Black sees it rotated (so index 28..31 is its own back row and
/// index 0..3 the row it promotes on, never occupied by a man). The man's value, its
/// advancement (tempo), centre and edge placement are all in this table.
pub const MAN_SQUARE: usize = 0;
/// A side's first king.
pub const FIRST_KING: usize = 32;
/// Its second king (kings lose value as they multiply: the second one adds less).
pub const SECOND_KING: usize = 33;
/// Each king beyond the second.
pub const MORE_KINGS: usize = 34;
/// A king on the long diagonal (a1-h8), the lone defender's fortress.
pub const KING_LONG_DIAGONAL: usize = 35;
/// Each empty square a king can slide to.
pub const KING_MOBILITY: usize = 36;
/// Each quiet step a man can make.
pub const MAN_MOBILITY: usize = 37;
/// A man on one of its own four back-row squares (a1, c1, e1, g1 seen from its side) while the
/// opponent has no king: it holds off enemy promotion. Table of 4.
pub const BACK_GUARD: usize = 38;
/// A man no enemy man can stop (its promotion cone is free of enemy men, no enemy king), by rows
/// still to go (1..=7, index 0 = one row to go). Table of 7.
pub const RUNAWAY: usize = 42;
/// A man with own pieces on both squares diagonally behind it.
pub const TRIANGLE: usize = 49;
/// Men on both c1 and e1 (seen from their side): the classic back-row bridge.
pub const BRIDGE: usize = 50;
/// A man beyond its two home rows and off the edge with no own piece behind it to back it up.
pub const HANGING: usize = 51;
/// A man with no own piece on any diagonal neighbour.
pub const ISOLATED: usize = 52;
/// A man that cannot make a quiet move (both squares ahead occupied or off the board).
pub const LOCKED: usize = 53;
/// The difference between the men on the a-d files and on the e-h files: a one-winged army.
pub const FLANK_IMBALANCE: usize = 54;
/// Each central square (c5, e5, d4, f4) occupied or attacked by own men.
pub const CENTRE_CONTROL: usize = 55;
/// Each piece already off the board, counted for the side ahead in material (men + 3 × kings):
/// trading down when ahead.
pub const TRADE_WHEN_AHEAD: usize = 56;

/// Number of features.
pub const FEATURES: usize = 57;
/// Number of tunable weights: an opening and an endgame weight per feature.
pub const TUNABLE: usize = 2 * FEATURES;

/// Every feature group, in index order.
pub const GROUPS: [FeatureGroup; 17] = [
    group("man_square", MAN_SQUARE, 32),
    group("first_king", FIRST_KING, 1),
    group("second_king", SECOND_KING, 1),
    group("more_kings", MORE_KINGS, 1),
    group("king_long_diagonal", KING_LONG_DIAGONAL, 1),
    group("king_mobility", KING_MOBILITY, 1),
    group("man_mobility", MAN_MOBILITY, 1),
    group("back_guard", BACK_GUARD, 4),
    group("runaway", RUNAWAY, 7),
    group("triangle", TRIANGLE, 1),
    group("bridge", BRIDGE, 1),
    group("hanging", HANGING, 1),
    group("isolated", ISOLATED, 1),
    group("locked", LOCKED, 1),
    group("flank_imbalance", FLANK_IMBALANCE, 1),
    group("centre_control", CENTRE_CONTROL, 1),
    group("trade_when_ahead", TRADE_WHEN_AHEAD, 1),
];

const fn group(name: &'static str, first: usize, len: usize) -> FeatureGroup {
    FeatureGroup { name, first, len }
}

/// All evaluation weights, in score units (100 = one man).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Weight of each feature with all 24 pieces on the board.
    pub opening: [i32; FEATURES],
    /// Weight of each feature with the board empty (blended linearly in between).
    pub endgame: [i32; FEATURES],
    /// The pattern tables of [`crate::eval::patterns::REGIONS`], blended the same way.
    pub patterns: PatternWeights,
    /// The variant whose games the weights were fitted to (Brazilian for every file from before
    /// the variants, which names none).
    pub variant: Variant,
}

/// Rows a man on own-view index `index` has advanced (0 = own back row).
const fn rows_advanced(index: usize) -> usize {
    7 - index / 4
}

/// Whether own-view index `index` is on the a or h file (squares 5, 13, 21, 29 are on a;
/// 4, 12, 20, 28 on h, counting from 1).
const fn on_edge(index: usize) -> bool {
    let number = index + 1;
    number % 8 == 4 || number % 8 == 5
}

/// Whether own-view index `index` is one of the four central squares (d4, f4, c5, e5 from White's
/// side: numbers 14, 15, 18, 19).
const fn is_centre(index: usize) -> bool {
    matches!(index + 1, 14 | 15 | 18 | 19)
}

/// Whether own-view index `index` is on the wider centre ring (files c-f, rows 3-6 from own side)
/// but not central.
const fn is_near_centre(index: usize) -> bool {
    matches!(index + 1, 10 | 11 | 22 | 23)
}

/// The hand-set weights: the original evaluation's values (a man 100 plus advancement, centre and
/// edge bonuses, a king 300, back guards on c1/e1, runaways) and modest guesses for the newer terms.
const fn hand_set_terms() -> ([i32; FEATURES], [i32; FEATURES]) {
    const ADVANCE_OPENING: [i32; 8] = [0, 0, 2, 4, 6, 9, 14, 0];
    const ADVANCE_ENDGAME: [i32; 8] = [0, 6, 12, 20, 30, 42, 60, 0];
    let mut opening = [0; FEATURES];
    let mut endgame = [0; FEATURES];
    let mut index = 0;
    while index < 32 {
        let rows = rows_advanced(index);
        let mut man_opening = 100 + ADVANCE_OPENING[rows];
        if is_centre(index) {
            man_opening += 8;
        } else if is_near_centre(index) {
            man_opening += 3;
        }
        if on_edge(index) {
            man_opening -= 4;
        }
        opening[MAN_SQUARE + index] = man_opening;
        endgame[MAN_SQUARE + index] = 100 + ADVANCE_ENDGAME[rows];
        index += 1;
    }
    // (feature, opening, endgame); c1 and e1 (own-view 30 and 31) guard, a1 and g1 do little.
    const TERMS: [(usize, i32, i32); 20] = [
        (FIRST_KING, 300, 300),
        (SECOND_KING, 300, 300),
        (MORE_KINGS, 300, 300),
        (KING_LONG_DIAGONAL, 20, 20),
        (KING_MOBILITY, 1, 1),
        (MAN_MOBILITY, 1, 0),
        (BACK_GUARD + 1, 12, 0),
        (BACK_GUARD + 2, 12, 0),
        (RUNAWAY, 50, 50),
        (RUNAWAY + 1, 28, 28),
        (RUNAWAY + 2, 14, 14),
        (RUNAWAY + 3, 6, 6),
        (TRIANGLE, 2, 0),
        (BRIDGE, 0, 0),
        (HANGING, -2, 0),
        (ISOLATED, -2, -2),
        (LOCKED, -2, -2),
        (FLANK_IMBALANCE, -2, 0),
        (CENTRE_CONTROL, 2, 0),
        (TRADE_WHEN_AHEAD, 2, 2),
    ];
    let mut term = 0;
    while term < TERMS.len() {
        let (feature, open, end) = TERMS[term];
        opening[feature] = open;
        endgame[feature] = end;
        term += 1;
    }
    (opening, endgame)
}

impl Weights {
    /// The weights chosen by hand before any tuning (no patterns).
    pub fn hand_set() -> Weights {
        let (opening, endgame) = hand_set_terms();
        Weights {
            opening,
            endgame,
            patterns: PatternWeights::zero(),
            variant: Variant::Brazilian,
        }
    }

    /// The tunable weights as a flat vector: the opening weights, then the endgame weights.
    pub fn tunable(&self) -> [i32; TUNABLE] {
        let mut out = [0; TUNABLE];
        out[..FEATURES].copy_from_slice(&self.opening);
        out[FEATURES..].copy_from_slice(&self.endgame);
        out
    }

    /// The weights given by a flat vector in [`Weights::tunable`] order.
    pub fn with_tunable(&self, values: &[i32; TUNABLE]) -> Weights {
        let mut out = self.clone();
        out.opening.copy_from_slice(&values[..FEATURES]);
        out.endgame.copy_from_slice(&values[FEATURES..]);
        out
    }

    /// Each feature's name (`man_square[16]` for table entries), in index order.
    pub fn feature_names() -> Vec<String> {
        let mut names = Vec::with_capacity(FEATURES);
        for group in GROUPS {
            if group.len == 1 {
                names.push(String::from(group.name));
            } else {
                names.extend((0..group.len).map(|i| format!("{}[{i}]", group.name)));
            }
        }
        names
    }

    /// Each tunable weight's name (`triangle.opening`), in [`Weights::tunable`] order.
    pub fn tunable_names() -> Vec<String> {
        let features = Self::feature_names();
        let opening = features.iter().map(|name| format!("{name}.opening"));
        let endgame = features.iter().map(|name| format!("{name}.endgame"));
        opening.chain(endgame).collect()
    }

    /// The weights as a version-2 weights file: the header line [`FORMAT_HEADER`], the line
    /// `variant NAME`, every feature as a `name opening endgame` line, every non-zero pattern entry as a
    /// `region[index] opening endgame` line, and a last line `checksum H`: the 64-bit FNV-1a of
    /// all bytes before that line, in 16 hex digits.
    pub fn to_text(&self) -> String {
        let mut text = format!("{FORMAT_HEADER}\n{VARIANT_KEY} {}\n", self.variant);
        for (index, name) in Self::feature_names().iter().enumerate() {
            text.push_str(&format!(
                "{name} {} {}\n",
                self.opening[index], self.endgame[index]
            ));
        }
        for (entry, [opening, endgame]) in self.patterns.non_zero() {
            let name = entry_name(entry);
            text.push_str(&format!("{name} {opening} {endgame}\n"));
        }
        let checksum = fnv1a(FNV_START, text.as_bytes());
        text.push_str(&format!("checksum {checksum:016x}\n"));
        text
    }

    /// Reads a weights file: version 2 ([`Weights::to_text`], checked against its checksum) or
    /// version 1 (no header, no checksum, no patterns: the round-1 files). Features not given
    /// keep their [`Weights::builtin`] weights and pattern entries not given are zero; blank
    /// lines and `#` comments are skipped; unknown names, bad numbers, repeated names, a missing
    /// or wrong checksum and an unknown version are errors naming the line. The variant is the
    /// file's `variant` line, Brazilian without one.
    pub fn parse_text(text: &str) -> Result<Weights, String> {
        Self::parse_text_over(text, Self::builtin())
    }

    /// [`Weights::parse_text`] with the features the file leaves out taken from `base`.
    pub fn parse_text_over(text: &str, base: &Weights) -> Result<Weights, String> {
        let body = match text.strip_prefix(FORMAT_HEADER) {
            Some(rest) if rest.starts_with('\n') || rest.starts_with("\r\n") => {
                Some(checked_body(text)?)
            }
            _ => None,
        };
        if body.is_none() && text.trim_start().starts_with("onca-weights") {
            return Err(String::from(
                "line 1: unknown weights format version (this engine reads version 2)",
            ));
        }
        let versioned = body.is_some();
        let text = body.unwrap_or(text);
        let names = Self::feature_names();
        // A version-2 file gives every pattern entry (absent ones are zero), and a version-1 file
        // comes from before the patterns: neither takes `base`'s tables (a version-1 file read
        // over the built-in weights would otherwise play its terms with tables fitted to others).
        let mut out = Weights {
            opening: base.opening,
            endgame: base.endgame,
            patterns: PatternWeights::zero(),
            variant: Variant::Brazilian,
        };
        let mut seen_variant = false;
        let mut seen = [false; FEATURES];
        let mut seen_patterns = std::collections::HashSet::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || (versioned && number == 0) {
                continue;
            }
            let error = |what: String| format!("line {}: {what}", number + 1);
            let parts: Vec<&str> = line.split_whitespace().collect();
            if let [VARIANT_KEY, name] = parts[..] {
                if !versioned {
                    return Err(error(String::from(
                        "a `variant` line needs a version-2 file (header and checksum)",
                    )));
                }
                if std::mem::replace(&mut seen_variant, true) {
                    return Err(error(String::from("`variant` given twice")));
                }
                out.variant = name.parse().map_err(|e| error(format!("{e}")))?;
                continue;
            }
            let [name, opening, endgame] = parts[..] else {
                return Err(error(String::from("expected `name opening endgame`")));
            };
            let parse = |value: &str, limit: i32| {
                value
                    .parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= limit)
                    .ok_or_else(|| {
                        error(format!(
                            "bad weight `{value}` (an integer, at most {limit} in size)"
                        ))
                    })
            };
            if let Some(entry) = parse_entry_name(name) {
                if !versioned {
                    return Err(error(String::from(
                        "pattern entries need a version-2 file (header and checksum)",
                    )));
                }
                if !seen_patterns.insert(entry) {
                    return Err(error(format!("`{name}` given twice")));
                }
                let limit = i32::from(i16::MAX);
                let value = [parse(opening, limit)?, parse(endgame, limit)?];
                // In range by the limit just checked.
                out.patterns
                    .set(entry, value.map(|v| v.clamp(-limit, limit) as i16));
                continue;
            }
            let index = names
                .iter()
                .position(|known| known == name)
                .ok_or_else(|| error(format!("unknown feature `{name}`")))?;
            if std::mem::replace(&mut seen[index], true) {
                return Err(error(format!("`{name}` given twice")));
            }
            out.opening[index] = parse(opening, 100_000)?;
            out.endgame[index] = parse(endgame, 100_000)?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_feature_indices() {
        let mut next = 0;
        for group in GROUPS {
            assert_eq!(group.first, next, "{}", group.name);
            next += group.len;
        }
        assert_eq!(next, FEATURES);
        assert_eq!(Weights::feature_names().len(), FEATURES);
        assert_eq!(Weights::tunable_names().len(), TUNABLE);
    }

    #[test]
    fn hand_set_square_table_matches_the_original_terms() {
        let w = Weights::hand_set();
        // Own back row a1 (29): no advancement, edge.
        assert_eq!(w.opening[MAN_SQUARE + 28], 96);
        // d4 (square 18): central, three rows advanced.
        assert_eq!(w.opening[MAN_SQUARE + 17], 100 + 4 + 8);
        // a7 (square 5): one row from promotion.
        assert_eq!(w.endgame[MAN_SQUARE + 4], 100 + 60);
    }

    #[test]
    fn the_shipped_files_hold_these_weights() {
        // Regenerate with `onca-tune hand-set --out tuning/weights/hand-set.txt` when HAND_SET
        // changes.
        let hand_set = include_str!("../../tuning/weights/hand-set.txt");
        assert_eq!(Weights::parse_text(hand_set), Ok(Weights::hand_set()));
        assert_ne!(Weights::builtin().clone(), Weights::hand_set());
        // The built-in file gives every feature (none falls back to the hand-set value) and is
        // exactly what `to_text` writes for it.
        let builtin = include_str!("../../data/eval/weights.txt");
        assert_eq!(Weights::builtin().to_text(), builtin);
        assert_eq!(
            Weights::parse_text_over(builtin, &Weights::hand_set()),
            Weights::parse_text_over(builtin, &Weights::hand_set().with_tunable(&[1; TUNABLE]))
        );
        // The round-2 weights stay playable from their file.
        let round_2 = include_str!("../../tuning/weights/round-2.txt");
        assert!(Weights::parse_text(round_2).is_ok());
        // Each variant's built-in file names that variant.
        for variant in Variant::ALL {
            assert_eq!(Weights::builtin_for(variant).variant, variant);
        }
        let russian = include_str!("../../data/eval/weights-russian.txt");
        assert_eq!(Weights::builtin_for(Variant::Russian).to_text(), russian);
    }

    #[test]
    fn the_variant_line_names_what_the_weights_were_fitted_to() {
        let russian = Weights {
            variant: Variant::Russian,
            ..Weights::hand_set()
        };
        let text = russian.to_text();
        assert!(
            text.starts_with("onca-weights 2\nvariant russian\n"),
            "{text}"
        );
        assert_eq!(Weights::parse_text(&text), Ok(russian));
        // Files from before the variants name none and are Brazilian.
        let unnamed = text.replace("variant russian\n", "");
        let mut unnamed = unnamed[..unnamed.rfind("checksum").expect("checksum")].to_string();
        let checksum = fnv1a(FNV_START, unnamed.as_bytes());
        unnamed.push_str(&format!("checksum {checksum:016x}\n"));
        let read = Weights::parse_text(&unnamed).expect("a file without a variant line");
        assert_eq!(read.variant, Variant::Brazilian);
        // Unknown variants and a second variant line are errors naming the line.
        for (bad, why) in [
            ("variant shogi\n", "line 2: unknown variant 'shogi'"),
            (
                "variant russian\nvariant russian\n",
                "line 3: `variant` given twice",
            ),
        ] {
            let mut text = format!("{FORMAT_HEADER}\n{bad}");
            let checksum = fnv1a(FNV_START, text.as_bytes());
            text.push_str(&format!("checksum {checksum:016x}\n"));
            let error = Weights::parse_text(&text).expect_err(bad);
            assert!(error.starts_with(why), "{error}");
        }
    }

    #[test]
    fn tunable_vector_round_trips() {
        let mut values = Weights::builtin().clone().tunable();
        for (i, value) in values.iter_mut().enumerate() {
            *value += i as i32;
        }
        let changed = Weights::builtin().clone().with_tunable(&values);
        assert_eq!(changed.tunable(), values);
    }

    #[test]
    fn text_round_trips_and_rejects_garbage() {
        let mut weights = Weights::builtin().clone();
        weights.opening[RUNAWAY + 5] = -7;
        weights.endgame[TRIANGLE] = 11;
        assert_eq!(Weights::parse_text(&weights.to_text()), Ok(weights));
        // A version-1 file (no header) gives terms only: the rest from the built-in weights, but
        // no pattern tables.
        let mut terms_only = Weights::builtin().clone();
        terms_only.patterns = crate::eval::patterns::PatternWeights::zero();
        assert_eq!(Weights::parse_text("# nothing\n\n"), Ok(terms_only));
        for bad in [
            "triangle",
            "triangle 1",
            "triangle x 2",
            "triangle 1 2 3",
            "queen 3 3",
            "man_square[32] 1 1",
            "triangle 1 1\ntriangle 2 2",
            "triangle 99999999999 1",
        ] {
            assert!(Weights::parse_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn version_two_files_carry_patterns_and_are_checked() {
        use crate::eval::patterns::ENTRY_COUNT;
        let mut weights = Weights::hand_set();
        weights.patterns.set(0, [3, -4]);
        weights.patterns.set(ENTRY_COUNT - 1, [-32767, 32767]);
        let text = weights.to_text();
        assert!(text.starts_with("onca-weights 2\n"));
        assert!(text.contains("block_r0_c0[0] 3 -4\n"));
        assert!(text.contains("kings_band3_r2[8] -32767 32767\n"));
        assert_eq!(Weights::parse_text(&text), Ok(weights.clone()));
        // Damage anywhere before the checksum line is caught, naming the checksum line.
        let damaged = text.replace("block_r0_c0[0] 3 -4", "block_r0_c0[0] 3 -5");
        let error = Weights::parse_text(&damaged).expect_err("damaged");
        assert!(error.contains("checksum mismatch"), "{error}");
        let cut = &text[..text.len() / 2];
        assert!(Weights::parse_text(cut).is_err());
        let no_checksum = text.replace("checksum", "# checksum");
        assert!(Weights::parse_text(&no_checksum).is_err());
        // Patterns need the versioned format; unknown versions are refused.
        assert!(Weights::parse_text("block_r0_c0[0] 1 1").is_err());
        assert!(Weights::parse_text("onca-weights 3\n").is_err());
        // Entries out of range, repeated or of unknown regions are refused.
        for bad in [
            "block_r0_c0[6561] 1 1",
            "block_r0_c0[1] 40000 1",
            "block_r0_c0[1] 1 1\nblock_r0_c0[1] 1 1",
            "block_r9_c9[1] 1 1",
        ] {
            let mut text = format!("{FORMAT_HEADER}\n{bad}\n");
            let checksum = fnv1a(FNV_START, text.as_bytes());
            text.push_str(&format!("checksum {checksum:016x}\n"));
            assert!(Weights::parse_text(&text).is_err(), "{bad}");
        }
    }
}

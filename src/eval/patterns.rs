//! Pattern features: the men on a small board region, read as one configuration, index a table
//! with one weight per configuration (each square empty, own man or enemy man: 3^k entries for k
//! squares). While a king is on the board, each region also reads its king configuration (own
//! and enemy kings in it, 0, 1 or 2 and more: 9 entries).
//!
//! Regions are given in a side's own view (square numbers as that side sees the board, White's as
//! numbered, Black's rotated by 180 degrees), so both colours share every table: the game's one
//! symmetry is built in, and a position and its colour-flipped mirror score the same. Each side
//! reads the canonical regions ([`BLOCKS_4X4`]: the 4x4 blocks whose rotation is not earlier in
//! the list, 13 of the 25 placements), White on the board as it stands and Black on the rotated
//! board, so every placement is read exactly once per position (the self-symmetric centre block by
//! both sides).
//!
//! The index comes from bitboards without a loop over squares: a side's men are packed into a
//! dense 32-bit word in its own view ([`own_view_men`], Black's by one bit reversal), a block's
//! eight squares are gathered from that word by two shifts and masks ([`Region`]), and the
//! gathered bits index a table that turns binary digits into ternary ones.
//!
//! A second, larger shape lives in [`crate::eval::bands`] (whole rows: 8 or 12 squares). Its
//! tables follow the blocks' in the entry numbering, and the evaluation reads a table only when
//! the loaded weights give it a non-zero entry ([`TableSet`]), so the weights file decides the
//! shapes: today's default has only blocks and reads nothing else.

use crate::eval::bands::{Band, BANDS, BAND_COUNT};
use crate::rules::bitboard::Bitboard;
use crate::rules::position::{Color, Position};

/// Squares in a region at most (its index fits 3^8 = 6561 entries).
pub const MAX_REGION_SQUARES: usize = 8;
/// Entries of one region's table: every configuration of [`MAX_REGION_SQUARES`] squares.
pub const TABLE_LEN: usize = 6561;

/// One region: a 4x4 block of the board, eight dark squares, two on each of four rows, read from
/// the own-view dense word (bit `n - 1` is the square the side numbers `n`, four bits per row).
///
/// Its first and third rows start at one bit offset within their rows and its second and fourth
/// at another (the dark squares alternate between files b, d, f, h and a, c, e, g), so two shifts
/// and masks gather all eight squares into the low two bits of four nibbles, row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Name in weight files and in `onca eval` (e.g. `block_r2_c3`: rows 2-5 and files 3-6
    /// from the top-left corner of the side's own view, counting from 0).
    pub name: &'static str,
    /// Right shift that brings the first and third rows' two squares to bits 0-1 and 8-9.
    shift_first: u8,
    /// Right shift that brings the second and fourth rows' two squares to bits 4-5 and 12-13.
    shift_second: u8,
}

/// The first and third rows' squares after `Region::shift_first`: bits 0-1 and 8-9.
const FIRST_AND_THIRD: u32 = 0x0303;
/// The second and fourth rows' squares after `Region::shift_second`: bits 4-5 and 12-13.
const SECOND_AND_FOURTH: u32 = 0x3030;

impl Region {
    /// The region's squares in two words at once (`pair` = first word in bits 0-31, second in
    /// bits 32-63), each spread over the low two bits of four nibbles (one nibble per row, in
    /// row order): the first word's in bits 0-13, the second's in bits 32-45.
    #[inline(always)]
    fn gather_pair(&self, pair: u64) -> u64 {
        const BOTH: u64 = 1 | (1 << 32);
        ((pair >> self.shift_first) & (FIRST_AND_THIRD as u64 * BOTH))
            | ((pair >> self.shift_second) & (SECOND_AND_FOURTH as u64 * BOTH))
    }

    /// The region's squares as a set of own-view dense bits.
    pub const fn squares(&self) -> u32 {
        (FIRST_AND_THIRD << self.shift_first) | (SECOND_AND_FOURTH << self.shift_second)
    }

    /// The region's own-view configuration index (0..[`TABLE_LEN`]): digit `i` is 1 for an own
    /// man, 2 for an enemy man, 0 otherwise, on the region's `i`-th square in bit order.
    #[inline(always)]
    pub fn index(&self, own: u32, enemy: u32) -> usize {
        self.index_of_pair(u64::from(own) | (u64::from(enemy) << 32))
    }

    /// [`Region::index`] with own men in bits 0-31 of `men` and enemy men in bits 32-63.
    #[inline(always)]
    fn index_of_pair(&self, men: u64) -> usize {
        let spread = self.gather_pair(men);
        usize::from(TERNARY[(spread & SPREAD_MASK) as usize])
            + 2 * usize::from(TERNARY[((spread >> 32) & SPREAD_MASK) as usize])
    }
}

/// Bits a spread region occupies: the low two bits of four nibbles.
const SPREAD_MASK: u64 = 0x3333;

/// `TERNARY[s]` reads a spread region (see [`Region`]: squares on the low two bits of four
/// nibbles) as ternary digits, one per square in bit order: the sum of 3^i over the set squares
/// i. Indexed by the spread bits directly, so no packing step is needed (entries at other bit
/// positions are unused).
static TERNARY: [u16; SPREAD_MASK as usize + 1] = {
    let mut table = [0u16; SPREAD_MASK as usize + 1];
    let mut spread = 0;
    while spread <= SPREAD_MASK as usize {
        if spread & !(SPREAD_MASK as usize) == 0 {
            let mut value = 0u16;
            let mut power = 1u16;
            let mut bit = 0;
            while bit < 16 {
                if (SPREAD_MASK as usize) & (1 << bit) != 0 {
                    if spread & (1 << bit) != 0 {
                        value += power;
                    }
                    power *= 3;
                }
                bit += 1;
            }
            table[spread] = value;
        }
        spread += 1;
    }
    table
};

/// The 4x4 block whose top-left corner is at own-view row `row` (0 = the row the side promotes
/// on, `row <= 4`) and file `file` (0 = the side's left edge, `file <= 4`). Even rows hold files
/// 1, 3, 5, 7 and odd rows files 0, 2, 4, 6, four dense bits per row; the block's two squares in
/// row `r` start at bit `4 r + first(r)`.
const fn block(name: &'static str, row: u8, file: u8) -> Region {
    Region {
        name,
        shift_first: 4 * row + first_in_row(row, file),
        shift_second: 4 * row + first_in_row(row + 1, file),
    }
}

/// Position within row `row` (0..4) of the first dark square at or right of file `file`: dark
/// files are 2j+1 in even rows and 2j in odd rows.
const fn first_in_row(row: u8, file: u8) -> u8 {
    if row.is_multiple_of(2) {
        file / 2
    } else {
        file.div_ceil(2)
    }
}

/// The canonical 4x4 blocks: top-left corners (row, file) in 0..=4, keeping each placement or its
/// 180-degree rotation (4 - row, 4 - file), whichever comes first; the centre (2, 2) is its own
/// rotation.
pub const BLOCKS_4X4: [Region; 13] = [
    block("block_r0_c0", 0, 0),
    block("block_r0_c1", 0, 1),
    block("block_r0_c2", 0, 2),
    block("block_r0_c3", 0, 3),
    block("block_r0_c4", 0, 4),
    block("block_r1_c0", 1, 0),
    block("block_r1_c1", 1, 1),
    block("block_r1_c2", 1, 2),
    block("block_r1_c3", 1, 3),
    block("block_r1_c4", 1, 4),
    block("block_r2_c0", 2, 0),
    block("block_r2_c1", 2, 1),
    block("block_r2_c2", 2, 2),
];

/// Number of regions the evaluation reads.
pub const REGION_COUNT: usize = 13;
/// The regions the evaluation reads.
pub const REGIONS: [Region; REGION_COUNT] = BLOCKS_4X4;

/// King configurations of a region: own kings in it (0, 1, 2 or more) times 3 plus enemy kings
/// (the same), read only while a king is on the board.
pub const KING_CONFIGS: usize = 9;
/// The first king entry: entries `0..FIRST_KING_ENTRY` are the blocks' men configurations
/// (`region * TABLE_LEN + index`), then `FIRST_KING_ENTRY + region * KING_CONFIGS + config`.
pub const FIRST_KING_ENTRY: usize = REGION_COUNT * TABLE_LEN;
/// The first entry of the bands ([`crate::eval::bands`]): their men tables one after another,
/// then their king tables.
pub const FIRST_BAND_ENTRY: usize = FIRST_KING_ENTRY + REGION_COUNT * KING_CONFIGS;
/// Number of pattern tables: each block's and each band's men table and king table.
pub const TABLE_COUNT: usize = 2 * REGION_COUNT + 2 * BAND_COUNT;
/// Table numbers: the blocks' men tables, the blocks' king tables, the bands' men tables, the
/// bands' king tables (the order of their entries).
const FIRST_BLOCK_KING_TABLE: usize = REGION_COUNT;
const FIRST_BAND_TABLE: usize = 2 * REGION_COUNT;
const FIRST_BAND_KING_TABLE: usize = 2 * REGION_COUNT + BAND_COUNT;

/// The first entry of each table, in table order, and the entry count last.
const TABLE_STARTS: [usize; TABLE_COUNT + 1] = {
    let mut starts = [0; TABLE_COUNT + 1];
    let mut table = 0;
    let mut next = 0;
    while table < TABLE_COUNT {
        starts[table] = next;
        next += if table < FIRST_BLOCK_KING_TABLE {
            TABLE_LEN
        } else if table < FIRST_BAND_TABLE {
            KING_CONFIGS
        } else if table < FIRST_BAND_KING_TABLE {
            BANDS[table - FIRST_BAND_TABLE].table_len()
        } else {
            KING_CONFIGS
        };
        table += 1;
    }
    starts[TABLE_COUNT] = next;
    starts
};

/// Number of pattern entries, men and kings, blocks and bands.
pub const ENTRY_COUNT: usize = TABLE_STARTS[TABLE_COUNT];
/// Entries one side reads at most: one men entry per table, and one king entry per table when
/// kings are on the board.
pub const MAX_ENTRIES_PER_SIDE: usize = 2 * (REGION_COUNT + BAND_COUNT);

/// The names of the regions' king tables, in [`REGIONS`] order.
pub const KING_REGION_NAMES: [&str; REGION_COUNT] = [
    "kings_r0_c0",
    "kings_r0_c1",
    "kings_r0_c2",
    "kings_r0_c3",
    "kings_r0_c4",
    "kings_r1_c0",
    "kings_r1_c1",
    "kings_r1_c2",
    "kings_r1_c3",
    "kings_r1_c4",
    "kings_r2_c0",
    "kings_r2_c1",
    "kings_r2_c2",
];

/// The table that holds entry `entry` (`entry < ENTRY_COUNT`).
#[inline]
pub fn table_of_entry(entry: usize) -> usize {
    TABLE_STARTS.partition_point(|&start| start <= entry) - 1
}

/// Table `table`'s name in weight files (`block_r2_c2`, `kings_r2_c2`, `band3_r1`,
/// `kings_band3_r1`).
pub fn table_name(table: usize) -> &'static str {
    if table < FIRST_BLOCK_KING_TABLE {
        REGIONS[table].name
    } else if table < FIRST_BAND_TABLE {
        KING_REGION_NAMES[table - FIRST_BLOCK_KING_TABLE]
    } else if table < FIRST_BAND_KING_TABLE {
        BANDS[table - FIRST_BAND_TABLE].name
    } else {
        BANDS[table - FIRST_BAND_KING_TABLE].king_name
    }
}

/// The table named `name`, if any.
pub fn table_named(name: &str) -> Option<usize> {
    (0..TABLE_COUNT).find(|&table| table_name(table) == name)
}

/// The first entry of table `table` and its number of entries.
pub fn table_entries(table: usize) -> std::ops::Range<usize> {
    TABLE_STARTS[table]..TABLE_STARTS[table + 1]
}

/// The name of entry `entry` in weight files: `block_r2_c2[4020]` (men configuration),
/// `kings_r2_c2[4]` (king configuration: own kings * 3 + enemy kings), `band3_r1[120]`.
pub fn entry_name(entry: usize) -> String {
    let table = table_of_entry(entry);
    format!("{}[{}]", table_name(table), entry - TABLE_STARTS[table])
}

/// The entry an [`entry_name`] names, if it names one.
pub fn parse_entry_name(name: &str) -> Option<usize> {
    let (table, rest) = name.split_once('[')?;
    let index: usize = rest.strip_suffix(']')?.parse().ok()?;
    let entries = table_entries(table_named(table)?);
    (index < entries.len()).then_some(entries.start + index)
}

/// One `[opening, endgame]` weight pair for every pattern entry ([`ENTRY_COUNT`]: every men
/// configuration and every king configuration of every region of [`REGIONS`]), in score units
/// like the other weights (blended by phase the same way).
#[derive(Clone, Eq)]
pub struct PatternWeights {
    entries: Box<[[i16; 2]]>,
    /// The tables that ever had an entry set to a non-zero pair: the evaluation reads only
    /// these, so weights without patterns (round 2, hand-set) cost nothing for them and a fit of
    /// a few tables costs only those.
    used: TableSet,
}

impl PartialEq for PatternWeights {
    fn eq(&self, other: &PatternWeights) -> bool {
        self.entries == other.entries
    }
}

impl PatternWeights {
    /// Every entry zero: patterns change nothing.
    pub fn zero() -> PatternWeights {
        PatternWeights {
            entries: vec![[0, 0]; ENTRY_COUNT].into_boxed_slice(),
            used: TableSet::NONE,
        }
    }

    /// The weight pair of entry `entry`.
    #[inline(always)]
    pub fn get(&self, entry: usize) -> [i16; 2] {
        self.entries[entry]
    }

    /// Sets the weight pair of entry `entry`.
    pub fn set(&mut self, entry: usize, value: [i16; 2]) {
        self.entries[entry] = value;
        if value != [0, 0] {
            self.used = self.used.with_entry(entry);
        }
    }

    /// The tables whose reading can change a score (every other table has stayed zero).
    #[inline(always)]
    pub fn tables_in_use(&self) -> TableSet {
        self.used
    }

    /// Whether reading any region can change a score: false while every entry has stayed zero.
    #[inline(always)]
    pub fn in_use(&self) -> bool {
        !self.used.is_empty()
    }

    /// The entries that are not zero, as (entry, [opening, endgame]).
    pub fn non_zero(&self) -> impl Iterator<Item = (usize, [i16; 2])> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, value)| **value != [0, 0])
            .map(|(entry, &value)| (entry, value))
    }
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights({} non-zero entries)",
            self.non_zero().count()
        )
    }
}

/// Packs a padded bitboard into 32 dense bits: bit `n - 1` for square number `n`.
#[inline(always)]
pub fn dense(set: Bitboard) -> u32 {
    let b = set.0;
    ((b & 0xFF) | ((b >> 1) & 0xFF00) | ((b >> 2) & 0xFF_0000) | ((b >> 3) & 0xFF00_0000)) as u32
}

/// `set` as a dense word in `color`'s own view (Black's rotated: square `n` is its `33 - n`,
/// which reverses the 32 bits).
#[inline(always)]
fn own_view(set: Bitboard, color: Color) -> u32 {
    match color {
        Color::White => dense(set),
        Color::Black => dense(set).reverse_bits(),
    }
}

/// `color`'s men and the enemy men as dense words in `color`'s own view.
#[inline(always)]
pub fn own_view_men(position: &Position, color: Color) -> (u32, u32) {
    (
        own_view(position.men(color), color),
        own_view(position.men(color.opponent()), color),
    )
}

/// A set of pattern tables: bit `table` for each table number (the blocks' men tables, their
/// king tables, the bands' men tables, their king tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSet(pub u64);

impl TableSet {
    /// No table.
    pub const NONE: TableSet = TableSet(0);
    /// Every table of every shape.
    pub const ALL: TableSet = TableSet((1 << TABLE_COUNT) - 1);
    /// The 4x4 blocks' men and king tables (the shape of the built-in weights).
    pub const BLOCKS: TableSet = TableSet((1 << FIRST_BAND_TABLE) - 1);
    /// The two-row bands' men and king tables.
    pub const BANDS_OF_TWO_ROWS: TableSet = TableSet::bands(2);
    /// The three-row bands' men and king tables.
    pub const BANDS_OF_THREE_ROWS: TableSet = TableSet::bands(3);

    /// The men and king tables of the bands of `rows` rows.
    const fn bands(rows: u32) -> TableSet {
        let mut set = 0u64;
        let mut band = 0;
        while band < BAND_COUNT {
            if BANDS[band].squares().count_ones() == 4 * rows {
                set |= 1 << (FIRST_BAND_TABLE + band);
                set |= 1 << (FIRST_BAND_KING_TABLE + band);
            }
            band += 1;
        }
        TableSet(set)
    }

    /// The set with table `table` added.
    pub fn with_table(self, table: usize) -> TableSet {
        TableSet(self.0 | 1 << table)
    }

    /// The union of two sets.
    pub fn union(self, other: TableSet) -> TableSet {
        TableSet(self.0 | other.0)
    }

    /// The table that holds pattern entry `entry`.
    pub fn of_entry(entry: usize) -> TableSet {
        TableSet(1 << table_of_entry(entry))
    }

    /// The set with the table that holds `entry` added.
    pub fn with_entry(self, entry: usize) -> TableSet {
        TableSet(self.0 | TableSet::of_entry(entry).0)
    }

    /// Whether the table that holds `entry` is in the set.
    pub fn holds_entry(self, entry: usize) -> bool {
        self.0 & TableSet::of_entry(entry).0 != 0
    }

    /// Whether no table is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Calls `visit(entry)` for every pattern entry `color` reads in the position from the tables in
/// `tables`: each block's and then each band's men configuration, and, while any king is on the
/// board, each block's and then each band's king configuration.
#[inline(always)]
pub fn visit_patterns(
    position: &Position,
    color: Color,
    tables: TableSet,
    visit: impl FnMut(usize),
) {
    // With exactly the blocks in use (the built-in weights) the set is a constant here, so the
    // tests of `visit_tables` fold away: they cost 3% of `onca bench`'s instructions when made.
    if tables == TableSet::BLOCKS {
        visit_tables(position, color, TableSet::BLOCKS, visit);
    } else {
        visit_tables(position, color, tables, visit);
    }
}

/// [`visit_patterns`]'s work.
#[inline(always)]
fn visit_tables(position: &Position, color: Color, tables: TableSet, mut visit: impl FnMut(usize)) {
    let (own, enemy) = own_view_men(position, color);
    let men = u64::from(own) | (u64::from(enemy) << 32);
    // One call per region with the region as a constant, so that its shifts and masks become
    // immediate operands (a loop over REGIONS kept them in memory: a third slower). Tables
    // outside `tables` cost one predictable branch each.
    each_region!(men_entry, men, tables.0, visit);
    each_band!(band_men_entry, men, tables.0 >> FIRST_BAND_TABLE, visit);
    let all_kings = position.kings(Color::White) | position.kings(Color::Black);
    if all_kings.is_empty() {
        return;
    }
    let kings = u64::from(own_view(position.kings(color), color))
        | (u64::from(own_view(position.kings(color.opponent()), color)) << 32);
    each_region!(king_entry, kings, tables.0 >> FIRST_BLOCK_KING_TABLE, visit);
    each_band!(
        band_king_entry,
        kings,
        tables.0 >> FIRST_BAND_KING_TABLE,
        visit
    );
}

/// Calls `$visit($entry::<N>($pair))` for every region number N whose bit is set in `$used`,
/// in order.
macro_rules! each_region {
    ($entry:ident, $pair:expr, $used:expr, $visit:expr) => {
        const _: () = assert!(REGION_COUNT == 13, "each_region! lists 13 regions");
        each_region!(@listed $entry, $pair, $used, $visit; 0 1 2 3 4 5 6 7 8 9 10 11 12);
    };
    (@listed $entry:ident, $pair:expr, $used:expr, $visit:expr; $($n:literal)*) => {
        $(
            if $used & (1 << $n) != 0 {
                $visit($entry::<$n>($pair));
            }
        )*
    };
}
use each_region;

/// [`each_region!`] for the bands: `$visit($entry::<N>($pair))` for every band number N whose
/// bit is set in `$used`, in order.
macro_rules! each_band {
    ($entry:ident, $pair:expr, $used:expr, $visit:expr) => {
        const _: () = assert!(BAND_COUNT == 7, "each_band! lists 7 bands");
        each_region!(@listed $entry, $pair, $used, $visit; 0 1 2 3 4 5 6);
    };
}
use each_band;

/// The men entry of region `N` for own men and enemy men in the two halves of `men`.
#[inline(always)]
fn men_entry<const N: usize>(men: u64) -> usize {
    N * TABLE_LEN + REGIONS[N].index_of_pair(men)
}

/// The king entry of region `N` for own kings and enemy kings in the two halves of `kings`.
#[inline(always)]
fn king_entry<const N: usize>(kings: u64) -> usize {
    let spread = REGIONS[N].gather_pair(kings);
    let count = |bits: u64| (bits.count_ones() as usize).min(2);
    FIRST_KING_ENTRY + N * KING_CONFIGS + 3 * count(spread & SPREAD_MASK) + count(spread >> 32)
}

/// The men entry of band `N` for own men and enemy men in the two halves of `men`.
#[inline(always)]
fn band_men_entry<const N: usize>(men: u64) -> usize {
    let first = const { TABLE_STARTS[FIRST_BAND_TABLE + N] };
    first + BANDS[N].index_of_pair(men)
}

/// The king entry of band `N` for own kings and enemy kings in the two halves of `kings`.
#[inline(always)]
fn band_king_entry<const N: usize>(kings: u64) -> usize {
    let first = const { TABLE_STARTS[FIRST_BAND_KING_TABLE + N] };
    first + band_king_config(&BANDS[N], kings)
}

/// A band's king configuration: own kings in it (0, 1, 2 or more) times 3 plus enemy kings.
#[inline(always)]
fn band_king_config(band: &Band, kings: u64) -> usize {
    let (own, enemy) = band.gather_pair(kings);
    let count = |bits: u32| (bits.count_ones() as usize).min(2);
    3 * count(own) + count(enemy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::square::Square;

    /// The own-view (row, file) of square number `n`, from the numbering of RULES.md.
    fn row_file(n: u32) -> (u32, u32) {
        let square = Square::from_number(n).expect("a square");
        (square.row(), square.file())
    }

    #[test]
    fn blocks_hold_the_eight_dark_squares_of_their_four_by_four_square() {
        for row in 0..=4u8 {
            for file in 0..=4u8 {
                let region = block("test", row, file);
                let expected: u32 = (1..=32)
                    .filter(|&n| {
                        let (r, f) = row_file(n);
                        (u32::from(row)..u32::from(row) + 4).contains(&r)
                            && (u32::from(file)..u32::from(file) + 4).contains(&f)
                    })
                    .map(|n| 1u32 << (n - 1))
                    .sum();
                assert_eq!(expected.count_ones(), 8);
                assert_eq!(region.squares(), expected, "block at row {row} file {file}");
            }
        }
    }

    #[test]
    fn canonical_blocks_cover_each_placement_or_its_rotation_once() {
        let rotate = |set: u32| set.reverse_bits();
        let mut covered = Vec::new();
        for region in &REGIONS {
            covered.push(region.squares());
            covered.push(rotate(region.squares()));
        }
        for row in 0..=4u8 {
            for file in 0..=4u8 {
                let squares = block("test", row, file).squares();
                assert!(covered.contains(&squares), "row {row} file {file}");
            }
        }
        let mut names: Vec<_> = REGIONS.iter().map(|region| region.name).collect();
        names.dedup();
        assert_eq!(names.len(), REGIONS.len());
        for (region, kings) in REGIONS.iter().zip(KING_REGION_NAMES) {
            assert_eq!(
                region.name.strip_prefix("block_"),
                kings.strip_prefix("kings_")
            );
        }
    }

    #[test]
    fn dense_numbers_squares_from_zero() {
        for n in 1..=32 {
            let square = Square::from_number(n).expect("a square");
            assert_eq!(dense(Bitboard::from_square(square)), 1 << (n - 1));
        }
        assert_eq!(dense(Bitboard::BOARD), u32::MAX);
    }

    #[test]
    fn index_reads_each_square_as_a_ternary_digit() {
        // White men on 29 and 22, black men on 18 and 25 (25 is a white-side square).
        let position = parse_position("W:W22,29:B18,25").expect("valid");
        let region = block("test", 4, 0); // own-view rows 4-7, files 0-3: squares 17,18,21,22,25,26,29,30
        let (own, enemy) = own_view_men(&position, Color::White);
        let digits: Vec<usize> = (0..32)
            .filter(|bit| region.squares() & (1 << bit) != 0)
            .map(|bit| {
                if own & (1 << bit) != 0 {
                    1
                } else if enemy & (1 << bit) != 0 {
                    2
                } else {
                    0
                }
            })
            .collect();
        let expected: usize = digits.iter().rev().fold(0, |acc, digit| acc * 3 + digit);
        assert_eq!(region.index(own, enemy), expected);
        assert_eq!(digits, vec![0, 2, 0, 1, 2, 0, 1, 0]);
    }

    #[test]
    fn a_colour_flipped_mirror_has_the_same_own_view_patterns() {
        let position =
            parse_position("W:W17,21,22,23,25,26,27,30,31:B3,5,6,7,9,10,12,13,16").expect("valid");
        let kings = parse_position("W:WK17,21,22,K30:B3,K9,12,13").expect("valid");
        for (position, tables_read) in [(position, TABLE_COUNT / 2), (kings, TABLE_COUNT)] {
            let mirror = position.color_flipped();
            for color in [Color::White, Color::Black] {
                let mut here = Vec::new();
                visit_patterns(&position, color, TableSet::ALL, |entry| here.push(entry));
                let mut there = Vec::new();
                visit_patterns(&mirror, color.opponent(), TableSet::ALL, |entry| {
                    there.push(entry)
                });
                assert_eq!(here, there);
                assert_eq!(here.len(), tables_read);
                // One entry of each men table (blocks, then bands), then with kings on the
                // board one of each king table (the same order).
                let tables: Vec<usize> = here.iter().map(|&entry| table_of_entry(entry)).collect();
                let men = (0..REGION_COUNT).chain(FIRST_BAND_TABLE..FIRST_BAND_KING_TABLE);
                let kings = (FIRST_BLOCK_KING_TABLE..FIRST_BAND_TABLE)
                    .chain(FIRST_BAND_KING_TABLE..TABLE_COUNT);
                let expected: Vec<usize> = men.chain(kings).take(tables_read).collect();
                assert_eq!(tables, expected);
            }
        }
    }

    #[test]
    fn band_entries_match_a_square_by_square_reading_of_the_position() {
        // White men on 29, 22, 14 and 6; black men on 1, 9, 18 and 25; a white king on 31 and a
        // black king on 7.
        let position = parse_position("W:W6,14,22,29,K31:B1,9,18,25,K7").expect("valid");
        for color in [Color::White, Color::Black] {
            let mut entries = Vec::new();
            visit_patterns(&position, color, TableSet::ALL, |entry| entries.push(entry));
            let (own, enemy) = own_view_men(&position, color);
            let (own_kings, enemy_kings) = (
                own_view(position.kings(color), color),
                own_view(position.kings(color.opponent()), color),
            );
            for (number, band) in BANDS.iter().enumerate() {
                // Digit by digit from the squares in own-view number order.
                let mut index = 0;
                let mut power = 1;
                for bit in (0..32).filter(|bit| band.squares() & (1 << bit) != 0) {
                    let digit = if own & (1 << bit) != 0 {
                        1
                    } else if enemy & (1 << bit) != 0 {
                        2
                    } else {
                        0
                    };
                    index += digit * power;
                    power *= 3;
                }
                let men_table = FIRST_BAND_TABLE + number;
                assert!(entries.contains(&(TABLE_STARTS[men_table] + index)));
                let count = |set: u32| (set & band.squares()).count_ones().min(2) as usize;
                let config = 3 * count(own_kings) + count(enemy_kings);
                let king_table = FIRST_BAND_KING_TABLE + number;
                assert!(entries.contains(&(TABLE_STARTS[king_table] + config)));
            }
            for entry in entries {
                assert_eq!(parse_entry_name(&entry_name(entry)), Some(entry));
            }
        }
        assert_eq!(entry_name(FIRST_BAND_ENTRY), "band2_r0[0]");
        assert_eq!(entry_name(ENTRY_COUNT - 1), "kings_band3_r2[8]");
        assert_eq!(
            parse_entry_name("band3_r0[531440]"),
            Some(table_entries(30).end - 1)
        );
        assert_eq!(parse_entry_name("band3_r0[531441]"), None);
        assert_eq!(parse_entry_name("band2_r3[6561]"), None);
    }

    #[test]
    fn tables_tile_the_entries_and_shapes_partition_the_tables() {
        assert_eq!(TABLE_STARTS[FIRST_BAND_TABLE], FIRST_BAND_ENTRY);
        assert_eq!(
            ENTRY_COUNT,
            FIRST_BAND_ENTRY + 4 * 6561 + 3 * 531_441 + 7 * KING_CONFIGS
        );
        for table in 0..TABLE_COUNT {
            let entries = table_entries(table);
            assert_eq!(table_of_entry(entries.start), table);
            assert_eq!(table_of_entry(entries.end - 1), table);
            assert_eq!(table_named(table_name(table)), Some(table));
        }
        let shapes = [
            TableSet::BLOCKS,
            TableSet::BANDS_OF_TWO_ROWS,
            TableSet::BANDS_OF_THREE_ROWS,
        ];
        assert_eq!(shapes.iter().map(|set| set.0).sum::<u64>(), TableSet::ALL.0);
        assert_eq!(
            shapes.iter().fold(0, |all, set| all | set.0),
            TableSet::ALL.0
        );
    }

    #[test]
    fn kings_are_counted_per_region_while_any_king_is_on_the_board() {
        // White kings on 18 (d4) and 21 (a3), a black king on 15 (e5), men elsewhere.
        let position = parse_position("W:WK18,K21,29:BK15,1").expect("valid");
        let mut entries = Vec::new();
        visit_patterns(&position, Color::White, TableSet::BLOCKS, |entry| {
            entries.push(entry)
        });
        assert_eq!(entries.len(), 2 * REGION_COUNT);
        // The centre block (rows 2-5, files 2-5) holds d4 and e5 but not a3: one own king, one
        // enemy king.
        assert_eq!(
            entries[REGION_COUNT + 12],
            FIRST_KING_ENTRY + 12 * KING_CONFIGS + 3 + 1
        );
        for entry in &entries {
            assert_eq!(parse_entry_name(&entry_name(*entry)), Some(*entry));
        }
        assert_eq!(entry_name(FIRST_KING_ENTRY + 8), "kings_r0_c0[8]");
        assert_eq!(parse_entry_name("kings_r0_c0[9]"), None);
        assert_eq!(parse_entry_name("block_r0_c0[6561]"), None);
    }
}

//! Pattern features: the men on a small board region, read as one configuration, index a table
//! with one weight per configuration (each square empty, own man or enemy man: 3^k entries for k
//! squares).
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
//! eight squares are gathered from that word by two shifts and masks and packed into a byte
//! ([`Region`]), and the byte goes through a 256-entry table that turns binary digits into ternary
//! ones.

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
/// and masks gather all eight squares into the low two bits of four nibbles (row by row), and two
/// shift-or steps pack them into one byte.
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
    /// The eight squares of the region packed into one byte, in bit order of the dense word.
    #[inline(always)]
    fn gather(&self, word: u32) -> u32 {
        let spread = ((word >> self.shift_first) & FIRST_AND_THIRD)
            | ((word >> self.shift_second) & SECOND_AND_FOURTH);
        let pairs = (spread | (spread >> 2)) & 0x0F0F;
        (pairs | (pairs >> 4)) & 0xFF
    }

    /// The region's squares as a set of own-view dense bits.
    pub const fn squares(&self) -> u32 {
        (FIRST_AND_THIRD << self.shift_first) | (SECOND_AND_FOURTH << self.shift_second)
    }

    /// The region's own-view configuration index (0..[`TABLE_LEN`]): digit `i` is 1 for an own
    /// man, 2 for an enemy man, 0 otherwise, on the region's `i`-th square in bit order.
    #[inline(always)]
    pub fn index(&self, own: u32, enemy: u32) -> usize {
        usize::from(TERNARY[self.gather(own) as usize])
            + 2 * usize::from(TERNARY[self.gather(enemy) as usize])
    }
}

/// `TERNARY[b]` reads the binary digits of `b` as ternary digits: sum of 3^i over the set bits i.
const TERNARY: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut bit = 0;
        while bit < 8 {
            if bits & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[bits] = value;
        bits += 1;
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

/// One `[opening, endgame]` weight pair for every configuration of every region of [`REGIONS`],
/// in score units like the other weights (blended by phase the same way).
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights(Box<[[i16; 2]]>);

impl PatternWeights {
    /// Every entry zero: patterns change nothing.
    pub fn zero() -> PatternWeights {
        PatternWeights(vec![[0, 0]; REGION_COUNT * TABLE_LEN].into_boxed_slice())
    }

    /// The weight pair of configuration `index` of region `region`.
    #[inline(always)]
    pub fn get(&self, region: usize, index: usize) -> [i16; 2] {
        self.0[region * TABLE_LEN + index]
    }

    /// Sets the weight pair of configuration `index` of region `region`.
    pub fn set(&mut self, region: usize, index: usize, value: [i16; 2]) {
        self.0[region * TABLE_LEN + index] = value;
    }

    /// The entries that are not zero, as (region, index, [opening, endgame]).
    pub fn non_zero(&self) -> impl Iterator<Item = (usize, usize, [i16; 2])> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, value)| **value != [0, 0])
            .map(|(flat, &value)| (flat / TABLE_LEN, flat % TABLE_LEN, value))
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

/// `color`'s men and the enemy men as dense words in `color`'s own view (Black's rotated: square
/// `n` is its `33 - n`, which reverses the 32 bits).
#[inline(always)]
pub fn own_view_men(position: &Position, color: Color) -> (u32, u32) {
    let own = dense(position.men(color));
    let enemy = dense(position.men(color.opponent()));
    match color {
        Color::White => (own, enemy),
        Color::Black => (own.reverse_bits(), enemy.reverse_bits()),
    }
}

/// Calls `visit(region, index)` for every region of `regions` as `color` sees the position.
#[inline(always)]
pub fn visit_patterns(
    position: &Position,
    color: Color,
    regions: &[Region],
    mut visit: impl FnMut(usize, usize),
) {
    let (own, enemy) = own_view_men(position, color);
    for (number, region) in regions.iter().enumerate() {
        visit(number, region.index(own, enemy));
    }
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
        let mirror = position.color_flipped();
        for color in [Color::White, Color::Black] {
            let mut here = Vec::new();
            visit_patterns(&position, color, &REGIONS, |region, index| {
                here.push((region, index))
            });
            let mut there = Vec::new();
            visit_patterns(&mirror, color.opponent(), &REGIONS, |region, index| {
                there.push((region, index))
            });
            assert_eq!(here, there);
        }
    }
}

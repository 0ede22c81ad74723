//! Row bands: a larger pattern shape than the 4x4 blocks of [`crate::eval::patterns`]. A band is
//! two or three whole rows of a side's own view (8 or 12 dark squares, 3^8 = 6,561 or 3^12 =
//! 531,441 men configurations), so it sees a formation across the full width of the board: both
//! flanks, the centre and the gaps between them at once, where a block sees a quarter of it.
//!
//! In the own-view dense word (bit `n - 1` is the square the side numbers `n`, four bits per row,
//! row 0 the row the side promotes on) a band's rows are contiguous bits, so its index is one
//! shift and mask per colour and one lookup that turns binary digits into ternary ones: no loop
//! over squares, and fewer operations than a block.
//!
//! Canonical placements are those whose 180-degree rotation (rows `8 - rows - first .. 8 -
//! first`) does not come earlier: each side reads every canonical band in its own view, so every
//! placement is read exactly once per position (a self-symmetric band, rows 3-4, by both sides).

/// Squares in a band at most: three rows of four dark squares.
pub const MAX_BAND_SQUARES: usize = 12;

/// One band: `rows` consecutive rows of the own view starting at row `first_row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// Name in weight files and in `onca eval` (`band3_r1`: three rows, rows 1-3).
    pub name: &'static str,
    /// Name of its king table (`kings_band3_r1`).
    pub king_name: &'static str,
    /// Right shift that brings the band's first row to bits 0-3.
    shift: u8,
    /// The band's bits after the shift: 4 per row.
    mask: u32,
}

impl Band {
    /// The band's squares as a set of own-view dense bits.
    pub const fn squares(&self) -> u32 {
        self.mask << self.shift
    }

    /// Entries of its men table: 3^squares.
    pub const fn table_len(&self) -> usize {
        3usize.pow(self.mask.count_ones())
    }

    /// The band's own-view configuration index (0..[`Band::table_len`]): digit `i` is 1 for an
    /// own man, 2 for an enemy man, 0 otherwise, on the band's `i`-th square in bit order.
    #[inline(always)]
    pub fn index(&self, own: u32, enemy: u32) -> usize {
        self.index_of_pair(u64::from(own) | (u64::from(enemy) << 32))
    }

    /// [`Band::index`] with own men in bits 0-31 of `men` and enemy men in bits 32-63.
    #[inline(always)]
    pub fn index_of_pair(&self, men: u64) -> usize {
        let (own, enemy) = self.gather_pair(men);
        TERNARY[own as usize] as usize + 2 * TERNARY[enemy as usize] as usize
    }

    /// The band's bits of each half of `pair`, shifted down to bit 0.
    #[inline(always)]
    pub fn gather_pair(&self, pair: u64) -> (u32, u32) {
        let shifted = pair >> self.shift;
        (
            shifted as u32 & self.mask,
            (shifted >> 32) as u32 & self.mask,
        )
    }
}

/// `TERNARY[b]` reads the 12 bits of `b` as ternary digits: the sum of 3^i over the set bits i.
/// 16 KB, shared by every band (a two-row band uses its first 256 entries).
static TERNARY: [u32; 1 << MAX_BAND_SQUARES] = {
    let mut table = [0u32; 1 << MAX_BAND_SQUARES];
    let mut bits = 0;
    while bits < table.len() {
        let mut value = 0u32;
        let mut power = 1u32;
        let mut bit = 0;
        while bit < MAX_BAND_SQUARES {
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

/// The band of `rows` rows (2 or 3) whose first row is own-view row `first_row` (0 = the row the
/// side promotes on).
const fn band(name: &'static str, king_name: &'static str, first_row: u8, rows: u8) -> Band {
    assert!(rows >= 1 && rows as usize * 4 <= MAX_BAND_SQUARES && first_row + rows <= 8);
    Band {
        name,
        king_name,
        shift: 4 * first_row,
        mask: (1 << (4 * rows)) - 1,
    }
}

/// Number of bands: the canonical two-row and three-row placements.
pub const BAND_COUNT: usize = 7;

/// The canonical bands: two rows starting at rows 0-3 (rows 3-4 are their own rotation), three
/// rows starting at rows 0-2.
pub const BANDS: [Band; BAND_COUNT] = [
    band("band2_r0", "kings_band2_r0", 0, 2),
    band("band2_r1", "kings_band2_r1", 1, 2),
    band("band2_r2", "kings_band2_r2", 2, 2),
    band("band2_r3", "kings_band2_r3", 3, 2),
    band("band3_r0", "kings_band3_r0", 0, 3),
    band("band3_r1", "kings_band3_r1", 1, 3),
    band("band3_r2", "kings_band3_r2", 2, 3),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    /// The own-view row of square number `n`, from the numbering of RULES.md.
    fn row(n: u32) -> u32 {
        Square::from_number(n).expect("a square").row()
    }

    #[test]
    fn bands_hold_the_dark_squares_of_their_rows() {
        for band in BANDS {
            let rows = band.mask.count_ones() / 4;
            let first = u32::from(band.shift) / 4;
            let expected: u32 = (1..=32)
                .filter(|&n| (first..first + rows).contains(&row(n)))
                .map(|n| 1u32 << (n - 1))
                .sum();
            assert_eq!(band.squares(), expected, "{}", band.name);
            assert_eq!(band.table_len(), 3usize.pow(4 * rows));
            let digits = band.name.strip_prefix("band").expect("a band name");
            assert_eq!(band.king_name, format!("kings_band{digits}"));
            assert_eq!(digits, format!("{rows}_r{first}"));
        }
    }

    #[test]
    fn canonical_bands_cover_each_placement_or_its_rotation_once() {
        let rotate = |set: u32| set.reverse_bits();
        for rows in [2u8, 3] {
            for first in 0..=8 - rows {
                let squares = band("test", "test", first, rows).squares();
                let covering = BANDS
                    .iter()
                    .filter(|b| b.squares() == squares || rotate(b.squares()) == squares)
                    .count();
                assert_eq!(covering, 1, "{rows} rows from row {first}");
            }
        }
    }

    /// The index by the definition: one ternary digit per square, squares in number order.
    fn slow_index(squares: u32, own: u32, enemy: u32) -> usize {
        let mut index = 0;
        let mut power = 1;
        for n in 1..=32u32 {
            let bit = 1u32 << (n - 1);
            if squares & bit == 0 {
                continue;
            }
            let digit = if own & bit != 0 {
                1
            } else if enemy & bit != 0 {
                2
            } else {
                0
            };
            index += digit * power;
            power *= 3;
        }
        index
    }

    #[test]
    fn index_matches_a_square_by_square_reading() {
        // Pseudo-random disjoint men sets from a fixed xorshift.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let occupied = (state >> 32) as u32 & state as u32;
            let own = occupied & (state >> 16) as u32;
            let enemy = occupied & !own;
            for band in BANDS {
                let index = band.index(own, enemy);
                assert_eq!(
                    index,
                    slow_index(band.squares(), own, enemy),
                    "{}",
                    band.name
                );
                assert!(index < band.table_len());
            }
        }
        // Every square of the widest band at digit 2, then at digit 1.
        let widest = BANDS[BAND_COUNT - 1];
        assert_eq!(widest.index(0, widest.squares()), widest.table_len() - 1);
        assert_eq!(
            widest.index(widest.squares(), 0),
            (widest.table_len() - 1) / 2
        );
    }
}

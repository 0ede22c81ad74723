//! The perfect index of one material split: every placement gets a number in `0..size`.
//!
//! Pieces are placed kind by kind, each kind as a combination ranked in colexicographic order:
//! our men on the 28 squares they can stand on (5-32: a man on 1-4 would have promoted), their men
//! on theirs (1-28), then our kings on the squares the men left free, then their kings on what is
//! still free. Kings are therefore numbered without gaps; the only unused numbers are placements
//! where one of our men and one of theirs would share a square (a small share with several men on
//! each side, none with men on one side only). [`Indexer::position`] returns `None` for those.

use super::material::{Canonical, MaterialKey};

/// Binomial coefficients C(n, k) for n, k <= 32.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

#[inline(always)]
const fn binomial(n: u32, k: u32) -> u64 {
    if n > 32 || k > 32 {
        return 0;
    }
    BINOMIAL[n as usize][k as usize]
}

/// Squares our men may stand on (5-32) start at bit 4; theirs (1-28) fill bits 0-27.
const OUR_MEN_SHIFT: u32 = 4;
const MEN_SQUARES: u32 = 28;
const THEIR_MEN_FORBIDDEN: u32 = 0xF000_0000;
const OUR_MEN_FORBIDDEN: u32 = 0x0000_000F;

/// Colex rank of the set bits of `slots`.
#[inline(always)]
fn rank(mut slots: u32) -> u64 {
    let mut total = 0;
    let mut ordinal = 1;
    while slots != 0 {
        let slot = slots.trailing_zeros();
        total += binomial(slot, ordinal);
        ordinal += 1;
        slots &= slots - 1;
    }
    total
}

/// The `count`-element subset of slots `0..available` with colex rank `rank`
/// (`rank < C(available, count)`).
#[inline(always)]
fn unrank(mut rank: u64, count: u32, available: u32) -> u32 {
    let mut slots = 0u32;
    let mut top = available.min(32);
    for ordinal in (1..=count).rev() {
        // The largest slot s with C(s, ordinal) <= rank.
        let mut slot = top;
        while slot > 0 && binomial(slot - 1, ordinal) > rank {
            slot -= 1;
        }
        let slot = slot.saturating_sub(1);
        rank -= binomial(slot, ordinal);
        slots |= 1 << slot;
        top = slot;
    }
    slots
}

/// Numbers the squares outside `taken` consecutively and returns the numbers of `squares`.
#[inline(always)]
fn squeeze(mut squares: u32, taken: u32) -> u32 {
    let mut slots = 0;
    while squares != 0 {
        let square = squares.trailing_zeros();
        let below = taken & ((1u32 << square) - 1);
        slots |= 1 << (square - below.count_ones());
        squares &= squares - 1;
    }
    slots
}

/// The inverse of [`squeeze`]: the squares outside `taken` with the given numbers.
#[inline(always)]
fn spread(mut slots: u32, taken: u32) -> u32 {
    let mut squares = 0;
    let mut free = !taken;
    let mut number = 0;
    while slots != 0 && free != 0 {
        let square = free.trailing_zeros();
        if slots & 1 != 0 {
            squares |= 1 << square;
        }
        slots >>= 1;
        number += 1;
        free &= free - 1;
    }
    debug_assert!(number <= 32);
    squares
}

/// Index arithmetic for one material split.
#[derive(Clone, Copy, Debug)]
pub struct Indexer {
    key: MaterialKey,
    their_men_count: u64,
    our_kings_count: u64,
    their_kings_count: u64,
    size: u64,
}

impl Indexer {
    /// The index of the split `key`, with the placement count of each kind computed up front.
    pub fn new(key: MaterialKey) -> Indexer {
        let men = u32::from(key.us_men + key.them_men);
        let our_men_count = binomial(MEN_SQUARES, u32::from(key.us_men));
        let their_men_count = binomial(MEN_SQUARES, u32::from(key.them_men));
        let our_kings_count = binomial(32 - men, u32::from(key.us_kings));
        let their_kings_count = binomial(
            32 - men - u32::from(key.us_kings),
            u32::from(key.them_kings),
        );
        Indexer {
            key,
            their_men_count,
            our_kings_count,
            their_kings_count,
            size: our_men_count * their_men_count * our_kings_count * their_kings_count,
        }
    }

    /// The split this indexer numbers.
    pub const fn key(&self) -> MaterialKey {
        self.key
    }

    /// How many numbers the index uses (including the few unused ones).
    pub const fn size(&self) -> u64 {
        self.size
    }

    /// How many positions the split has: the numbers actually used. Our men may stand on 4 squares
    /// theirs never reach (29-32); the rest of their squares are shared with their men.
    pub fn positions(&self) -> u64 {
        let ours = u32::from(self.key.us_men);
        let theirs = u32::from(self.key.them_men);
        let men: u64 = (0..=ours.min(4))
            .map(|on_back_row| {
                let shared = ours - on_back_row;
                binomial(4, on_back_row)
                    * binomial(MEN_SQUARES - 4, shared)
                    * binomial(MEN_SQUARES - shared, theirs)
            })
            .sum();
        men * self.our_kings_count * self.their_kings_count
    }

    /// The number of a position of this split; `None` if it does not belong to this split or a man
    /// stands where it never can.
    #[inline]
    pub fn index(&self, position: &Canonical) -> Option<u64> {
        if position.key() != self.key
            || position.us_men & OUR_MEN_FORBIDDEN != 0
            || position.them_men & THEIR_MEN_FORBIDDEN != 0
        {
            return None;
        }
        let men = position.us_men | position.them_men;
        let our_men = rank(position.us_men >> OUR_MEN_SHIFT);
        let their_men = rank(position.them_men);
        let our_kings = rank(squeeze(position.us_kings, men));
        let their_kings = rank(squeeze(position.them_kings, men | position.us_kings));
        Some(
            ((our_men * self.their_men_count + their_men) * self.our_kings_count + our_kings)
                * self.their_kings_count
                + their_kings,
        )
    }

    /// The position with number `index`; `None` for unused numbers and numbers out of range.
    #[inline]
    pub fn position(&self, index: u64) -> Option<Canonical> {
        if index >= self.size {
            return None;
        }
        let their_kings = index % self.their_kings_count;
        let rest = index / self.their_kings_count;
        let our_kings = rest % self.our_kings_count;
        let rest = rest / self.our_kings_count;
        let their_men = rest % self.their_men_count;
        let our_men = rest / self.their_men_count;

        let us_men = unrank(our_men, u32::from(self.key.us_men), MEN_SQUARES) << OUR_MEN_SHIFT;
        let them_men = unrank(their_men, u32::from(self.key.them_men), MEN_SQUARES);
        if us_men & them_men != 0 {
            return None;
        }
        let men = us_men | them_men;
        let free = 32 - men.count_ones();
        let our_king_count = u32::from(self.key.us_kings);
        let us_kings = spread(unrank(our_kings, our_king_count, free), men);
        let them_kings = spread(
            unrank(
                their_kings,
                u32::from(self.key.them_kings),
                free - our_king_count,
            ),
            men | us_kings,
        );
        Some(Canonical {
            us_men,
            us_kings,
            them_men,
            them_kings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(32, 2), 496);
        assert_eq!(binomial(28, 3), 3276);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        for count in 0..=4u32 {
            for r in 0..binomial(12, count) {
                let slots = unrank(r, count, 12);
                assert_eq!(unrank(r, count, 32), slots);
                assert_eq!(slots.count_ones(), count);
                assert_eq!(rank(slots), r);
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let taken = 0b1011_0010u32;
        let squares = 0b0100_0101u32 | (1 << 31);
        assert_eq!(spread(squeeze(squares, taken), taken), squares);
    }

    #[test]
    fn kings_only_tables_have_no_gaps() {
        let indexer = Indexer::new(MaterialKey::new(0, 2, 0, 1));
        assert_eq!(indexer.size(), 496 * 30);
        for index in 0..indexer.size() {
            let position = indexer.position(index).expect("no gaps without men");
            assert_eq!(indexer.index(&position), Some(index));
        }
    }
}

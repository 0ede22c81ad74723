//! Endgame knowledge that weights cannot express: material balances whose result the rules of the
//! game decide, whatever the pieces' placement.
//!
//! * A lone king against a lone king is a draw.
//! * A lone king against at most two pieces with a king cannot be beaten (and the move-count rules
//!   draw it after 5 moves); neither can a side with a king against at most two pieces.
//! * Three or more pieces with a king beat a lone king only when it does not hold the long
//!   diagonal (with three pieces the rules draw once it has held the diagonal for 5 moves). Off the
//!   diagonal the stronger side must still know how: take the long diagonal itself and corner the
//!   lone king within the 15 moves the rules allow. [`Verdict::KingHunt`] scores exactly that.
//!
//! * A king makes an advantage hard to convert (a rule of thumb of Scan's): against a side with a
//!   king, the side ahead by the evaluation keeps an eighth of its lead with three pieces or
//!   fewer, and half of it when both sides have as many kings and their men differ by at most one
//!   ([`Verdict::Damped`]). Such endings are often drawn: valued whole, a lead there draws the
//!   search into trading down to them.
//!
//! Three kings against one is the ending that matters most and the hardest to play by rules of
//! thumb (the win can take 20 plies of precise manoeuvring), so it is known exactly: its two
//! endgame tables (about 300 KB, made by `onca egtb generate`, in `data/egtb/`) are compiled in,
//! and the hunt is scored by the tables' distance to the capture alone. Larger hunts use the long
//! diagonal and the hunted king's safe squares.
//!
//! All of this holds in Russian draughts too, the tables included: with kings only, the variants
//! differ in the lone king's choice between capturing one hunter or two, and either leaves a draw.
//! The Russian tables of three kings against one are the Brazilian ones symbol for symbol (a test
//! generates them), so the evaluation is the same function in both variants.
//!
//! The classification looks at material only (and the placement in the exact case), so it is the
//! same for any weights; the tuner leaves these positions out.

use crate::egtb::store::{self, Kind};
use crate::egtb::{MaterialKey, Tablebases, Wdl};
use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::position::{Color, Position};
use std::sync::LazyLock;

/// Score divisor for endings the stronger side cannot win, and for the lead of three pieces or
/// fewer against a king.
pub const DRAWISH_DIVISOR: i32 = 8;
/// Score divisor for the side ahead when the kings are level (at least one each) and the men
/// differ by at most one.
pub const LEVEL_KINGS_DIVISOR: i32 = 2;
/// Bonus (score units) for the hunting side once a lone king is off the long diagonal.
pub const HUNT_BONUS: i32 = 300;
/// Bonus for each of the hunter's kings on the long diagonal (it keeps the lone king off it).
pub const HUNT_LONG_DIAGONAL: i32 = 40;
/// Score (for the hunter) of a three-kings hunt the tables call won, before [`HUNT_PER_PLY`]:
/// ten men, so that a known win scores 10 to 16.4 men, the range the weights plus the bonuses
/// gave these positions before the tables' distance alone decided (10.6 to 14.8 men at 19 plies).
pub const HUNT_KNOWN_WIN: i32 = 1000;
/// Bonus per ply a known three-kings win is shorter than [`LONGEST_HUNT`].
pub const HUNT_PER_PLY: i32 = 10;
/// Longer than any three-kings win (plies to the capture).
pub const LONGEST_HUNT: i32 = 64;
/// Penalty when the lone king can reach the long diagonal in one move.
pub const HUNT_ESCAPE: i32 = 150;
/// Penalty for each safe square the hunted king can slide to.
pub const HUNT_MOBILITY: i32 = 30;

/// What the material says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing special: the weighted evaluation stands.
    Normal,
    /// A lone king against a lone king: a draw.
    Draw,
    /// The side ahead cannot force a win: the evaluation is scaled towards zero.
    Drawish,
    /// `hunter` has three or more pieces with a king against a lone king off the long diagonal
    /// (or, with three kings, a lone king the tables say is lost in `plies`).
    KingHunt {
        /// The side with the three or more pieces, hunting the lone king.
        hunter: Color,
        /// Plies to the capture of the lone king by the three-kings tables, when they know the
        /// position (`None`: a larger hunt, scored by rules of thumb).
        plies: Option<u32>,
    },
    /// The side ahead faces a king that makes its lead hard to convert: White's lead is divided
    /// by `white`, Black's by `black` (1: kept whole; never both 1).
    Damped {
        /// Divisor of the evaluation when White is ahead.
        white: i32,
        /// Divisor of the evaluation when Black is ahead.
        black: i32,
    },
}

/// The compiled-in tables of three kings against one, both sides to move.
static THREE_KINGS: LazyLock<Tablebases> = LazyLock::new(|| {
    const FILES: [(MaterialKey, &[u8], &[u8]); 2] = [
        (
            MaterialKey::new(0, 3, 0, 1),
            include_bytes!("../../data/egtb/m0k3_m0k1.wdl"),
            include_bytes!("../../data/egtb/m0k3_m0k1.dtc"),
        ),
        (
            MaterialKey::new(0, 1, 0, 3),
            include_bytes!("../../data/egtb/m0k1_m0k3.wdl"),
            include_bytes!("../../data/egtb/m0k1_m0k3.dtc"),
        ),
    ];
    let mut tables = Tablebases::empty();
    for (key, wdl, dtc) in FILES {
        // The files are part of the build and checked by a test; a damaged one only costs the
        // exact knowledge (the rules of thumb take over).
        match (
            store::decode(wdl, key, Kind::Wdl),
            store::decode(dtc, key, Kind::Dtc),
        ) {
            (Ok(symbols), Ok(codes)) => tables.insert(key, &symbols, Some(codes)),
            (Err(error), _) | (_, Err(error)) => log::warn!("three-kings table {key}: {error:#}"),
        }
    }
    tables
});

/// A side's material: pieces and kings.
#[derive(Clone, Copy)]
struct Material {
    pieces: u32,
    kings: u32,
}

impl Material {
    fn of(position: &Position, color: Color) -> Material {
        Material {
            pieces: position.pieces(color).count(),
            kings: position.kings(color).count(),
        }
    }

    fn men(self) -> u32 {
        self.pieces - self.kings
    }

    fn is_lone_king(self) -> bool {
        self.pieces == 1 && self.kings == 1
    }

    /// Men count 1, kings 3: enough to say who is ahead.
    fn value(self) -> u32 {
        self.pieces + 2 * self.kings
    }
}

/// `color`'s material counting men 1 and kings 3: enough to say who is ahead.
#[inline]
pub fn material(position: &Position, color: Color) -> u32 {
    Material::of(position, color).value()
}

/// Classifies `position` by its material (and, with three kings against one, its placement).
#[inline]
pub fn classify(position: &Position) -> Verdict {
    let white = Material::of(position, Color::White);
    let black = Material::of(position, Color::Black);
    if white.pieces == 0 || black.pieces == 0 {
        return Verdict::Normal;
    }
    if white.pieces <= 3 || black.pieces <= 3 {
        if let Some(verdict) = classify_few_pieces(position, white, black) {
            return verdict;
        }
    }
    match (lead_divisor(white, black), lead_divisor(black, white)) {
        (1, 1) => Verdict::Normal,
        (white, black) => Verdict::Damped { white, black },
    }
}

/// What `ahead`'s lead is divided by against `behind` (see [`Verdict::Damped`]).
#[inline]
fn lead_divisor(ahead: Material, behind: Material) -> i32 {
    if behind.kings == 0 {
        1
    } else if ahead.pieces <= 3 {
        DRAWISH_DIVISOR
    } else if ahead.kings == behind.kings && ahead.men().abs_diff(behind.men()) <= 1 {
        LEVEL_KINGS_DIVISOR
    } else {
        1
    }
}

/// The verdicts of the endings where a side has three pieces or fewer; `None` where the general
/// rule of [`lead_divisor`] decides.
fn classify_few_pieces(position: &Position, white: Material, black: Material) -> Option<Verdict> {
    if white.is_lone_king() && black.is_lone_king() {
        return Some(Verdict::Draw);
    }
    for (lone, hunter, hunter_color) in [(white, black, Color::Black), (black, white, Color::White)]
    {
        if !lone.is_lone_king() || hunter.kings == 0 {
            continue;
        }
        if hunter.pieces <= 2 {
            return Some(Verdict::Drawish);
        }
        if hunter.pieces == 3 && hunter.kings == 3 {
            if let Some(known) = THREE_KINGS.probe_distance(position) {
                let hunter_wins = match known.wdl {
                    Wdl::Win => position.side_to_move() == hunter_color,
                    Wdl::Loss => position.side_to_move() != hunter_color,
                    Wdl::Draw => false,
                };
                return Some(match (hunter_wins, known.plies) {
                    (true, Some(plies)) => Verdict::KingHunt {
                        hunter: hunter_color,
                        plies: Some(plies),
                    },
                    _ => Verdict::Drawish,
                });
            }
        }
        let lone_king = position.kings(hunter_color.opponent());
        if (lone_king & Bitboard::LONG_DIAGONAL).is_not_empty() {
            return Some(Verdict::Drawish);
        }
        return Some(Verdict::KingHunt {
            hunter: hunter_color,
            plies: None,
        });
    }
    let (stronger, weaker) = if white.value() > black.value() {
        (white, black)
    } else {
        (black, white)
    };
    if stronger.value() != weaker.value() && weaker.kings > 0 && stronger.pieces <= 2 {
        return Some(Verdict::Drawish);
    }
    None
}

/// Applies `verdict` to `white_view`, the weighted evaluation from White's view.
#[inline]
pub fn adjust(position: &Position, verdict: Verdict, white_view: i32) -> i32 {
    match verdict {
        Verdict::Normal => white_view,
        Verdict::Draw => 0,
        Verdict::Drawish => white_view / DRAWISH_DIVISOR,
        Verdict::Damped { white, black } => {
            if white_view > 0 {
                white_view / white
            } else {
                white_view / black
            }
        }
        Verdict::KingHunt { hunter, plies } => {
            // A hunt the tables know is scored by its distance alone: the weights' views of the
            // kings' squares would otherwise outweigh a ply of progress and stall the hunt.
            let hunter_sign = match hunter {
                Color::White => 1,
                Color::Black => -1,
            };
            match plies {
                Some(plies) => {
                    hunter_sign
                        * (HUNT_KNOWN_WIN + HUNT_PER_PLY * (LONGEST_HUNT - plies as i32).max(0))
                }
                None => white_view + hunter_sign * hunt_bonus(position, hunter),
            }
        }
    }
}

/// How well `hunter` is doing against the lone king, by rules of thumb: its kings on the long diagonal, and how few
/// safe squares the lone king has left (a square is unsafe when a hunting king could capture it
/// there: the king would stand on a hunter's open line with an empty square behind it).
fn hunt_bonus(position: &Position, hunter: Color) -> i32 {
    let hunters = position.kings(hunter);
    let hunted = position.kings(hunter.opponent());
    let open = position.empty_squares() | hunted;
    let mut reach = Bitboard::EMPTY;
    let mut unsafe_squares = Bitboard::EMPTY;
    for direction in Direction::ALL {
        reach |= hunted.ray(direction, open) & open;
        let lines = hunters.ray(direction, open) & open;
        unsafe_squares |= lines & open.step(direction.opposite());
    }
    let safe = (reach & !unsafe_squares).count() as i32;
    let diagonal = (hunters & Bitboard::LONG_DIAGONAL).count() as i32;
    // Once the lone king touches the long diagonal the rules draw soon: keep it out of reach.
    let escape = if (reach & Bitboard::LONG_DIAGONAL).is_not_empty() {
        HUNT_ESCAPE
    } else {
        0
    };
    HUNT_BONUS + HUNT_LONG_DIAGONAL * diagonal - HUNT_MOBILITY * safe - escape
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    fn verdict(fen: &str) -> Verdict {
        classify(&parse_position(fen).expect("valid position"))
    }

    #[test]
    fn material_balances_are_classified() {
        assert_eq!(verdict("W:WK29:BK4"), Verdict::Draw);
        // Two kings, or a king and a man, against a lone king.
        assert_eq!(verdict("W:WK1,K2:BK10"), Verdict::Drawish);
        assert_eq!(verdict("B:WK1,20:BK10"), Verdict::Drawish);
        // Four kings against a lone king on the long diagonal (15 is on it), and off it.
        assert_eq!(verdict("W:WK1,K2,K3,K9:BK15"), Verdict::Drawish);
        let hunt = |hunter| Verdict::KingHunt {
            hunter,
            plies: None,
        };
        assert_eq!(verdict("W:WK1,K2,K3,K9:BK14"), hunt(Color::White));
        // Two kings and a man against a king off the diagonal: the rules of thumb.
        assert_eq!(verdict("W:WK14:BK1,K2,9"), hunt(Color::Black));
        // Men alone against a lone king: the weights decide, and the king damps their lead.
        assert_eq!(
            verdict("W:W21,22,23:BK1"),
            Verdict::Damped { white: 8, black: 1 }
        );
        // Two kings against a king and a man: the stronger side has only two pieces.
        assert_eq!(verdict("W:WK1,K2:BK30,12"), Verdict::Drawish);
        // Full boards and boards without kings are left alone.
        assert_eq!(classify(&Position::start()), Verdict::Normal);
        assert_eq!(verdict("W:W20,21,22,23:B5,6,7"), Verdict::Normal);
    }

    #[test]
    fn a_king_damps_the_lead_of_the_side_ahead() {
        let damped = |white, black| Verdict::Damped { white, black };
        // A king and a man each: whoever is ahead has only two pieces against a king.
        assert_eq!(verdict("W:WK1,20:BK30,12"), damped(8, 8));
        // A king each, four men against three: either lead is halved.
        assert_eq!(verdict("W:WK1,20,21,22,23:BK30,5,6,7"), damped(2, 2));
        // Two men more, or a king more, keep any lead whole.
        assert_eq!(verdict("W:WK1,20,21,22,23,24:BK30,5,6,7"), Verdict::Normal);
        assert_eq!(verdict("W:WK1,K2,20,21,22:BK30,5,6,7"), Verdict::Normal);
        // A lead against a side without a king is never damped.
        assert_eq!(verdict("W:WK1,20,21,22:B5,6,7,8"), Verdict::Normal);
        // Three pieces against a king and five men: only the three pieces' lead shrinks.
        assert_eq!(verdict("W:WK1,20,21:BK30,5,6,7,8,9"), damped(8, 1));
        let few = parse_position("W:WK1,20,21:BK30,5,6,7,8,9").expect("valid position");
        assert_eq!(adjust(&few, classify(&few), 80), 10);
        assert_eq!(adjust(&few, classify(&few), -80), -80);
        let level = parse_position("W:WK1,20,21,22,23:BK30,5,6,7").expect("valid position");
        assert_eq!(adjust(&level, classify(&level), -81), -40);
    }

    #[test]
    fn three_kings_against_one_are_known_exactly() {
        let tables = &*THREE_KINGS;
        assert!(tables.has_distances(MaterialKey::new(0, 3, 0, 1)));
        assert!(tables.has_distances(MaterialKey::new(0, 1, 0, 3)));
        // Distances checked against `onca egtb probe` on freshly generated tables: White to move
        // wins in 12 plies; Black to move (the hunted side) loses in 19.
        let hunt = |hunter, plies| Verdict::KingHunt {
            hunter,
            plies: Some(plies),
        };
        assert_eq!(verdict("W:WK22,K1,K32:BK12"), hunt(Color::White, 12));
        assert_eq!(verdict("B:WK29,K2,K3:BK21"), hunt(Color::White, 19));
        let mirrored = parse_position("W:WK22,K1,K32:BK12")
            .expect("valid")
            .color_flipped();
        assert_eq!(classify(&mirrored), hunt(Color::Black, 12));
        // The lone king on the long diagonal holds: a draw, scaled.
        assert_eq!(verdict("B:WK1,K2,K3:BK15"), Verdict::Drawish);
    }

    #[test]
    fn the_hunt_rewards_the_long_diagonal_and_a_cornered_king() {
        let free = parse_position("W:WK1,K2,K3,K9:BK14").expect("valid");
        let cornered = parse_position("W:WK1,K2,K9,K29:BK5").expect("valid");
        let hunt = Verdict::KingHunt {
            hunter: Color::White,
            plies: None,
        };
        assert!(adjust(&cornered, hunt, 0) > adjust(&free, hunt, 0));
        assert!(adjust(&free, hunt, 0) > 0);
        // A shorter known win scores higher.
        let known = |plies| Verdict::KingHunt {
            hunter: Color::White,
            plies: Some(plies),
        };
        assert!(adjust(&free, known(5), 0) > adjust(&free, known(15), 0));
    }
}

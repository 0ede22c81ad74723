//! Legal move generation: every capture rule of RULES.md lives here, for each variant of
//! [`crate::rules::variant`].
//!
//! * Men step one square diagonally forward; kings fly along empty diagonals.
//! * Capturing is compulsory. In Brazilian only the sequences that capture the most pieces are
//!   legal (kings and men count the same); in Russian any complete sequence is.
//! * A sequence must be completed: a piece that can go on capturing must. In Russian a king that
//!   has several landing squares behind a captured piece must take one from which it can go on
//!   capturing, if there is one (in Brazilian the majority rule already makes it so).
//! * Men capture forwards and backwards and may turn at every jump; kings capture at a distance and
//!   may land on any empty square behind the captured piece.
//! * Captured pieces stay on the board until the move ends: they block, and none is jumped twice.
//!   The moving piece's origin counts as empty, so a king may end where it started.
//! * A man that crosses the far row in the middle of a capture stays a man in Brazilian (promotion
//!   happens in [`Position::play`] only if the move ends there); in Russian it is crowned there
//!   and goes on capturing as a king.
//! * Routes that differ only in order are one move: the list is de-duplicated by
//!   (from, to, captured set).
//!
//! Each entry point without a suffix ([`generate`], [`legal_moves`], [`count_legal`], ...) is the
//! Brazilian instance of its generic `_for` form ([`generate_for`], ...), which takes the variant
//! as a type parameter so that its rules are constants in the compiled code.
//!
//! The search uses [`generate`] into a fixed-size [`MoveList`] (no allocation), [`has_capture`] for
//! quiescence, and perft uses [`count_legal`], which counts quiet moves by population count.

use crate::rules::bitboard::{Bitboard, Direction};
use crate::rules::moves::Move;
use crate::rules::position::{Color, Position};
use crate::rules::square::Square;
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use std::marker::PhantomData;
use std::mem::MaybeUninit;

/// Room for every move of any position (quiet moves are bounded by four per empty square, and
/// captures are far fewer in practice).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves that lives on the stack. Its storage is left uninitialised
/// (creating a list costs nothing, which matters at the leaves of perft and search).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut copy = MoveList::new();
        for &mv in self.iter() {
            copy.push(mv);
        }
        copy
    }
}

impl MoveList {
    /// An empty list. Costs nothing: the storage stays uninitialised until moves are pushed.
    #[inline(always)]
    pub const fn new() -> MoveList {
        // SAFETY: an array of `MaybeUninit` needs no initialisation.
        let moves =
            unsafe { MaybeUninit::<[MaybeUninit<Move>; MAX_MOVES]>::uninit().assume_init() };
        MoveList { moves, len: 0 }
    }

    /// Empties the list without touching its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(mv);
            self.len += 1;
        }
    }

    /// Number of moves in the list, at most [`MAX_MOVES`].
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move; after [`generate`] this means the side to move has lost.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in the order they were generated (or last rearranged).
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and `Move` is `Copy`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves, mutable so that a caller can reorder them in place (the search's move ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for index in 0..self.len {
            let mv = self.as_slice()[index];
            if keep(&mv) {
                self.moves[kept] = MaybeUninit::new(mv);
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Iterates over the moves in list order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, index: usize) -> &Move {
        &self.as_slice()[index]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The two directions in which a man of `color` moves.
#[inline(always)]
const fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::White => [Direction::UpLeft, Direction::UpRight],
        Color::Black => [Direction::DownLeft, Direction::DownRight],
    }
}

/// `steps(forward(color))`, with the directions constants in each colour's copy of `steps`: a
/// step in a direction known only at run time costs a branch on its sign at every use.
#[inline(always)]
fn for_men_of<R>(color: Color, mut steps: impl FnMut([Direction; 2]) -> R) -> R {
    match color {
        Color::White => steps(forward(Color::White)),
        Color::Black => steps(forward(Color::Black)),
    }
}

/// Fills `list` with every legal Brazilian move of the side to move. An empty list means the
/// side to move has lost.
#[inline]
pub fn generate(position: &Position, list: &mut MoveList) {
    generate_for::<Brazilian>(position, list);
}

/// [`generate`] under the rules `R`.
#[inline]
pub fn generate_for<R: Rules>(position: &Position, list: &mut MoveList) {
    list.clear();
    if !generate_captures_for::<R>(position, list) {
        generate_quiet(position, list);
    }
}

/// Convenience for callers outside the hot path: the legal Brazilian moves as a vector.
pub fn legal_moves(position: &Position) -> Vec<Move> {
    legal_moves_for::<Brazilian>(position)
}

/// [`legal_moves`] under the rules `R`.
pub fn legal_moves_for<R: Rules>(position: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    generate_for::<R>(position, &mut list);
    list.as_slice().to_vec()
}

/// [`legal_moves`] in the variant chosen at run time (for the layers above the search).
pub fn legal_moves_in(variant: Variant, position: &Position) -> Vec<Move> {
    match variant {
        Variant::Brazilian => legal_moves_for::<Brazilian>(position),
        Variant::Russian => legal_moves_for::<Russian>(position),
    }
}

/// Fills `list` with the legal Brazilian captures (the maximal ones) and returns whether there
/// are any. When it returns `false` the list is empty and the legal moves are quiet.
#[inline]
pub fn generate_captures(position: &Position, list: &mut MoveList) -> bool {
    generate_captures_for::<Brazilian>(position, list)
}

/// [`generate_captures`] under the rules `R`.
#[inline]
pub fn generate_captures_for<R: Rules>(position: &Position, list: &mut MoveList) -> bool {
    generate_captures_of::<R>(position, position.side_to_move(), list)
}

/// [`generate_captures_for`] with the side to move `us` passed in, for perft, where it is a
/// constant (inlined there with it, perft runs 3% fewer instructions).
#[inline(always)]
pub(crate) fn generate_captures_of<R: Rules>(
    position: &Position,
    us: Color,
    list: &mut MoveList,
) -> bool {
    list.clear();
    let launches = Launches::of(position, us);
    if launches.pieces.is_empty() {
        return false;
    }
    match launches.kind::<R>(position, us) {
        Captures::SingleJumps(jumpers) => {
            for (direction, set) in Direction::ALL.into_iter().zip(jumpers) {
                for from in set {
                    let victim = Bitboard::from_square(from).step(direction);
                    if let Some(to) = victim.step(direction).first() {
                        list.push(Move {
                            from,
                            to,
                            captured: victim,
                        });
                    }
                }
            }
        }
        Captures::Routed(pieces) => {
            let mut sink = ListSink::<R> {
                list,
                best: 0,
                rules: PhantomData,
            };
            search_captures::<R, _>(position, pieces, &mut sink);
        }
    }
    true
}

/// Whether the side to move has a non-capturing move: with no capture on the board (the caller
/// knows), whether it has a legal move at all, found without counting them.
#[inline]
pub fn has_quiet_move(position: &Position) -> bool {
    let us = position.side_to_move();
    let empty = position.empty_squares();
    let [left, right] = forward(us);
    let men = position.men(us);
    if men.step_into(left, empty).is_not_empty() || men.step_into(right, empty).is_not_empty() {
        return true;
    }
    let kings = position.kings(us);
    Direction::ALL
        .iter()
        .any(|&direction| kings.step_into(direction, empty).is_not_empty())
}

/// Whether the side to move must capture.
#[inline]
pub fn has_capture(position: &Position) -> bool {
    Launches::of(position, position.side_to_move())
        .pieces
        .is_not_empty()
}

/// Where the side to move can start capturing.
struct Launches {
    /// Per direction (in [`Direction::ALL`] order): squares, whatever stands there, from which a
    /// man's jump in that direction would capture an enemy and land on an empty square.
    by_direction: [Bitboard; 4],
    /// The pieces of the side to move that can capture, men and kings.
    pieces: Bitboard,
}

impl Launches {
    /// `us` is the side to move, passed so that a caller which knows it as a constant gets code
    /// for that colour alone.
    #[inline(always)]
    fn of(position: &Position, us: Color) -> Launches {
        debug_assert_eq!(us, position.side_to_move());
        let victims = position.pieces(us.opponent());
        let empty = position.empty_squares();
        let men = position.men(us);
        let kings = position.kings(us);
        let mut by_direction = [Bitboard::EMPTY; 4];
        let mut pieces = Bitboard::EMPTY;
        for (slot, direction) in by_direction.iter_mut().zip(Direction::ALL) {
            let back = direction.opposite();
            let launch = empty.step_into(back, victims).step(back);
            *slot = launch;
            pieces |= launch & men;
            if kings.is_not_empty() {
                // A king may also stand further back, across empty squares.
                pieces |= ((launch & empty).ray(back, empty) | launch) & kings;
            }
        }
        Launches {
            by_direction,
            pieces,
        }
    }

    /// Which captures the side to move has under the rules `R`, told from the launch squares
    /// without a route search where possible.
    #[inline(always)]
    fn kind<R: Rules>(&self, position: &Position, us: Color) -> Captures {
        let men = position.men(us);
        if (self.pieces - men).is_not_empty() {
            return Captures::Routed(self.pieces);
        }
        let mut jumpers = [Bitboard::EMPTY; 4];
        let mut continuing = Bitboard::EMPTY;
        for (index, direction) in Direction::ALL.into_iter().enumerate() {
            jumpers[index] = men & self.by_direction[index];
            let landings = jumpers[index].step(direction).step(direction);
            if R::CROWNS_DURING_CAPTURE {
                // A man landing on the far row is crowned and may go on as a king, which the
                // launch squares (men's jumps) do not tell: its route needs the search.
                let back = direction.opposite();
                continuing |= (landings & us.promotion_row()).step(back).step(back);
            }
            // From a landing square the only jump back would cross the piece just captured, and
            // the vacated origin is two squares back on that same line, so the board as it stands
            // tells whether any other jump continues the route.
            let onward = Direction::ALL
                .into_iter()
                .zip(self.by_direction)
                .filter(|(other, _)| *other != direction.opposite())
                .fold(Bitboard::EMPTY, |set, (_, launch)| set | launch);
            let back = direction.opposite();
            continuing |= (landings & onward).step(back).step(back);
        }
        if continuing.is_not_empty() {
            if R::MAJORITY_CAPTURE {
                // A continuing man takes at least two pieces and every other man at most one, so
                // by the majority rule only the continuing men need the route search.
                Captures::Routed(continuing)
            } else {
                // With a free choice the other men's single jumps are legal too: search them all.
                Captures::Routed(self.pieces)
            }
        } else {
            Captures::SingleJumps(jumpers)
        }
    }
}

/// The legal captures of a position as [`Launches::kind`] finds them.
enum Captures {
    /// Every legal capture is one man's single jump: the jumping men per direction.
    SingleJumps([Bitboard; 4]),
    /// The pieces whose routes must be searched (a king can capture, or a man's jump continues);
    /// the legal captures are among their routes.
    Routed(Bitboard),
}

/// Appends the quiet moves of the side to move (only legal when there is no capture: for a caller
/// that has just seen [`generate_captures`] return `false`).
pub fn generate_quiet(position: &Position, list: &mut MoveList) {
    for_each_quiet_move(position, position.side_to_move(), |from, to, _| {
        list.push(Move {
            from,
            to,
            captured: Bitboard::EMPTY,
        });
    });
}

/// Calls `visit` with the position after each quiet move of the side to move `us` (only legal
/// when there is no capture), in the order of [`generate`], without the Zobrist key: perft's
/// last-but-one ply needs the children, not the moves, and skips the list in between.
#[inline(always)]
pub(crate) fn visit_quiet_children(
    position: &Position,
    us: Color,
    mut visit: impl FnMut(&Position),
) {
    for_each_quiet_move(
        position,
        us,
        #[inline(always)]
        |from, to, is_king| visit(&position.play_quiet_unkeyed(us, from, to, is_king)),
    );
}

/// The walk over the quiet moves shared by [`generate_quiet`] and [`visit_quiet_children`]:
/// `each(from, to, is_king)`, men first, each man direction in turn, then the kings.
#[inline(always)]
fn for_each_quiet_move(position: &Position, us: Color, mut each: impl FnMut(Square, Square, bool)) {
    debug_assert_eq!(us, position.side_to_move());
    let empty = position.empty_squares();
    let men = position.men(us);
    for_men_of(
        us,
        #[inline(always)]
        |directions| {
            for direction in directions {
                for to in men.step_into(direction, empty) {
                    each(back_step(to, direction), to, false);
                }
            }
        },
    );
    for from in position.kings(us) {
        for direction in Direction::ALL {
            let targets = Bitboard::ray_from(from, direction, empty) & empty;
            for to in targets {
                each(from, to, true);
            }
        }
    }
}

/// The square one step against `direction` from `square`, which must exist.
#[inline(always)]
fn back_step(square: Square, direction: Direction) -> Square {
    // The target came from stepping a piece of the board, so the origin is a board square.
    Square::from_board_bit((square.bit() as i32 - direction.offset()) as u32)
}

/// The number of legal Brazilian moves, counting quiet moves without listing them (perft's last
/// ply).
#[inline]
pub fn count_legal(position: &Position) -> u64 {
    count_legal_for::<Brazilian>(position)
}

/// [`count_legal`] under the rules `R`.
#[inline]
pub fn count_legal_for<R: Rules>(position: &Position) -> u64 {
    count_legal_of::<R>(position, position.side_to_move())
}

/// [`count_legal_for`] with the side to move `us` passed in, so that where the caller knows it as
/// a constant the count is built for that colour alone: that saved perft 7% of its instructions.
#[inline(always)]
pub(crate) fn count_legal_of<R: Rules>(position: &Position, us: Color) -> u64 {
    let launches = Launches::of(position, us);
    if launches.pieces.is_not_empty() {
        return match launches.kind::<R>(position, us) {
            Captures::SingleJumps(jumpers) => {
                jumpers.iter().map(|set| u64::from(set.count())).sum()
            }
            Captures::Routed(pieces) => count_routed_captures::<R>(position, pieces),
        };
    }
    let empty = position.empty_squares();
    let men = position.men(us);
    let kings = position.kings(us);
    let mut count = for_men_of(us, |[left, right]| {
        men.step_into(left, empty).count() + men.step_into(right, empty).count()
    });
    if kings.is_not_empty() {
        for direction in Direction::ALL {
            // Rays from different kings never overlap, so one count serves them all.
            count += (kings.ray(direction, empty) & empty).count();
        }
    }
    u64::from(count)
}

/// The number of legal captures when they need the route search (a king captures or a jump
/// continues). Kept out of line so that the common cases of [`count_legal`] stay small.
#[inline(never)]
fn count_routed_captures<R: Rules>(position: &Position, able: Bitboard) -> u64 {
    let mut list = MoveList::new();
    let mut sink = ListSink::<R> {
        list: &mut list,
        best: 0,
        rules: PhantomData,
    };
    search_captures::<R, _>(position, able, &mut sink);
    list.len() as u64
}

/// Receives every finished capture route. The fast sink keeps the maximal distinct moves; the
/// route sink (for PDN notation) keeps the landing squares as well.
trait CaptureSink {
    /// A route reached `at` having captured `captured` and cannot continue.
    fn finish(&mut self, from: Square, at: Square, captured: Bitboard);
    /// The route lands on `at` (called before exploring from there).
    #[inline(always)]
    fn enter(&mut self, _at: Square) {}
    /// The route leaves the landing square entered last.
    #[inline(always)]
    fn leave(&mut self) {}
}

/// How a finished route compares with the longest captures kept so far (the majority rule;
/// without it every route counts as taking as many as the others).
enum Majority {
    Fewer,
    AsMany,
    /// Takes more pieces than anything kept: the kept routes are no longer legal.
    More,
}

/// Compares a route capturing `captured` with `best` (the most pieces any kept route takes) and
/// raises `best` when the route takes more.
#[inline(always)]
fn majority<R: Rules>(best: &mut u32, captured: Bitboard) -> Majority {
    if !R::MAJORITY_CAPTURE {
        return Majority::AsMany;
    }
    let count = captured.count();
    if count < *best {
        Majority::Fewer
    } else if count == *best {
        Majority::AsMany
    } else {
        *best = count;
        Majority::More
    }
}

struct ListSink<'a, R> {
    list: &'a mut MoveList,
    best: u32,
    rules: PhantomData<R>,
}

impl<R: Rules> CaptureSink for ListSink<'_, R> {
    #[inline(always)]
    fn finish(&mut self, from: Square, to: Square, captured: Bitboard) {
        match majority::<R>(&mut self.best, captured) {
            Majority::Fewer => return,
            Majority::More => self.list.clear(),
            Majority::AsMany => {
                // A single capture has only one route; longer ones may repeat a kept move.
                let seen = captured.count() > 1
                    && self
                        .list
                        .iter()
                        .any(|mv| mv.from == from && mv.to == to && mv.captured == captured);
                if seen {
                    return;
                }
            }
        }
        self.list.push(Move { from, to, captured });
    }
}

/// The board seen by one capturing piece.
struct CaptureBoard {
    from: Square,
    /// Empty squares, including the capturing piece's own origin.
    empty: Bitboard,
    /// Enemy pieces (captured ones stay here: they block until the move ends).
    enemies: Bitboard,
    /// Where a man of the capturing side is crowned (read only under rules that crown during a
    /// capture).
    promotion: Bitboard,
}

/// Runs the route search under the rules `R` from every piece in `able` (those that can capture
/// at all).
fn search_captures<R: Rules, S: CaptureSink>(position: &Position, able: Bitboard, sink: &mut S) {
    let us = position.side_to_move();
    let enemies = position.pieces(us.opponent());
    let board_empty = position.empty_squares();
    let promotion = if R::CROWNS_DURING_CAPTURE {
        us.promotion_row()
    } else {
        Bitboard::EMPTY
    };
    for from in position.men(us) & able {
        let board = CaptureBoard {
            from,
            empty: board_empty | Bitboard::from_square(from),
            enemies,
            promotion,
        };
        man_captures::<R, S>(&board, from, Bitboard::EMPTY, sink);
    }
    for from in position.kings(us) & able {
        let board = CaptureBoard {
            from,
            empty: board_empty | Bitboard::from_square(from),
            enemies,
            promotion,
        };
        king_captures::<R, S>(&board, from, Bitboard::EMPTY, sink);
    }
}

fn man_captures<R: Rules, S: CaptureSink>(
    board: &CaptureBoard,
    at: Square,
    captured: Bitboard,
    sink: &mut S,
) {
    let here = Bitboard::from_square(at);
    let victims = board.enemies - captured;
    // Unrolled by hand: the recursion otherwise keeps the compiler from unrolling the loop.
    let continued = man_jump::<R, S>(board, here, victims, captured, Direction::UpLeft, sink)
        | man_jump::<R, S>(board, here, victims, captured, Direction::UpRight, sink)
        | man_jump::<R, S>(board, here, victims, captured, Direction::DownLeft, sink)
        | man_jump::<R, S>(board, here, victims, captured, Direction::DownRight, sink);
    if !continued && captured.is_not_empty() {
        sink.finish(board.from, at, captured);
    }
}

/// Jumps from `here` in `direction` if possible, continuing the route; returns whether it jumped.
#[inline(always)]
fn man_jump<R: Rules, S: CaptureSink>(
    board: &CaptureBoard,
    here: Bitboard,
    victims: Bitboard,
    captured: Bitboard,
    direction: Direction,
    sink: &mut S,
) -> bool {
    let victim = here.step_into(direction, victims);
    let landing = victim.step_into(direction, board.empty);
    match landing.first() {
        Some(land) => {
            sink.enter(land);
            if R::CROWNS_DURING_CAPTURE && board.promotion.contains(land) {
                // Crowned on landing: the rest of the capture is a king's.
                king_captures::<R, S>(board, land, captured | victim, sink);
            } else {
                man_captures::<R, S>(board, land, captured | victim, sink);
            }
            sink.leave();
            true
        }
        None => false,
    }
}

fn king_captures<R: Rules, S: CaptureSink>(
    board: &CaptureBoard,
    at: Square,
    captured: Bitboard,
    sink: &mut S,
) {
    let victims = board.enemies - captured;
    let mut continued = false;
    for direction in Direction::ALL {
        // The first non-empty square along the diagonal must be a not-yet-captured enemy.
        let victim = Bitboard::ray_from(at, direction, board.empty) & victims;
        if victim.is_empty() {
            continue;
        }
        let mut landing = victim.step_into(direction, board.empty);
        // Under the majority rule every landing is explored (shorter routes lose on count).
        let allowed = if R::MAJORITY_CAPTURE {
            Bitboard::EMPTY
        } else {
            onward_landings(board, landing, direction, victims - victim)
        };
        while let Some(land) = landing.first() {
            continued = true;
            if R::MAJORITY_CAPTURE || allowed.contains(land) {
                sink.enter(land);
                king_captures::<R, S>(board, land, captured | victim, sink);
                sink.leave();
            }
            landing = landing.step_into(direction, board.empty);
        }
    }
    if !continued && captured.is_not_empty() {
        sink.finish(board.from, at, captured);
    }
}

/// The landing squares a king may choose behind a captured piece when there is no majority rule:
/// those from which it can go on capturing, or all of them if it can go on from none (the
/// sequence must be completed, so stopping is legal only where nothing more can be taken).
/// `first` is the nearest landing square in `direction`; `victims` the enemies left to take.
fn onward_landings(
    board: &CaptureBoard,
    first: Bitboard,
    direction: Direction,
    victims: Bitboard,
) -> Bitboard {
    let landings = first | first.ray(direction, board.empty) & board.empty;
    let onward: Bitboard = landings
        .squares()
        .filter(|&land| king_can_capture(board, land, victims))
        .collect();
    if onward.is_empty() {
        landings
    } else {
        onward
    }
}

/// Whether a king standing on `at` could capture one of `victims` (the enemies not yet taken).
fn king_can_capture(board: &CaptureBoard, at: Square, victims: Bitboard) -> bool {
    Direction::ALL.into_iter().any(|direction| {
        let victim = Bitboard::ray_from(at, direction, board.empty) & victims;
        victim.step_into(direction, board.empty).is_not_empty()
    })
}

/// One legal capture with the landing squares of one route that plays it (the last landing square
/// is the destination).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CaptureRoute {
    /// The legal move this route plays.
    pub mv: Move,
    /// Where the piece lands after each jump, in order (one square per captured piece, the origin
    /// left out); the last one is `mv.to`.
    pub landings: Vec<Square>,
}

struct RouteSink<R> {
    path: Vec<Square>,
    routes: Vec<CaptureRoute>,
    best: u32,
    rules: PhantomData<R>,
}

impl<R: Rules> CaptureSink for RouteSink<R> {
    fn finish(&mut self, from: Square, to: Square, captured: Bitboard) {
        match majority::<R>(&mut self.best, captured) {
            Majority::Fewer => return,
            Majority::More => self.routes.clear(),
            Majority::AsMany => {}
        }
        let mv = Move { from, to, captured };
        self.routes.push(CaptureRoute {
            mv,
            landings: self.path.clone(),
        });
    }
    fn enter(&mut self, at: Square) {
        self.path.push(at);
    }
    fn leave(&mut self) {
        self.path.pop();
    }
}

/// Every route of every legal Brazilian capture (several routes may play the same move). Empty
/// when the side to move has no capture. Slow; meant for notation, not for search.
pub fn capture_routes(position: &Position) -> Vec<CaptureRoute> {
    capture_routes_for::<Brazilian>(position)
}

/// [`capture_routes`] in the variant chosen at run time.
pub fn capture_routes_in(variant: Variant, position: &Position) -> Vec<CaptureRoute> {
    match variant {
        Variant::Brazilian => capture_routes_for::<Brazilian>(position),
        Variant::Russian => capture_routes_for::<Russian>(position),
    }
}

/// [`capture_routes`] under the rules `R`.
pub fn capture_routes_for<R: Rules>(position: &Position) -> Vec<CaptureRoute> {
    let mut sink = RouteSink::<R> {
        path: Vec::new(),
        routes: Vec::new(),
        best: 0,
        rules: PhantomData,
    };
    search_captures::<R, _>(
        position,
        Launches::of(position, position.side_to_move()).pieces,
        &mut sink,
    );
    sink.routes
}

//! The search API: limits in, reports out, a best move back.
//!
//! [`Searcher`] owns the transposition table and runs [`Searcher::search`] on the caller's thread
//! (the main search thread; helpers run on scoped threads, see [`crate::search::threads`]; the search
//! itself is in [`crate::search::worker`]).
//! [`SearchControl`] is shared with whoever may stop the search (the protocol's reader thread):
//! plain atomics, so `stop` and `ponder_hit` never wait.
//!
//! The variant is read from the game once per search, which then runs the copy of the search
//! compiled for its rules ([`Rules`]): no node asks which variant it is in. The endgame databases
//! hold one variant's values ([`Tablebases::variant`]): a search probes them, and takes its root
//! moves from them, only when they are of its variant (checked once per search; a search of the
//! other variant runs as without tables).

use crate::egtb::{ProbeResult, Tablebases, Wdl};
use crate::eval::evaluate::evaluate_with;
use crate::eval::score::{Depth, Score};
use crate::eval::weights::Weights;
use crate::game::record::Game;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::{Brazilian, Rules, Russian, Variant};
use crate::search::control::{Report, SearchControl, SearchResult, SearchSettings};
use crate::search::iteration::{Completed, DeepestIteration, RootMove};
use crate::search::limits::Limits;
use crate::search::params::SearchParams;
use crate::search::thread_memory::ThreadMemory;
use crate::search::threads::{self, ThreadOutcome};
use crate::search::time::TimeManager;
use crate::search::tt::Table;
use crate::search::worker::{Material, Shared};
use std::ops::Neg;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Instant;

/// Stack for a thread that runs [`Searcher::search`]: the search recurses once per ply, and
/// quiescence over long capture chains goes deep.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The search engine: owns the transposition table and each search thread's memory (ordering
/// tables, evaluation cache) across searches.
pub struct Searcher {
    table: Table,
    hash_mb: usize,
    memories: Vec<Box<ThreadMemory>>,
    params: SearchParams,
    /// Searches run so far (seeds the weaker play of `skill`).
    searches: u64,
    /// Endgame databases probed in the tree (empty: none).
    tablebases: Arc<Tablebases>,
    /// Pieces in the largest loaded table (0: none): positions with more are never probed.
    table_pieces: u32,
    /// Evaluation weights loaded at run time (`None`: the built-in weights of the game's variant,
    /// [`Weights::builtin_for`]).
    weights: Option<Arc<Weights>>,
    /// The variant of the last search: the table's scores and the cached evaluations hold for its
    /// rules only.
    variant: Variant,
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes (at least 1), no
    /// endgame databases, the built-in weights and the default parameters.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            table: Table::new(hash_mb.max(1)),
            hash_mb: hash_mb.max(1),
            memories: vec![Box::new(ThreadMemory::new())],
            params: SearchParams::default(),
            searches: 0,
            tablebases: Arc::new(Tablebases::empty()),
            table_pieces: 0,
            weights: None,
            variant: Variant::Brazilian,
        }
    }

    /// Uses these endgame databases from the next search on ([`Tablebases::empty`] for none).
    /// Other tables than before clear the transposition table (its scores came from the old ones).
    pub fn set_tablebases(&mut self, tablebases: Arc<Tablebases>) {
        if !Arc::ptr_eq(&tablebases, &self.tablebases) {
            self.table.clear();
        }
        self.table_pieces = tablebases
            .keys()
            .iter()
            .map(|key| key.pieces())
            .max()
            .unwrap_or(0);
        self.tablebases = tablebases;
    }

    /// The endgame databases the search probes (empty: none).
    pub fn tablebases(&self) -> &Arc<Tablebases> {
        &self.tablebases
    }

    /// Evaluates with `weights` from the next search on (`None`: the built-in weights). Other
    /// weights than before clear the transposition table and the evaluation caches (their scores
    /// came from the old ones).
    pub fn set_weights(&mut self, weights: Option<Arc<Weights>>) {
        let same = match (&weights, &self.weights) {
            (None, None) => true,
            (Some(new), Some(old)) => Arc::ptr_eq(new, old),
            _ => false,
        };
        if !same {
            self.table.clear();
            for memory in &mut self.memories {
                memory.evals.clear();
            }
        }
        self.weights = weights;
    }

    /// The weights a search in `variant` evaluates with.
    pub fn weights(&self, variant: Variant) -> &Weights {
        self.weights
            .as_deref()
            .unwrap_or(Weights::builtin_for(variant))
    }

    /// Resizes the transposition table (its contents are lost).
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        if mb != self.hash_mb {
            self.table = Table::new(mb);
            self.hash_mb = mb;
        }
    }

    /// The size asked for the transposition table, in megabytes (at least 1; the table may be
    /// smaller if memory was short).
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Replaces the search parameters (self-play experiments; the defaults are the engine's).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// The search parameters in use.
    pub fn params(&self) -> SearchParams {
        self.params
    }

    /// Forgets everything learned (new game): table, killers, history.
    pub fn clear(&mut self) {
        self.table.clear();
        for memory in &mut self.memories {
            memory.clear();
        }
        self.searches = 0;
    }

    /// Table use in permille.
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// Searches the current position of `game` under its variant's rules until a limit is reached
    /// or `control` stops it. Always returns a legal move when one exists.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        settings: &SearchSettings,
        control: &SearchControl,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        if game.variant() != self.variant {
            self.table.clear();
            for memory in &mut self.memories {
                memory.evals.clear();
            }
            self.variant = game.variant();
        }
        match game.variant() {
            Variant::Brazilian => {
                self.search_for::<Brazilian>(game, limits, settings, control, report)
            }
            Variant::Russian => self.search_for::<Russian>(game, limits, settings, control, report),
        }
    }

    /// [`Searcher::search`] under the rules `R`.
    fn search_for<R: Rules>(
        &mut self,
        game: &Game,
        limits: &Limits,
        settings: &SearchSettings,
        control: &SearchControl,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let start = limits.clock_start.unwrap_or_else(Instant::now);
        self.searches += 1;
        let root = *game.current();
        let moves = movegen::legal_moves_for::<R>(&root);
        let Some(&first) = moves.first() else {
            let score = Score::loss_in(0);
            report(&Report {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                nodes: 0,
                tbhits: 0,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            });
            return SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                tbhits: 0,
            };
        };
        // Borrowed field by field (not through `weights()`): the thread memories are borrowed
        // mutably while the threads run.
        let eval = self
            .weights
            .as_deref()
            .unwrap_or(Weights::builtin_for(R::VARIANT));
        let waiting = limits.infinite || control.is_pondering();
        if moves.len() == 1 && settings.instant_single_reply && !waiting {
            let score = evaluate_with(&root.play_for::<R>(&first), eval).neg();
            report(&Report {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score,
                nodes: 1,
                tbhits: 0,
                elapsed: start.elapsed(),
                pv: vec![first],
            });
            return SearchResult {
                best: Some(first),
                ponder: None,
                score,
                depth: 1,
                nodes: 1,
                tbhits: 0,
            };
        }

        // The databases hold one variant's values: a search of another variant goes without them.
        let uses_tables = self.tablebases.variant() == R::VARIANT;
        let root_best = if uses_tables {
            self.table_best_moves::<R>(&root)
        } else {
            None
        };
        // A won or lost root without distances: the databases cannot say which winning move makes
        // progress, so the search scores positions of the root's material heuristically and uses
        // the databases after each conversion (the fastest one it sees scores best).
        let skip_root_material = settings.table_root_moves
            && self.params.egtb_heuristic_root
            && root_best
                .as_ref()
                .is_some_and(|(value, _)| value.wdl != Wdl::Draw && value.plies.is_none());
        let root_in_tables = root_best.is_some() && !skip_root_material;
        let root_moves = match root_best {
            Some((_, best)) if settings.table_root_moves => best,
            _ => moves.clone(),
        };
        let weakness = settings.skill.map(|skill| Weakness::new(skill.min(19)));
        let mut limits = *limits;
        let mut multipv = settings.multipv.max(1);
        if let Some(weakness) = &weakness {
            limits.depth = Some(
                limits
                    .depth
                    .map_or(weakness.depth, |d| d.min(weakness.depth)),
            );
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(weakness.nodes, |n| n.min(weakness.nodes)),
            );
            multipv = multipv.max(weakness.candidates);
        }
        let threads = settings.threads.clamp(1, 512);
        while self.memories.len() < threads {
            self.memories.push(Box::new(ThreadMemory::new()));
        }
        for memory in &mut self.memories {
            memory.ordering.age();
        }
        self.table.new_search();

        let mut history_keys = game.repeatable_keys();
        history_keys.reverse();
        let shared = Shared {
            table: &self.table,
            control,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            limits,
            settings: SearchSettings {
                threads,
                ..*settings
            },
            params: self.params,
            time: TimeManager::new(&limits, settings.move_overhead, start, &self.params),
            start,
            root,
            root_counters: game.counters(),
            history_keys,
            root_moves,
            tablebases: &self.tablebases,
            table_pieces: if uses_tables { self.table_pieces } else { 0 },
            eval,
            root_in_tables,
            unprobed_material: skip_root_material.then(|| Material::of(&root)),
            multipv,
            max_depth: limits
                .depth
                .unwrap_or(Depth::MAX.0 as u32)
                .clamp(1, Depth::MAX.0 as u32),
            deepest: DeepestIteration::new(threads),
        };
        // The closing report repeats the last iteration's unless the line changed since (a
        // stopped iteration found a new best move, or skill picked another line): remember it.
        let mut last_reported: Option<Report> = None;
        let mut remembering = |line: &Report| {
            last_reported = Some(line.clone());
            report(line);
        };
        let outcomes = threads::run::<R>(&shared, &mut self.memories[..threads], &mut remembering);
        let nodes = shared.total_nodes();
        let tbhits = shared.tbhits.load(std::sync::atomic::Ordering::Relaxed);

        let chosen = choose_line(&outcomes, multipv > 1 || weakness.is_some());
        let (mut line, depth) = match chosen {
            Some((line, depth)) => (line, depth),
            None => (
                RootMove {
                    mv: first,
                    score: Score::DRAW,
                    previous: Score::DRAW,
                    pv: vec![first],
                    seldepth: 0,
                },
                0,
            ),
        };
        if let (Some(weakness), Some(main)) = (&weakness, outcomes.first()) {
            if let Some(completed) = &main.completed {
                let seed = root.key() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                line = weakness.pick(&completed.lines, seed);
            }
        }
        let closing = Report {
            depth,
            seldepth: line.seldepth.max(depth),
            multipv: 1,
            score: line.score,
            nodes,
            tbhits,
            elapsed: start.elapsed(),
            pv: line.pv.clone(),
        };
        let repeats = last_reported.is_some_and(|last| {
            last == Report {
                elapsed: last.elapsed,
                ..closing.clone()
            }
        });
        if !repeats {
            report(&closing);
        }
        SearchResult {
            best: Some(line.mv),
            ponder: line.pv.get(1).copied(),
            score: line.score,
            depth,
            nodes,
            tbhits,
        }
    }

    /// When the root and every position after a root move are in the databases: the moves that
    /// keep the root's value and reach the conversion fastest (or delay it longest when losing).
    /// The tables must be of `R`'s variant.
    fn table_best_moves<R: Rules>(&self, root: &Position) -> Option<(ProbeResult, Vec<Move>)> {
        if root.occupied().count() > self.table_pieces {
            return None;
        }
        let (value, best) = self.tablebases.best_moves_for::<R>(root)?;
        log::debug!("search: databases say {value:?}, best root moves {best:?}");
        (!best.is_empty()).then_some((value, best))
    }
}

/// Picks the line to play: the deepest completed iteration of any thread (ties to the main thread),
/// or the main thread's only when its lines matter (multi-PV, skill). A move that beat the best
/// move in an unfinished iteration replaces it.
fn choose_line(outcomes: &[ThreadOutcome], main_only: bool) -> Option<(RootMove, u32)> {
    let mut best: Option<(&Completed, &ThreadOutcome)> = None;
    for (index, outcome) in outcomes.iter().enumerate() {
        if main_only && index > 0 {
            break;
        }
        if let Some(completed) = &outcome.completed {
            if best.is_none_or(|(current, _)| completed.depth > current.depth) {
                best = Some((completed, outcome));
            }
        }
    }
    let (completed, outcome) = best?;
    let line = completed.lines.first()?.clone();
    match &outcome.partial_best {
        Some(partial) if !main_only && partial.mv != line.mv => {
            Some((partial.clone(), completed.depth))
        }
        _ => Some((line, completed.depth)),
    }
}

/// The weaker play of `skill`: a shallow, node-limited search over several candidate lines, then a
/// bounded random bonus per candidate, so the choice stays among plausible moves.
struct Weakness {
    depth: u32,
    nodes: u64,
    candidates: usize,
    /// Largest random bonus (score units).
    noise: i32,
}

impl Weakness {
    fn new(skill: u32) -> Weakness {
        Weakness {
            depth: 1 + skill,
            nodes: 1_000u64 << (skill / 2).min(12),
            candidates: 4,
            noise: (20 - skill as i32) * 15,
        }
    }

    /// Chooses among `lines` (best first): the highest score plus noise; never throws away a
    /// proven or database win for a non-win.
    fn pick(&self, lines: &[RootMove], seed: u64) -> RootMove {
        let Some(best) = lines.first() else {
            unreachable!("a completed iteration has at least one line")
        };
        if best.score.0 >= Score::DB_BOUND {
            return best.clone();
        }
        let mut state = seed;
        let mut chosen = best;
        let mut chosen_value = i32::MIN;
        for line in lines {
            if line.score == -Score::INFINITE || line.score.0 < best.score.0 - self.noise {
                continue;
            }
            state = splitmix(state);
            let bonus = (state % (self.noise as u64 + 1)) as i32;
            let value = line.score.0 + bonus;
            if value > chosen_value {
                chosen_value = value;
                chosen = line;
            }
        }
        chosen.clone()
    }
}

fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

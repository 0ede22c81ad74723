//! The Hub session controller: owns the game, the searcher and the parameters, acts on commands
//! in the order the host sent them, and runs each search on a worker thread.
//!
//! While a search runs, the controller waits for two things at once: the next command and the end
//! of the search. `ping` is answered at once, `stop` and `ponder-hit` set the search's flags, a line
//! that could not be read gets its `error` reply; any other command first ends the search (its
//! `done` is written) and is then handled, as Scan does. Because `stop` travels through the same
//! ordered channel as `go`, a `stop` sent right after `go` always reaches the search that `go`
//! started, never an earlier or later one.
//!
//! The `variant` parameter decides the rules of everything after it: the moves of `pos` are played
//! and checked under them, and the search runs its copy for them. Changing the variant reads the
//! last `pos` again under the new rules. The files a host names (`egtb-path`, `weights`, `book`)
//! each belong to one variant, which they name; they are read whatever the variant at that moment
//! (hosts often give them before they choose the variant) and used only in games of their own
//! variant. The first `go` of a game of another variant says so in an `error` line (once per
//! setting and variant) and searches without the file: without tables, with the variant's
//! built-in weights, without a book. The shipped book is Brazilian and simply stays silent in
//! games of another variant.
//!
//! A ponder search that finishes on its own before `ponder-hit` or `stop` keeps its result until
//! one of them arrives (as UCI requires), so a host never receives a `done` for a search it still
//! thinks is pondering.

use crate::book::Book;
use crate::egtb::store::variant_title;
use crate::egtb::{builtin, Tablebases};
use crate::eval::weights::Weights;
use crate::eval::weights_file;
use crate::game::record::Game;
use crate::hub::command::{Command, GoMode, Level};
use crate::hub::notice::MismatchNotice;
use crate::hub::numbering::MoveNumbering;
use crate::hub::output::{done_line, info_line, InfoFields, Output};
use crate::hub::params::{
    string_declaration, Change, Params, BOOK, BUILTIN_BOOK, BUILTIN_TABLES, EGTB_PATH,
    TT_ENTRY_BYTES, WEIGHTS,
};
use crate::notation::fen;
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::search::control::{Report, SearchControl, SearchResult};
use crate::search::limits::{Clock, Limits};
use crate::search::searcher::{Searcher, SEARCH_STACK_BYTES};
use crossbeam::channel::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the reader thread hands the controller.
#[derive(Clone, PartialEq, Debug)]
pub enum Incoming {
    /// A line parsed into a known command, and when it was read (a move's time starts then).
    Command(Command, Instant),
    /// A line that was refused; the text goes into an `error` reply.
    Error(String),
    /// End of input.
    End,
}

/// Progress lines are written at most this often (the last one of a search is always written).
const INFO_INTERVAL: Duration = Duration::from_millis(200);

/// The session state between and during searches.
pub struct Session {
    output: Output,
    params: Params,
    /// `None` before the first `init`/`go` and while a search thread holds it.
    searcher: Option<Searcher>,
    /// The last `pos` (position and moves text), read again when the variant changes.
    last_pos: Option<(String, String)>,
    /// The position to search, or why the last `pos` was refused.
    game: Result<Game, String>,
    /// The `level` fields collected since the last `pos` or `go`.
    level: Level,
    control: Arc<SearchControl>,
    running: Option<Running>,
    /// The `egtb-path` parameter ([`BUILTIN_TABLES`]: the built-in tables of
    /// [`crate::egtb::builtin`]; empty: no databases).
    egtb_path: String,
    /// The databases loaded from `egtb_path` (empty when none or when loading failed).
    tablebases: Arc<Tablebases>,
    /// When to report that the tables are of another variant than the game.
    tables_notice: MismatchNotice,
    /// The `weights` parameter (empty: the built-in weights).
    weights_path: String,
    /// The evaluation weights loaded from `weights_path` (`None`: the built-in ones).
    weights: Option<Arc<Weights>>,
    /// When to report that the weights were fitted to another variant than the game's.
    weights_notice: MismatchNotice,
    /// The `book` parameter ([`BUILTIN_BOOK`], a path, or empty for no book).
    book_name: String,
    /// The book loaded from `book_name` when it is a path.
    loaded_book: Option<Arc<Book>>,
    /// When to report that the book file is of another variant than the game.
    book_notice: MismatchNotice,
    /// Seed of this game's book choices (drawn at `new-game`).
    game_seed: u64,
    /// A `stop` came while no search ran, and no `go` since: it is meant for the `go ponder` that
    /// follows (see [`Session::go`]).
    early_stop: bool,
    /// When the reader read the command being handled: a move's time counts from its `go` or
    /// `ponder-hit`, not from when this thread or the search thread gets to run.
    received: Instant,
}

/// A search in progress (or finished and held back, see the module documentation).
struct Running {
    mode: GoMode,
    /// The rules of the searched game (the returned moves are checked under them).
    variant: Variant,
    root: Position,
    legal: Vec<Move>,
    started: Instant,
    finished: Receiver<(Searcher, SearchResult)>,
    thread: Option<JoinHandle<()>>,
    progress: Arc<Progress>,
    /// Whether the move comes from the book (no search ran).
    from_book: bool,
    /// The result of a ponder search that ended before `ponder-hit` or `stop`.
    held: Option<(Searcher, SearchResult)>,
    released: bool,
}

/// What woke the controller up.
enum Wake {
    Message(Incoming),
    SearchEnded(Option<(Searcher, SearchResult)>),
}

impl Session {
    /// A fresh session at the start position.
    pub fn new(output: Output) -> Session {
        Session {
            output,
            params: Params::default(),
            searcher: None,
            last_pos: None,
            game: Ok(Game::new(Position::start())),
            level: Level::default(),
            control: Arc::new(SearchControl::new()),
            running: None,
            egtb_path: BUILTIN_TABLES.to_string(),
            tablebases: Arc::new(Tablebases::empty()),
            tables_notice: MismatchNotice::default(),
            weights_path: String::new(),
            weights: None,
            weights_notice: MismatchNotice::default(),
            book_name: BUILTIN_BOOK.to_string(),
            loaded_book: None,
            book_notice: MismatchNotice::default(),
            game_seed: crate::book::fresh_seed(),
            early_stop: false,
            received: Instant::now(),
        }
    }

    /// Handles messages until `quit`, end of input or a broken output.
    pub fn run(mut self, messages: &Receiver<Incoming>) {
        loop {
            if self.output.is_broken() {
                self.end_search();
                return;
            }
            let wake = match &self.running {
                Some(running) if running.held.is_none() => channel::select! {
                    recv(messages) -> message => Wake::Message(message.unwrap_or(Incoming::End)),
                    recv(running.finished) -> ended => Wake::SearchEnded(ended.ok()),
                },
                _ => Wake::Message(messages.recv().unwrap_or(Incoming::End)),
            };
            let keep_going = match wake {
                Wake::SearchEnded(ended) => {
                    self.search_ended(ended);
                    true
                }
                Wake::Message(message) => self.handle(message),
            };
            if !keep_going {
                return;
            }
        }
    }

    /// Acts on one message; `false` means the session is over.
    fn handle(&mut self, message: Incoming) -> bool {
        let command = match message {
            Incoming::Error(why) => {
                self.output.error(&why);
                return true;
            }
            Incoming::End => {
                log::debug!("hub: end of input");
                self.end_search();
                return false;
            }
            Incoming::Command(command, received) => {
                self.received = received;
                command
            }
        };
        if self.running.is_some() {
            match command {
                Command::Ping => {
                    self.output.line("pong");
                    return true;
                }
                Command::Stop => {
                    self.control.stop();
                    self.release_held();
                    return true;
                }
                Command::PonderHit => {
                    self.ponder_hit();
                    return true;
                }
                _ => self.end_search(),
            }
        }
        self.handle_idle(command)
    }

    fn handle_idle(&mut self, command: Command) -> bool {
        match command {
            Command::Hub => {
                self.output.line(&format!(
                    "id name=Onca version={} author=\"Onca authors\" country=Brazil",
                    env!("CARGO_PKG_VERSION")
                ));
                for line in self.params.declarations() {
                    self.output.line(&line);
                }
                self.output
                    .line(&string_declaration(EGTB_PATH, &self.egtb_path));
                self.output
                    .line(&string_declaration(WEIGHTS, &self.weights_path));
                self.output.line(&string_declaration(BOOK, &self.book_name));
                self.output.line("wait");
            }
            Command::SetParam { name, value } => self.set_param(&name, &value),
            Command::Init => {
                // Tables generated or replaced since they were loaded are loaded again.
                let path = self.egtb_path.clone();
                if self.loads_tables_from_disk()
                    && !self.tablebases.is_current(std::path::Path::new(&path))
                {
                    self.load_tablebases(&path);
                }
                self.searcher_mut();
                self.output.line("ready");
            }
            Command::NewGame => {
                self.early_stop = false;
                if let Some(searcher) = self.searcher.as_mut() {
                    searcher.clear();
                }
                self.game_seed = crate::book::fresh_seed();
            }
            Command::Pos { position, moves } => {
                self.level = Level::default();
                self.last_pos = Some((position, moves));
                self.read_position();
            }
            Command::Level(level) => self.level.merge(&level),
            Command::Go(mode) => self.go(mode),
            // Nothing to stop when idle, but a ponder search may be on its way (see `go`).
            Command::Stop => self.early_stop = true,
            // Nothing to hit when idle.
            Command::PonderHit => {}
            Command::Ping => self.output.line("pong"),
            Command::Quit => return false,
        }
        true
    }

    /// Applies `set-param` (also used for parameters given on the command line).
    pub fn set_param(&mut self, name: &str, value: &str) {
        if name == EGTB_PATH {
            self.load_tablebases(value.trim());
            return;
        }
        if name == WEIGHTS {
            self.load_weights(value.trim());
            return;
        }
        if name == BOOK {
            self.load_book(value.trim());
            return;
        }
        match self.params.set(name, value, TT_ENTRY_BYTES) {
            Ok(Change::Hash) => {
                let mb = self.params.hash_mb;
                if let Some(searcher) = self.searcher.as_mut() {
                    searcher.set_hash_mb(mb);
                }
            }
            Ok(Change::Ignored) => log::debug!("hub: ignoring unknown parameter '{name}'"),
            Ok(Change::Other) => {}
            Ok(Change::Variant) => self.read_position(),
            Err(why) => self.output.error(&format!("set-param: {why}")),
        }
    }

    /// Whether `egtb-path` names a directory (rather than none or the built-in tables).
    fn loads_tables_from_disk(&self) -> bool {
        !self.egtb_path.is_empty() && self.egtb_path != BUILTIN_TABLES
    }

    /// Loads the endgame databases of `path` (empty: none; [`BUILTIN_TABLES`]: the built-in
    /// ones, computed when a game first needs them), in the variant their files name. On failure
    /// the engine plays on without databases and the host gets an `error` line.
    fn load_tablebases(&mut self, path: &str) {
        self.egtb_path = path.to_string();
        self.tablebases = Arc::new(Tablebases::empty());
        self.tables_notice.reset();
        if self.loads_tables_from_disk() {
            match Tablebases::load_own_variant(std::path::Path::new(path)) {
                Ok(tables) if tables.keys().is_empty() && !tables.refused().is_empty() => {
                    self.output.error(&format!(
                        "set-param: egtb-path '{path}': all {} table files are damaged; playing without endgame tables",
                        tables.refused().len()
                    ))
                }
                Ok(tables) if tables.keys().is_empty() => self.output.error(&format!(
                    "set-param: egtb-path '{path}' holds no endgame tables; playing without"
                )),
                Ok(tables) => {
                    let (foreign, other) = tables.foreign();
                    let damaged = tables.refused().len() - foreign;
                    if damaged > 0 {
                        self.output.error(&format!(
                            "set-param: egtb-path '{path}': {damaged} damaged table files ignored"
                        ));
                    }
                    if let Some(other) = other {
                        self.output.error(&format!(
                            "set-param: egtb-path '{path}': {foreign} {} table files among the {} ones ignored",
                            variant_title(other),
                            variant_title(tables.variant())
                        ));
                    }
                    log::debug!(
                        "hub: {} endgame tables loaded, complete up to {} pieces",
                        tables.variant(),
                        tables.max_pieces()
                    );
                    self.tablebases = Arc::new(tables);
                }
                Err(why) => self.output.error(&format!(
                    "set-param: egtb-path: {why:#}; playing without endgame tables"
                )),
            }
        }
        let tablebases = Arc::clone(&self.tablebases);
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.set_tablebases(tablebases);
        }
    }

    /// Evaluates with the weights of the file at `path` (empty: the built-in weights). A file
    /// that cannot be read or parsed gets an `error` line and changes nothing.
    fn load_weights(&mut self, path: &str) {
        let weights = if path.is_empty() {
            None
        } else {
            match weights_file::load_shared(std::path::Path::new(path)) {
                Ok(weights) => Some(weights),
                Err(why) => {
                    self.output
                        .error(&format!("set-param: weights: {why}; weights unchanged"));
                    return;
                }
            }
        };
        log::debug!("hub: evaluation weights from '{path}'");
        self.weights_path = path.to_string();
        self.weights = weights;
        self.weights_notice.reset();
    }

    /// The `weights` file's weights if they were fitted to `variant`; otherwise the built-in
    /// weights of `variant` (`None`), said in an `error` line once per setting and variant.
    fn weights_for(&mut self, variant: Variant) -> Option<Arc<Weights>> {
        let weights = self.weights.clone()?;
        let path = std::path::Path::new(&self.weights_path);
        match weights_file::for_variant(weights, path, variant) {
            Ok(weights) => Some(weights),
            Err(why) => {
                if self.weights_notice.first_for(variant) {
                    self.output
                        .error(&format!("go: {why}; searching with the built-in weights"));
                }
                None
            }
        }
    }

    /// Plays from the book of `name`: [`BUILTIN_BOOK`], a file, or none (empty). A file that
    /// cannot be read or fails its checks gets an `error` line and changes nothing.
    fn load_book(&mut self, name: &str) {
        if name.is_empty() || name == BUILTIN_BOOK {
            self.loaded_book = None;
        } else {
            match Book::load(std::path::Path::new(name)) {
                Ok(book) => self.loaded_book = Some(Arc::new(book)),
                Err(why) => {
                    self.output
                        .error(&format!("set-param: book: {why}; book unchanged"));
                    return;
                }
            }
        }
        self.book_name = name.to_string();
        self.book_notice.reset();
    }

    /// The book in use, if any.
    fn book(&self) -> Option<Arc<Book>> {
        match self.book_name.as_str() {
            "" => None,
            BUILTIN_BOOK => Some(Book::builtin()),
            _ => self.loaded_book.clone(),
        }
    }

    /// Reads the last `pos` (the start position if none came yet) into the game under the current
    /// variant; a refused one is reported and leaves no position to search.
    fn read_position(&mut self) {
        let variant = self.params.variant;
        self.game = match &self.last_pos {
            Some((position, moves)) => build_game(variant, position, moves, self.params.numbering),
            None => Ok(Game::in_variant(variant, Position::start())),
        };
        if let Err(why) = &self.game {
            self.output.error(why);
        }
    }

    /// The book's move for a `go` in game play, if the position is in the book: analysis and
    /// infinite searches and games past `book-plies` search instead, and so do games of another
    /// variant than the book's: for a book file, said in an `error` line naming it and both
    /// variants once per setting and game variant; the shipped book is passed over silently.
    fn book_result(&mut self, mode: GoMode, limits: &Limits, game: &Game) -> Option<SearchResult> {
        if mode == GoMode::Analyze
            || limits.infinite
            || game.moves().len() >= self.params.book_plies as usize
        {
            return None;
        }
        let book = self.book()?;
        if book.variant() != game.variant() {
            if self.book_name != BUILTIN_BOOK && self.book_notice.first_for(game.variant()) {
                if let Err(why) = book.refuse_other(&self.book_name, game.variant()) {
                    self.output
                        .error(&format!("go: {why}; playing without a book"));
                }
            }
            return None;
        }
        book.answer(game.current(), self.params.book_variety, self.game_seed)
    }

    /// The searcher, created on first use (so that start-up stays instant).
    fn searcher_mut(&mut self) -> &mut Searcher {
        let searcher = match self.searcher.take() {
            Some(searcher) => searcher,
            None => self.new_searcher(),
        };
        self.searcher.insert(searcher)
    }

    /// A searcher with the current table size and databases (each search gives it the weights
    /// of its game's variant, [`Session::weights_for`]).
    fn new_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.params.hash_mb);
        searcher.set_tablebases(Arc::clone(&self.tablebases));
        searcher
    }

    /// The tables a search of `root` in a game of `variant` probes: the loaded ones, or with
    /// [`BUILTIN_TABLES`] the built-in ones once computed (a root near an ending starts that).
    fn tables_for(&self, variant: Variant, root: &Position) -> Arc<Tablebases> {
        if self.egtb_path == BUILTIN_TABLES {
            if let Some(tables) = builtin::for_root(variant, root) {
                return tables;
            }
        }
        Arc::clone(&self.tablebases)
    }

    /// Says in an `error` line, once per setting and game variant, that the loaded tables are of
    /// another variant than the game's (the search then goes without them).
    fn report_table_mismatch(&mut self, variant: Variant) {
        let tables = self.tablebases.variant();
        if self.tablebases.keys().is_empty()
            || tables == variant
            || !self.tables_notice.first_for(variant)
        {
            return;
        }
        self.output.error(&format!(
            "go: the endgame tables of egtb-path '{}' are {}, this game is {}: searching without them",
            self.egtb_path,
            variant_title(tables),
            variant_title(variant)
        ));
    }

    /// Starts a search. A `go ponder` that comes after a `stop` sent while no search ran (with
    /// only `pos`, `level` or `set-param` in between) is stopped at once: pydraughts (0.5.7, the
    /// version of lidraughts-bot, and 0.6.7) sends `pos`, `level` and `go ponder` from one thread
    /// and `stop` from another without waiting for the `go`, so on a ponder miss the `stop` can
    /// overtake the search it is meant for; the host then waits for a `done` that a ponder search
    /// never sends on its own, and the game is lost on time. Every other `go` ignores the early
    /// `stop`.
    fn go(&mut self, mode: GoMode) {
        let stop_at_once = std::mem::take(&mut self.early_stop) && mode == GoMode::Ponder;
        self.start_search(mode);
        if stop_at_once && self.running.is_some() {
            self.control.stop();
            self.release_held();
        }
    }

    fn start_search(&mut self, mode: GoMode) {
        let level = std::mem::take(&mut self.level);
        let numbering = self.params.numbering;
        let game = match &self.game {
            Ok(game) => game.clone(),
            Err(why) => {
                self.output
                    .error(&format!("go: no position to search ({why})"));
                self.output.line(&done_line(None, None, numbering));
                return;
            }
        };
        let root = *game.current();
        let variant = game.variant();
        let legal = game.legal_moves();
        if legal.is_empty() {
            let fields = InfoFields {
                depth: 0,
                score: crate::eval::score::Score::loss_in(0),
                nodes: 0,
                tbhits: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
                multipv: None,
            };
            self.output.line(&info_line(&fields, numbering));
            self.output
                .error("go: the side to move has no legal move (the game is lost)");
            self.output.line(&done_line(None, None, numbering));
            return;
        }
        let limits = limits_from_level(&level, self.received);
        let settings = self.params.search_settings(mode != GoMode::Analyze);
        self.control.reset();
        if mode == GoMode::Ponder {
            self.control.set_pondering(true);
        }
        let book_result = self.book_result(mode, &limits, &game);
        let mut searcher = match self.searcher.take() {
            Some(searcher) => searcher,
            None => self.new_searcher(),
        };
        searcher.set_params(self.params.search);
        let progress = Arc::new(Progress::new(
            self.output.clone(),
            Arc::clone(&self.control),
            numbering,
            settings.multipv > 1,
        ));
        if let Some(result) = book_result {
            // No search: the result is there at once (held, for a ponder, until the hit or stop).
            let (_, finished) = channel::bounded(1);
            self.running = Some(Running {
                mode,
                variant,
                root,
                legal,
                started: Instant::now(),
                finished,
                thread: None,
                progress,
                from_book: true,
                held: None,
                released: false,
            });
            self.search_ended(Some((searcher, result)));
            return;
        }
        searcher.set_tablebases(self.tables_for(variant, &root));
        self.report_table_mismatch(variant);
        searcher.set_weights(self.weights_for(variant));
        let (done_sender, finished) = channel::bounded(1);
        let control = Arc::clone(&self.control);
        let reporter = Arc::clone(&progress);
        let spawned = std::thread::Builder::new()
            .name("hub-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let result = searcher.search(&game, &limits, &settings, &control, &mut |report| {
                    reporter.report(report)
                });
                // The controller may be gone if the process is quitting; nothing to do then.
                let _ = done_sender.send((searcher, result));
            });
        let thread = match spawned {
            Ok(thread) => Some(thread),
            Err(why) => {
                // Without a thread there is no search; answer with the fallback move at once.
                log::debug!("hub: cannot start the search thread: {why}");
                self.output
                    .error(&format!("go: cannot start a search thread: {why}"));
                None
            }
        };
        self.running = Some(Running {
            mode,
            variant,
            root,
            legal,
            started: Instant::now(),
            finished,
            thread,
            progress,
            from_book: false,
            held: None,
            released: false,
        });
        if self.running.as_ref().is_some_and(|r| r.thread.is_none()) {
            self.search_ended(None);
        }
    }

    fn ponder_hit(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if running.mode == GoMode::Ponder && !running.released {
            self.control.ponder_hit_at(self.received);
            running.released = true;
            self.release_held();
        }
    }

    /// Writes a held ponder result (after `ponder-hit` or `stop`).
    fn release_held(&mut self) {
        if let Some(running) = self.running.as_mut() {
            running.released = true;
            if let Some(held) = running.held.take() {
                self.search_ended(Some(held));
            }
        }
    }

    /// The search thread returned (or died: `None`).
    fn search_ended(&mut self, ended: Option<(Searcher, SearchResult)>) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let hold = running.mode == GoMode::Ponder
            && !running.released
            && !self.control.is_stopped()
            && ended.is_some();
        if hold {
            running.held = ended;
            return;
        }
        let Some(mut running) = self.running.take() else {
            return;
        };
        if let Some(thread) = running.thread.take() {
            let _ = thread.join();
        }
        let result = match ended {
            Some((searcher, result)) => {
                self.searcher = Some(searcher);
                Some(result)
            }
            None => None,
        };
        self.write_done(&running, result.as_ref());
    }

    /// Stops a running search (if any), waits for it and writes its `done`.
    fn end_search(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        self.control.stop();
        running.released = true;
        let ended = match running.held.take() {
            Some(held) => Some(held),
            None if running.thread.is_some() => running.finished.recv().ok(),
            None => None,
        };
        self.search_ended(ended);
    }

    /// The final `info` (if not yet written) and the `done` line, with a legal move always.
    fn write_done(&mut self, running: &Running, result: Option<&SearchResult>) {
        let numbering = self.params.numbering;
        // `go` only starts a search when there is a legal move, so a fallback always exists.
        let fallback = running.legal.first().copied();
        let best = result
            .and_then(|result| result.best)
            .filter(|best| running.legal.contains(best));
        let ponder = best.and_then(|best| {
            let variant = running.variant;
            let after = running.root.play_in(variant, &best);
            result
                .and_then(|result| result.ponder)
                .filter(|ponder| movegen::legal_moves_in(variant, &after).contains(ponder))
        });
        let best = best.or(fallback);
        let wrote_info = running.progress.flush();
        if !wrote_info {
            let fields = InfoFields {
                depth: result.map_or(0, |result| result.depth),
                score: result.map_or(crate::eval::score::Score::DRAW, |result| result.score),
                nodes: result.map_or(0, |result| result.nodes),
                tbhits: result.map_or(0, |result| result.tbhits),
                elapsed: running.started.elapsed(),
                pv: best.into_iter().chain(ponder).collect(),
                multipv: None,
            };
            let mut line = info_line(&fields, numbering);
            if running.from_book {
                // Hosts ignore fields they do not know; ours says where the move came from.
                line.push_str(" source=book");
            }
            self.output.line(&line);
        }
        self.output
            .line(&done_line(best.as_ref(), ponder.as_ref(), numbering));
    }
}

/// Reads `pos pos=... moves=...` into a game; the error text says what was refused.
fn build_game(
    variant: Variant,
    position: &str,
    moves: &str,
    numbering: MoveNumbering,
) -> Result<Game, String> {
    let start = fen::parse_position(position).map_err(|why| format!("pos: {why}"))?;
    let mut game = Game::in_variant(variant, start);
    for (index, text) in moves.split_whitespace().enumerate() {
        let standard = numbering.move_text_to_standard(text);
        game.play_text(&standard).map_err(|why| {
            format!(
                "pos: move {} '{text}' of moves= cannot be played ({why}; move-numbering is {}, \
                 variant is {variant})",
                index + 1,
                numbering.name()
            )
        })?;
    }
    Ok(game)
}

/// The search limits for the collected `level` fields. Hub adds the increment before the move, so
/// the usable clock is `time + inc` (never below zero); the search's clock adds the increment after
/// the move, so it gets that sum as remaining time and `inc` as the future increment. The clock
/// counts from `go_received`, when the `go` was read.
fn limits_from_level(level: &Level, go_received: Instant) -> Limits {
    let increment = level.increment.unwrap_or(Duration::ZERO);
    let clock = level.time.map(|time| {
        let usable = (time + increment.as_secs_f64()).max(0.0);
        Clock {
            remaining: Duration::from_secs_f64(usable),
            increment,
            moves_to_go: level.moves_to_go,
        }
    });
    Limits {
        depth: level.depth,
        nodes: level.nodes,
        move_time: level.move_time,
        clock,
        infinite: level.infinite,
        clock_start: Some(go_received),
    }
}

/// Writes search progress as `info` lines, at most every [`INFO_INTERVAL`], keeping the latest
/// unwritten group of lines for the end of the search. When a line cannot be written (the host
/// closed our output) it stops the search: nobody is left to read its result, and the controller,
/// which waits for the search to end, then sees the broken output and ends the session.
struct Progress {
    output: Output,
    control: Arc<SearchControl>,
    numbering: MoveNumbering,
    multipv: bool,
    state: Mutex<ProgressState>,
}

#[derive(Default)]
struct ProgressState {
    last_written: Option<Instant>,
    /// The latest lines not yet written (one per multi-PV line of the latest report group).
    pending: Vec<Report>,
    /// Whether the current report group (starting with multipv 1) is being written.
    group_written: bool,
    /// Whether any `info` line was written for this search.
    wrote_any: bool,
}

impl Progress {
    fn new(
        output: Output,
        control: Arc<SearchControl>,
        numbering: MoveNumbering,
        multipv: bool,
    ) -> Progress {
        Progress {
            output,
            control,
            numbering,
            multipv,
            state: Mutex::new(ProgressState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ProgressState> {
        match self.state.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn report(&self, report: &Report) {
        // The search may rank several root lines for its own reasons (a reduced `skill`); the
        // host sees them only when it asked for them with `multipv`.
        if !self.multipv && report.multipv > 1 {
            return;
        }
        let mut state = self.lock();
        if report.multipv <= 1 {
            let due = state
                .last_written
                .is_none_or(|at| at.elapsed() >= INFO_INTERVAL);
            state.pending.clear();
            state.group_written = due;
            if due {
                state.last_written = Some(Instant::now());
            }
        }
        if state.group_written {
            self.write(&mut state, report);
        } else {
            state.pending.push(report.clone());
        }
    }

    /// Writes the pending lines; `true` when at least one `info` was written for this search.
    fn flush(&self) -> bool {
        let mut state = self.lock();
        let pending = std::mem::take(&mut state.pending);
        for report in &pending {
            self.write(&mut state, report);
        }
        state.wrote_any
    }

    fn write(&self, state: &mut ProgressState, report: &Report) {
        state.wrote_any = true;
        let fields = InfoFields {
            depth: report.depth,
            score: report.score,
            nodes: report.nodes,
            tbhits: report.tbhits,
            elapsed: report.elapsed,
            pv: report.pv.clone(),
            multipv: self.multipv.then_some(report.multipv.max(1)),
        };
        self.output.line(&info_line(&fields, self.numbering));
        if self.output.is_broken() {
            log::debug!("hub: output closed; stopping the search");
            self.control.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_becomes_limits_with_the_increment_added_first() {
        let level = Level {
            time: Some(-0.05),
            increment: Some(Duration::from_millis(100)),
            moves_to_go: Some(10),
            ..Level::default()
        };
        let limits = limits_from_level(&level, Instant::now());
        let clock = limits.clock.unwrap();
        assert!((clock.remaining.as_secs_f64() - 0.05).abs() < 1e-9);
        assert_eq!(clock.increment, Duration::from_millis(100));
        assert_eq!(clock.moves_to_go, Some(10));
        let negative = Level {
            time: Some(-3.0),
            ..Level::default()
        };
        assert_eq!(
            limits_from_level(&negative, Instant::now())
                .clock
                .unwrap()
                .remaining,
            Duration::ZERO
        );
        assert!(limits_from_level(&Level::default(), Instant::now()).is_unbounded());
    }

    #[test]
    fn pos_accepts_fen_and_mirrored_moves_and_refuses_illegal_ones() {
        let start = crate::notation::fen::to_hub_position(&Position::start());
        let game = build_game(
            Variant::Brazilian,
            &start,
            "9-13 24-20",
            MoveNumbering::Mirrored,
        )
        .unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.moves()[0].to_string(), "21-17");
        assert_eq!(game.moves()[1].to_string(), "12-16");
        let game = build_game(
            Variant::Brazilian,
            "W:W21-32:B1-12",
            "",
            MoveNumbering::Standard,
        )
        .unwrap();
        assert_eq!(game.current(), &Position::start());
        let refused = build_game(
            Variant::Brazilian,
            &start,
            "21-17 21-17",
            MoveNumbering::Standard,
        )
        .unwrap_err();
        assert!(refused.contains("move 2"), "{refused}");
        assert!(build_game(Variant::Brazilian, "Wxyz", "", MoveNumbering::Standard).is_err());
    }
}

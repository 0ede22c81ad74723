//! Endgame databases: perfect win/draw/loss knowledge for positions with few pieces.
//!
//! * [`material`] names a material split and brings positions to the stored orientation (the side
//!   to move always plays "up", as White does);
//! * [`index`] numbers every placement of one split (perfect index, men only on their squares);
//! * [`value`] the per-position results ([`Wdl`], distance to conversion);
//! * [`codec`] the block run-length compression and the checksum;
//! * [`store`] the table file format (header, atomic write, verified read);
//! * [`generate`] the retrograde generator;
//! * [`probe`] [`Tablebases`], what the search uses: load once, probe without disk I/O;
//! * [`builtin`] the smallest tables computed in memory, for games without a table directory;
//! * [`verify`] an independent one-ply check of loaded tables against the move generator.
//!
//! Tables exist for Brazilian and for Russian draughts, generated, probed and verified with that
//! variant's move generator (generic over [`crate::rules::variant::Rules`]); every file names its
//! variant, and [`Tablebases`] loads one variant's files and knows which
//! ([`Tablebases::variant`]).

//!
//! # Using the tables from a search
//!
//! ```no_run
//! # use onca::egtb::{Tablebases, Wdl};
//! # use onca::rules::position::Position;
//! # fn demo(position: &Position) -> anyhow::Result<()> {
//! let tables = Tablebases::load(std::path::Path::new("egtb"))?; // once, at start-up
//! if position.occupied().count() <= tables.max_pieces() {
//!     match tables.probe(position) {
//!         Some(Wdl::Win) => { /* a won score, adjusted by ply so shorter wins score higher */ }
//!         Some(Wdl::Draw) => { /* the draw score */ }
//!         Some(Wdl::Loss) => { /* a lost score */ }
//!         None => { /* not covered: search on */ }
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Values ignore the move-count draw rules and repetition. A search should keep applying those
//! rules along its lines (a rule draw outranks a table value) and, when the root position is in
//! the tables, play one of [`Tablebases::best_moves`]: with distances stored (by default up to 4
//! pieces) these reach the next capture, promotion or the end of the game as fast as possible, which
//! is what the move-count rules measure. Some table wins are still rule draws (say two kings and a
//! man against a king on the long diagonal, which the rules draw after 10 plies): the search, not
//! the tables, must know that. Without the tables the engine works as before
//! ([`Tablebases::empty`] answers `None` to everything).

pub mod builtin;
pub mod codec;
pub mod generate;
pub mod index;
pub mod material;
pub mod probe;
pub mod store;
pub mod value;
pub mod verify;

pub use material::MaterialKey;
pub use probe::{ProbeResult, Tablebases};
pub use value::Wdl;

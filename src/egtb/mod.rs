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
//! * [`verify`] an independent one-ply check of loaded tables against the move generator.

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

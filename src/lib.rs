//! rigkit: automatic rigging — a skeleton and skin weights for any character — that runs in the
//! browser as well as natively.
//!
//! The library is the platform-free core, one module per pipeline stage: bytes in ([`io`]),
//! geometry ([`mesh`]), rigs ([`rig`]), solid volumes ([`volume`]), skeleton fitting
//! ([`skeleton`]), skinning ([`skin`]), the learned rigger ([`neural`]) on a burn device
//! ([`compute`]), the whole rig stage by stage ([`pipeline`]), hand edits ([`edit`]), motion
//! ([`anim`]), bytes out ([`export`]), the app's state ([`document`]) and the three-d
//! viewport that draws it ([`view`]). The `rigkit` binary and the wasm module in `web` are thin
//! shells around it: they translate arguments and results, and turn [`Error`] into a message
//! once.
//!
//! Features: `compute` (burn) and `view` (three-d) are what the page builds; `dataset` adds
//! the training data tools and the evaluation metrics ([`dataset`], [`eval`]), `train` burn's
//! autodiff, `cli` the binary. Without any, the crate is the formats and rig core alone, which
//! is what the fuzz targets build.
//!
//! Coordinates are the input file's world frame throughout: no up axis, handedness or unit is
//! assumed, and nothing is moved or rescaled on the way in or out.

pub mod anim;
#[cfg(not(target_arch = "wasm32"))]
pub mod blocking;
pub mod character;
pub mod choice;
#[cfg(feature = "compute")]
pub mod compute;
pub mod correctives;
#[cfg(feature = "dataset")]
pub mod dataset;
pub mod document;
pub mod edit;
pub mod error;
#[cfg(feature = "dataset")]
pub mod eval;
pub mod export;
pub mod io;
pub mod limits;
mod linalg;
pub mod mesh;
#[cfg(feature = "compute")]
pub mod neural;
mod parallel;
pub mod pipeline;
pub mod random;
pub mod read;
pub mod recognise;
pub mod rig;
pub mod skeleton;
pub mod skin;
#[cfg(feature = "view")]
pub mod view;
pub mod volume;

#[cfg(all(target_arch = "wasm32", feature = "compute", feature = "view"))]
mod web;

pub use character::{Character, CharacterInfo, SourceSummary};
pub use choice::UnknownName;
pub use error::Error;
pub use limits::Limits;

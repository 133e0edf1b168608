//! Volumes: a character's solid interior as voxels, where geodesic distances and curve
//! skeletons are computed.

mod grid;
mod voxelize;

pub use grid::Grid;
pub use voxelize::{Solid, capped_solid, voxelize};

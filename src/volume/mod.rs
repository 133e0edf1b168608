//! Volumes: a character's solid interior as voxels, where geodesic distances and curve
//! skeletons are computed.

mod bucket_queue;
mod grid;
mod voxelize;

pub use bucket_queue::BucketQueue;
pub use grid::Grid;
pub use voxelize::{Solid, capped_solid, voxelize};

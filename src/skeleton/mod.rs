//! Skeleton fitting: joints placed inside a mesh that has none.
//!
//! `auto` works for any creature: a curve skeleton from the level sets of geodesic distance
//! through the voxelised body, pruned and turned into a joint hierarchy rooted at the
//! thickest part of the body.

mod auto;
mod level_sets;

pub use auto::ChainOptions;
pub use level_sets::{ShellGraph, depth_inside, shell_graph};

use crate::mesh::Mesh;
use crate::rig::Skeleton;
use crate::volume::{Solid, voxelize};

/// Settings of the automatic skeleton.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AutoOptions {
    /// Voxels along the longest side of the mesh's bounds.
    pub resolution: u32,
    /// Most solid voxels; bulky shapes are voxelised more coarsely.
    pub max_solid_voxels: usize,
    /// Thickness of one distance shell, in voxels.
    pub shell_width: f32,
    pub chains: ChainOptions,
}

impl Default for AutoOptions {
    fn default() -> Self {
        Self {
            resolution: 96,
            max_solid_voxels: 300_000,
            shell_width: 2.0,
            chains: ChainOptions::default(),
        }
    }
}

/// Why no skeleton could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RigError {
    #[error("the mesh has no triangles to rig")]
    EmptyMesh,
    #[error("the mesh has no volume to place joints in")]
    NoVolume,
}

/// A skeleton for `mesh` from its own shape, in the mesh's frame: joints at branch points and
/// along limbs, tips named `…_end`, the root at the thickest part of the body.
///
/// # Errors
/// [`RigError`] for a mesh without triangles or without any volume.
pub fn auto_skeleton(mesh: &Mesh, options: &AutoOptions) -> Result<Skeleton, RigError> {
    if mesh.triangles.is_empty() || mesh.positions.is_empty() {
        return Err(RigError::EmptyMesh);
    }
    let solid = capped_solid(mesh, options.resolution, options.max_solid_voxels);
    if solid.count() == 0 {
        return Err(RigError::NoVolume);
    }
    let depth = depth_inside(&solid);
    let graph = shell_graph(&solid, &depth, options.shell_width.max(2.0));
    let longest = mesh.bounds().longest_side();
    let skeleton = auto::joints_from_graph(&graph, mesh, &solid, &depth, longest, &options.chains);
    if skeleton.joints.is_empty() {
        return Err(RigError::NoVolume);
    }
    Ok(skeleton)
}

/// The mesh voxelised at `resolution`, or more coarsely when that gives more than `cap`
/// solid voxels.
pub fn capped_solid(mesh: &Mesh, resolution: u32, cap: usize) -> Solid {
    let solid = voxelize(&mesh.positions, &mesh.triangles, resolution);
    let count = solid.count();
    if count <= cap {
        return solid;
    }
    let shrink = (cap as f32 / count as f32).cbrt();
    voxelize(
        &mesh.positions,
        &mesh.triangles,
        ((resolution as f32 * shrink) as u32).max(16),
    )
}

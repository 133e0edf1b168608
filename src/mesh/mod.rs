//! Triangle meshes in world space and the geometry computed on them.

mod bounds;
mod normals;
mod unit_box;

pub use bounds::Aabb;
pub use normals::vertex_normals;
pub use unit_box::UnitBox;

use glam::Vec3;

/// An indexed triangle mesh. All primitives of an input are merged into one, in world space.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    pub positions: Vec<Vec3>,
    /// Unit normals, one per position.
    pub normals: Vec<Vec3>,
    /// Counter-clockwise triangles indexing `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// How many input primitives were merged into this mesh.
    pub primitive_count: usize,
}

impl Mesh {
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    pub fn bounds(&self) -> Aabb {
        Aabb::from_points(&self.positions)
    }

    /// Positions as a flat `x, y, z, x, y, z, …` array, the layout GPUs and JS want.
    pub fn flat_positions(&self) -> Vec<f32> {
        self.positions.iter().flat_map(|p| p.to_array()).collect()
    }
}

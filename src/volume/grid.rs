use glam::{IVec3, Vec3};

use crate::mesh::Aabb;

/// A regular grid of cubic voxels over a box in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// World position of the corner of voxel (0, 0, 0).
    pub origin: Vec3,
    /// Edge length of one voxel.
    pub voxel: f32,
    /// Voxels along x, y and z.
    pub dims: IVec3,
}

impl Grid {
    /// A grid over `bounds` with `resolution` voxels along its longest side and a border of
    /// empty voxels all round, so that flood fills can walk around the outside.
    pub fn around(bounds: &Aabb, resolution: u32) -> Self {
        const BORDER: i32 = 2;
        let size = bounds.max - bounds.min;
        let voxel = (size.max_element() / resolution.max(1) as f32).max(f32::MIN_POSITIVE);
        let inner = (size / voxel).ceil().as_ivec3().max(IVec3::ONE);
        let dims = inner + IVec3::splat(2 * BORDER);
        let origin = bounds.min - Vec3::splat(BORDER as f32 * voxel)
            // Centre the box in the grid's inner voxels.
            - (inner.as_vec3() * voxel - size) * 0.5;
        Self {
            origin,
            voxel,
            dims,
        }
    }

    pub fn len(&self) -> usize {
        (self.dims.x * self.dims.y * self.dims.z) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The voxel containing `p` (possibly outside the grid).
    pub fn cell(&self, p: Vec3) -> IVec3 {
        ((p - self.origin) / self.voxel).floor().as_ivec3()
    }

    pub fn contains(&self, c: IVec3) -> bool {
        c.cmpge(IVec3::ZERO).all() && c.cmplt(self.dims).all()
    }

    /// The linear index of voxel `c`, x fastest.
    pub fn index(&self, c: IVec3) -> usize {
        (c.x + self.dims.x * (c.y + self.dims.y * c.z)) as usize
    }

    pub fn cell_of_index(&self, i: usize) -> IVec3 {
        let i = i as i32;
        IVec3::new(
            i % self.dims.x,
            (i / self.dims.x) % self.dims.y,
            i / (self.dims.x * self.dims.y),
        )
    }

    /// World position of the centre of voxel `c`.
    pub fn center(&self, c: IVec3) -> Vec3 {
        self.origin + (c.as_vec3() + 0.5) * self.voxel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_indices_agree() {
        let bounds = Aabb {
            min: Vec3::ZERO,
            max: Vec3::new(2.0, 1.0, 0.5),
        };
        let grid = Grid::around(&bounds, 8);
        assert_eq!(grid.voxel, 0.25);
        assert_eq!(grid.dims, IVec3::new(12, 8, 6));
        let c = grid.cell(Vec3::new(1.0, 0.5, 0.25));
        assert!(grid.contains(c));
        assert_eq!(grid.cell_of_index(grid.index(c)), c);
        assert!(grid.center(c).distance(Vec3::new(1.0, 0.5, 0.25)) < grid.voxel);
    }
}

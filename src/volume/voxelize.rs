//! Triangle soup → solid voxels, robust to what real character meshes are: open, non-manifold,
//! self-intersecting, several overlapping parts, inconsistently wound.
//!
//! Every voxel the surface passes through is solid. A voxel is inside when rays along at
//! least two of the three axes say so, where one ray says "inside" if it crossed the surface an
//! odd number of times (parity, right for open shells and flipped faces) or with a non-zero
//! signed count (winding, right for overlapping closed parts). Cavities that no path from
//! outside reaches are filled last.

use glam::{IVec3, Vec3};

use super::Grid;
use crate::mesh::{Aabb, Mesh};

/// Solid voxels of a mesh.
#[derive(Debug, Clone)]
pub struct Solid {
    pub grid: Grid,
    /// Per voxel of `grid`: inside the mesh or on its surface.
    pub solid: Vec<bool>,
}

impl Solid {
    pub fn is_solid(&self, c: IVec3) -> bool {
        self.grid.contains(c) && self.solid[self.grid.index(c)]
    }

    pub fn count(&self) -> usize {
        self.solid.iter().filter(|s| **s).count()
    }
}

/// `mesh` voxelised at `resolution` along its longest side, or more coarsely when that gives
/// more than `cap` solid voxels (bulky shapes: memory and time grow with the volume), with
/// the resolution used; `None` for a mesh without triangles.
pub fn capped_solid(mesh: &Mesh, resolution: u32, cap: usize) -> Option<(Solid, u32)> {
    if mesh.triangles.is_empty() || mesh.positions.is_empty() {
        return None;
    }
    let (positions, triangles) = (&mesh.positions, &mesh.triangles);
    let solid = voxelize(positions, triangles, resolution);
    let count = solid.count();
    if count <= cap {
        return Some((solid, resolution));
    }
    let shrink = (cap as f32 / count as f32).cbrt();
    let coarser = ((resolution as f32 * shrink) as u32).max(16);
    Some((voxelize(positions, triangles, coarser), coarser))
}

/// Voxelises the triangles with `resolution` voxels along the longest side of their bounds.
pub fn voxelize(positions: &[Vec3], triangles: &[[u32; 3]], resolution: u32) -> Solid {
    let grid = Grid::around(&Aabb::from_points(positions), resolution);
    let corners = |t: &[u32; 3]| t.map(|i| positions.get(i as usize).copied().unwrap_or_default());
    let mut solid = vec![false; grid.len()];
    for t in triangles {
        mark_surface(&grid, corners(t), &mut solid);
    }
    let mut votes = vec![0u8; grid.len()];
    for axis in 0..3 {
        vote_inside(&grid, triangles.iter().map(corners), axis, &mut votes);
    }
    for (s, v) in solid.iter_mut().zip(&votes) {
        *s |= *v >= 2;
    }
    fill_cavities(&grid, &mut solid);
    Solid { grid, solid }
}

/// Marks every voxel that `triangle` passes through, by sampling it at half-voxel spacing.
fn mark_surface(grid: &Grid, [a, b, c]: [Vec3; 3], solid: &mut [bool]) {
    let longest = a.distance(b).max(b.distance(c)).max(c.distance(a));
    let steps = ((longest / (0.5 * grid.voxel)).ceil() as usize).clamp(1, 4096);
    let inv = 1.0 / steps as f32;
    for i in 0..=steps {
        for j in 0..=steps - i {
            let (u, v) = (i as f32 * inv, j as f32 * inv);
            let cell = grid.cell(a + (b - a) * u + (c - a) * v);
            if grid.contains(cell) {
                solid[grid.index(cell)] = true;
            }
        }
    }
}

/// Adds one vote to each voxel that rays along `axis` find inside the surface.
fn vote_inside(
    grid: &Grid,
    triangles: impl Iterator<Item = [Vec3; 3]>,
    axis: usize,
    votes: &mut [u8],
) {
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let dims = grid.dims.to_array();
    let (nu, nv, nw) = (dims[u] as usize, dims[v] as usize, dims[axis] as usize);
    let origin = grid.origin.to_array();
    let h = grid.voxel;
    // Rays run slightly off the voxel centres so that they do not pass exactly through the
    // shared edges and vertices of a regular mesh.
    let ray_u = |i: usize| origin[u] + (i as f32 + 0.5 + 1.37e-3) * h;
    let ray_v = |j: usize| origin[v] + (j as f32 + 0.5 + 2.71e-3) * h;
    let mut crossings: Vec<Vec<(f32, i8)>> = vec![Vec::new(); nu * nv];
    for [a, b, c] in triangles {
        let (a, b, c) = (a.to_array(), b.to_array(), c.to_array());
        let area = (b[u] - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (b[v] - a[v]);
        if area == 0.0 || !area.is_finite() {
            continue; // edge-on to the rays
        }
        let side = if area > 0.0 { 1 } else { -1 };
        let lo_u = a[u].min(b[u]).min(c[u]);
        let hi_u = a[u].max(b[u]).max(c[u]);
        let lo_v = a[v].min(b[v]).min(c[v]);
        let hi_v = a[v].max(b[v]).max(c[v]);
        let first = |lo: f32, o: f32| (((lo - o) / h - 0.6).floor().max(0.0)) as usize;
        let last = |hi: f32, o: f32, n: usize| (((hi - o) / h).ceil().max(0.0) as usize).min(n);
        for i in first(lo_u, origin[u])..last(hi_u, origin[u], nu) {
            let pu = ray_u(i);
            if pu < lo_u || pu > hi_u {
                continue;
            }
            for j in first(lo_v, origin[v])..last(hi_v, origin[v], nv) {
                let pv = ray_v(j);
                if pv < lo_v || pv > hi_v {
                    continue;
                }
                // Barycentric coordinates of the ray in the projected triangle.
                let wb = ((pu - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (pv - a[v])) / area;
                let wc = ((b[u] - a[u]) * (pv - a[v]) - (pu - a[u]) * (b[v] - a[v])) / area;
                let wa = 1.0 - wb - wc;
                if wa < 0.0 || wb < 0.0 || wc < 0.0 {
                    continue;
                }
                let depth = wa * a[axis] + wb * b[axis] + wc * c[axis];
                crossings[i + nu * j].push((depth, side));
            }
        }
    }
    for (column, hits) in crossings.iter_mut().enumerate() {
        if hits.is_empty() {
            continue;
        }
        hits.sort_by(|x, y| x.0.total_cmp(&y.0));
        let (i, j) = (column % nu, column / nu);
        let (mut next, mut parity, mut winding) = (0, false, 0i32);
        for k in 0..nw {
            let depth = origin[axis] + (k as f32 + 0.5) * h;
            while next < hits.len() && hits[next].0 < depth {
                parity = !parity;
                winding += i32::from(hits[next].1);
                next += 1;
            }
            if next == hits.len() {
                break;
            }
            if parity || winding != 0 {
                let mut cell = [0i32; 3];
                cell[u] = i as i32;
                cell[v] = j as i32;
                cell[axis] = k as i32;
                votes[grid.index(IVec3::from_array(cell))] += 1;
            }
        }
    }
}

/// Makes solid every empty voxel that the outside cannot reach (6-connected), by a flood from
/// the grid's corner over linear indices.
fn fill_cavities(grid: &Grid, solid: &mut [bool]) {
    let [nx, ny, nz] = grid.dims.to_array().map(|d| d.max(0) as usize);
    if nx * ny * nz != solid.len() || solid.is_empty() {
        return;
    }
    let (sy, sz) = (nx, nx * ny);
    let mut outside = vec![false; solid.len()];
    let mut stack = Vec::new();
    if !solid[0] {
        outside[0] = true;
        stack.push(0usize);
    }
    while let Some(i) = stack.pop() {
        let (x, y, z) = (i % nx, (i / sy) % ny, i / sz);
        let mut visit = |n: usize| {
            if !outside[n] && !solid[n] {
                outside[n] = true;
                stack.push(n);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < nx {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - sy);
        }
        if y + 1 < ny {
            visit(i + sy);
        }
        if z > 0 {
            visit(i - sz);
        }
        if z + 1 < nz {
            visit(i + sz);
        }
    }
    for (s, o) in solid.iter_mut().zip(outside) {
        *s = !o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closed axis-aligned box from `lo` to `hi` as 12 triangles, wound outwards.
    pub(crate) fn box_mesh(lo: Vec3, hi: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let p = |i: u32| {
            Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        };
        let positions = (0..8).map(p).collect();
        let triangles = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6], // -z, +z
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7], // -y, +y
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5], // -x, +x
        ];
        (positions, triangles)
    }

    #[test]
    fn a_closed_box_is_filled_and_its_outside_is_not() {
        let (positions, triangles) = box_mesh(Vec3::ZERO, Vec3::new(1.0, 2.0, 1.0));
        let solid = voxelize(&positions, &triangles, 32);
        assert!(solid.is_solid(solid.grid.cell(Vec3::new(0.5, 1.0, 0.5))));
        assert!(!solid.is_solid(solid.grid.cell(Vec3::new(1.2, 1.0, 0.5))));
        // Surface voxels count whole, so the solid is the box plus a shell of up to one voxel
        // over its area of 10.
        let h = solid.grid.voxel;
        let volume = solid.count() as f32 * h.powi(3);
        assert!((2.0..2.0 + 10.0 * h).contains(&volume), "volume {volume}");
    }

    #[test]
    fn an_open_box_with_flipped_faces_still_has_an_inside() {
        let (positions, mut triangles) = box_mesh(Vec3::ZERO, Vec3::ONE);
        triangles.remove(2); // a hole in the +z face
        triangles[6].swap(0, 1); // one face wound the wrong way
        let solid = voxelize(&positions, &triangles, 24);
        let inside = (0..5)
            .map(|k| Vec3::new(0.3 + 0.1 * k as f32, 0.5, 0.5))
            .all(|p| solid.is_solid(solid.grid.cell(p)));
        assert!(inside);
    }

    #[test]
    fn overlapping_parts_are_solid_where_they_overlap() {
        let (mut positions, mut triangles) = box_mesh(Vec3::ZERO, Vec3::ONE);
        let (more, tris) = box_mesh(Vec3::splat(0.5), Vec3::splat(1.5));
        triangles.extend(tris.iter().map(|t| t.map(|i| i + 8)));
        positions.extend(more);
        let solid = voxelize(&positions, &triangles, 30);
        for p in [0.25, 0.75, 1.25] {
            assert!(solid.is_solid(solid.grid.cell(Vec3::splat(p))), "at {p}");
        }
    }
}

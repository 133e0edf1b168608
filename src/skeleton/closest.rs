//! Nearest-point queries over a fixed set of points: a uniform grid searched ring by ring,
//! so that overlaying and bending bodies of a thousand surface points does not cost a million
//! distances per pass.

use glam::{IVec3, Vec3};

/// The points of a set sorted into grid cells.
pub struct Closest<'a> {
    points: &'a [Vec3],
    min: Vec3,
    cell: f32,
    dims: IVec3,
    /// Per cell, where its points start in `order` (one more entry than cells).
    starts: Vec<u32>,
    order: Vec<u32>,
}

impl<'a> Closest<'a> {
    /// About two points per cell.
    pub fn new(points: &'a [Vec3]) -> Self {
        let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for p in points.iter().filter(|p| p.is_finite()) {
            min = min.min(*p);
            max = max.max(*p);
        }
        if min.x > max.x || min.x.is_nan() {
            (min, max) = (Vec3::ZERO, Vec3::ZERO);
        }
        let size = (max - min).max(Vec3::splat(1e-9));
        let per_axis = ((points.len() as f32 / 2.0).cbrt()).clamp(1.0, 64.0);
        let cell = (size.max_element() / per_axis).max(1e-9);
        let dims =
            ((size / cell).floor().as_ivec3() + IVec3::ONE).clamp(IVec3::ONE, IVec3::splat(256));
        let cells = (dims.x * dims.y * dims.z) as usize;
        let mut grid = Self {
            points,
            min,
            cell,
            dims,
            starts: vec![0; cells + 1],
            order: Vec::with_capacity(points.len()),
        };
        let index: Vec<usize> = points
            .iter()
            .map(|p| grid.index(grid.cell_of(*p)))
            .collect();
        for &c in &index {
            grid.starts[c + 1] += 1;
        }
        for c in 0..cells {
            grid.starts[c + 1] += grid.starts[c];
        }
        let mut fill = grid.starts.clone();
        grid.order = vec![0; points.len()];
        for (i, &c) in index.iter().enumerate() {
            grid.order[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        grid
    }

    fn cell_of(&self, p: Vec3) -> IVec3 {
        let c = ((p - self.min) / self.cell).floor();
        let c = if c.is_finite() {
            c.as_ivec3()
        } else {
            IVec3::ZERO
        };
        c.clamp(IVec3::ZERO, self.dims - IVec3::ONE)
    }

    fn index(&self, c: IVec3) -> usize {
        (c.x + self.dims.x * (c.y + self.dims.y * c.z)) as usize
    }

    /// The index of the point nearest `p` (0 for an empty set): the cells around `p`'s, ring
    /// by ring (only each ring's shell, and only inside the grid), until no cell left can
    /// hold a nearer point than the best so far.
    pub fn nearest(&self, p: Vec3) -> usize {
        let centre = self.cell_of(p);
        let last = self.dims - IVec3::ONE;
        let mut best = (0usize, f32::INFINITY);
        for ring in 0..=self.dims.max_element() {
            let lo = (centre - IVec3::splat(ring)).max(IVec3::ZERO);
            let hi = (centre + IVec3::splat(ring)).min(last);
            for z in lo.z..=hi.z {
                let z_face = (z - centre.z).abs() == ring;
                for y in lo.y..=hi.y {
                    if z_face || (y - centre.y).abs() == ring {
                        for x in lo.x..=hi.x {
                            self.visit(IVec3::new(x, y, z), p, &mut best);
                        }
                    } else {
                        // Inside the ring's shell only its two x faces are new.
                        for x in [centre.x - ring, centre.x + ring] {
                            if (0..=last.x).contains(&x) {
                                self.visit(IVec3::new(x, y, z), p, &mut best);
                            }
                        }
                    }
                }
            }
            // The nearest face of the searched box that has grid beyond it: no point not yet
            // seen lies nearer than that.
            let mut bound = f32::INFINITY;
            for axis in 0..3 {
                if lo[axis] > 0 {
                    let face = self.min[axis] + lo[axis] as f32 * self.cell;
                    bound = bound.min(p[axis] - face);
                }
                if hi[axis] < last[axis] {
                    let face = self.min[axis] + (hi[axis] + 1) as f32 * self.cell;
                    bound = bound.min(face - p[axis]);
                }
            }
            if bound == f32::INFINITY || (bound > 0.0 && best.1 <= bound * bound) {
                break;
            }
        }
        best.0
    }

    /// Keeps the nearer of `best` and the points of cell `c`.
    fn visit(&self, c: IVec3, p: Vec3, best: &mut (usize, f32)) {
        let k = self.index(c);
        for &i in &self.order[self.starts[k] as usize..self.starts[k + 1] as usize] {
            let d = self.points[i as usize].distance_squared(p);
            if d < best.1 {
                *best = (i as usize, d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// `grid.nearest(q)` is as near `q` as the nearest point of a scan.
    fn assert_nearest(points: &[Vec3], grid: &Closest, q: Vec3) {
        let scan = points
            .iter()
            .map(|p| p.distance_squared(q))
            .fold(f32::INFINITY, f32::min);
        let found = points[grid.nearest(q)].distance_squared(q);
        assert!(
            (found - scan).abs() <= 1e-6 * scan.max(1.0),
            "{q}: {found} against {scan}"
        );
    }

    #[test]
    fn a_flat_set_one_cell_thick_finds_its_nearest_points_from_far_away() {
        let mut rng = Rng::new(5);
        // A plane (one cell thick along z) and a line (one cell in y and z).
        let plane: Vec<Vec3> = (0..400)
            .map(|_| Vec3::new(rng.range(-2.0, 2.0), rng.range(-1.0, 1.0), 0.0))
            .collect();
        let line: Vec<Vec3> = (0..50)
            .map(|_| Vec3::new(rng.range(0.0, 9.0), 1.0, -3.0))
            .collect();
        for points in [plane, line] {
            let grid = Closest::new(&points);
            for _ in 0..300 {
                assert_nearest(&points, &grid, rng.direction() * rng.range(0.0, 40.0));
            }
        }
    }

    #[test]
    fn the_grid_finds_the_same_nearest_points_as_a_scan() {
        let mut rng = Rng::new(3);
        let points: Vec<Vec3> = (0..700)
            .map(|_| rng.direction() * rng.range(0.2, 3.0) + Vec3::new(5.0, 0.0, 0.0))
            .collect();
        let grid = Closest::new(&points);
        for _ in 0..500 {
            assert_nearest(&points, &grid, rng.direction() * rng.range(0.0, 8.0));
        }
    }
}

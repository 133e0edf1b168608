//! Nearest-point queries over a fixed set of points: a k-d tree, so that overlaying and
//! bending bodies of a thousand surface points does not cost a million distances per pass.
//! Surface samples fill a thin shell of their bounding box, which a uniform grid fits badly
//! (most cells empty, the rest crowded); the tree splits where the points are.

use glam::Vec3;

/// Points per leaf: below this a scan beats another split (measured: 8 to 64 points, 32 best).
const LEAF: usize = 32;

/// The points of a set arranged as a balanced k-d tree, implicitly: the range `lo..hi` of
/// the tree order splits at its middle entry on `axes[middle]`, the left half at or below
/// it, the right half at or above.
pub struct Closest {
    /// The points' indices in `points`, in tree order.
    order: Vec<u32>,
    /// Each point's place in tree order, by its index in `points`.
    place: Vec<u32>,
    axes: Vec<u8>,
    /// The points' coordinates in tree order, axis by axis: a leaf's distances are then
    /// computed side by side.
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
}

impl Closest {
    pub fn new(points: &[Vec3]) -> Self {
        let mut tree: Vec<(Vec3, u32)> = (points.iter().enumerate())
            .map(|(i, p)| (*p, i as u32))
            .collect();
        let mut axes = vec![0u8; tree.len()];
        split(&mut tree, &mut axes, 0);
        let coordinate = |axis: usize| tree.iter().map(|(p, _)| p[axis]).collect();
        let (xs, ys, zs) = (coordinate(0), coordinate(1), coordinate(2));
        let order: Vec<u32> = tree.iter().map(|&(_, i)| i).collect();
        let mut place = vec![0u32; order.len()];
        for (k, &i) in order.iter().enumerate() {
            place[i as usize] = k as u32;
        }
        Self {
            order,
            place,
            axes,
            xs,
            ys,
            zs,
        }
    }

    /// The index of the point nearest `p` (0 for an empty set; the first of equally near
    /// points the search meets otherwise).
    pub fn nearest(&self, p: Vec3) -> usize {
        let mut best = (0u32, f32::INFINITY);
        self.search(0, self.order.len(), p, &mut best);
        best.0 as usize
    }

    /// The index of the point nearest `p`, starting from the guess that it is `hint` (the
    /// answer for where `p` was a step ago, when points move a little per step): every branch
    /// farther than the guess is passed over. The same point as [`Closest::nearest`] but for
    /// exact ties, where the guess is kept.
    pub fn nearest_from(&self, p: Vec3, hint: usize) -> usize {
        let Some(&k) = self.place.get(hint) else {
            return self.nearest(p);
        };
        let mut best = (hint as u32, self.at(k as usize).distance_squared(p));
        self.search(0, self.order.len(), p, &mut best);
        best.0 as usize
    }

    /// The point at `k` in tree order.
    fn at(&self, k: usize) -> Vec3 {
        Vec3::new(self.xs[k], self.ys[k], self.zs[k])
    }

    /// Keeps the nearer of `best` and the points of `lo..hi` that could be nearer: the side
    /// of each split `p` lies on first, the other only if its cell is nearer than the best so
    /// far. `gaps` are `p`'s distances to the cell of `lo..hi` along each axis (zero where it
    /// lies between the cell's sides), `gap` the squared distance they make (Arya and Mount's
    /// incremental distance: a far cell differs from its parent on one axis only, so its
    /// distance is one term changed, and a cell beyond the best is passed over even where its
    /// split plane is not).
    fn search(&self, lo: usize, hi: usize, p: Vec3, best: &mut (u32, f32)) {
        self.search_cell(lo, hi, p, best, &mut [0.0; 3], 0.0);
    }

    fn search_cell(
        &self,
        lo: usize,
        hi: usize,
        p: Vec3,
        best: &mut (u32, f32),
        gaps: &mut [f32; 3],
        gap: f32,
    ) {
        if hi - lo <= LEAF {
            let mut d = [0.0f32; LEAF];
            let leaf = (self.xs[lo..hi].iter().zip(&self.ys[lo..hi])).zip(&self.zs[lo..hi]);
            for (d, ((x, y), z)) in d.iter_mut().zip(leaf) {
                let (dx, dy, dz) = (x - p.x, y - p.y, z - p.z);
                *d = dx * dx + dy * dy + dz * dz;
            }
            for (k, &d) in d[..hi - lo].iter().enumerate() {
                if d < best.1 {
                    *best = (self.order[lo + k], d);
                }
            }
            return;
        }
        let middle = (lo + hi) / 2;
        let (q, i) = (self.at(middle), self.order[middle]);
        let axis = usize::from(self.axes[middle]);
        let d = q.distance_squared(p);
        if d < best.1 {
            *best = (i, d);
        }
        let off = p[axis] - q[axis];
        let (near, far) = if off < 0.0 {
            ((lo, middle), (middle + 1, hi))
        } else {
            ((middle + 1, hi), (lo, middle))
        };
        self.search_cell(near.0, near.1, p, best, gaps, gap);
        let was = gaps[axis];
        let far_gap = gap - was * was + off * off;
        if far_gap < best.1 {
            gaps[axis] = off;
            self.search_cell(far.0, far.1, p, best, gaps, far_gap);
            gaps[axis] = was;
        }
    }
}

/// Arranges `tree` (whose first entry is at `offset` in the whole) as [`Closest`] reads it:
/// each range split at its middle on the axis its points spread most along.
fn split(tree: &mut [(Vec3, u32)], axes: &mut [u8], offset: usize) {
    if tree.len() <= LEAF {
        return;
    }
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for (p, _) in tree.iter().filter(|(p, _)| p.is_finite()) {
        min = min.min(*p);
        max = max.max(*p);
    }
    let spread = max - min;
    let axis = if spread.x >= spread.y && spread.x >= spread.z {
        0
    } else if spread.y >= spread.z {
        1
    } else {
        2
    };
    let middle = tree.len() / 2;
    tree.select_nth_unstable_by(middle, |a, b| a.0[axis].total_cmp(&b.0[axis]));
    axes[offset + middle] = axis as u8;
    let (left, rest) = tree.split_at_mut(middle);
    split(left, axes, offset);
    split(&mut rest[1..], axes, offset + middle + 1);
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
    fn a_guess_gives_the_same_nearest_points() {
        let mut rng = Rng::new(4);
        let points: Vec<Vec3> = (0..900)
            .map(|_| rng.direction() * rng.range(1.0, 2.0))
            .collect();
        let tree = Closest::new(&points);
        for k in 0..500 {
            let q = rng.direction() * rng.range(0.0, 3.0);
            assert_eq!(tree.nearest_from(q, k % 900), tree.nearest(q), "{q}");
        }
        // A guess out of range is no guess.
        let q = Vec3::new(0.1, 2.0, 0.3);
        assert_eq!(tree.nearest_from(q, 5000), tree.nearest(q));
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

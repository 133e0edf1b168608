//! Nearest-point queries over a fixed set of points: a k-d tree, so that overlaying and
//! bending bodies of a thousand surface points does not cost a million distances per pass.
//! Surface samples fill a thin shell of their bounding box, which a uniform grid fits badly
//! (most cells empty, the rest crowded); the tree splits where the points are.
//!
//! Overlaying and bending ask the same questions step after step while the points move a
//! little: a [`Partner`] keeps a question's few nearest points and how far they reach, so
//! most later answers are among them and need no search ([`Closest::follow`]).

use glam::Vec3;

/// Points per leaf: below this a scan beats another split (measured: 8 to 64 points, 32 best).
const LEAF: usize = 32;

/// The nearest points a [`Partner`] keeps: on a surface sampled evenly the eighth nearest
/// lies about a spacing and a half away, so a question may move about a spacing before
/// its answer could lie outside them.
const KEPT: usize = 8;

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
        let mut best = Nearest(0, f32::INFINITY);
        self.search(0, self.order.len(), p, &mut best);
        best.0 as usize
    }

    /// The index of the point nearest `p`, as [`Closest::nearest`] (but for exact ties, where
    /// `partner`'s last answer is kept, or another of the tied points may be given): the
    /// nearest of the points `partner` kept, without a search, while no other point can be
    /// nearer; else a search that starts from the last answer (every cell farther is passed over).
    /// `points` are the set's points as they are now (the tree may have been built from
    /// where they were), `drift` how far any of them may have moved in all ([`Drift`]; 0
    /// for points that stay).
    ///
    /// A point not kept lay at least `partner`'s reach from where the question was, so now
    /// lies at least that less the question's move and the points' drift since (the
    /// triangle inequality); a kept point nearer than that, with a margin far above
    /// rounding, is the answer.
    pub fn follow(&self, p: Vec3, partner: &mut Partner, points: &[Vec3], drift: f32) -> usize {
        let bound = partner.reach
            - p.distance(partner.query)
            - (drift - partner.drift)
            - 1e-5 * (p.length() + partner.reach);
        // Nothing kept (a default partner) reaches nowhere: `bound` is not above 0.
        if bound > 0.0 {
            let mut best = (partner.index, f32::INFINITY);
            // The last answer first, so that a tie keeps it.
            for &i in std::iter::once(&partner.index).chain(&partner.near[..partner.kept]) {
                let d = points
                    .get(i as usize)
                    .map_or(f32::INFINITY, |q| q.distance_squared(p));
                if d < best.1 {
                    best = (i, d);
                }
            }
            if best.1 < bound * bound {
                partner.index = best.0;
                return best.0 as usize;
            }
        }
        let hint = partner.index;
        let mut near = match self.place.get(hint as usize) {
            Some(&k) => Near::from_guess(self.at(k as usize).distance_squared(p), hint),
            None => Near::from_guess(f32::INFINITY, NONE),
        };
        self.search(0, self.order.len(), p, &mut near);
        let kept = near.kept();
        let found = near.found;
        let index = if kept == 0 { 0 } else { found[0].1 };
        *partner = Partner {
            index,
            near: found.map(|(_, i)| i),
            kept,
            query: p,
            // Every point is kept from a set this small: nothing else can come nearer. Fewer
            // kept from a larger set (points too far to measure) reach nowhere.
            reach: if kept == self.order.len() {
                f32::INFINITY
            } else if kept == KEPT {
                found[KEPT - 1].0.sqrt()
            } else {
                0.0
            },
            drift,
        };
        index as usize
    }

    /// The point at `k` in tree order.
    fn at(&self, k: usize) -> Vec3 {
        Vec3::new(self.xs[k], self.ys[k], self.zs[k])
    }

    /// Meets (`found`) the points of `lo..hi` that could be kept: the side of each split `p`
    /// lies on first, the other only if its cell is nearer than the farthest `found` keeps.
    /// `gaps` are `p`'s distances to the cell of `lo..hi` along each axis (zero where it
    /// lies between the cell's sides), `gap` the squared distance they make (Arya and Mount's
    /// incremental distance: a far cell differs from its parent on one axis only, so its
    /// distance is one term changed, and a cell beyond is passed over even where its
    /// split plane is not).
    fn search(&self, lo: usize, hi: usize, p: Vec3, found: &mut impl Found) {
        self.search_cell(lo, hi, p, found, &mut [0.0; 3], 0.0);
    }

    fn search_cell(
        &self,
        lo: usize,
        hi: usize,
        p: Vec3,
        found: &mut impl Found,
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
            for (&d, &i) in d[..hi - lo].iter().zip(&self.order[lo..hi]) {
                found.meet(d, i);
            }
            return;
        }
        let middle = (lo + hi) / 2;
        let q = self.at(middle);
        let axis = usize::from(self.axes[middle]);
        found.meet(q.distance_squared(p), self.order[middle]);
        let off = p[axis] - q[axis];
        let (near, far) = if off < 0.0 {
            ((lo, middle), (middle + 1, hi))
        } else {
            ((middle + 1, hi), (lo, middle))
        };
        self.search_cell(near.0, near.1, p, found, gaps, gap);
        let was = gaps[axis];
        let far_gap = gap - was * was + off * off;
        if far_gap < found.farthest() {
            gaps[axis] = off;
            self.search_cell(far.0, far.1, p, found, gaps, far_gap);
            gaps[axis] = was;
        }
    }
}

/// What a search keeps of the points it meets.
trait Found {
    /// Point `i` at squared distance `d` is met.
    fn meet(&mut self, d: f32, i: u32);
    /// How near a point must be to be kept: cells beyond are passed over.
    fn farthest(&self) -> f32;
}

/// The nearest point met so far and its squared distance (the first met of tied points).
struct Nearest(u32, f32);

impl Found for Nearest {
    fn meet(&mut self, d: f32, i: u32) {
        if d < self.1 {
            (self.0, self.1) = (i, d);
        }
    }

    fn farthest(&self) -> f32 {
        self.1
    }
}

/// A question's nearest points in a [`Closest`] set, nearest first, where the question was
/// and how far the farthest of them lay: what [`Closest::follow`] needs to answer it again after
/// the question and the points have moved a little. The default keeps nothing and guesses
/// the first point.
#[derive(Clone, Copy, Debug, Default)]
pub struct Partner {
    /// The last answer.
    index: u32,
    near: [u32; KEPT],
    kept: usize,
    query: Vec3,
    /// How near the points not kept could lie (the farthest kept point's distance).
    reach: f32,
    /// The set's [`Drift`] when the points were found.
    drift: f32,
}

/// How far the points of a moving set may have gone since their first step: the sum of
/// each step's farthest move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Drift(pub f32);

impl Drift {
    /// Adds the step from `was` to `now` (the same points, in order).
    pub fn step(&mut self, was: &[Vec3], now: &[Vec3]) {
        let farthest = (was.iter().zip(now))
            .map(|(a, b)| a.distance_squared(*b))
            .fold(0.0f32, f32::max);
        // Rounded up a little: the bound must not fall short of a move by rounding.
        self.0 += farthest.sqrt() * (1.0 + 1e-6);
    }
}

/// The [`KEPT`] nearest points met so far (squared distances), nearest first; places not
/// yet taken hold no point ([`NONE`]) at an infinite distance.
struct Near {
    found: [(f32, u32); KEPT],
    /// The guess, met first and again in the search (where it is passed over).
    guess: u32,
}

/// No point.
const NONE: u32 = u32::MAX;

impl Near {
    /// Starting from the guess `i` at squared distance `d`.
    fn from_guess(d: f32, i: u32) -> Self {
        let mut near = Self {
            found: [(f32::INFINITY, NONE); KEPT],
            guess: NONE,
        };
        near.meet(d, i);
        near.guess = i;
        near
    }

    /// How many points are kept.
    fn kept(&self) -> usize {
        self.found.iter().filter(|f| f.1 != NONE).count()
    }
}

impl Found for Near {
    /// Keeps the point if it is among the nearest so far (after those as near: the first
    /// met of tied points stays first).
    fn meet(&mut self, d: f32, i: u32) {
        if d >= self.farthest() || i == self.guess {
            return;
        }
        let mut k = KEPT - 1;
        while k > 0 && self.found[k - 1].0 > d {
            self.found[k] = self.found[k - 1];
            k -= 1;
        }
        self.found[k] = (d, i);
    }

    fn farthest(&self) -> f32 {
        self.found[KEPT - 1].0
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

    /// The index of the point of `points` nearest `q`, by a scan.
    fn scan(points: &[Vec3], q: Vec3) -> usize {
        (0..points.len())
            .min_by(|&a, &b| {
                (points[a].distance_squared(q)).total_cmp(&points[b].distance_squared(q))
            })
            .unwrap_or(0)
    }

    #[test]
    fn a_question_followed_as_it_moves_gets_the_nearest_point_at_every_step() {
        let mut rng = Rng::new(4);
        let points: Vec<Vec3> = (0..900)
            .map(|_| rng.direction() * rng.range(1.0, 2.0))
            .collect();
        let tree = Closest::new(&points);
        for _ in 0..20 {
            let mut q = rng.direction() * rng.range(0.0, 3.0);
            let mut partner = Partner::default();
            // Steps from far smaller than the points' spacing to far larger.
            for step in [0.001, 0.01, 0.05, 0.2, 1.0].into_iter().cycle().take(60) {
                q += rng.direction() * step;
                assert_eq!(tree.follow(q, &mut partner, &points, 0.0), scan(&points, q));
            }
        }
    }

    #[test]
    fn questions_followed_while_the_points_move_get_the_nearest_point_at_every_step() {
        let mut rng = Rng::new(8);
        let mut points: Vec<Vec3> = (0..600)
            .map(|_| rng.direction() * rng.range(1.0, 2.0))
            .collect();
        let questions: Vec<Vec3> = (0..200).map(|_| rng.direction() * 1.5).collect();
        let mut partners = vec![Partner::default(); questions.len()];
        let mut drift = Drift::default();
        for step in 0..40 {
            let was = points.clone();
            // Most steps nudge every point a little; a few move one point far.
            for p in &mut points {
                *p += rng.direction() * 0.002;
            }
            if step % 7 == 3 {
                points[step] = rng.direction() * 1.5;
            }
            drift.step(&was, &points);
            let tree = Closest::new(&points);
            for (q, partner) in questions.iter().zip(&mut partners) {
                assert_eq!(
                    tree.follow(*q, partner, &points, drift.0),
                    scan(&points, *q)
                );
            }
        }
    }

    #[test]
    fn a_set_smaller_than_what_a_partner_keeps_is_followed_wherever_the_question_goes() {
        let mut rng = Rng::new(2);
        let points: Vec<Vec3> = (0..5).map(|_| rng.direction()).collect();
        let tree = Closest::new(&points);
        let mut partner = Partner::default();
        for _ in 0..100 {
            let q = rng.direction() * rng.range(0.0, 10.0);
            assert_eq!(tree.follow(q, &mut partner, &points, 0.0), scan(&points, q));
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

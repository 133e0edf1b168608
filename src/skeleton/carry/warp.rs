//! The overlaid template body bent onto the target body: a smooth displacement of its surface,
//! coarse to fine, that the template's joints then follow.

use glam::{Vec3, Vec4};
use serde::{Deserialize, Serialize};

use super::closest::Closest;
use super::register::chamfer;

/// A smooth displacement of the overlaid template body onto the target surface: per surface
/// point of the template, where it moved.
#[derive(Clone, Serialize, Deserialize)]
pub struct Warp {
    points: Vec<Vec3>,
    moves: Vec<Vec3>,
    /// How much bending it took and how far the surfaces stayed apart (mean move plus mean
    /// closest-point distance, as shares of the target's longest side): of several overlays
    /// the likeliest bends least.
    pub cost: f32,
}

/// Coarse to fine widths of the smoothing, as shares of the target's longest side.
const WARP_WIDTHS: [f32; 5] = [0.25, 0.16, 0.1, 0.065, 0.04];
const WARP_STEPS: usize = 8;

impl Warp {
    /// The template surface (already overlaid) pulled onto the target's: each step pulls every
    /// point to its nearest target point and every target point pulls its nearest template
    /// point, and the pulls are smoothed over the template surface with a Gaussian that
    /// narrows from a quarter of the body to a twenty-fifth (limbs first move as a whole).
    /// `points` are the template's surface samples, overlaid; `goal` the target's, on a body
    /// whose longest side is `size`.
    pub fn fit(points: Vec<Vec3>, goal: &[Vec3], size: f32) -> Self {
        let size = size.max(1e-6);
        let mut moves = vec![Vec3::ZERO; points.len()];
        let to_goal = Closest::new(goal);
        // Each point's nearest on the other surface a step ago, where the next search starts.
        let mut nearest_goal: Vec<usize> = vec![0; points.len()];
        let mut nearest_point: Vec<usize> = vec![0; goal.len()];
        for width in WARP_WIDTHS {
            let sigma = width * size;
            let kernel = Kernel::new(&points, sigma);
            for _ in 0..WARP_STEPS {
                let moved: Vec<Vec3> = points.iter().zip(&moves).map(|(p, m)| *p + *m).collect();
                let to_moved = Closest::new(&moved);
                let mut pull = vec![Vec3::ZERO; points.len()];
                let mut count = vec![0.0f32; points.len()];
                for (i, p) in moved.iter().enumerate() {
                    nearest_goal[i] = to_goal.nearest_from(*p, nearest_goal[i]);
                    pull[i] += goal[nearest_goal[i]] - *p;
                    count[i] += 1.0;
                }
                for (q, nearest) in goal.iter().zip(&mut nearest_point) {
                    let i = to_moved.nearest_from(*q, *nearest);
                    *nearest = i;
                    pull[i] += *q - moved[i];
                    count[i] += 1.0;
                }
                for (p, c) in pull.iter_mut().zip(&count) {
                    *p /= c.max(1.0);
                }
                // Each point's pull and how many pulls it averages, smoothed together (one
                // four-wide multiply-add per pair).
                let counted: Vec<Vec4> = (pull.iter().zip(&count))
                    .map(|(p, &c)| (*p * c).extend(c))
                    .collect();
                for (m, row) in moves.iter_mut().zip(kernel.rows()) {
                    let sum = smoothed(&counted, row);
                    if sum.w > 0.0 {
                        *m += sum.truncate() / sum.w;
                    }
                }
            }
        }
        let moved: Vec<Vec3> = points.iter().zip(&moves).map(|(p, m)| *p + *m).collect();
        let apart = chamfer(&moved, goal, &to_goal);
        let bend = moves.iter().map(|m| m.length()).sum::<f32>() / moves.len() as f32;
        Self {
            points,
            moves,
            cost: (apart + bend) / size,
        }
    }

    /// Where the warp takes `p` (a joint inside the template body): the moves of the surface
    /// around it, weighted by a Gaussian as wide as its distance to the nearest surface point
    /// (so a joint follows the limb it sits in).
    pub fn apply(&self, p: Vec3) -> Vec3 {
        let nearest_d = self
            .points
            .iter()
            .map(|q| q.distance(p))
            .fold(f32::INFINITY, f32::min);
        let sigma = (1.5 * nearest_d).max(1e-6);
        let (mut sum, mut total) = (Vec3::ZERO, 0.0);
        for (q, m) in self.points.iter().zip(&self.moves) {
            let w = (-(q.distance_squared(p)) / (2.0 * sigma * sigma)).exp();
            sum += *m * w;
            total += w;
        }
        if total > 0.0 { p + sum / total } else { p }
    }
}

/// The sum of `values` weighted by a kernel's `row`, in four running sums (a single one
/// waits on each addition before the next).
fn smoothed(values: &[Vec4], row: &[(u32, f32)]) -> Vec4 {
    let mut sums = [Vec4::ZERO; 4];
    let mut chunks = row.chunks_exact(4);
    for chunk in &mut chunks {
        for (sum, &(k, w)) in sums.iter_mut().zip(chunk) {
            *sum += values[k as usize] * w;
        }
    }
    let rest: Vec4 = (chunks.remainder().iter())
        .map(|&(k, w)| values[k as usize] * w)
        .sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

pub(in crate::skeleton) const WARP_POINTS: usize = 1000;

/// Per point, its neighbours within three widths and their Gaussian weights, in the order of
/// the points, as one list with where each point's row starts (one allocation: the widest
/// widths hold nearly every pair of the points, grown row by row that was a tenth of a rig).
/// Each pair's weight is computed once for both (distances are symmetric).
struct Kernel {
    starts: Vec<usize>,
    entries: Vec<(u32, f32)>,
}

impl Kernel {
    fn new(points: &[Vec3], sigma: f32) -> Self {
        let reach = (3.0 * sigma).powi(2);
        // The pairs (i, k ≥ i) within reach, row i after row i − 1.
        let mut pairs: Vec<(u32, u32, f32)> = Vec::new();
        let mut counts = vec![0usize; points.len()];
        for (i, p) in points.iter().enumerate() {
            for (k, q) in points.iter().enumerate().skip(i) {
                let d = p.distance_squared(*q);
                if d <= reach {
                    let w = (-d / (2.0 * sigma * sigma)).exp();
                    pairs.push((i as u32, k as u32, w));
                    counts[i] += 1;
                    if k != i {
                        counts[k] += 1;
                    }
                }
            }
        }
        let mut starts = Vec::with_capacity(points.len() + 1);
        let mut start = 0;
        for count in &counts {
            starts.push(start);
            start += count;
        }
        starts.push(start);
        // Row k holds the points before it (met as row i < k is made), then its own pairs:
        // every row in the order of the points.
        let mut filled = starts.clone();
        let mut entries = vec![(0u32, 0.0f32); start];
        for (i, k, w) in pairs {
            entries[filled[i as usize]] = (k, w);
            filled[i as usize] += 1;
            if k != i {
                entries[filled[k as usize]] = (i, w);
                filled[k as usize] += 1;
            }
        }
        Self { starts, entries }
    }

    /// Each point's row.
    fn rows(&self) -> impl Iterator<Item = &[(u32, f32)]> {
        self.starts.windows(2).map(|w| &self.entries[w[0]..w[1]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn a_kernel_row_holds_each_neighbour_within_reach_once_in_order() {
        let mut rng = Rng::new(9);
        let points: Vec<Vec3> = (0..300)
            .map(|_| rng.direction() * rng.range(0.0, 2.0))
            .collect();
        let sigma = 0.3;
        let kernel = Kernel::new(&points, sigma);
        for (p, row) in points.iter().zip(kernel.rows()) {
            let expected: Vec<(u32, f32)> = (points.iter().enumerate())
                .filter(|(_, q)| p.distance_squared(**q) <= (3.0 * sigma).powi(2))
                .map(|(k, q)| {
                    (
                        k as u32,
                        (-p.distance_squared(*q) / (2.0 * sigma * sigma)).exp(),
                    )
                })
                .collect();
            assert_eq!(row, expected.as_slice());
        }
    }
}

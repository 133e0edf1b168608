//! The overlaid template body bent onto the target body: a smooth displacement of its surface,
//! coarse to fine, that the template's joints then follow.

use glam::{Vec3, Vec4};
use serde::{Deserialize, Serialize};

use super::closest::{Closest, Drift, Partner};
use super::register::chamfer;
use crate::parallel;

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
        // Each point's nearest on the other surface a step ago: most still hold
        // ([`Closest::follow`]), and the others' searches start there.
        let mut to_goal_partners = vec![Partner::default(); points.len()];
        let mut from_goal_partners = vec![Partner::default(); goal.len()];
        let mut kernel = Kernel::default();
        let mut smoothed = vec![Vec4::ZERO; points.len()];
        let mut moved = points.clone();
        let mut was = moved.clone();
        let mut drift = Drift::default();
        for width in WARP_WIDTHS {
            kernel.make(&points, width * size);
            for _ in 0..WARP_STEPS {
                for ((m, p), step) in moved.iter_mut().zip(&points).zip(&moves) {
                    *m = *p + *step;
                }
                drift.step(&was, &moved);
                was.copy_from_slice(&moved);
                let to_moved = Closest::new(&moved);
                let mut pull = vec![Vec3::ZERO; points.len()];
                let mut count = vec![0.0f32; points.len()];
                // The questions side by side (a lone bend is what a carry last waits on),
                // the pulls summed in order.
                let nearest = parallel::map_with(&moved, &mut to_goal_partners, |p, partner| {
                    to_goal.follow(*p, partner, goal, 0.0)
                });
                for (((p, &nearest), pull), count) in
                    (moved.iter().zip(&nearest)).zip(&mut pull).zip(&mut count)
                {
                    *pull += goal[nearest] - *p;
                    *count += 1.0;
                }
                let nearest = parallel::map_with(goal, &mut from_goal_partners, |q, partner| {
                    to_moved.follow(*q, partner, &moved, drift.0)
                });
                for (q, i) in goal.iter().zip(nearest) {
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
                kernel.smooth(&counted, &mut smoothed);
                for (m, sum) in moves.iter_mut().zip(&smoothed) {
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

pub(in crate::skeleton) const WARP_POINTS: usize = 1000;

/// Per point, its neighbours after it within three widths and their Gaussian weights, in the
/// order of the points, as lists with where each point's row ends: each pair once, as
/// distances and weights are symmetric (weighing a pair once and smoothing both ways from it
/// halves the lists, and making them needs no sorting of pairs into rows, which missed the
/// cache at every pair: a kernel cost more than its eight smoothings).
#[derive(Default)]
struct Kernel {
    ends: Vec<usize>,
    /// Each pair's later point.
    columns: Vec<u32>,
    /// Each pair's weight.
    weights: Vec<f32>,
}

impl Kernel {
    /// The kernel of `points` at width `sigma`, reusing the lists of the last. Each row's
    /// distances, its pairs within reach and their weights are three passes without a branch
    /// (a row is a few hundred pairs: four lanes at a time in the page, eight natively).
    fn make(&mut self, points: &[Vec3], sigma: f32) {
        let reach = (3.0 * sigma).powi(2);
        let spread = 2.0 * sigma * sigma;
        self.ends.clear();
        self.columns.clear();
        self.weights.clear();
        let coordinate = |axis: usize| -> Vec<f32> { points.iter().map(|p| p[axis]).collect() };
        let (xs, ys, zs) = (coordinate(0), coordinate(1), coordinate(2));
        let mut distances = vec![0.0; points.len()];
        for (i, p) in points.iter().enumerate() {
            let after = (xs[i + 1..].iter().zip(&ys[i + 1..])).zip(&zs[i + 1..]);
            let row = &mut distances[..points.len() - i - 1];
            for (d, ((x, y), z)) in row.iter_mut().zip(after) {
                let (dx, dy, dz) = (p.x - x, p.y - y, p.z - z);
                *d = dx * dx + dy * dy + dz * dz;
            }
            // Every pair written, only those within reach kept.
            let first = self.weights.len();
            self.columns.resize(first + row.len(), 0);
            self.weights.resize(first + row.len(), 0.0);
            let mut kept = first;
            for (k, &d) in (i + 1..).zip(row.iter()) {
                self.columns[kept] = k as u32;
                self.weights[kept] = d;
                kept += usize::from(d <= reach);
            }
            self.columns.truncate(kept);
            self.weights.truncate(kept);
            for w in &mut self.weights[first..] {
                *w = exp_nonpositive(-*w / spread);
            }
            self.ends.push(kept);
        }
    }

    /// `values` smoothed: per point, the sum of every value within reach times its weight
    /// (its own at weight one), into `out`.
    fn smooth(&self, values: &[Vec4], out: &mut [Vec4]) {
        out.copy_from_slice(values);
        let mut start = 0;
        for ((i, v), &end) in values.iter().enumerate().zip(&self.ends) {
            let mut sum = Vec4::ZERO;
            for (&k, &w) in self.columns[start..end]
                .iter()
                .zip(&self.weights[start..end])
            {
                let k = k as usize;
                sum += values[k] * w;
                out[k] += *v * w;
            }
            out[i] += sum;
            start = end;
        }
    }
}

/// `x.exp()` for `x <= 0` (e^-87 below -87), to a relative error under twice
/// `f32::EPSILON`. A kernel weighs up to half a million pairs, and in the page `f32::exp` is
/// a software routine (measured: a sixth of a helper's time carrying a humanoid): here it is
/// a power of two times a short polynomial, with no table and no branch.
fn exp_nonpositive(x: f32) -> f32 {
    // x = k ln 2 + r, |r| <= ln 2 / 2; ln 2 split in two so that k ln 2 is exact to f32.
    const LN2_HIGH: f32 = 0.693_145_75;
    const LN2_LOW: f32 = 1.428_606_8e-6;
    // Adding 1.5 * 2^23 rounds to a whole number (no call to `round`, which stops
    // vectorising).
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.0, 0.0);
    let k = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    let r = x - k * LN2_HIGH - k * LN2_LOW;
    // e^r by its Taylor series to r^7 (the first term left out is under 6e-9 of it).
    let p = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0
                        + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // 2^k, with k in -126..=0 a normal float's exponent.
    p * f32::from_bits(((k as i32 + 127) as u32) << 23)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn exp_of_a_nonpositive_number_is_within_two_epsilons_of_the_exact_value() {
        let mut worst = 0.0f32;
        for i in 0..=200_000 {
            let x = -30.0 * i as f32 / 200_000.0;
            let exact = (x as f64).exp();
            let error = ((exp_nonpositive(x) as f64 - exact) / exact).abs() as f32;
            worst = worst.max(error);
        }
        assert!(worst < 2.0 * f32::EPSILON, "relative error {worst}");
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert!(exp_nonpositive(-1e9) >= 0.0 && exp_nonpositive(-1e9) < 1e-37);
        assert!(exp_nonpositive(f32::NEG_INFINITY) < 1e-37);
    }

    #[test]
    fn a_kernel_smooths_as_the_sum_over_every_point_within_reach() {
        let mut rng = Rng::new(9);
        let points: Vec<Vec3> = (0..300)
            .map(|_| rng.direction() * rng.range(0.0, 2.0))
            .collect();
        let values: Vec<Vec4> = (0..300)
            .map(|_| (rng.direction() * rng.range(0.0, 1.0)).extend(rng.range(1.0, 3.0)))
            .collect();
        let sigma = 0.3;
        let mut kernel = Kernel::default();
        // Made twice: a kernel remade at another width keeps nothing of the last.
        kernel.make(&points, 2.0 * sigma);
        kernel.make(&points, sigma);
        let mut smoothed = vec![Vec4::ZERO; points.len()];
        kernel.smooth(&values, &mut smoothed);
        let mut far = 0;
        for (p, got) in points.iter().zip(&smoothed) {
            let near = |q: &&Vec3| p.distance_squared(**q) <= (3.0 * sigma).powi(2);
            far += points.iter().filter(|q| !near(q)).count();
            let expected: Vec4 = (points.iter().zip(&values))
                .filter(|(q, _)| near(q))
                .map(|(q, v)| *v * (-p.distance_squared(*q) / (2.0 * sigma * sigma)).exp())
                .sum();
            assert!(
                (*got - expected).abs().max_element() < 1e-4,
                "{got} against {expected}"
            );
        }
        assert!(far > 0, "some points lie out of reach");
    }
}

//! A template's own body laid over another body: the turn, the stretch along each of the
//! template's axes and the shift that best overlay the two surfaces.
//!
//! Files come in any position, scale, up axis and facing, so the search starts from every
//! turn that takes axes onto axes, each also yawed about the template's up in 30° steps, on
//! both surfaces normalised to their centroid and spread; the best few are refined by
//! iterative closest points (a turn by Kabsch, then a stretch per axis), and the one whose
//! surfaces end nearest each other wins.

use glam::{Mat3, Quat, Vec3};

use super::closest::{Closest, Drift, Partner};
use crate::mesh::Mesh;
use crate::parallel;
use crate::random::Rng;

/// Surface points per body.
pub(in crate::skeleton) const POINTS: usize = 600;
/// Yaw steps about the template's up in a whole turn (of which the overlay search takes those
/// below a quarter turn: a quarter-turn yaw is itself an axis turn).
const YAWS: usize = 12;
const _: () = assert!(
    YAWS.is_multiple_of(4),
    "a quarter turn must be a whole number of yaw steps"
);
/// Candidates refined by closest points.
const REFINED: usize = 3;
const ITERATIONS: usize = 40;

/// The 24 turns that take the axes onto the axes (a file's up and forward can be any of them).
pub fn axis_turns() -> Vec<Quat> {
    let axes = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    let mut turns = Vec::with_capacity(24);
    for up in axes {
        for forward in axes {
            if up.dot(forward).abs() > 0.5 {
                continue;
            }
            let left = up.cross(forward);
            turns.push(Quat::from_mat3(&glam::Mat3::from_cols(left, up, forward)));
        }
    }
    turns
}

/// `p ↦ turn · (stretch ⊙ (p − from)) + to`: the template's body onto the mesh's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Overlay {
    pub turn: Mat3,
    pub stretch: Vec3,
    pub from: Vec3,
    pub to: Vec3,
}

impl Overlay {
    pub fn apply(&self, p: Vec3) -> Vec3 {
        self.turn * (self.stretch * (p - self.from)) + self.to
    }
}

/// The likeliest overlays of a template's body (`reference`: surface samples, in the
/// template's frame) onto a target body (`target`: its surface samples), each with how far
/// apart the overlaid surfaces stay (mean closest-point distance, as a share of the target's
/// spread), nearest first: the best of each basin of turns (a long body may fit nearly as well
/// head to tail, a bent one upside down). Empty for samples without spread.
pub fn overlays(a: &[Vec3], b: &[Vec3]) -> Vec<(Overlay, f32)> {
    let (Some((ca, sa)), Some((cb, sb))) = (centre_and_spread(a), centre_and_spread(b)) else {
        return Vec::new();
    };
    let a: Vec<Vec3> = a.iter().map(|p| (*p - ca) / sa).collect();
    let b: Vec<Vec3> = b.iter().map(|p| (*p - cb) / sb).collect();
    let to_b = Closest::new(&b);
    let to_a = Closest::new(&a);
    let starts = basin_starts(&a, &to_a, &b, &to_b);
    // Each start refined side by side (a template of one body would otherwise refine its
    // three one after another on one core).
    let mut refined: Vec<(Overlay, f32)> = parallel::map(&starts, |&turn| {
        let (turn, stretch, shift, distance) = refine(&a, &b, &to_b, turn);
        // Back from the normalised frames: p ↦ sb·(turn·(stretch⊙(p−ca)/sa) + shift) + cb.
        let overlay = Overlay {
            turn,
            stretch: stretch * (sb / sa),
            from: ca,
            to: cb + shift * sb,
        };
        (overlay, distance)
    });
    refined.sort_by(|x, y| x.1.total_cmp(&y.1));
    refined
}

/// Which way the feet of a body standing along `up` point: each point of the soles (the
/// lowest 4 % of the height) reaches out from the nearest point of the legs just above
/// (8–20 %), seen from above — its own leg, unless the feet cross; toes reach forward of the
/// shins, heels barely behind them. Per point rather than from the mean of both legs, so a leg
/// swung forward or back (a posed body) does not turn the answer round. `None` when the feet do not reach out from the legs by more
/// than 1 % of the height (no feet, or feet straight down).
pub fn toe_direction(points: &[Vec3], up: Vec3) -> Option<Vec3> {
    let up = up.try_normalize()?;
    let height = |p: &Vec3| p.dot(up);
    let (lo, span) = height_range(points, up)?;
    let flat = |p: &Vec3| *p - up * p.dot(up);
    let band = |from: f32, to: f32| -> Vec<Vec3> {
        points
            .iter()
            .filter(|p| (lo + from * span..lo + to * span).contains(&height(p)))
            .map(flat)
            .collect()
    };
    let (soles, legs) = (band(0.0, 0.04), band(0.08, 0.2));
    if soles.is_empty() || legs.is_empty() {
        return None;
    }
    let to_legs = Closest::new(&legs);
    let reach = soles
        .iter()
        .map(|sole| *sole - legs[to_legs.nearest(*sole)])
        .sum::<Vec3>()
        / soles.len() as f32;
    (reach.length() > 0.01 * span).then(|| reach.normalize())
}

/// Height bands of [`lopsidedness`].
const BANDS: usize = 10;

/// How a body standing along `up` is lopsided front to back, band by band of its height: the
/// skew of its surface along `forward` within each band (weighted by the band's share of the
/// surface). A chest, a belly, a face or a tail each lean one way, so a body turned front to
/// back has the profile negated, and the profiles of two bodies of one plan agree in sign
/// even where their limbs are posed differently. `None` without height, or for a `forward`
/// along `up`.
pub fn lopsidedness(points: &[Vec3], up: Vec3, forward: Vec3) -> Option<[f32; BANDS]> {
    let up = up.try_normalize()?;
    let forward = (forward - up * forward.dot(up)).try_normalize()?;
    let height = |p: &Vec3| p.dot(up);
    let (lo, span) = height_range(points, up)?;
    let mut bands: [Vec<f32>; BANDS] = Default::default();
    for p in points {
        let band = (((height(p) - lo) / span * BANDS as f32) as usize).min(BANDS - 1);
        bands[band].push(p.dot(forward));
    }
    let total = points.len() as f32;
    Some(bands.map(|along| {
        if along.len() < 5 {
            return 0.0;
        }
        let n = along.len() as f32;
        let mean = along.iter().sum::<f32>() / n;
        let spread = (along.iter().map(|a| (a - mean).powi(2)).sum::<f32>() / n).sqrt();
        if spread <= 0.0 {
            return 0.0;
        }
        let skew = along
            .iter()
            .map(|a| ((a - mean) / spread).powi(3))
            .sum::<f32>()
            / n;
        skew * n / total
    }))
}

/// The cosine between two [`lopsidedness`] profiles: near 1 when two bodies lean the same
/// ways, near −1 when one is turned front to back, 0 when either is flat. A cosine ignores
/// how lopsided the bodies are, so two nearly symmetric ones can still score far from 0.
pub fn lopsided_alike(a: &[f32; BANDS], b: &[f32; BANDS]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32; BANDS]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    let n = norm(a) * norm(b);
    if n > 0.0 { dot / n } else { 0.0 }
}

/// The lowest height of `points` along `up` and how far above it the highest lies; `None`
/// when they have no height.
fn height_range(points: &[Vec3], up: Vec3) -> Option<(f32, f32)> {
    let (lo, hi) = points
        .iter()
        .map(|p| p.dot(up))
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), h| {
            (lo.min(h), hi.max(h))
        });
    let span = hi - lo;
    (span > 0.0 && span.is_finite()).then_some((lo, span))
}

/// Iterative closest points from `turn`: per step, each point's nearest on the other surface
/// (both ways), then the turn (Kabsch), the stretch per axis of `a` and the shift.
fn refine(a: &[Vec3], b: &[Vec3], to_b: &Closest, mut turn: Mat3) -> (Mat3, Vec3, Vec3, f32) {
    let mut stretch = Vec3::ONE;
    let mut shift = Vec3::ZERO;
    let mut last = None;
    // Each point's partner a step ago: points move little per step, so most partners still
    // hold ([`Closest::follow`]) and the others' searches start there.
    let mut partner_in_b = vec![Partner::default(); a.len()];
    let mut partner_in_a = vec![Partner::default(); b.len()];
    let (mut moved, mut was): (Vec<Vec3>, Vec<Vec3>) = (Vec::new(), Vec::new());
    let mut drift = Drift::default();
    for _ in 0..ITERATIONS {
        // Pairs found the same way give the same step: once it stops moving, it is done.
        if last == Some((turn, stretch, shift)) {
            break;
        }
        last = Some((turn, stretch, shift));
        std::mem::swap(&mut was, &mut moved);
        moved.clear();
        moved.extend(a.iter().map(|p| turn * (stretch * *p) + shift));
        // From the second step on: the first has no step before.
        if was.len() == moved.len() {
            drift.step(&was, &moved);
        }
        let to_moved = Closest::new(&moved);
        let mut pairs: Vec<(Vec3, Vec3)> = Vec::with_capacity(a.len() + b.len());
        let in_b = parallel::map_with(&moved, &mut partner_in_b, |m, partner| {
            to_b.follow(*m, partner, b, 0.0)
        });
        pairs.extend(a.iter().zip(in_b).map(|(p, nearest)| (*p, b[nearest])));
        let in_a = parallel::map_with(b, &mut partner_in_a, |q, partner| {
            to_moved.follow(*q, partner, &moved, drift.0)
        });
        pairs.extend(b.iter().zip(in_a).map(|(q, nearest)| (a[nearest], *q)));
        let n = pairs.len() as f32;
        let ca = pairs.iter().map(|p| p.0).sum::<Vec3>() / n;
        let cb = pairs.iter().map(|p| p.1).sum::<Vec3>() / n;
        // Turn: Kabsch between the stretched template points and their partners.
        let mut h = Mat3::ZERO;
        for (p, q) in &pairs {
            let (x, y) = (stretch * (*p - ca), *q - cb);
            h += Mat3::from_cols(y * x.x, y * x.y, y * x.z);
        }
        turn = nearest_rotation(h);
        // Stretch per template axis, the turn fixed: least squares per axis.
        let (mut num, mut den) = (Vec3::ZERO, Vec3::ZERO);
        for (p, q) in &pairs {
            let x = *p - ca;
            let y = turn.transpose() * (*q - cb);
            num += x * y;
            den += x * x;
        }
        let fresh = Vec3::select(den.cmpgt(Vec3::splat(1e-9)), num / den, stretch);
        // A body is not folded flat nor blown up: stretches stay within 3x of each other.
        let mean = (fresh.x * fresh.y * fresh.z).abs().cbrt().max(1e-6);
        stretch = fresh.clamp(Vec3::splat(mean / 3.0), Vec3::splat(mean * 3.0));
        shift = cb - turn * (stretch * ca);
    }
    let moved: Vec<Vec3> = a.iter().map(|p| turn * (stretch * *p) + shift).collect();
    let distance = chamfer(&moved, b, to_b);
    (turn, stretch, shift, distance)
}

/// The rotation nearest `m` (its polar factor), by Higham's iteration; a reflection is turned
/// into the nearest proper rotation by flipping the weakest axis.
pub fn nearest_rotation(m: Mat3) -> Mat3 {
    let mut r = m;
    for _ in 0..64 {
        let det = r.determinant();
        if det.abs() < 1e-12 {
            break;
        }
        let next = (r + r.inverse().transpose()) * 0.5;
        let change = (next - r)
            .to_cols_array()
            .iter()
            .map(|v| v.abs())
            .sum::<f32>();
        r = next;
        if change < 1e-7 {
            break;
        }
    }
    if r.determinant() < 0.0 {
        // Flip the column of least weight in m.
        let weights = [m.x_axis.length(), m.y_axis.length(), m.z_axis.length()];
        let weakest = (0..3)
            .min_by(|&a, &b| weights[a].total_cmp(&weights[b]))
            .unwrap_or(0);
        let mut cols = [r.x_axis, r.y_axis, r.z_axis];
        cols[weakest] = -cols[weakest];
        r = Mat3::from_cols(cols[0], cols[1], cols[2]);
    }
    if r.is_finite() && (r.determinant() - 1.0).abs() < 1e-2 {
        r
    } else {
        Mat3::IDENTITY
    }
}

/// Mean distance from each point to the other set's nearest, both ways; `to_b` finds
/// points of `b`.
pub(in crate::skeleton) fn chamfer(a: &[Vec3], b: &[Vec3], to_b: &Closest) -> f32 {
    turned_chamfer(a, &Closest::new(a), b, to_b, Mat3::IDENTITY)
}

/// [`chamfer`] of `a` turned by `turn` against `b`, from trees of both as they are: a turn
/// keeps distances, so `b`'s points turned back find their nearest in `a` itself.
fn turned_chamfer(a: &[Vec3], to_a: &Closest, b: &[Vec3], to_b: &Closest, turn: Mat3) -> f32 {
    match bounded_chamfer(a, to_a, b, to_b, turn, f32::INFINITY) {
        Ok(chamfer) | Err(chamfer) => chamfer,
    }
}

/// Points summed between looks at whether a [`bounded_chamfer`] passed its bound.
const BOUND_EVERY: usize = 32;

/// [`turned_chamfer`], or `Err` with a lower bound on it once that exceeds `bound` (the sum
/// so far, both ways, is at most the whole sum: the distances are never negative and
/// rounding keeps order).
fn bounded_chamfer(
    a: &[Vec3],
    to_a: &Closest,
    b: &[Vec3],
    to_b: &Closest,
    turn: Mat3,
    bound: f32,
) -> Result<f32, f32> {
    let n = (a.len() + b.len()) as f32;
    let back_turn = turn.transpose();
    let mut there = 0.0f32;
    for chunk in a.chunks(BOUND_EVERY) {
        for p in chunk.iter().map(|p| turn * *p) {
            there += b[to_b.nearest(p)].distance(p);
        }
        if there / n > bound {
            return Err(there / n);
        }
    }
    let mut back = 0.0f32;
    for chunk in b.chunks(BOUND_EVERY) {
        for q in chunk.iter().map(|q| back_turn * *q) {
            back += a[to_a.nearest(q)].distance(q);
        }
        if (there + back) / n > bound {
            return Err((there + back) / n);
        }
    }
    Ok((there + back) / n)
}

/// The turns the overlay search refines: of every axis turn yawed in [`YAWS`] steps, the one
/// whose [`turned_chamfer`] is least, then the least of those at least 60° from every turn
/// already taken, up to [`REFINED`].
///
/// Only the turns that can be taken are summed whole: a turn is dropped as soon as its sum
/// so far exceeds the chamfer of the last turn taken among those summed whole (a bad turn
/// shows within a few dozen points). Turns are tried in order of a sum over the first
/// [`GUESS`] points, so the good ones come first; dropped turns that could still be taken
/// once all are known are summed whole, so the turns are those of summing every turn.
fn basin_starts(a: &[Vec3], to_a: &Closest, b: &[Vec3], to_b: &Closest) -> Vec<Mat3> {
    let turns = candidate_turns();
    let guess = &a[..a.len().min(GUESS)];
    let mut order: Vec<(f32, usize)> = (turns.iter().enumerate())
        .map(|(i, turn)| {
            let near: f32 = (guess.iter().map(|p| *turn * *p))
                .map(|p| b[to_b.nearest(p)].distance_squared(p))
                .sum();
            (near, i)
        })
        .collect();
    order.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Each turn summed whole (its chamfer and place among the turns), and the lower bounds
    // of those dropped.
    let mut summed: Vec<(f32, usize)> = Vec::with_capacity(turns.len());
    let mut dropped: Vec<(f32, usize)> = Vec::new();
    for (_, i) in order {
        let bound = last_start(&turns, &summed).map_or(f32::INFINITY, |s| s.0);
        match bounded_chamfer(a, to_a, b, to_b, turns[i], bound) {
            Ok(chamfer) => summed.push((chamfer, i)),
            Err(lower) => dropped.push((lower, i)),
        }
    }
    loop {
        let bound = last_start(&turns, &summed).map_or(f32::INFINITY, |s| s.0);
        let (redo, keep): (Vec<_>, Vec<_>) = dropped.into_iter().partition(|d| d.0 <= bound);
        if redo.is_empty() {
            break;
        }
        for (_, i) in redo {
            summed.push((turned_chamfer(a, to_a, b, to_b, turns[i]), i));
        }
        dropped = keep;
    }
    taken(&turns, &summed)
        .into_iter()
        .map(|(_, i)| turns[i])
        .collect()
}

/// Every axis turn yawed about the template's up in [`YAWS`] steps below a quarter turn: a
/// yaw by a quarter turn is itself an axis turn, so these reach every turn the full circle
/// would, once.
fn candidate_turns() -> Vec<Mat3> {
    (axis_turns().into_iter())
        .flat_map(|turn| {
            (0..YAWS / 4).map(move |k| {
                let yaw = Quat::from_rotation_y(k as f32 * std::f32::consts::TAU / YAWS as f32);
                Mat3::from_quat(turn * yaw)
            })
        })
        .collect()
}

/// Turns summed by a cheap sum over this many points first, to order the search.
const GUESS: usize = 48;

/// The turns `summed` (chamfer, place in `turns`) would give the overlay search: the least
/// chamfer first (ties to the earlier turn), then the least of those at least 60° from every
/// turn taken, up to [`REFINED`].
fn taken(turns: &[Mat3], summed: &[(f32, usize)]) -> Vec<(f32, usize)> {
    let mut sorted = summed.to_vec();
    sorted.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut starts: Vec<(f32, usize)> = Vec::new();
    for (chamfer, i) in sorted {
        if starts.len() == REFINED {
            break;
        }
        let q = Quat::from_mat3(&turns[i]);
        if starts
            .iter()
            .all(|s| Quat::from_mat3(&turns[s.1]).angle_between(q) > 60f32.to_radians())
        {
            starts.push((chamfer, i));
        }
    }
    starts
}

/// The last of the [`REFINED`] turns `summed` would give, once there are that many.
fn last_start(turns: &[Mat3], summed: &[(f32, usize)]) -> Option<(f32, usize)> {
    let starts = taken(turns, summed);
    (starts.len() == REFINED).then(|| starts[REFINED - 1])
}

fn centre_and_spread(points: &[Vec3]) -> Option<(Vec3, f32)> {
    let n = points.len() as f32;
    let c = points.iter().sum::<Vec3>() / n;
    let s = (points.iter().map(|p| p.distance_squared(c)).sum::<f32>() / n).sqrt();
    (s > 0.0 && s.is_finite()).then_some((c, s))
}

/// `n` points spread over `mesh`'s surface by area, with a fixed seed (the same body gives
/// the same points).
pub fn surface_points(mesh: &Mesh, n: usize) -> Option<Vec<Vec3>> {
    let mut cumulative = Vec::with_capacity(mesh.triangles.len());
    let mut total = 0.0f64;
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|i| {
            mesh.positions
                .get(i as usize)
                .copied()
                .unwrap_or(Vec3::ZERO)
        });
        let area = f64::from((b - a).cross(c - a).length() * 0.5);
        total += if area.is_finite() { area } else { 0.0 };
        cumulative.push(total);
    }
    if !(total > 0.0 && total.is_finite()) {
        return None;
    }
    let mut rng = Rng::new(7);
    let points = (0..n)
        .map(|_| {
            let target = f64::from(rng.unit()) * total;
            let t = cumulative
                .partition_point(|&c| c <= target)
                .min(mesh.triangles.len() - 1);
            let [a, b, c] = mesh.triangles[t].map(|i| mesh.positions[i as usize]);
            let (mut u, mut v) = (rng.unit(), rng.unit());
            if u + v > 1.0 {
                (u, v) = (1.0 - u, 1.0 - v);
            }
            a + (b - a) * u + (c - a) * v
        })
        .collect();
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::probe_creature;

    #[test]
    fn axis_turns_are_24_distinct_rotations() {
        let turns = axis_turns();
        assert_eq!(turns.len(), 24);
        for (i, a) in turns.iter().enumerate() {
            assert!((a.length() - 1.0).abs() < 1e-5);
            for b in &turns[i + 1..] {
                assert!(a.dot(*b).abs() < 0.99, "{a} and {b}");
            }
        }
    }

    /// Points on a body one unit tall standing along +Y: a trunk, and two legs from hips at
    /// half height, each turned forward (+Z) by its angle about the hip, ending in a foot that
    /// reaches `toe` forward of the ankle (heels 0.03 behind).
    fn legs_and_feet(swing: [f32; 2], toe: f32) -> Vec<Vec3> {
        let mut points = Vec::new();
        for i in 0..40 {
            for k in 0..12 {
                let a = k as f32 / 12.0 * std::f32::consts::TAU;
                let y = 0.5 + 0.5 * i as f32 / 39.0;
                points.push(Vec3::new(0.15 * a.cos(), y, 0.1 * a.sin()));
            }
        }
        for (side, angle) in [-0.1f32, 0.1].into_iter().zip(swing) {
            let hip = Vec3::new(side, 0.5, 0.0);
            let down = Quat::from_rotation_x(-angle.to_radians()) * Vec3::NEG_Y;
            let ankle = hip + down * 0.46;
            for i in 0..30 {
                for k in 0..10 {
                    let a = k as f32 / 10.0 * std::f32::consts::TAU;
                    let along = hip + down * (0.46 * i as f32 / 29.0);
                    points.push(along + Vec3::new(0.04 * a.cos(), 0.0, 0.04 * a.sin()));
                }
            }
            for i in 0..12 {
                for k in 0..5 {
                    let z = -0.03 + (toe + 0.03) * i as f32 / 11.0;
                    let x = side - 0.04 + 0.08 * k as f32 / 4.0;
                    points.push(Vec3::new(x, ankle.y - 0.04, ankle.z + z));
                    points.push(Vec3::new(x, ankle.y, ankle.z + z));
                }
            }
        }
        points
    }

    #[test]
    fn the_toes_say_where_forward_is_with_a_leg_swung() {
        let forward = |points: &[Vec3], up: Vec3| toe_direction(points, up).map(|d| d.z);
        // Standing, and walking: the back leg on the ground, the front one lifted off it (the
        // mean of both legs lies ahead of the standing foot's toes).
        for swing in [[0.0, 0.0], [-10.0, 35.0], [35.0, -10.0]] {
            let body = legs_and_feet(swing, 0.12);
            let z = forward(&body, Vec3::Y);
            assert!(z.is_some_and(|z| z > 0.9), "legs swung {swing:?}: {z:?}");
            // Turned about up, the answer turns with the body.
            let turn = Quat::from_rotation_y(2.0);
            let turned: Vec<Vec3> = body.iter().map(|p| turn * *p).collect();
            let d = toe_direction(&turned, Vec3::Y).unwrap_or(Vec3::ZERO);
            assert!(
                d.dot(turn * Vec3::Z) > 0.9,
                "turned, legs swung {swing:?}: {d}"
            );
        }
        // Feet as wide forward as back say nothing.
        assert_eq!(forward(&legs_and_feet([0.0, 0.0], 0.03), Vec3::Y), None);
    }

    #[test]
    fn a_turned_stretched_moved_copy_is_overlaid_back() {
        let reference = probe_creature();
        let turn = Mat3::from_quat(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
            * Mat3::from_quat(Quat::from_rotation_y(0.4));
        let stretch = Vec3::new(1.3, 0.8, 1.0) * 5.0;
        let place = |p: Vec3| turn * (stretch * p) + Vec3::new(40.0, -7.0, 3.0);
        let mut target = reference.clone();
        for p in &mut target.positions {
            *p = place(*p);
        }
        let points = |m: &Mesh| surface_points(m, POINTS).unwrap();
        let (found, distance) = overlays(&points(&reference), &points(&target))[0];
        // Two samplings of one surface lie about this far apart on their own.
        assert!(distance < 0.08, "surfaces stay {distance} apart");
        let size = target.bounds().longest_side();
        for &p in reference.positions.iter().step_by(7) {
            let d = found.apply(p).distance(place(p));
            assert!(d < 0.03 * size, "{p} lands {d} from its place");
        }
    }

    #[test]
    fn the_turns_dropped_early_are_never_the_turns_summing_all_would_take() {
        let points = |m: &Mesh| surface_points(m, POINTS).unwrap();
        let creature = probe_creature();
        let mut bent = creature.clone();
        for p in &mut bent.positions {
            *p = Quat::from_rotation_x(0.7) * (*p * Vec3::new(1.0, 1.6, 0.7));
        }
        for (a, b) in [
            (&creature, &bent),
            (&bent, &creature),
            (&creature, &creature),
        ] {
            let (a, b) = (points(a), points(b));
            let (to_a, to_b) = (Closest::new(&a), Closest::new(&b));
            let turns = candidate_turns();
            let all: Vec<(f32, usize)> = (turns.iter().enumerate())
                .map(|(i, t)| (turned_chamfer(&a, &to_a, &b, &to_b, *t), i))
                .collect();
            let expected: Vec<Mat3> = (taken(&turns, &all).into_iter())
                .map(|(_, i)| turns[i])
                .collect();
            assert_eq!(expected.len(), REFINED);
            assert_eq!(basin_starts(&a, &to_a, &b, &to_b), expected);
        }
    }
}

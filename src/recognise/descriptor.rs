//! A mesh summarised by numbers that do not change when it is moved, scaled or turned: what
//! the body-plan classifier reads. Shape distributions (Osada et al., 2002) of area-weighted
//! surface samples, the spread along the principal axes, and the tips and branches of the
//! free-form skeleton — the last say how many limbs there are and how long they are.

use glam::{Mat3, Vec3};

use crate::mesh::Mesh;
use crate::rig::Skeleton;
use crate::skeleton::{AutoOptions, auto_skeleton, surface_points};

/// Surface samples the distributions are taken over.
const SAMPLES: usize = 1024;
/// Point pairs of the distance distribution.
const PAIRS: usize = 4096;
const RADIAL_BINS: usize = 16;
const PAIR_BINS: usize = 16;
const AXIS_BINS: usize = 6;
/// Limb chains described one by one, longest first.
const CHAINS: usize = 6;

/// Length of [`describe`]'s output.
pub const FEATURES: usize = 2 + RADIAL_BINS + PAIR_BINS + 3 * (AXIS_BINS + 2) + 3 + CHAINS * 4;

/// Why a mesh cannot be described.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DescribeError {
    #[error("the mesh has no surface area to recognise a body from")]
    NoSurface,
    #[error("the mesh is a single point: it has no extent to recognise a body from")]
    NoExtent,
}

/// The mesh's [`FEATURES`] numbers, each in roughly `0..=1`.
///
/// # Errors
/// [`DescribeError`] for a mesh without area or extent.
pub fn describe(mesh: &Mesh) -> Result<Vec<f32>, DescribeError> {
    // Without a skeleton (a flat plane has no volume) the limb features stay zero.
    let skeleton = auto_skeleton(mesh, &AutoOptions::default()).ok();
    describe_with(mesh, skeleton.as_ref())
}

/// [`describe`] with the mesh's free-form skeleton already made (by [`auto_skeleton`] with
/// the default options; none where the mesh has no volume), as a rig that voxelised the
/// body once makes it.
///
/// # Errors
/// [`DescribeError`] for a mesh without area or extent.
pub fn describe_with(mesh: &Mesh, free_form: Option<&Skeleton>) -> Result<Vec<f32>, DescribeError> {
    let points = surface_points(mesh, SAMPLES).ok_or(DescribeError::NoSurface)?;
    describe_samples(&points, free_form)
}

/// [`describe`] from surface samples and the free-form skeleton.
///
/// # Errors
/// [`DescribeError::NoExtent`] when the samples are all in one place.
pub fn describe_samples(
    points: &[Vec3],
    skeleton: Option<&Skeleton>,
) -> Result<Vec<f32>, DescribeError> {
    let n = points.len().max(1) as f32;
    let centre = points.iter().copied().sum::<Vec3>() / n;
    let spread = (points
        .iter()
        .map(|p| p.distance_squared(centre))
        .sum::<f32>()
        / n)
        .sqrt();
    if !(spread > 1e-12 && spread.is_finite()) {
        return Err(DescribeError::NoExtent);
    }
    let local: Vec<Vec3> = points.iter().map(|p| (*p - centre) / spread).collect();
    let (axes, variances) = principal_axes(&local);
    let mut out = Vec::with_capacity(FEATURES);
    let major = variances[0].max(1e-12);
    out.extend([(variances[1] / major).sqrt(), (variances[2] / major).sqrt()]);
    out.extend(histogram(
        local.iter().map(|p| p.length()),
        2.5,
        RADIAL_BINS,
    ));
    out.extend(histogram(pair_distances(&local), 4.0, PAIR_BINS));
    for (axis, variance) in axes.iter().zip(variances) {
        let sigma = variance.max(1e-12).sqrt();
        let t: Vec<f32> = local.iter().map(|p| p.dot(*axis) / sigma).collect();
        out.extend(histogram(t.iter().map(|v| v.abs()), 3.0, AXIS_BINS));
        let moment = |k: i32| t.iter().map(|v| v.powi(k)).sum::<f32>() / n;
        // Skew's sign depends on which way the axis points: only its size says anything.
        out.push((moment(3).abs() / 2.0).min(1.0));
        out.push((moment(4) / 6.0).min(1.0));
    }
    out.extend(limb_features(skeleton, centre, spread, &axes, &variances));
    debug_assert_eq!(out.len(), FEATURES);
    Ok(out)
}

/// Fractions of `values` in `bins` equal bins over `0..top`; values past the top count in
/// the last bin.
fn histogram(values: impl Iterator<Item = f32>, top: f32, bins: usize) -> Vec<f32> {
    let mut counts = vec![0.0f32; bins];
    let mut total = 0.0;
    for v in values.filter(|v| v.is_finite()) {
        let bin = ((v / top * bins as f32) as usize).min(bins - 1);
        counts[bin] += 1.0;
        total += 1.0;
    }
    if total > 0.0 {
        counts.iter_mut().for_each(|c| *c /= total);
    }
    counts
}

/// Distances between a fixed, spread-out set of sample pairs.
fn pair_distances(points: &[Vec3]) -> impl Iterator<Item = f32> + '_ {
    let n = points.len();
    (0..PAIRS).map(move |k| {
        // A multiplicative walk over the indices: every point is paired, never with itself.
        let i = k % n;
        let j = (k.wrapping_mul(7919) + 1 + k / n) % n;
        points[i].distance(points[if j == i { (j + 1) % n } else { j }])
    })
}

/// Principal axes of points centred on their mean, with their variances, largest first.
fn principal_axes(points: &[Vec3]) -> ([Vec3; 3], [f32; 3]) {
    let n = points.len().max(1) as f32;
    let mut c = [[0.0f32; 3]; 3];
    for p in points {
        let a = p.to_array();
        for (r, row) in c.iter_mut().enumerate() {
            for (k, value) in row.iter_mut().enumerate() {
                *value += a[r] * a[k] / n;
            }
        }
    }
    let (vectors, values) = symmetric_eigen(c);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    (
        order.map(|i| vectors.col(i).normalize_or(Vec3::X)),
        order.map(|i| values[i].max(0.0)),
    )
}

/// Eigenvectors (columns) and eigenvalues of a symmetric 3×3 matrix, by Jacobi rotations.
fn symmetric_eigen(mut a: [[f32; 3]; 3]) -> (Mat3, [f32; 3]) {
    let mut v = Mat3::IDENTITY;
    for _ in 0..32 {
        let (mut p, mut q, mut largest) = (0, 1, 0.0f32);
        for (r, k) in [(0, 1), (0, 2), (1, 2)] {
            if a[r][k].abs() > largest {
                (p, q, largest) = (r, k, a[r][k].abs());
            }
        }
        let scale = a[0][0].abs() + a[1][1].abs() + a[2][2].abs();
        if largest <= 1e-9 * scale.max(1e-30) {
            break;
        }
        let theta = 0.5 * (2.0 * a[p][q]).atan2(a[q][q] - a[p][p]);
        let (s, c) = theta.sin_cos();
        let mut rotation = Mat3::IDENTITY;
        let r = rotation.as_mut();
        r[p * 3 + p] = c;
        r[q * 3 + q] = c;
        r[q * 3 + p] = s;
        r[p * 3 + q] = -s;
        // a ← Rᵀ a R, v ← v R.
        let m = Mat3::from_cols_array_2d(&a);
        let turned = rotation.transpose() * m * rotation;
        a = turned.to_cols_array_2d();
        v *= rotation;
    }
    (v, [a[0][0], a[1][1], a[2][2]])
}

/// The free-form skeleton's tip and branch counts, and for its longest limb chains (tip back
/// to the branch it hangs from) their length and where their tips lie along the principal
/// axes, in units of the surface's spread.
fn limb_features(
    skeleton: Option<&Skeleton>,
    centre: Vec3,
    spread: f32,
    axes: &[Vec3; 3],
    variances: &[f32; 3],
) -> Vec<f32> {
    let mut out = vec![0.0; 3 + CHAINS * 4];
    let Some(skeleton) = skeleton.filter(|s| !s.joints.is_empty()) else {
        return out;
    };
    let count = skeleton.joints.len();
    let mut degree = vec![0usize; count];
    for bone in skeleton.bones() {
        degree[bone.parent.index()] += 1;
        degree[bone.child.index()] += 1;
    }
    let tips: Vec<usize> = (0..count)
        .filter(|&i| degree[i] <= 1 && skeleton.joints[i].parent.is_some())
        .collect();
    let branches = degree.iter().filter(|&&d| d >= 3).count();
    out[0] = (tips.len() as f32 / 12.0).min(1.0);
    out[1] = (branches as f32 / 8.0).min(1.0);
    out[2] = (count as f32 / 48.0).min(1.0);
    let mut chains: Vec<(f32, Vec3)> = tips
        .iter()
        .map(|&tip| {
            let mut length = 0.0;
            let mut at = tip;
            while let Some(parent) = skeleton.joints[at].parent {
                let p = parent.index();
                length += skeleton.joints[at]
                    .position()
                    .distance(skeleton.joints[p].position());
                at = p;
                if degree[p] >= 3 {
                    break;
                }
            }
            (length / spread, skeleton.joints[tip].position())
        })
        .collect();
    chains.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (k, (length, tip)) in chains.iter().take(CHAINS).enumerate() {
        let local = (*tip - centre) / spread;
        let slot = &mut out[3 + k * 4..3 + k * 4 + 4];
        slot[0] = (length / 3.0).min(1.0);
        for (a, (axis, variance)) in axes.iter().zip(variances).enumerate() {
            slot[1 + a] = (local.dot(*axis).abs() / variance.max(1e-12).sqrt() / 3.0).min(1.0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn stretched_box() -> Mesh {
        let mut mesh = crate::mesh::boxes(&[(Vec3::ZERO, Vec3::new(4.0, 1.0, 0.5))], 1);
        mesh.positions.iter_mut().for_each(|p| *p += Vec3::ONE);
        mesh
    }

    #[test]
    fn eigen_axes_of_a_turned_box_follow_it() {
        let turn = Quat::from_euler(glam::EulerRot::XYZ, 0.4, 1.1, -0.7);
        let points: Vec<Vec3> = surface_points(&stretched_box(), 512)
            .unwrap()
            .iter()
            .map(|p| turn * *p)
            .collect();
        let n = points.len() as f32;
        let centre = points.iter().copied().sum::<Vec3>() / n;
        let local: Vec<Vec3> = points.iter().map(|p| *p - centre).collect();
        let (axes, variances) = principal_axes(&local);
        assert!(variances[0] > variances[1] && variances[1] > variances[2]);
        assert!((axes[0].dot(turn * Vec3::X)).abs() > 0.99, "{axes:?}");
        assert!((axes[2].dot(turn * Vec3::Z)).abs() > 0.95, "{axes:?}");
    }

    #[test]
    fn features_do_not_change_with_placement() {
        let mesh = stretched_box();
        let plain = describe_samples(&surface_points(&mesh, SAMPLES).unwrap(), None).unwrap();
        let turn = Quat::from_rotation_y(1.0) * Quat::from_rotation_x(-2.0);
        let mut moved = mesh.clone();
        moved
            .positions
            .iter_mut()
            .for_each(|p| *p = turn * (*p * 17.0) + Vec3::new(300.0, -40.0, 9.0));
        let placed = describe_samples(&surface_points(&moved, SAMPLES).unwrap(), None).unwrap();
        assert_eq!(plain.len(), FEATURES);
        let worst = plain
            .iter()
            .zip(&placed)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 0.02, "features moved by {worst}");
    }

    #[test]
    fn degenerate_meshes_are_named() {
        let mut point = stretched_box();
        point.positions.iter_mut().for_each(|p| *p = Vec3::ONE);
        assert_eq!(describe(&point), Err(DescribeError::NoSurface));
        assert_eq!(
            describe_samples(&[Vec3::ONE; 8], None),
            Err(DescribeError::NoExtent)
        );
    }
}

//! Fitting correctives to one character: each joint turned alone through random rotations,
//! the offsets (before skinning) that take linear blending to the reference measured on the
//! vertices the turn deforms, their principal modes as shapes, and each shape's weight over
//! the sampled rotations interpolated by Gaussian radial basis functions.

use glam::{Mat3, Quat, Vec3};

use super::reach::Reach;
use super::{Corrective, CorrectiveError, CorrectiveOptions, Correctives, PoseDriver};
use crate::anim::{DualQuaternionSkinning, blended_matrix, skinning_matrices};
use crate::linalg::{solve_positive_definite, symmetric_eigen};
use crate::random::Rng;
use crate::rig::{
    HumanoidRole, JointId, Skeleton, SkinWeights, Transform, humanoid_roles, pose_world,
    rest_locals, top_influences,
};

/// A mode weaker than this fraction of the strongest one is not worth a target.
const WEAKEST: f64 = 1e-4;
/// The radial basis functions' width, in radians of turn.
const WIDTH: f32 = 0.5;
/// Ridge added to the kernel matrix: smooths the interpolation where samples crowd.
const SMOOTHING: f64 = 1e-3;
/// Power iterations finding a joint's strongest modes.
const ITERATIONS: usize = 12;

/// One joint's candidate shape before the targets are chosen.
struct Mode {
    joint: usize,
    /// Squared offsets summed over the samples: what keeping the mode removes.
    energy: f64,
    vertices: Vec<u32>,
    /// One offset per entry of `vertices`.
    offsets: Vec<Vec3>,
    driver: PoseDriver,
}

/// The rigged character correctives are fitted to, with what every joint's fit reads of it
/// worked out once.
struct Subject<'a> {
    positions: &'a [Vec3],
    skeleton: &'a Skeleton,
    skin: &'a SkinWeights,
    /// Each joint's local transform at rest.
    rest: Vec<Transform>,
    /// The joints that play a humanoid role, by name.
    roles: Vec<(HumanoidRole, JointId)>,
}

/// Correctives taking `skin`ned `rest` positions on `skeleton` toward dual-quaternion
/// skinning: at most `options.targets` shapes, the strongest over all joints.
///
/// # Errors
/// [`CorrectiveError::SkinMismatch`] when `skin` does not weight every vertex of `rest`.
pub fn fit(
    rest: &[Vec3],
    skeleton: &Skeleton,
    skin: &SkinWeights,
    options: &CorrectiveOptions,
) -> Result<Correctives, CorrectiveError> {
    if skin.vertex_count() != rest.len() {
        return Err(CorrectiveError::SkinMismatch {
            weighted: skin.vertex_count(),
            vertices: rest.len(),
        });
    }
    let played = played_skin(skin, options.influences);
    let subject = Subject {
        positions: rest,
        skeleton,
        skin: played.as_ref().unwrap_or(skin),
        rest: rest_locals(skeleton),
        roles: humanoid_roles(skeleton),
    };
    let joints: Vec<usize> = (0..skeleton.joints.len()).collect();
    let mut modes: Vec<Mode> =
        crate::parallel::map(&joints, |&j| joint_modes(&subject, j, options))
            .into_iter()
            .flatten()
            .collect();
    // The shapes that remove the most error over each joint's reach, whichever joints they
    // belong to.
    let strongest = modes.iter().map(|m| m.energy).fold(0.0, f64::max);
    modes.retain(|m| m.energy > strongest * WEAKEST && m.energy > 0.0);
    modes.sort_by(|a, b| b.energy.total_cmp(&a.energy));
    let shapes = modes
        .into_iter()
        .take(options.targets)
        .map(|m| {
            let mut offsets = vec![Vec3::ZERO; rest.len()];
            for (&v, &o) in m.vertices.iter().zip(&m.offsets) {
                offsets[v as usize] = o;
            }
            Corrective {
                joint: JointId(m.joint as u32),
                offsets,
                driver: m.driver,
            }
        })
        .collect();
    Ok(Correctives {
        rest: subject.rest,
        shapes,
    })
}

/// `skin` as a file with `influences` per vertex plays it (each vertex's strongest,
/// renormalised); `None` where no vertex has more.
fn played_skin(skin: &SkinWeights, influences: usize) -> Option<SkinWeights> {
    let n = skin.vertex_count();
    if (0..n).all(|v| skin.influences(v).len() <= influences) {
        return None;
    }
    let mut played = SkinWeights::new();
    for v in 0..n {
        played.push_vertex(top_influences(skin.influences(v), influences));
    }
    Some(played)
}

/// Vertices weighted both inside and outside `joint`'s subtree: the only ones its turn
/// deforms rather than carries.
fn deformed_by(skeleton: &Skeleton, skin: &SkinWeights, joint: usize) -> Vec<u32> {
    (0..skin.vertex_count())
        .filter(|&v| {
            let below = |i: &crate::rig::Influence| skeleton.is_at_or_below(i.joint.index(), joint);
            let row = skin.influences(v);
            let weighted = row.iter().filter(|i| i.weight > 0.0);
            weighted.clone().any(below) && weighted.clone().any(|i| !below(i))
        })
        .map(|v| v as u32)
        .collect()
}

/// `joint` turned alone through `options.samples` random rotations within its reach: the
/// strongest modes of the offsets its deformed vertices need, each with the driver that
/// gives its weight at any turn.
fn joint_modes(subject: &Subject<'_>, joint: usize, options: &CorrectiveOptions) -> Vec<Mode> {
    let Subject {
        skeleton,
        skin,
        rest: rest_pose,
        ..
    } = subject;
    let vertices = deformed_by(skeleton, skin, joint);
    if vertices.is_empty() || skeleton.joints[joint].parent.is_none() {
        return Vec::new();
    }
    let role = (subject.roles.iter())
        .find(|(_, j)| j.index() == joint)
        .map(|&(role, _)| role);
    let mut rng = Rng::new(options.seed ^ (joint as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let n = vertices.len() * 3;
    // The rest itself is a sample (nothing to correct there), then random turns within the
    // joint's reach.
    let Some(reach) = Reach::of(skeleton, rest_pose, joint, role, options) else {
        return Vec::new();
    };
    let turns: Vec<Quat> = std::iter::once(Quat::IDENTITY)
        .chain((1..options.samples.max(2)).map(|_| reach.sample(&mut rng)))
        .collect();
    let d: Vec<Vec<f64>> = turns
        .iter()
        .map(|&turn| {
            let mut locals = rest_pose.clone();
            locals[joint] = Transform {
                rotation: rest_pose[joint].rotation * turn,
                ..rest_pose[joint]
            };
            (needed_offsets(subject, &locals, &vertices).iter())
                .flat_map(|o| o.to_array().map(f64::from))
                .collect()
        })
        .collect();
    let modes = strongest_modes(&d, n, options.per_joint);
    let interpolation = KernelInterpolation::new(&turns);
    modes
        .into_iter()
        .map(|(energy, mut shape)| {
            let mut weights: Vec<f64> = d
                .iter()
                .map(|row| row.iter().zip(&shape).map(|(a, b)| a * b).sum())
                .collect();
            // Scale the shape so that its weight over the samples peaks at 1.
            let peak = weights
                .iter()
                .fold(0.0f64, |m, w| m.max(w.abs()))
                .max(1e-12);
            shape.iter_mut().for_each(|x| *x *= peak);
            weights.iter_mut().for_each(|w| *w /= peak);
            Mode {
                joint,
                energy,
                vertices: vertices.clone(),
                offsets: shape
                    .chunks_exact(3)
                    .map(|c| Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32))
                    .collect(),
                driver: interpolation.driver(&weights),
            }
        })
        .collect()
}

/// The offsets, before skinning, that move each of `vertices` from where linear blending
/// puts it in the pose `locals` to where dual-quaternion skinning does: the blended matrix's
/// linear part inverted onto the difference (zero where it cannot be inverted).
fn needed_offsets(subject: &Subject<'_>, locals: &[Transform], vertices: &[u32]) -> Vec<Vec3> {
    let Subject {
        positions: rest,
        skeleton,
        skin,
        ..
    } = subject;
    let skinning = skinning_matrices(skeleton, &pose_world(skeleton, locals));
    let reference = DualQuaternionSkinning::new(&skinning);
    vertices
        .iter()
        .map(|&v| {
            let (v, p) = (v as usize, rest[v as usize]);
            let (Some(blend), Some(target)) = (
                blended_matrix(skin, v, &skinning),
                reference.position(skin, v, p),
            ) else {
                return Vec3::ZERO;
            };
            let linear = Mat3::from_mat4(blend);
            if linear.determinant().abs() < 1e-9 {
                return Vec3::ZERO;
            }
            linear.inverse() * (target - blend.transform_point3(p))
        })
        .collect()
}

/// The `count` strongest principal directions of the rows `d` (each `n` long), unit length,
/// with the squared length of `d` along each, strongest first (subspace iteration).
fn strongest_modes(d: &[Vec<f64>], n: usize, count: usize) -> Vec<(f64, Vec<f64>)> {
    let m = (count + 2).min(n).min(d.len());
    if m == 0 {
        return Vec::new();
    }
    let mut rng = Rng::new(0x5EED);
    let mut basis: Vec<Vec<f64>> = (0..m)
        .map(|_| (0..n).map(|_| f64::from(rng.range(-1.0, 1.0))).collect())
        .collect();
    orthonormalise(&mut basis);
    for _ in 0..ITERATIONS {
        // basis ← dᵀ d basis
        basis = basis
            .iter()
            .map(|b| {
                let mut out = vec![0.0; n];
                for row in d {
                    let along: f64 = row.iter().zip(b).map(|(x, y)| x * y).sum();
                    out.iter_mut().zip(row).for_each(|(o, x)| *o += along * x);
                }
                out
            })
            .collect();
        orthonormalise(&mut basis);
    }
    // Rotate the subspace onto the principal directions (the small m × m problem).
    let projected: Vec<Vec<f64>> = (d.iter())
        .map(|row| {
            basis
                .iter()
                .map(|b| row.iter().zip(b).map(|(x, y)| x * y).sum())
                .collect()
        })
        .collect();
    let mut gram = vec![0.0; m * m];
    for p in &projected {
        for a in 0..m {
            for b in 0..m {
                gram[a * m + b] += p[a] * p[b];
            }
        }
    }
    let (values, vectors) = symmetric_eigen(&gram, m);
    values
        .into_iter()
        .zip(vectors)
        .take(count)
        .filter(|(value, _)| *value > 0.0)
        .map(|(value, v)| {
            let shape = (0..n)
                .map(|c| basis.iter().zip(&v).map(|(b, w)| b[c] * w).sum())
                .collect();
            (value, shape)
        })
        .collect()
}

/// Gram–Schmidt; a vector that vanishes against the others is left zero.
fn orthonormalise(basis: &mut [Vec<f64>]) {
    for i in 0..basis.len() {
        for j in 0..i {
            let along: f64 = basis[i].iter().zip(&basis[j]).map(|(x, y)| x * y).sum();
            let earlier = basis[j].clone();
            basis[i]
                .iter_mut()
                .zip(&earlier)
                .for_each(|(x, y)| *x -= along * y);
        }
        let norm = basis[i].iter().map(|x| x * x).sum::<f64>().sqrt();
        let scale = if norm > 1e-300 { 1.0 / norm } else { 0.0 };
        basis[i].iter_mut().for_each(|x| *x *= scale);
    }
}

/// Radial basis interpolation over a joint's sampled turns: the kernel matrix factored once,
/// solved for each shape's weights.
struct KernelInterpolation<'a> {
    turns: &'a [Quat],
    kernel: Vec<f64>,
}

impl<'a> KernelInterpolation<'a> {
    fn new(turns: &'a [Quat]) -> Self {
        let p = turns.len();
        let mut kernel = vec![0.0; p * p];
        for (s, a) in turns.iter().enumerate() {
            for (t, b) in turns.iter().enumerate() {
                kernel[s * p + t] = f64::from(super::kernel(*a, *b, WIDTH));
            }
            kernel[s * p + s] += SMOOTHING;
        }
        Self { turns, kernel }
    }

    /// The driver that gives `weights` (one per sampled turn) at the sampled turns.
    fn driver(&self, weights: &[f64]) -> PoseDriver {
        let p = self.turns.len();
        let coefficients =
            solve_positive_definite(&self.kernel, p, weights, 1).unwrap_or_else(|| vec![0.0; p]);
        PoseDriver {
            turns: self.turns.to_vec(),
            coefficients: coefficients.into_iter().map(|c| c as f32).collect(),
            width: WIDTH,
        }
    }
}

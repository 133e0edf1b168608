//! What a network trains on: points sampled evenly over a character's surface, each with its
//! normal and its skin weights, plus the skeleton's joints and parents.

use glam::Vec3;

use crate::Character;
use crate::random::Rng;
use crate::rig::Influence;
use crate::rig::top_influences;

/// Influences kept per point.
pub const POINT_INFLUENCES: usize = 4;

/// One training sample in flat arrays, ready for tensors.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSample {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    /// Per point, the joint indices and weights of its strongest influences (unused slots have
    /// weight 0 and joint 0); the weights of a point sum to 1.
    pub joints: Vec<[u32; POINT_INFLUENCES]>,
    pub weights: Vec<[f32; POINT_INFLUENCES]>,
    /// Joint positions and parent indices (`-1` for roots), parents first.
    pub joint_positions: Vec<Vec3>,
    pub parents: Vec<i32>,
}

/// Why a character cannot become a sample.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    #[error("'{0}' has no skeleton and skin weights to learn from")]
    NotRigged(String),
    #[error("'{0}' has no surface area to sample")]
    NoArea(String),
}

/// `n` points uniformly distributed by area over `character`'s triangles, with weights
/// interpolated barycentrically from the triangle's corners.
pub fn sample_points(
    character: &Character,
    n: usize,
    rng: &mut Rng,
) -> Result<PointSample, SampleError> {
    let (Some(skeleton), Some(skin)) = (&character.skeleton, &character.skin) else {
        return Err(SampleError::NotRigged(character.name.clone()));
    };
    let mesh = &character.mesh;
    let mut cumulative = Vec::with_capacity(mesh.triangles.len());
    let mut total = 0.0f64;
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|i| mesh.positions[i as usize]);
        total += f64::from((b - a).cross(c - a).length() * 0.5);
        cumulative.push(total);
    }
    if !(total > 0.0 && total.is_finite()) {
        return Err(SampleError::NoArea(character.name.clone()));
    }
    let mut sample = PointSample {
        positions: Vec::with_capacity(n),
        normals: Vec::with_capacity(n),
        joints: Vec::with_capacity(n),
        weights: Vec::with_capacity(n),
        joint_positions: skeleton.joints.iter().map(|j| j.position()).collect(),
        parents: skeleton
            .joints
            .iter()
            .map(|j| j.parent.map_or(-1, |p| p.0 as i32))
            .collect(),
    };
    let mut blend = Vec::with_capacity(3 * POINT_INFLUENCES * 2);
    for _ in 0..n {
        let target = f64::from(rng.unit()) * total;
        let t = cumulative
            .partition_point(|&c| c <= target)
            .min(mesh.triangles.len() - 1);
        let corners = mesh.triangles[t];
        let (mut u, mut v) = (rng.unit(), rng.unit());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let bary = [1.0 - u - v, u, v];
        let [a, b, c] = corners.map(|i| mesh.positions[i as usize]);
        sample
            .positions
            .push(a * bary[0] + b * bary[1] + c * bary[2]);
        let normal = corners
            .iter()
            .zip(bary)
            .map(|(&i, w)| mesh.normals.get(i as usize).copied().unwrap_or(Vec3::ZERO) * w)
            .sum::<Vec3>();
        sample
            .normals
            .push(normal.try_normalize().unwrap_or(Vec3::Y));
        blend.clear();
        for (&i, w) in corners.iter().zip(bary) {
            blend.extend(skin.influences(i as usize).iter().map(|inf| Influence {
                joint: inf.joint,
                weight: inf.weight * w,
            }));
        }
        let top = top_influences(&blend, POINT_INFLUENCES);
        let mut joints = [0u32; POINT_INFLUENCES];
        let mut weights = [0f32; POINT_INFLUENCES];
        for (k, inf) in top.iter().enumerate() {
            joints[k] = inf.joint.0;
            weights[k] = inf.weight;
        }
        sample.joints.push(joints);
        sample.weights.push(weights);
    }
    Ok(sample)
}

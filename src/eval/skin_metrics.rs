//! Skinning metrics with the artist's skeleton (RigNet's conventions): per-vertex L1 between
//! weight vectors, precision and recall of the joints that matter (weight above 1e-2), and how
//! far vertices end up from where the artist's weights put them under random poses.

use glam::{Mat4, Quat};
use serde::Serialize;

use crate::anim::rest_locals;
use crate::mesh::Mesh;
use crate::random::Rng;
use crate::rig::top_influences;
use crate::rig::{Influence, Skeleton, SkinWeights};

/// A weight above this marks a joint as influencing the vertex.
const INFLUENTIAL: f32 = 1e-2;

/// Skinning quality against ground truth; lower L1 and deformation are better.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct SkinMetrics {
    /// Mean over vertices of Σ_joints |w − w_truth| (0 to 2).
    pub l1: f32,
    /// Mean over vertices of the share of predicted influential joints that are true ones.
    pub precision: f32,
    /// Mean over vertices of the share of true influential joints that are predicted.
    pub recall: f32,
    /// Mean vertex distance between the two skins under random poses, in units of the mesh's
    /// longest bounding-box side, ×10⁻² (as the skeleton chamfer distances are reported).
    pub deformation: f32,
}

/// Compares `predicted` with `truth` (both over `skeleton`'s joints) on `poses` random poses
/// drawn from `seed`: each joint turned by up to 30° about a random axis.
pub fn skin_metrics(
    mesh: &Mesh,
    skeleton: &Skeleton,
    predicted: &SkinWeights,
    truth: &SkinWeights,
    poses: usize,
    seed: u64,
) -> SkinMetrics {
    let n = mesh.vertex_count();
    if n == 0 {
        return SkinMetrics::default();
    }
    let all = |w: &SkinWeights, v: usize| top_influences(w.influences(v), usize::MAX);
    let (mut l1, mut precision, mut recall) = (0.0f64, 0.0f64, 0.0f64);
    let (mut with_prediction, mut with_truth) = (0usize, 0usize);
    for v in 0..n {
        let (p, t) = (all(predicted, v), all(truth, v));
        let weight =
            |set: &[Influence], j| set.iter().find(|i| i.joint == j).map_or(0.0, |i| i.weight);
        let joints = p.iter().chain(&t).map(|i| i.joint);
        let mut seen = Vec::new();
        let mut diff = 0.0f32;
        for j in joints {
            if !seen.contains(&j) {
                seen.push(j);
                diff += (weight(&p, j) - weight(&t, j)).abs();
            }
        }
        l1 += f64::from(diff);
        let strong = |set: &[Influence]| -> Vec<_> {
            set.iter()
                .filter(|i| i.weight > INFLUENTIAL)
                .map(|i| i.joint)
                .collect()
        };
        let (sp, st) = (strong(&p), strong(&t));
        let both = sp.iter().filter(|j| st.contains(j)).count() as f64;
        if !sp.is_empty() {
            precision += both / sp.len() as f64;
            with_prediction += 1;
        }
        if !st.is_empty() {
            recall += both / st.len() as f64;
            with_truth += 1;
        }
    }
    let longest = mesh.bounds().size().max_element().max(f32::MIN_POSITIVE);
    SkinMetrics {
        l1: (l1 / n as f64) as f32,
        precision: (precision / with_prediction.max(1) as f64) as f32,
        recall: (recall / with_truth.max(1) as f64) as f32,
        deformation: deformation_error(mesh, skeleton, predicted, truth, poses, seed) / longest
            * 100.0,
    }
}

/// Mean distance between the vertices as posed by each skin, over random poses.
fn deformation_error(
    mesh: &Mesh,
    skeleton: &Skeleton,
    predicted: &SkinWeights,
    truth: &SkinWeights,
    poses: usize,
    seed: u64,
) -> f32 {
    let mut rng = Rng::new(seed);
    let rest = rest_locals(skeleton);
    let inverse_binds: Vec<Mat4> = skeleton
        .joints
        .iter()
        .map(|j| j.world_bind.inverse())
        .collect();
    let mut total = 0.0f64;
    for _ in 0..poses {
        let turned: Vec<Mat4> = rest
            .iter()
            .map(|local| {
                let turn =
                    Quat::from_axis_angle(rng.direction(), rng.range(0.0, 30f32.to_radians()));
                Mat4::from_scale_rotation_translation(
                    local.scale,
                    local.rotation * turn,
                    local.translation,
                )
            })
            .collect();
        let world = skeleton.world_from_locals(&turned);
        let skinning: Vec<Mat4> = world
            .iter()
            .zip(&inverse_binds)
            .map(|(w, b)| *w * *b)
            .collect();
        let pose = |w: &SkinWeights, v: usize| {
            let p = mesh.positions[v];
            let influences = top_influences(w.influences(v), usize::MAX);
            if influences.is_empty() {
                return p;
            }
            influences
                .iter()
                .map(|i| skinning[i.joint.index()].transform_point3(p) * i.weight)
                .sum()
        };
        for v in 0..mesh.vertex_count() {
            total += f64::from(pose(predicted, v).distance(pose(truth, v)));
        }
    }
    (total / (poses.max(1) * mesh.vertex_count()) as f64) as f32
}

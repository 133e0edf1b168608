//! Skinning metrics with the artist's skeleton (RigNet's conventions): per-vertex L1 between
//! weight vectors, precision and recall of the joints that matter (weight above 1e-2), and how
//! far vertices end up from where the artist's weights put them under random poses.

use glam::{Mat4, Quat};
use serde::Serialize;

use crate::mesh::Mesh;
use crate::random::Rng;
use crate::rig::rest_locals;
use crate::rig::top_influences;
use crate::rig::{Influence, JointId, Skeleton, SkinWeights};

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
        l1 += f64::from(vertex_l1(&p, &t));
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
        deformation: deformation_error(mesh, skeleton, [predicted, truth], poses, seed) / longest
            * 100.0,
    }
}

/// Σ_joints |w − w_truth| of one vertex's influences `p` against the artist's `t` (each as
/// [`top_influences`] gives them).
fn vertex_l1(p: &[Influence], t: &[Influence]) -> f32 {
    let weight = |set: &[Influence], j| set.iter().find(|i| i.joint == j).map_or(0.0, |i| i.weight);
    let mut seen = Vec::new();
    let mut diff = 0.0f32;
    for j in p.iter().chain(t).map(|i| i.joint) {
        if !seen.contains(&j) {
            seen.push(j);
            diff += (weight(p, j) - weight(t, j)).abs();
        }
    }
    diff
}

/// Mean distance between the vertices as posed by each of the two skins, over random poses.
fn deformation_error(
    mesh: &Mesh,
    skeleton: &Skeleton,
    [predicted, truth]: [&SkinWeights; 2],
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

/// Where skinning error comes from: per vertex whose strongest joint differs from the artist's,
/// how the artist's joint relates to ours in the hierarchy. Shares of all vertices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TopJointConfusion {
    /// Same strongest joint.
    pub same: f32,
    /// The artist's joint is our joint's parent (we bind one bone too far down the chain).
    pub parent: f32,
    /// The artist's joint is a child of ours (we bind one bone too far up).
    pub child: f32,
    pub sibling: f32,
    /// Further up or down the same chain.
    pub ancestor: f32,
    pub descendant: f32,
    /// Unrelated joints (another limb, a piece bound elsewhere).
    pub other: f32,
    /// Mean L1 of the vertices that share the strongest joint, and of the others.
    pub l1_same: f32,
    pub l1_differs: f32,
    /// The most frequent disagreements: (our joint, the artist's joint, share of vertices).
    pub worst_pairs: Vec<(JointId, JointId, f32)>,
}

/// Counts [`TopJointConfusion`] of `predicted` against `truth`.
pub fn top_joint_confusion(
    skeleton: &Skeleton,
    predicted: &SkinWeights,
    truth: &SkinWeights,
    vertices: usize,
) -> TopJointConfusion {
    let all = |w: &SkinWeights, v: usize| top_influences(w.influences(v), usize::MAX);
    let parent = |j: JointId| skeleton.joint(j).and_then(|j| j.parent);
    let is_ancestor = |a: JointId, mut of: JointId| {
        while let Some(p) = parent(of) {
            if p == a {
                return true;
            }
            of = p;
        }
        false
    };
    let mut c = TopJointConfusion::default();
    let (mut same_n, mut l1_same, mut l1_differs) = (0usize, 0.0f64, 0.0f64);
    let mut pairs = std::collections::BTreeMap::new();
    for v in 0..vertices {
        let (p, t) = (all(predicted, v), all(truth, v));
        let l1 = vertex_l1(&p, &t);
        // Strongest first.
        let (Some(ours), Some(theirs)) = (p.first().map(|i| i.joint), t.first().map(|i| i.joint))
        else {
            continue;
        };
        let slot = if ours == theirs {
            same_n += 1;
            l1_same += f64::from(l1);
            &mut c.same
        } else {
            l1_differs += f64::from(l1);
            *pairs.entry((ours, theirs)).or_insert(0usize) += 1;
            if parent(ours) == Some(theirs) {
                &mut c.parent
            } else if parent(theirs) == Some(ours) {
                &mut c.child
            } else if parent(ours).is_some() && parent(ours) == parent(theirs) {
                &mut c.sibling
            } else if is_ancestor(theirs, ours) {
                &mut c.ancestor
            } else if is_ancestor(ours, theirs) {
                &mut c.descendant
            } else {
                &mut c.other
            }
        };
        *slot += 1.0;
    }
    let n = vertices.max(1) as f32;
    for share in [
        &mut c.same,
        &mut c.parent,
        &mut c.child,
        &mut c.sibling,
        &mut c.ancestor,
        &mut c.descendant,
        &mut c.other,
    ] {
        *share /= n;
    }
    let mut worst: Vec<_> = pairs.into_iter().collect();
    worst.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
    c.worst_pairs = worst
        .into_iter()
        .take(4)
        .map(|((a, b), count)| (a, b, count as f32 / n))
        .collect();
    c.l1_same = (l1_same / same_n.max(1) as f64) as f32;
    c.l1_differs = (l1_differs / (vertices - same_n).max(1) as f64) as f32;
    c
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Vec3};

    use super::*;
    use crate::rig::Joint;

    fn only(joint: u32) -> [Influence; 1] {
        [Influence {
            joint: JointId(joint),
            weight: 1.0,
        }]
    }

    #[test]
    fn confusion_names_how_the_artists_joint_relates_to_ours() {
        let joint = |name: &str, parent: Option<u32>| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::ZERO),
        };
        // hips → spine → head, and a leg off the hips.
        let skeleton = Skeleton {
            joints: vec![
                joint("hips", None),
                joint("spine", Some(0)),
                joint("head", Some(1)),
                joint("leg", Some(0)),
            ],
        };
        let (mut ours, mut theirs) = (SkinWeights::new(), SkinWeights::new());
        for (o, t) in [
            (1, 1),
            (1, 1),
            (1, 2),
            (1, 0),
            (2, 0),
            (3, 1),
            (3, 3),
            (2, 3),
        ] {
            ours.push_vertex(only(o));
            theirs.push_vertex(only(t));
        }
        let c = top_joint_confusion(&skeleton, &ours, &theirs, 8);
        let eighths = |x: f32| (x * 8.0).round() as u32;
        assert_eq!(
            [c.same, c.child, c.parent, c.ancestor, c.sibling, c.other].map(eighths),
            [3, 1, 1, 1, 1, 1]
        );
        assert_eq!((c.l1_same, c.l1_differs), (0.0, 2.0));
        assert_eq!(c.worst_pairs.len(), 4, "the four most frequent of five");
    }
}

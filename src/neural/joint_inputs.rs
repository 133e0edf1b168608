//! The joint head's inputs: for each joint of a proposed skeleton, the surface points around
//! it, measured from the joint in units of the neighbourhood's own size, so that a finger and
//! a torso look alike to the network and only the shape of the flesh around decides where the
//! joint belongs.

use glam::Vec3;

use super::NeuralError;
use super::shape::ShapeInput;
use crate::mesh::Mesh;
use crate::rig::Skeleton;

/// Surface points around each joint.
pub const NEIGHBOURS: usize = 24;
/// Values per neighbour: offset from the joint (in neighbourhood units), normal, distance.
pub const NEIGHBOUR_FEATURES: usize = 7;
/// Values per joint: unit-box position, depth in the hierarchy, child count.
pub const JOINT_FEATURES: usize = 5;

#[derive(Debug, Clone, PartialEq)]
pub struct JointInputs {
    pub shape: ShapeInput,
    pub joint_count: usize,
    /// Unit-box joint positions.
    pub joints: Vec<Vec3>,
    /// Per joint, the mean distance to its neighbours (unit box): the unit of its offsets.
    pub scales: Vec<f32>,
    /// `[joint_count * NEIGHBOURS * NEIGHBOUR_FEATURES]`.
    pub neighbours: Vec<f32>,
    /// `[joint_count * JOINT_FEATURES]`.
    pub features: Vec<f32>,
}

impl JointInputs {
    /// # Errors
    /// [`NeuralError`] for a mesh without surface or a skeleton without joints.
    pub fn new(mesh: &Mesh, skeleton: &Skeleton) -> Result<Self, NeuralError> {
        let shape = ShapeInput::of(mesh)?;
        if skeleton.joints.is_empty() {
            return Err(NeuralError::NoJoints);
        }
        let unit = shape.unit_box;
        let (depth, children) = (skeleton.depths(), skeleton.child_counts());
        let deepest = depth.iter().copied().max().unwrap_or(0).max(1) as f32;
        let joints: Vec<Vec3> = skeleton
            .joints
            .iter()
            .map(|j| unit.apply(j.position()))
            .collect();
        let mut out = Self {
            joint_count: joints.len(),
            scales: Vec::with_capacity(joints.len()),
            neighbours: Vec::with_capacity(joints.len() * NEIGHBOURS * NEIGHBOUR_FEATURES),
            features: Vec::with_capacity(joints.len() * JOINT_FEATURES),
            joints: joints.clone(),
            shape,
        };
        let mut order: Vec<(f32, usize)> = Vec::with_capacity(out.shape.positions.len());
        for (i, &q) in joints.iter().enumerate() {
            order.clear();
            order.extend(
                out.shape
                    .positions
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (p.distance_squared(q), k)),
            );
            let count = NEIGHBOURS.min(order.len());
            order.select_nth_unstable_by(count - 1, |a, b| a.0.total_cmp(&b.0));
            let near = &mut order[..count];
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            let scale =
                (near.iter().map(|(d2, _)| d2.sqrt()).sum::<f32>() / count as f32).max(1e-3);
            out.scales.push(scale);
            for &(_, k) in near.iter() {
                let r = (out.shape.positions[k] - q) / scale;
                let n = out.shape.normals[k];
                out.neighbours
                    .extend([r.x, r.y, r.z, n.x, n.y, n.z, r.length()]);
            }
            out.features.extend([
                q.x,
                q.y,
                q.z,
                depth[i] as f32 / deepest,
                (children[i] as f32).min(5.0) / 5.0,
            ]);
        }
        Ok(out)
    }
}

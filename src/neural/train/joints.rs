//! Training the skeleton head: the geometric rigger proposes a skeleton for each character,
//! and each proposed joint learns to move to the artist's nearest joint — when one is near;
//! a joint with no artist counterpart nearby learns to stay where it is.

use std::path::Path;

use burn::tensor::{Device, Tensor, TensorData};

use super::corpus::{CorpusPlan, examples};
use super::log::LogEntry;
use super::run::{TrainOptions, train};
use crate::Character;
use crate::compute::cpu_device;
use crate::eval::{skeleton_metrics, without_controls};
use crate::mesh::Aabb;
use crate::neural::{JointInputs, JointNet, JointTensors, MAX_JOINT_MOVE, moved_skeleton};
use crate::rig::Skeleton;
use crate::skeleton::{AutoOptions, auto_skeleton};

/// An artist joint farther than this (unit box) is no counterpart to learn from.
const COUNTERPART: f32 = 0.08;

pub struct JointExample {
    pub name: String,
    pub inputs: JointInputs,
    /// `[joints * 3]`, in units of each joint's neighbourhood.
    pub target: Vec<f32>,
    pub proposed: Skeleton,
    pub truth: Skeleton,
    pub bounds: Aabb,
    pub mesh: crate::mesh::Mesh,
}

/// The example of one rigged character; `None` when the geometric rigger fails on it.
pub fn joint_example(name: &str, character: &Character) -> Option<JointExample> {
    // Scored and learned against the joints a rigger predicts: IK poles and targets are not.
    let truth = without_controls(character.skeleton.as_ref()?);
    let proposed = auto_skeleton(&character.mesh, &AutoOptions::default()).ok()?;
    let inputs = JointInputs::new(&character.mesh, &proposed).ok()?;
    let unit = inputs.shape.unit_box;
    let artist: Vec<_> = truth
        .joints
        .iter()
        .map(|j| unit.apply(j.position()))
        .collect();
    let mut target = Vec::with_capacity(inputs.joint_count * 3);
    for (q, scale) in inputs.joints.iter().zip(&inputs.scales) {
        let nearest = artist
            .iter()
            .min_by(|a, b| a.distance_squared(*q).total_cmp(&b.distance_squared(*q)));
        let offset = match nearest {
            Some(a) if a.distance(*q) < COUNTERPART => {
                ((*a - *q) / scale).clamp_length_max(MAX_JOINT_MOVE)
            }
            _ => glam::Vec3::ZERO,
        };
        target.extend(offset.to_array());
    }
    Some(JointExample {
        name: name.to_owned(),
        inputs,
        target,
        proposed,
        truth,
        bounds: character.mesh.bounds(),
        mesh: character.mesh.clone(),
    })
}

/// Mean CD-J2J (×10⁻² of the longest side) of the refined skeletons over `examples`.
pub fn joint_cd(model: &JointNet, examples: &[JointExample], device: &Device) -> f32 {
    let mut total = 0.0;
    for e in examples {
        let offsets = model.forward(JointTensors::new(&e.inputs, device));
        let values = offsets.into_data().try_to_vec::<f32>().unwrap_or_default();
        let Ok(moved) = moved_skeleton(&e.proposed, &e.inputs, &values, &e.mesh) else {
            continue;
        };
        total += skeleton_metrics(&moved, &e.truth, &e.bounds).cd_j2j;
    }
    total / examples.len().max(1) as f32
}

/// Trains the skeleton head on the training split, scored on the validation split.
///
/// # Errors
/// A message when the data cannot be read or a checkpoint written.
pub fn train_joints(
    data: &Path,
    plan: &CorpusPlan,
    options: &TrainOptions,
) -> Result<(JointNet, Vec<LogEntry>), String> {
    let started = std::time::Instant::now();
    let (examples, validation) = examples(data, plan, joint_example)?;
    let before: f32 = validation
        .iter()
        .map(|e| skeleton_metrics(&e.proposed, &e.truth, &e.bounds).cd_j2j)
        .sum::<f32>()
        / validation.len().max(1) as f32;
    eprintln!(
        "{} training and {} validation characters prepared in {:.0} s; geometric validation CD-J2J {before:.3}",
        examples.len(),
        validation.len(),
        started.elapsed().as_secs_f32()
    );
    train(
        JointNet::new,
        options,
        |model, rng, device| {
            let e = &examples[(rng.next_u64() % examples.len() as u64) as usize];
            let target = Tensor::<2>::from_data(
                TensorData::new(e.target.clone(), [e.inputs.joint_count, 3]),
                device,
            );
            let predicted = model.forward(JointTensors::new(&e.inputs, device));
            // Smooth L1 (Huber, δ = 1 neighbourhood): joints far off do not dominate.
            let diff = (predicted - target).abs();
            let quadratic = diff.clone().clamp_max(1.0);
            let loss = quadratic.clone().powf_scalar(2.0).mul_scalar(0.5) + (diff - quadratic);
            loss.mean()
        },
        |model| joint_cd(model, &validation, &cpu_device()),
    )
}

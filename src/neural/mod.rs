//! The learned rigger: small networks, defined once with burn and run on any device — trained
//! natively with autodiff on the CPU, run in the browser on WebGPU or the CPU.
//!
//! Both heads refine the geometric rigger rather than replace it (that measured better on the
//! validation split than predicting from scratch with networks this small):
//! - the skeleton head ([`JointNet`]) moves the joints of the geometric skeleton to where
//!   artists put them, from the surface around each joint;
//! - the skinning head ([`SkinNet`]) scores each vertex's nearest bones, given the geometric
//!   weights among its inputs, and a softmax over them gives the skin weights.
//!
//! Each stage is split in three so that the browser can await its GPU: inputs in plain Rust
//! ([`SkinInputs`], [`JointInputs`]), a forward pass on a device, and results from the values
//! read back ([`skin_weights_from`], [`moved_skeleton`]).

mod config;
mod encoder;
mod joint_inputs;
mod joint_net;
mod mlp;
mod models;
mod networks;
mod plan_net;
mod shape;
mod skin_inputs;
mod skin_net;
#[cfg(feature = "train")]
pub mod train;

pub use config::{config_from_json, config_to_json};
pub use encoder::EncoderConfig;
pub use joint_inputs::{JointInputs, NEIGHBOURS};
pub use joint_net::{JointNet, JointNetConfig, JointTensors};
pub use models::{JOINT_MODEL_FILE, SKIN_MODEL_FILE, model_from_bytes};
#[cfg(not(target_arch = "wasm32"))]
pub use models::{config_path, load_model, load_network};
pub use networks::{
    BackendDifference, JOINT_CONFIG, JOINT_RECORD, Networks, SKIN_CONFIG, SKIN_RECORD, read,
    read_async, skin_inputs,
};
pub use plan_net::{PLAN_CONFIG, PLAN_RECORD, PlanNet, PlanNetConfig, features_tensor};
pub use shape::ShapeInput;
pub use skin_inputs::{CANDIDATES, GEOMETRIC_WEIGHT, PAIR_FEATURES, SkinInputs};
pub use skin_net::{SkinNet, SkinNetConfig, SkinTensors};

use glam::Vec3;

use crate::mesh::{Mesh, WindingTree};
use crate::rig::{Influence, JointId, Skeleton, SkinWeights};

/// Why a learned stage failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NeuralError {
    #[error("the mesh has no surface for the networks to sample")]
    NoSurface,
    #[error("the skeleton has no joints")]
    NoJoints,
    #[error("the inputs do not belong together: {0}")]
    Mismatch(String),
    #[error("the model cannot be loaded: {0}")]
    Model(String),
    #[error("reading the network's output back failed: {0}")]
    Readback(String),
    #[error(transparent)]
    Describe(#[from] crate::recognise::DescribeError),
    #[error(transparent)]
    Skin(#[from] crate::skin::SkinError),
    #[error(transparent)]
    Skeleton(#[from] crate::skeleton::RigError),
}

/// Influences weaker than this share of a vertex's strongest are dropped: the softmax's tail
/// is not what artists paint (chosen on the validation split: 0.1 gave lower L1 than 0.01
/// or a sharpened softmax).
pub const MIN_SHARE: f32 = 0.1;

/// How much of the skin weights the skinning head decides; the rest are the geometric
/// rigger's weights it was given. Chosen on the validation characters (`rigkit lab eval
/// --network-share` over the three validation packs and the held-out 0 A.D. families): 0.2 is
/// the largest share that beats the geometric weights on both L1 and deformation on both sets
/// (L1 0.725 and 0.618 against 0.732 and 0.628; deformation 3.62 and 0.629 against 3.68 and
/// 0.633); 0.25 deformed the 0 A.D. characters worse (0.640), 0.1 the packs (3.70).
pub const NETWORK_SHARE: f32 = 0.2;

/// Skin weights from the skinning head's log weights (`[vertices * CANDIDATES]`, as read
/// back), `network_share` of each blended with the geometric weight of the same pair: each
/// vertex keeps its `max_influences` strongest bones, renormalised.
pub fn skin_weights_from(
    inputs: &SkinInputs,
    log_weights: &[f32],
    max_influences: usize,
    network_share: f32,
) -> Result<SkinWeights, NeuralError> {
    if log_weights.len() != inputs.vertex_count * CANDIDATES {
        return Err(NeuralError::Mismatch(format!(
            "{} network outputs for {} vertices",
            log_weights.len(),
            inputs.vertex_count
        )));
    }
    let mut weights = SkinWeights::new();
    let keep = max_influences.max(1);
    let mut row: Vec<Influence> = Vec::with_capacity(CANDIDATES);
    for v in 0..inputs.vertex_count {
        row.clear();
        for k in 0..CANDIDATES {
            let i = v * CANDIDATES + k;
            if inputs.valid[i] > 0.0 {
                let geometric = inputs.pairs[i * PAIR_FEATURES + GEOMETRIC_WEIGHT];
                row.push(Influence {
                    joint: JointId(inputs.candidates[i]),
                    weight: network_share * log_weights[i].exp()
                        + (1.0 - network_share) * geometric,
                });
            }
        }
        row.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        row.truncate(keep);
        let strongest = row.first().map_or(0.0, |i| i.weight);
        row.retain(|i| i.weight >= MIN_SHARE * strongest.max(1e-6) && i.weight.is_finite());
        let total: f32 = row.iter().map(|i| i.weight).sum();
        if total > 0.0 {
            row.iter_mut().for_each(|i| i.weight /= total);
        }
        weights.push_vertex(row.iter().copied());
    }
    Ok(weights)
}

/// Largest move of a joint, in units of its neighbourhood: the network refines, it does not
/// relocate a joint to another part of the body.
pub const MAX_JOINT_MOVE: f32 = 3.0;

/// `skeleton` with each joint moved by the joint head's offsets (`[joints * 3]`, in units of
/// each joint's neighbourhood, as read back). Children keep their own positions: every joint
/// is placed, not carried along. A joint inside `mesh` stays inside: a move that would leave
/// the body is shortened, or dropped.
pub fn moved_skeleton(
    skeleton: &Skeleton,
    inputs: &JointInputs,
    offsets: &[f32],
    mesh: &Mesh,
) -> Result<Skeleton, NeuralError> {
    if offsets.len() != inputs.joint_count * 3 || inputs.joint_count != skeleton.joints.len() {
        return Err(NeuralError::Mismatch(format!(
            "{} offsets for {} joints",
            offsets.len(),
            skeleton.joints.len()
        )));
    }
    let unit = inputs.shape.unit_box;
    let mut moved = skeleton.clone();
    let surface = WindingTree::new(&mesh.positions, &mesh.triangles);
    for (j, joint) in moved.joints.iter_mut().enumerate() {
        let mut offset = Vec3::from_slice(&offsets[j * 3..j * 3 + 3]);
        if !offset.is_finite() {
            offset = Vec3::ZERO;
        }
        let offset = offset.clamp_length_max(MAX_JOINT_MOVE) * inputs.scales[j];
        let from = joint.position();
        let inside = |p: Vec3| surface.inside(p);
        let was_inside = inside(from);
        let to = [1.0, 0.5, 0.25]
            .into_iter()
            .map(|t| unit.invert(inputs.joints[j] + offset * t))
            .find(|&p| !was_inside || inside(p))
            .unwrap_or(from);
        joint.world_bind.w_axis = to.extend(1.0);
    }
    Ok(moved)
}

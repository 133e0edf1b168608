//! The heads and the body-plan classifier on one device, with the records shipped in
//! `models/` compiled in (they are small: the page downloads them with the module and needs
//! no request later), and the stages as the native pipeline runs them, reading results back
//! synchronously.

use burn::tensor::{Device, Tensor};

use super::config::config_from_json;
use super::{
    JointInputs, JointNet, JointNetConfig, JointTensors, NeuralError, PlanNet, SkinInputs, SkinNet,
    SkinNetConfig, SkinTensors, features_tensor, model_from_bytes, moved_skeleton,
    skin_weights_from,
};
use crate::mesh::Mesh;
use crate::recognise::{Recognition, describe_with};
use crate::rig::{Skeleton, SkinWeights};
use crate::skin::{SkinOptions, geodesic_skin};

/// The int8 records of both heads, and the layer widths each was trained with.
pub const SKIN_RECORD: &[u8] = include_bytes!("../../models/skin.bpk");
pub const SKIN_CONFIG: &str = include_str!("../../models/skin.json");
pub const JOINT_RECORD: &[u8] = include_bytes!("../../models/joints.bpk");
pub const JOINT_CONFIG: &str = include_str!("../../models/joints.json");

/// The trained networks, ready on a device.
#[derive(Debug)]
pub struct Networks {
    pub skin: SkinNet,
    pub joints: JointNet,
    pub plan: PlanNet,
    pub device: Device,
    /// See [`super::NETWORK_SHARE`].
    pub network_share: f32,
}

impl Networks {
    /// The shipped models on `device`.
    ///
    /// # Errors
    /// [`NeuralError::Model`] if a compiled-in record does not fit its network.
    pub fn bundled(device: &Device) -> Result<Self, NeuralError> {
        let skin: SkinNetConfig = config_from_json(SKIN_CONFIG)?;
        let joints: JointNetConfig = config_from_json(JOINT_CONFIG)?;
        Ok(Self {
            skin: model_from_bytes(|d| skin.init(d), SKIN_RECORD.to_vec(), device)?,
            joints: model_from_bytes(|d| joints.init(d), JOINT_RECORD.to_vec(), device)?,
            plan: PlanNet::bundled(device)?,
            device: device.clone(),
            network_share: super::NETWORK_SHARE,
        })
    }

    /// The body plan the classifier sees in `mesh`, whose free-form skeleton is `free_form`
    /// ([`describe_with`]); awaits the device's read-back.
    ///
    /// # Errors
    /// [`NeuralError::Describe`] for a mesh without area or extent, or a failed read-back.
    pub async fn recognise_async(
        &self,
        mesh: &Mesh,
        free_form: Option<&Skeleton>,
    ) -> Result<Recognition, NeuralError> {
        let features = features_tensor(&describe_with(mesh, free_form)?, &self.device)?;
        Ok(Recognition {
            probabilities: read_async(self.plan.probabilities(features)).await?,
        })
    }

    /// The geometric `proposal` with its joints moved by the skeleton head; awaits the
    /// device's read-back (the browser's GPU), so the same code serves every backend.
    ///
    /// # Errors
    /// [`NeuralError`] as [`JointInputs::new`], or a failed read-back.
    pub async fn refine_skeleton_async(
        &self,
        mesh: &Mesh,
        proposal: &Skeleton,
    ) -> Result<Skeleton, NeuralError> {
        let inputs = JointInputs::new(mesh, proposal)?;
        let offsets = read_async(
            self.joints
                .forward(JointTensors::new(&inputs, &self.device)),
        )
        .await?;
        moved_skeleton(proposal, &inputs, &offsets, mesh)
    }

    /// Skin weights for `skeleton` from the skinning head, at most `max_influences` per vertex.
    ///
    /// # Errors
    /// [`NeuralError`] when the mesh cannot be skinned geometrically first, or a failed read-back.
    pub async fn skin_async(
        &self,
        mesh: &Mesh,
        skeleton: &Skeleton,
        max_influences: usize,
    ) -> Result<SkinWeights, NeuralError> {
        let inputs = skin_inputs(mesh, skeleton)?;
        let log = read_async(
            self.skin
                .forward(SkinTensors::new(&inputs, None, &self.device)),
        )
        .await?;
        skin_weights_from(&inputs, &log, max_influences, self.network_share)
    }

    /// [`Self::refine_skeleton_async`], blocking until done (native callers).
    ///
    /// # Errors
    /// As [`Self::refine_skeleton_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn refine_skeleton(
        &self,
        mesh: &Mesh,
        proposal: &Skeleton,
    ) -> Result<Skeleton, NeuralError> {
        crate::blocking::block_on(self.refine_skeleton_async(mesh, proposal))
    }

    /// [`Self::skin_async`], blocking until done (native callers).
    ///
    /// # Errors
    /// As [`Self::skin_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn skin(
        &self,
        mesh: &Mesh,
        skeleton: &Skeleton,
        max_influences: usize,
    ) -> Result<SkinWeights, NeuralError> {
        crate::blocking::block_on(self.skin_async(mesh, skeleton, max_influences))
    }
}

/// How far two copies of the networks (on two devices) disagree on one character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BackendDifference {
    /// Largest difference in a refined joint's position, × the mesh's longest side.
    pub joints: f32,
    /// Largest difference in any skin weight.
    pub weights: f32,
}

impl Networks {
    /// Runs both heads here and on `other` for `mesh` (from its automatic skeleton) and says
    /// how far they disagree: the check that WebGPU and the CPU give the same rig. Both skin
    /// the same skeleton, so the weights compare like for like.
    ///
    /// # Errors
    /// [`NeuralError`] when a stage fails on either device or the mesh has no automatic
    /// skeleton.
    pub async fn difference_from(
        &self,
        other: &Networks,
        mesh: &Mesh,
    ) -> Result<BackendDifference, NeuralError> {
        let proposal = crate::skeleton::auto_skeleton(mesh, &Default::default())?;
        let here = self.refine_skeleton_async(mesh, &proposal).await?;
        let there = other.refine_skeleton_async(mesh, &proposal).await?;
        let weights_here = self.skin_async(mesh, &here, 4).await?;
        let weights_there = other.skin_async(mesh, &here, 4).await?;
        let side = mesh.bounds().longest_side();
        let joints = here
            .joints
            .iter()
            .zip(&there.joints)
            .map(|(a, b)| a.position().distance(b.position()) / side)
            .fold(0.0f32, f32::max);
        Ok(BackendDifference {
            joints,
            weights: weights_here.largest_difference(&weights_there),
        })
    }
}

/// The skinning head's inputs, with the geometric weights it refines (its eight strongest
/// bones per vertex, so the runners-up are seen too).
///
/// # Errors
/// [`NeuralError::Skin`] when the geometric skin fails, or as [`SkinInputs::new`].
pub fn skin_inputs(mesh: &Mesh, skeleton: &Skeleton) -> Result<SkinInputs, NeuralError> {
    let options = SkinOptions {
        max_influences: super::CANDIDATES,
        ..SkinOptions::default()
    };
    let geometric = geodesic_skin(mesh, skeleton, &options)?;
    SkinInputs::new(mesh, skeleton, &geometric)
}

/// A tensor's values, read back synchronously (native backends and training).
///
/// # Errors
/// [`NeuralError::Readback`] when the values are not `f32`.
pub fn read<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, NeuralError> {
    tensor
        .into_data()
        .try_to_vec::<f32>()
        .map_err(|e| NeuralError::Readback(format!("{e:?}")))
}

/// A tensor's values, awaited: a GPU in the browser cannot be waited on synchronously.
///
/// # Errors
/// [`NeuralError::Readback`] when the device fails to read back or the values are not `f32`.
pub async fn read_async<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, NeuralError> {
    tensor
        .into_data_async()
        .await
        .map_err(|e| NeuralError::Readback(format!("{e:?}")))?
        .try_to_vec::<f32>()
        .map_err(|e| NeuralError::Readback(format!("{e:?}")))
}

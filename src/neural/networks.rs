//! Both heads on one device, with the records shipped in `models/` compiled in (they are
//! small: the page downloads them with the module and needs no request later), and the
//! stages as the native pipeline runs them, reading results back synchronously.

use burn::tensor::{Device, Tensor};

use super::{
    JointInputs, JointNet, JointTensors, NeuralError, SkinInputs, SkinNet, SkinTensors,
    model_from_bytes, moved_skeleton, skin_weights_from,
};
use crate::mesh::Mesh;
use crate::rig::{Skeleton, SkinWeights};
use crate::skin::{SkinOptions, geodesic_skin};

/// The int8 records of both heads.
pub const SKIN_RECORD: &[u8] = include_bytes!("../../models/skin.bpk");
pub const JOINT_RECORD: &[u8] = include_bytes!("../../models/joints.bpk");

/// The trained networks, ready on a device.
#[derive(Debug)]
pub struct Networks {
    pub skin: SkinNet,
    pub joints: JointNet,
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
        Ok(Self {
            skin: model_from_bytes(SkinNet::new, SKIN_RECORD.to_vec(), device)?,
            joints: model_from_bytes(JointNet::new, JOINT_RECORD.to_vec(), device)?,
            device: device.clone(),
            network_share: super::NETWORK_SHARE,
        })
    }

    /// The geometric `proposal` with its joints moved by the skeleton head.
    ///
    /// # Errors
    /// [`NeuralError`] as [`JointInputs::new`], or a failed read-back.
    pub fn refine_skeleton(
        &self,
        mesh: &Mesh,
        proposal: &Skeleton,
    ) -> Result<Skeleton, NeuralError> {
        let inputs = JointInputs::new(mesh, proposal)?;
        let offsets = read(
            self.joints
                .forward(JointTensors::new(&inputs, &self.device)),
        )?;
        moved_skeleton(proposal, &inputs, &offsets, mesh)
    }

    /// Skin weights for `skeleton` from the skinning head, at most `max_influences` per vertex.
    ///
    /// # Errors
    /// [`NeuralError`] when the mesh cannot be skinned geometrically first, or a failed read-back.
    pub fn skin(
        &self,
        mesh: &Mesh,
        skeleton: &Skeleton,
        max_influences: usize,
    ) -> Result<SkinWeights, NeuralError> {
        let inputs = skin_inputs(mesh, skeleton)?;
        let log = read(
            self.skin
                .forward(SkinTensors::new(&inputs, None, &self.device)),
        )?;
        skin_weights_from(&inputs, &log, max_influences, self.network_share)
    }
}

/// The skinning head's inputs, with the geometric weights it refines (its eight strongest
/// bones per vertex, so the runners-up are seen too).
///
/// # Errors
/// [`NeuralError::Mismatch`] naming why the geometric skin failed, or as [`SkinInputs::new`].
pub fn skin_inputs(mesh: &Mesh, skeleton: &Skeleton) -> Result<SkinInputs, NeuralError> {
    let options = SkinOptions {
        max_influences: super::CANDIDATES,
        ..SkinOptions::default()
    };
    let geometric = geodesic_skin(mesh, skeleton, &options)
        .map_err(|e| NeuralError::Mismatch(e.to_string()))?;
    SkinInputs::new(mesh, skeleton, &geometric)
}

/// A tensor's values, read back synchronously (native backends; the browser awaits instead).
pub fn read<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, NeuralError> {
    tensor
        .into_data()
        .try_to_vec::<f32>()
        .map_err(|e| NeuralError::Readback(format!("{e:?}")))
}

//! The body-plan classifier: a small MLP over a mesh's placement-free description
//! ([`crate::recognise::describe`]) giving one logit per [`BodyClass`].

use burn::module::Module;
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::config::config_from_json;
use super::mlp::{Mlp, widths};
use super::networks::read;
use super::{NeuralError, model_from_bytes};
use crate::mesh::Mesh;
use crate::recognise::{BodyClass, FEATURES, Recognition, describe};

/// The shipped classifier's int8 record (15 KB) and the widths it was trained with.
pub const PLAN_RECORD: &[u8] = include_bytes!("../../models/body-plan.bpk");
pub const PLAN_CONFIG: &str = include_str!("../../models/body-plan.json");

/// Built by [`PlanNetConfig::init`].
#[derive(Module, Debug)]
pub struct PlanNet {
    pub(super) mlp: Mlp,
}

/// The classifier's hidden widths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanNetConfig {
    pub hidden: Vec<usize>,
}

impl Default for PlanNetConfig {
    fn default() -> Self {
        Self {
            hidden: vec![64, 64],
        }
    }
}

impl PlanNetConfig {
    pub fn init(&self, device: &Device) -> PlanNet {
        PlanNet {
            mlp: Mlp::new(
                &widths(FEATURES, &self.hidden, Some(BodyClass::ALL.len())),
                device,
            ),
        }
    }
}

impl PlanNet {
    /// The classifier at its shipped shape ([`PlanNetConfig::default`]).
    pub fn new(device: &Device) -> Self {
        PlanNetConfig::default().init(device)
    }

    /// The shipped classifier on `device`.
    ///
    /// # Errors
    /// [`NeuralError::Model`] if the compiled-in record does not fit the network.
    pub fn bundled(device: &Device) -> Result<Self, NeuralError> {
        let config: PlanNetConfig = config_from_json(PLAN_CONFIG)?;
        model_from_bytes(|d| config.init(d), PLAN_RECORD.to_vec(), device)
    }

    /// The probabilities of each body plan for `mesh`, wherever it stands and however it is
    /// scaled or turned.
    ///
    /// # Errors
    /// [`NeuralError::Describe`] for a mesh without area or extent.
    pub fn recognise_mesh(&self, mesh: &Mesh, device: &Device) -> Result<Recognition, NeuralError> {
        self.recognise(&describe(mesh)?, device)
    }

    /// Class logits.
    ///
    /// # Shapes
    /// `[batch, FEATURES]` → `[batch, classes]`.
    pub fn forward(&self, features: Tensor<2>) -> Tensor<2> {
        self.mlp.forward(features)
    }

    /// The probabilities of each body plan for one description.
    ///
    /// # Errors
    /// [`NeuralError::Mismatch`] for a description of the wrong length, or a failed read-back.
    pub fn recognise(&self, features: &[f32], device: &Device) -> Result<Recognition, NeuralError> {
        Ok(Recognition {
            probabilities: read(self.probabilities(features_tensor(features, device)?))?,
        })
    }

    /// Class probabilities, each row summing to one.
    ///
    /// # Shapes
    /// `[batch, FEATURES]` → `[batch, classes]`.
    pub fn probabilities(&self, features: Tensor<2>) -> Tensor<2> {
        softmax(self.forward(features), 1)
    }
}

/// One description as a `[1, FEATURES]` tensor.
///
/// # Errors
/// [`NeuralError::Mismatch`] for a description of the wrong length.
pub fn features_tensor(features: &[f32], device: &Device) -> Result<Tensor<2>, NeuralError> {
    if features.len() != FEATURES {
        return Err(NeuralError::Mismatch(format!(
            "a body description has {FEATURES} numbers, not {}",
            features.len()
        )));
    }
    Ok(Tensor::from_data(
        TensorData::new(features.to_vec(), [1, FEATURES]),
        device,
    ))
}

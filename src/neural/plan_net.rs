//! The body-plan classifier: a small MLP over a mesh's placement-free description
//! ([`crate::recognise::describe`]) giving one logit per [`BodyClass`].

use burn::module::Module;
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::NeuralError;
use super::mlp::{Mlp, widths};
use super::networks::read;
use crate::recognise::{BodyClass, FEATURES, Recognition};

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
        let logits = self.forward(features_tensor(features, device)?);
        Ok(Recognition {
            probabilities: read(softmax(logits, 1))?,
        })
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

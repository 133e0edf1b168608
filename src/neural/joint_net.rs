//! The skeleton head: each joint of a proposed skeleton is a query that attends over the
//! surface points around it and predicts where, relative to them, the joint should sit. The
//! proposal comes from the geometric rigger (which gets the topology right: what is a limb,
//! where chains branch); the network moves joints to where artists put them.

use burn::module::Module;
use burn::nn::Linear;
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::encoder::{EncoderConfig, ShapeEncoder};
use super::joint_inputs::{JOINT_FEATURES, JointInputs, NEIGHBOUR_FEATURES, NEIGHBOURS};
use super::mlp::Mlp;
use super::shape::{POINT_FEATURES, SHAPE_POINTS};

/// Built by [`JointNetConfig::init`].
#[derive(Module, Debug)]
pub struct JointNet {
    pub(super) encoder: ShapeEncoder,
    pub(super) neighbour: Mlp,
    pub(super) attend: Linear,
    pub(super) offset: Mlp,
}

/// [`JointInputs`] as tensors on one device.
#[derive(Debug, Clone)]
pub struct JointTensors {
    pub points: Tensor<2>,
    pub neighbours: Tensor<3>,
    pub features: Tensor<2>,
}

impl JointTensors {
    pub fn new(inputs: &JointInputs, device: &Device) -> Self {
        let j = inputs.joint_count;
        Self {
            points: Tensor::from_data(
                TensorData::new(inputs.shape.flat(), [SHAPE_POINTS, POINT_FEATURES]),
                device,
            ),
            neighbours: Tensor::from_data(
                TensorData::new(
                    inputs.neighbours.clone(),
                    [j, NEIGHBOURS, NEIGHBOUR_FEATURES],
                ),
                device,
            ),
            features: Tensor::from_data(
                TensorData::new(inputs.features.clone(), [j, JOINT_FEATURES]),
                device,
            ),
        }
    }
}

impl JointNet {
    /// The shipped network's shape ([`JointNetConfig::default`]).
    pub fn new(device: &Device) -> Self {
        JointNetConfig::default().init(device)
    }

    /// Each joint's offset in units of its neighbourhood scale.
    ///
    /// # Shapes
    /// → `[joints, 3]`.
    pub fn forward(&self, x: JointTensors) -> Tensor<2> {
        let code = self.encoder.forward(x.points); // [1, C]
        let [j, k, _] = x.neighbours.dims();
        let [_, width] = code.dims();
        let code = code.unsqueeze_dim::<3>(0).expand([j, k, width]);
        let h = self
            .neighbour
            .forward(Tensor::cat(vec![x.neighbours, code], 2)); // [j, k, H]
        let attention = softmax(self.attend.forward(h.clone()), 1); // [j, k, 1]
        let pooled = (h.clone() * attention).sum_dim(1).squeeze_dim::<2>(1); // [j, H]
        let widest = h.max_dim(1).squeeze_dim::<2>(1); // [j, H]
        self.offset
            .forward(Tensor::cat(vec![pooled, widest, x.features], 1))
    }
}

/// The skeleton head ([`JointNet`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointNetConfig {
    pub encoder: EncoderConfig,
    /// Width of each neighbour's feature (and of the pooled ones).
    pub hidden: usize,
}

impl Default for JointNetConfig {
    fn default() -> Self {
        Self {
            encoder: EncoderConfig::default(),
            hidden: 64,
        }
    }
}

impl JointNetConfig {
    pub fn init(&self, device: &Device) -> JointNet {
        let h = self.hidden;
        JointNet {
            encoder: self.encoder.init(device),
            neighbour: Mlp::new(&[NEIGHBOUR_FEATURES + self.encoder.code, h, h], device),
            attend: burn::nn::LinearConfig::new(h, 1).init(device),
            offset: Mlp::new(&[2 * h + JOINT_FEATURES, h, 3], device),
        }
    }
}

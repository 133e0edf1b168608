//! The shape encoder shared by both heads: a PointNet over the surface samples. Each point
//! goes through the same MLP and a max over points gives one code for the whole character,
//! independent of point order and mesh topology.

use burn::module::Module;
use burn::tensor::{Device, Tensor};
use serde::{Deserialize, Serialize};

use super::mlp::{Mlp, widths};
use super::shape::POINT_FEATURES;

/// Built by [`EncoderConfig::init`].
#[derive(Module, Debug)]
pub struct ShapeEncoder {
    pub(super) per_point: Mlp,
    pub(super) code: Mlp,
}

impl ShapeEncoder {
    /// # Shapes
    /// `points`: `[n, POINT_FEATURES]` → `[1, code]`.
    pub fn forward(&self, points: Tensor<2>) -> Tensor<2> {
        let features = self.per_point.forward(points);
        self.code.forward(features.max_dim(0))
    }
}

/// The shape encoder: a per-point MLP, a max over points, then an MLP to the shape code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncoderConfig {
    /// Hidden widths of the per-point MLP; the last is the pooled feature's width.
    pub per_point: Vec<usize>,
    /// Hidden widths of the MLP from the pooled feature to the code.
    pub hidden: Vec<usize>,
    /// Width of the shape code.
    pub code: usize,
}

impl Default for EncoderConfig {
    fn default() -> Self {
        Self {
            per_point: vec![64, 128],
            hidden: vec![64],
            code: 32,
        }
    }
}

impl EncoderConfig {
    pub fn init(&self, device: &Device) -> ShapeEncoder {
        let pooled = self.per_point.last().copied().unwrap_or(POINT_FEATURES);
        ShapeEncoder {
            per_point: Mlp::new(&widths(POINT_FEATURES, &self.per_point, None), device),
            code: Mlp::new(&widths(pooled, &self.hidden, Some(self.code)), device),
        }
    }
}

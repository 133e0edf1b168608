//! The shape encoder shared by both heads: a PointNet over the surface samples. Each point
//! goes through the same MLP and a max over points gives one code for the whole character,
//! independent of point order and mesh topology.

use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::mlp::Mlp;
use super::shape::POINT_FEATURES;

/// Width of the shape code.
pub const SHAPE_CODE: usize = 32;

#[derive(Module, Debug)]
pub struct ShapeEncoder {
    per_point: Mlp,
    code: Mlp,
}

impl ShapeEncoder {
    pub fn new(device: &Device) -> Self {
        Self {
            per_point: Mlp::new(&[POINT_FEATURES, 64, 128], device),
            code: Mlp::new(&[128, 64, SHAPE_CODE], device),
        }
    }

    /// # Shapes
    /// `points`: `[n, POINT_FEATURES]` → `[1, SHAPE_CODE]`.
    pub fn forward(&self, points: Tensor<2>) -> Tensor<2> {
        let features = self.per_point.forward(points);
        self.code.forward(features.max_dim(0))
    }
}

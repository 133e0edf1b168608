//! The shape encoder shared by both heads: a PointNet over the surface samples. Each point
//! goes through the same MLP and a max over points gives one code for the whole character,
//! independent of point order and mesh topology.

use burn::module::Module;
use burn::tensor::Tensor;

use super::mlp::Mlp;

/// Built by [`super::EncoderConfig::init`].
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

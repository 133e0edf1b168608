//! The one building block of every network here: linear layers with ReLU between them.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

/// A multi-layer perceptron; the last layer has no activation, so it can output logits,
/// offsets or features for a later layer.
#[derive(Module, Debug)]
pub struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    /// `widths` = input width, hidden widths…, output width.
    pub fn new(widths: &[usize], device: &Device) -> Self {
        let layers = widths
            .windows(2)
            .map(|w| LinearConfig::new(w[0], w[1]).init(device))
            .collect();
        Self { layers }
    }

    /// Applies the layers to the last dimension of `x`.
    pub fn forward<const D: usize>(&self, x: Tensor<D>) -> Tensor<D> {
        let last = self.layers.len().saturating_sub(1);
        self.layers.iter().enumerate().fold(x, |x, (i, layer)| {
            let y = layer.forward(x);
            if i < last { relu(y) } else { y }
        })
    }
}

/// `input`, the hidden widths, and `output` when given: an MLP's layer widths.
pub(super) fn widths(input: usize, hidden: &[usize], output: Option<usize>) -> Vec<usize> {
    std::iter::once(input)
        .chain(hidden.iter().copied())
        .chain(output)
        .collect()
}

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
        match self.layers.first() {
            Some(first) => self.forward_after_first(first.forward(x)),
            None => x,
        }
    }

    /// The first layer's weights, `[input, output]`, and its bias: a caller whose input is
    /// several parts of different row counts (per vertex, per bone, per pair) multiplies each
    /// part by its rows of the weights once, not once per row of the whole.
    pub fn first_layer(&self) -> Option<(Tensor<2>, Option<Tensor<1>>)> {
        let first = self.layers.first()?;
        Some((first.weight.val(), first.bias.as_ref().map(|b| b.val())))
    }

    /// The layers after the first, applied to the first layer's output: what
    /// [`Mlp::forward`] goes on to do with it.
    pub fn forward_after_first<const D: usize>(&self, first: Tensor<D>) -> Tensor<D> {
        let last = self.layers.len().saturating_sub(1);
        (self.layers.iter().enumerate().skip(1)).fold(first, |x, (i, layer)| {
            let y = layer.forward(relu(x));
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

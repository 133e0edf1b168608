//! Post-training int8 quantization of a trained record: burn's symmetric Q8S with one f32
//! scale per block of 16 weights along each output row, so an outlier only coarsens its own
//! block. Weight matrices whose width is not a multiple of the block (the 1- and 3-wide
//! output layers) and the biases stay f32: together they are a few hundred values.

use burn::module::{Module, ModuleMapper, Param};
use burn::tensor::Tensor;
use burn::tensor::quantization::{
    Calibration, QuantScheme, QuantStore, QuantValue, ScaleDtype, compute_q_params, compute_range,
};

/// Weights per scale.
pub const BLOCK: usize = 16;

/// The scheme of every shipped record.
pub fn int8_scheme() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .with_store(QuantStore::Native)
        .per_block([BLOCK as u8], ScaleDtype::F32)
}

/// `model` with its weight matrices quantized to int8.
pub fn quantize<M: Module>(model: M) -> M {
    model.map(&mut Int8 {
        scheme: int8_scheme(),
    })
}

struct Int8 {
    scheme: QuantScheme,
}

impl ModuleMapper for Int8 {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let scheme = self.scheme;
        param.map(|tensor| {
            let dims = tensor.dims();
            if D < 2 || dims[D - 1] % BLOCK != 0 {
                return tensor;
            }
            let range = compute_range(&scheme, &tensor, &Calibration::MinMax);
            let qparams = compute_q_params(&scheme, range);
            tensor.quantize(&scheme, qparams)
        })
    }
}

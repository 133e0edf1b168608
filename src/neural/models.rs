//! Loading trained weights onto a device. The records in `models/` hold int8 weights with a
//! scale per block of 32 (burn's Q8S quantization); they are read on the CPU backend and
//! expanded to f32 there, which gives every backend — WebGPU included, whose quantized storage
//! differs — the same numbers.

use burn::module::{Module, ModuleMapper, Param};
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, DType, Device, Tensor};

use super::NeuralError;
use crate::compute::cpu_device;

/// File names of the shipped records in `models/`.
pub const SKIN_MODEL_FILE: &str = "skin.bpk";
pub const JOINT_MODEL_FILE: &str = "joints.bpk";

/// A model built by `new` with the weights of a burnpack record (f32 or quantized), on
/// `device`.
///
/// # Errors
/// [`NeuralError::Model`] when the bytes are not a record of this model.
pub fn model_from_bytes<M: Module>(
    new: impl Fn(&Device) -> M,
    bytes: Vec<u8>,
    device: &Device,
) -> Result<M, NeuralError> {
    let cpu = cpu_device();
    let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(bytes))
        .map_err(|e| NeuralError::Model(e.to_string()))?;
    let model = new(&cpu)
        .try_load_record(record)
        .map_err(|e| NeuralError::Model(e.to_string()))?;
    Ok(model.map(&mut Dequantize).to_device(device))
}

/// [`model_from_bytes`] for a file.
///
/// # Errors
/// [`NeuralError::Model`] naming the file when it cannot be read or loaded.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_model<M: Module>(
    new: impl Fn(&Device) -> M,
    path: &std::path::Path,
    device: &Device,
) -> Result<M, NeuralError> {
    let bytes = std::fs::read(path)
        .map_err(|e| NeuralError::Model(format!("cannot read '{}': {e}", path.display())))?;
    model_from_bytes(new, bytes, device)
        .map_err(|e| NeuralError::Model(format!("'{}': {e}", path.display())))
}

/// Replaces quantized parameters by their f32 values.
struct Dequantize;

impl ModuleMapper for Dequantize {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.map(|t| {
            if matches!(t.dtype(), DType::QFloat(_)) {
                t.dequantize()
            } else {
                t
            }
        })
    }
}

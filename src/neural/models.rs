//! Loading trained weights onto a device. The records in `models/` hold int8 weights with a
//! scale per block of 16 (burn's Q8S quantization, see `train::quantize`); they are read on the CPU backend and
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

/// Where the config of the record at `record` is kept: beside it, as `<name>.json`.
#[cfg(not(target_arch = "wasm32"))]
pub fn config_path(record: &std::path::Path) -> std::path::PathBuf {
    record.with_extension("json")
}

/// The network in the record file `path`, built with the config saved beside it
/// ([`config_path`]) or `default` when there is none; returns the config too.
///
/// # Errors
/// [`NeuralError::Model`] naming the file when the record or its config cannot be read or do
/// not fit together.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_network<C: serde::de::DeserializeOwned, M: Module>(
    path: &std::path::Path,
    default: C,
    init: impl Fn(&C, &Device) -> M,
    device: &Device,
) -> Result<(M, C), NeuralError> {
    let beside = config_path(path);
    let config = match std::fs::read_to_string(&beside) {
        Ok(json) => super::config_from_json(&json)
            .map_err(|e| NeuralError::Model(format!("'{}': {e}", beside.display())))?,
        Err(_) => default,
    };
    let model = load_model(|d| init(&config, d), path, device)?;
    Ok((model, config))
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

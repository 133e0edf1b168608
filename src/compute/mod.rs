//! Tensor computations on a burn [`Device`]: WebGPU in the browser when an adapter exists, the
//! pure-Rust `flex` CPU backend natively and as the browser's fallback. Code here never names a
//! backend; the shells pick the device once.

mod vertex_features;

pub use burn::tensor::Device;
pub use vertex_features::{
    FEATURES_PER_VERTEX, vertex_features, vertex_features_difference, vertex_features_reference,
};

/// The CPU device used natively and whenever no GPU adapter is available.
pub fn cpu_device() -> Device {
    Device::flex()
}

/// Why a computation on a device failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ComputeError {
    #[error("the mesh has no vertices to compute on")]
    NoVertices,
    #[error("the mesh has no extent to normalise")]
    NoExtent,
    #[error("reading results back from the {device} device failed: {reason}")]
    Readback { device: String, reason: String },
}

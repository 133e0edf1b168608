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

/// Which device the learned stages run on, given the GPU a shell started (if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworksOn {
    Cpu,
    /// The GPU if one was started and its adapter is hardware: a software adapter
    /// (SwiftShader, llvmpipe, WARP: a GPU emulated on the CPU) ran the skinning head about
    /// 10× slower than burn's CPU backend here (30–39 s against 2.8 s for one character; see
    /// the README), so rigs stay on the CPU there.
    FasterDevice,
    /// The GPU if one was started, whatever it is (the check that both backends agree).
    Gpu,
}

impl NetworksOn {
    /// The GPU to use of `started` (a device, and whether its adapter is a software one);
    /// `None` means the CPU.
    pub fn pick(self, started: Option<(Device, bool)>) -> Option<Device> {
        match (self, started) {
            (Self::Gpu, Some((device, _))) | (Self::FasterDevice, Some((device, false))) => {
                Some(device)
            }
            _ => None,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_software_adapter_runs_rigs_on_the_cpu_but_checks_on_the_gpu() {
        let gpu = |software| Some((cpu_device(), software));
        assert!(NetworksOn::FasterDevice.pick(gpu(true)).is_none());
        assert!(NetworksOn::FasterDevice.pick(gpu(false)).is_some());
        assert!(NetworksOn::Gpu.pick(gpu(true)).is_some());
        assert!(NetworksOn::Cpu.pick(gpu(false)).is_none());
        assert!(NetworksOn::Gpu.pick(None).is_none());
    }
}

//! Compute device selection in the browser: burn's WebGPU backend when the browser gives an
//! adapter, else the flex CPU backend — chosen once per page.

use std::cell::RefCell;

use burn::tensor::Device;
use wasm_bindgen::prelude::*;

use super::js_error;
use crate::compute::{cpu_device, vertex_features_difference};

thread_local! {
    static GPU: RefCell<Option<Device>> = const { RefCell::new(None) };
}

/// Starts burn's WebGPU runtime. Returns the adapter's name (possibly empty, browsers may hide
/// it); rejects when there is no usable adapter, in which case the page stays on the CPU.
#[wasm_bindgen(js_name = initWebGpu)]
pub async fn init_webgpu() -> Result<String, JsError> {
    if gpu_device().is_some() {
        return Ok(String::new());
    }
    let (device, setup) = Device::wgpu_options()
        .init_with_setup_async()
        .await
        .map_err(|e| JsError::new(&format!("WebGPU is not available: {e}")))?;
    GPU.with(|g| *g.borrow_mut() = Some(device));
    Ok(setup.adapter.get_info().name)
}

/// The WebGPU device, if [`init_webgpu`] started one.
pub(crate) fn gpu_device() -> Option<Device> {
    GPU.with(|g| g.borrow().clone())
}

/// How far the WebGPU device (`on_gpu`) or the CPU backend strays from the plain-Rust
/// reference on the per-vertex features of flat `positions`; rejects when WebGPU was asked
/// for and not started.
#[wasm_bindgen(js_name = featureDifference)]
pub async fn feature_difference(positions: Vec<f32>, on_gpu: bool) -> Result<f32, JsError> {
    let device = match on_gpu {
        true => gpu_device().ok_or_else(|| JsError::new("WebGPU was not started"))?,
        false => cpu_device(),
    };
    vertex_features_difference(&positions, &device)
        .await
        .map_err(js_error)
}

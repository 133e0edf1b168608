//! Compute device selection in the browser: burn's WebGPU backend when the browser gives an
//! adapter, else the flex CPU backend — chosen once per page.

use std::cell::RefCell;

use burn::tensor::Device;
use wasm_bindgen::prelude::*;

use crate::compute::{cpu_device, vertex_features, vertex_features_reference};

thread_local! {
    static GPU: RefCell<Option<Device>> = const { RefCell::new(None) };
}

/// Starts burn's WebGPU runtime. Returns the adapter's name (possibly empty, browsers may hide
/// it); rejects when there is no usable adapter, in which case the page stays on the CPU.
#[wasm_bindgen(js_name = initWebGpu)]
pub async fn init_webgpu() -> Result<String, JsError> {
    if let Some(name) = GPU.with(|g| g.borrow().as_ref().map(|_| String::new())) {
        return Ok(name);
    }
    let (device, setup) = Device::wgpu_options()
        .init_with_setup_async()
        .await
        .map_err(|e| JsError::new(&format!("WebGPU is not available: {e}")))?;
    let info = setup.adapter.get_info();
    GPU.with(|g| *g.borrow_mut() = Some(device));
    Ok(info.name)
}

/// The WebGPU device, if [`init_webgpu`] started one.
pub(crate) fn gpu_device() -> Option<Device> {
    GPU.with(|g| g.borrow().clone())
}

/// Per-vertex features (see `compute::vertex_features`) of flat `positions`, on the WebGPU
/// device when `on_gpu` and one was started, else on the CPU backend.
#[wasm_bindgen(js_name = vertexFeatures)]
pub async fn vertex_features_js(positions: Vec<f32>, on_gpu: bool) -> Result<Vec<f32>, JsError> {
    let device = match on_gpu {
        true => GPU
            .with(|g| g.borrow().clone())
            .ok_or_else(|| JsError::new("WebGPU was not started"))?,
        false => cpu_device(),
    };
    let features =
        vertex_features(&positions, &device).map_err(|e| JsError::new(&e.to_string()))?;
    let data = features
        .into_data_async()
        .await
        .map_err(|e| JsError::new(&format!("reading features back failed: {e:?}")))?;
    data.try_to_vec::<f32>()
        .map_err(|e| JsError::new(&format!("features have an unexpected type: {e:?}")))
}

/// The plain-Rust ground truth for [`vertex_features_js`].
#[wasm_bindgen(js_name = vertexFeaturesReference)]
pub fn vertex_features_reference_js(positions: Vec<f32>) -> Result<Vec<f32>, JsError> {
    vertex_features_reference(&positions).map_err(|e| JsError::new(&e.to_string()))
}

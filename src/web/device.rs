//! Compute devices in the browser: burn's WebGPU backend when the browser gives an adapter,
//! else the flex CPU backend, and the shipped networks on each, loaded once per device.

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;
use wasm_bindgen::prelude::*;

use super::{js_error, object};
use crate::compute::{NetworksOn, cpu_device, vertex_features_difference};
use crate::neural::{Networks, NeuralError};

thread_local! {
    /// The WebGPU device and whether its adapter is a software one (SwiftShader, llvmpipe,
    /// WARP: a GPU emulated on the CPU).
    static GPU: RefCell<Option<(Device, bool)>> = const { RefCell::new(None) };
    static LOADED: RefCell<Option<(bool, Rc<Networks>)>> = const { RefCell::new(None) };
}

/// Starts burn's WebGPU runtime. Returns the adapter's name (possibly empty, browsers may hide
/// it); rejects when there is no usable adapter, in which case the page stays on the CPU.
#[wasm_bindgen(js_name = initWebGpu)]
pub async fn init_webgpu() -> Result<String, JsError> {
    if gpu_device().is_some() {
        return Ok(String::new());
    }
    let (device, setup) = (Device::wgpu_options().init_with_setup_async().await)
        .map_err(|e| JsError::new(&format!("WebGPU is not available: {e}")))?;
    let info = setup.adapter.get_info();
    let software = info.device_type == wgpu::DeviceType::Cpu;
    GPU.with(|g| *g.borrow_mut() = Some((device, software)));
    Ok(info.name)
}

/// The WebGPU device, if [`init_webgpu`] started one.
fn gpu_device() -> Option<Device> {
    GPU.with(|g| g.borrow().as_ref().map(|(device, _)| device.clone()))
}

/// The shipped networks on the device `on` picks (the CPU when no GPU was started), with the
/// name of the device they run on ("webgpu" or "cpu").
pub(crate) fn networks(on: NetworksOn) -> Result<(Rc<Networks>, &'static str), NeuralError> {
    let gpu = on.pick(GPU.with(|g| g.borrow().clone()));
    let use_gpu = gpu.is_some();
    let name = if use_gpu { "webgpu" } else { "cpu" };
    if let Some((_, n)) = LOADED
        .with(|l| l.borrow().clone())
        .filter(|(g, _)| *g == use_gpu)
    {
        return Ok((n, name));
    }
    let n = Rc::new(Networks::bundled(&gpu.unwrap_or_else(cpu_device))?);
    LOADED.with(|l| *l.borrow_mut() = Some((use_gpu, n.clone())));
    Ok((n, name))
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
    let difference = vertex_features_difference(&positions, &device).await;
    difference.map_err(js_error)
}

/// Runs both heads on a small box creature ([`crate::mesh::probe_creature`]) on the CPU and
/// on the WebGPU device and returns `{ joints, weights }`: the largest difference between
/// the two in joint position (× the longest side) and in any skin weight. Rejects when
/// WebGPU was not started.
#[wasm_bindgen(js_name = neuralBackendCheck)]
pub async fn neural_backend_check() -> Result<JsValue, JsError> {
    let (cpu, _) = networks(NetworksOn::Cpu).map_err(js_error)?;
    let (gpu, device) = networks(NetworksOn::Gpu).map_err(js_error)?;
    if device != "webgpu" {
        return Err(JsError::new("WebGPU was not started"));
    }
    let probe = crate::mesh::probe_creature();
    let difference = cpu.difference_from(&gpu, &probe).await.map_err(js_error)?;
    object(&[
        ("joints", JsValue::from(difference.joints)),
        ("weights", JsValue::from(difference.weights)),
    ])
}

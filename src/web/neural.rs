//! The networks in the browser: on the WebGPU device when this page (or worker) started one,
//! else on the CPU backend, loaded once per device.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::{js_error, object};
use crate::compute::cpu_device;
use crate::neural::{Networks, NeuralError};

thread_local! {
    static LOADED: RefCell<Option<(bool, Rc<Networks>)>> = const { RefCell::new(None) };
}

/// The shipped networks on the GPU when `on_gpu` (and one was started), else on the CPU,
/// with the name of the device they run on ("webgpu" or "cpu").
pub(crate) fn networks(on_gpu: bool) -> Result<(Rc<Networks>, &'static str), NeuralError> {
    let gpu = on_gpu.then(super::compute::gpu_device).flatten();
    let use_gpu = gpu.is_some();
    let name = if use_gpu { "webgpu" } else { "cpu" };
    let cached = LOADED.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(g, _)| *g == use_gpu)
            .map(|(_, n)| n.clone())
    });
    if let Some(n) = cached {
        return Ok((n, name));
    }
    let n = Rc::new(Networks::bundled(&gpu.unwrap_or_else(cpu_device))?);
    LOADED.with(|l| *l.borrow_mut() = Some((use_gpu, n.clone())));
    Ok((n, name))
}

/// Runs both heads on a small box creature ([`crate::mesh::probe_creature`]) on the CPU and on the WebGPU device and returns
/// `{ joints, weights }`: the largest difference between the two in joint position (× the
/// longest side) and in any skin weight. Rejects when WebGPU was not started.
#[wasm_bindgen(js_name = neuralBackendCheck)]
pub async fn neural_backend_check() -> Result<JsValue, JsError> {
    let creature = crate::mesh::probe_creature();
    let (cpu, _) = networks(false).map_err(js_error)?;
    let (gpu, device) = networks(true).map_err(js_error)?;
    if device != "webgpu" {
        return Err(JsError::new("WebGPU was not started"));
    }
    let difference = cpu
        .difference_from(&gpu, &creature)
        .await
        .map_err(js_error)?;
    object(&[
        ("joints", JsValue::from_f64(difference.joints.into())),
        ("weights", JsValue::from_f64(difference.weights.into())),
    ])
}

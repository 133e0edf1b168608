//! The learned stages in the browser: the networks on the WebGPU device when this page (or
//! worker) started one, else on the CPU backend, with results awaited rather than blocked on.

use std::cell::RefCell;

use burn::tensor::{Device, Tensor};
use wasm_bindgen::prelude::*;

use crate::compute::cpu_device;
use crate::mesh::Mesh;
use crate::neural::{
    JointInputs, JointTensors, Networks, SkinTensors, moved_skeleton, skin_inputs,
    skin_weights_from,
};
use crate::rig::{Skeleton, SkinWeights};

thread_local! {
    static LOADED: RefCell<Option<(bool, std::rc::Rc<Networks>)>> = const { RefCell::new(None) };
}

/// The shipped networks on the GPU when `on_gpu` (and one was started), else on the CPU;
/// loaded once per device.
pub(crate) fn networks(on_gpu: bool) -> Result<(std::rc::Rc<Networks>, &'static str), JsError> {
    let gpu = if on_gpu {
        super::compute::gpu_device()
    } else {
        None
    };
    let (use_gpu, device): (bool, Device) = match gpu {
        Some(d) => (true, d),
        None => (false, cpu_device()),
    };
    let name = if use_gpu { "webgpu" } else { "cpu" };
    if let Some(n) = LOADED.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(g, _)| *g == use_gpu)
            .map(|(_, n)| n.clone())
    }) {
        return Ok((n, name));
    }
    let n = std::rc::Rc::new(Networks::bundled(&device).map_err(|e| JsError::new(&e.to_string()))?);
    LOADED.with(|l| *l.borrow_mut() = Some((use_gpu, n.clone())));
    Ok((n, name))
}

async fn read<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, JsError> {
    tensor
        .into_data_async()
        .await
        .map_err(|e| JsError::new(&format!("reading the network's output back failed: {e:?}")))?
        .try_to_vec::<f32>()
        .map_err(|e| {
            JsError::new(&format!(
                "the network's output has an unexpected type: {e:?}"
            ))
        })
}

/// The geometric `proposal` with its joints moved by the skeleton head.
pub(crate) async fn refine_skeleton(
    networks: &Networks,
    mesh: &Mesh,
    proposal: &Skeleton,
) -> Result<Skeleton, JsError> {
    let inputs = JointInputs::new(mesh, proposal).map_err(|e| JsError::new(&e.to_string()))?;
    let offsets = read(
        networks
            .joints
            .forward(JointTensors::new(&inputs, &networks.device)),
    )
    .await?;
    moved_skeleton(proposal, &inputs, &offsets, mesh).map_err(|e| JsError::new(&e.to_string()))
}

/// Skin weights from the skinning head.
pub(crate) async fn skin(
    networks: &Networks,
    mesh: &Mesh,
    skeleton: &Skeleton,
    max_influences: usize,
) -> Result<SkinWeights, JsError> {
    let inputs = skin_inputs(mesh, skeleton).map_err(|e| JsError::new(&e.to_string()))?;
    let log = read(
        networks
            .skin
            .forward(SkinTensors::new(&inputs, None, &networks.device)),
    )
    .await?;
    skin_weights_from(&inputs, &log, max_influences, networks.network_share)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Runs both heads on a generated creature on the CPU and on the WebGPU device and returns
/// `{ joints, weights }`: the largest difference between the two in joint position (× the
/// longest side) and in any skin weight. Rejects when WebGPU was not started.
#[wasm_bindgen(js_name = neuralBackendCheck)]
pub async fn neural_backend_check() -> Result<JsValue, JsError> {
    let creature = crate::dataset::creature::generate(1_000_000_007, None);
    let mesh = &creature.mesh;
    let proposal = crate::skeleton::auto_skeleton(mesh, &crate::skeleton::AutoOptions::default())
        .map_err(|e| JsError::new(&e.to_string()))?;
    let (cpu, _) = networks(false)?;
    let cpu_skeleton = refine_skeleton(&cpu, mesh, &proposal).await?;
    let cpu_weights = skin(&cpu, mesh, &cpu_skeleton, 4).await?;
    let (gpu, device) = networks(true)?;
    if device != "webgpu" {
        return Err(JsError::new("WebGPU was not started"));
    }
    let gpu_skeleton = refine_skeleton(&gpu, mesh, &proposal).await?;
    // The same skeleton for both skins, so the weights compare like for like.
    let gpu_weights = skin(&gpu, mesh, &cpu_skeleton, 4).await?;
    let side = mesh.bounds().longest_side();
    let joints = cpu_skeleton
        .joints
        .iter()
        .zip(&gpu_skeleton.joints)
        .map(|(a, b)| a.position().distance(b.position()) / side)
        .fold(0.0f32, f32::max);
    let mut weights = 0.0f32;
    for v in 0..cpu_weights.vertex_count() {
        let (a, b) = (cpu_weights.influences(v), gpu_weights.influences(v));
        for i in a {
            let other = b
                .iter()
                .find(|j| j.joint == i.joint)
                .map_or(0.0, |j| j.weight);
            weights = weights.max((i.weight - other).abs());
        }
        for j in b {
            if !a.iter().any(|i| i.joint == j.joint) {
                weights = weights.max(j.weight);
            }
        }
    }
    let result = js_sys::Object::new();
    for (key, value) in [("joints", joints), ("weights", weights)] {
        js_sys::Reflect::set(&result, &key.into(), &JsValue::from_f64(value as f64))
            .map_err(|_| JsError::new("cannot build the result"))?;
    }
    Ok(result.into())
}

//! The rig as the page's worker runs it: the core pipeline ([`crate::pipeline::rig_files`])
//! with the networks on this worker's device, each stage announced to a JS callback and timed.

use wasm_bindgen::prelude::*;

use super::{input_files, js_error, object};
use crate::pipeline::{RigRequest, Stage};
use crate::skeleton::SkeletonSource;

/// What the page asked for: a `template` by name, or the skeleton of the file
/// `skeleton_name` (a rigged GLB/glTF/VRM or a BVH); `method` as the CLI's `--method`.
fn request(
    template: &str,
    method: &str,
    max_influences: usize,
    skeleton: Option<(String, Vec<u8>)>,
) -> Result<RigRequest, JsError> {
    let source = match skeleton {
        Some((name, bytes)) => SkeletonSource::Given(
            crate::io::import_skeleton(&bytes, &name, &crate::Limits::default())
                .map_err(js_error)?,
        ),
        None => SkeletonSource::Template(template.parse().map_err(|e: String| JsError::new(&e))?),
    };
    Ok(RigRequest {
        source,
        methods: method.parse().map_err(|e: String| JsError::new(&e))?,
        max_influences,
    })
}

/// Whether rigging with `template` (or a given skeleton file) by `method` runs a network, so
/// the worker starts a GPU only when one will be used.
#[wasm_bindgen(js_name = rigRunsNetworks)]
pub fn rig_runs_networks(template: &str, method: &str, skeleton_given: bool) -> bool {
    let automatic = !skeleton_given && template.parse() == Ok(crate::skeleton::Template::Auto);
    method
        .parse::<crate::pipeline::Methods>()
        .is_ok_and(|m| m.runs_networks(automatic))
}

/// Imports the files (as `loadFiles` does), rigs them (see [`request`]; the networks run on
/// WebGPU when `on_gpu` and `initWebGpu` succeeded here, else on the CPU) and resolves to
/// `{ glb: Uint8Array, timings: { parse, voxelise, skeleton, skin, export }, device }`
/// (milliseconds; device "webgpu" or "cpu" where a network ran, else ""). `on_progress(stage)`
/// hears each stage's name as it begins.
#[wasm_bindgen(js_name = rigFiles)]
#[allow(clippy::too_many_arguments)]
pub async fn rig_files(
    names: Vec<String>,
    contents: Vec<js_sys::Uint8Array>,
    template: String,
    max_influences: usize,
    skeleton_name: Option<String>,
    skeleton_bytes: Option<Vec<u8>>,
    method: String,
    on_gpu: bool,
    on_progress: js_sys::Function,
) -> Result<JsValue, JsError> {
    let request = request(
        &template,
        &method,
        max_influences,
        skeleton_name.zip(skeleton_bytes),
    )?;
    let bytes = input_files(&names, &contents, "rigFiles")?;
    let files: Vec<_> = bytes
        .iter()
        .map(|(n, b)| crate::io::InputFile { name: n, bytes: b })
        .collect();
    let mut device = "";
    let mut started = [f64::NAN; Stage::ALL.len()];
    let glb = crate::pipeline::rig_files(
        &files,
        &request,
        || {
            let (networks, used) = super::neural::networks(on_gpu)?;
            device = used;
            Ok(networks)
        },
        |stage| {
            started[stage as usize] = js_sys::Date::now();
            // A failing progress callback must not stop the rig.
            let _ = on_progress.call1(&JsValue::NULL, &JsValue::from_str(stage.name()));
        },
    )
    .await
    .map_err(js_error)?;
    let finished = js_sys::Date::now();
    let timings = js_sys::Object::new();
    for (i, stage) in Stage::ALL.iter().enumerate() {
        // A stage lasts until the next one starts.
        let end = started[i + 1..]
            .iter()
            .copied()
            .find(|t| !t.is_nan())
            .unwrap_or(finished);
        let ms = if started[i].is_nan() {
            0.0
        } else {
            end - started[i]
        };
        js_sys::Reflect::set(&timings, &stage.name().into(), &ms.into())
            .map_err(|_| JsError::new("cannot build the timings"))?;
    }
    object(&[
        ("timings", timings.into()),
        ("device", JsValue::from_str(device)),
        ("glb", js_sys::Uint8Array::from(glb.as_slice()).into()),
    ])
}

/// What an embedding page needs of a rigged file: `{ name, names, parents: Int32Array,
/// joints: Float32Array (x, y, z per joint), weights: { offsets, joints, values },
/// vertexCount }`.
#[wasm_bindgen(js_name = describeRig)]
pub fn describe_rig(bytes: &[u8], name: &str) -> Result<JsValue, JsError> {
    let character = crate::io::import(bytes, name, &crate::Limits::default()).map_err(js_error)?;
    let skeleton = character
        .skeleton
        .as_ref()
        .ok_or_else(|| JsError::new(&format!("'{name}' has no skeleton")))?;
    let names: js_sys::Array = skeleton
        .joints
        .iter()
        .map(|j| JsValue::from_str(&j.name))
        .collect();
    let parents: Vec<i32> = skeleton
        .joints
        .iter()
        .map(|j| j.parent.map_or(-1, |p| p.0 as i32))
        .collect();
    let (offsets, joints, values) =
        character
            .skin
            .as_ref()
            .map(|s| s.to_rows())
            .unwrap_or((vec![0], vec![], vec![]));
    let weights = object(&[
        (
            "offsets",
            js_sys::Uint32Array::from(offsets.as_slice()).into(),
        ),
        (
            "joints",
            js_sys::Uint32Array::from(joints.as_slice()).into(),
        ),
        (
            "values",
            js_sys::Float32Array::from(values.as_slice()).into(),
        ),
    ])?;
    object(&[
        ("name", JsValue::from_str(&character.name)),
        ("names", names.into()),
        (
            "parents",
            js_sys::Int32Array::from(parents.as_slice()).into(),
        ),
        (
            "joints",
            js_sys::Float32Array::from(skeleton.flat_positions().as_slice()).into(),
        ),
        ("weights", weights),
        (
            "vertexCount",
            JsValue::from_f64(character.mesh.vertex_count() as f64),
        ),
    ])
}

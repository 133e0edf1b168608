//! The rig as the page's worker runs it: the core pipeline ([`crate::pipeline::rig_files`])
//! with the networks on this worker's device, each stage announced to a JS callback and timed.

use wasm_bindgen::prelude::*;

use super::{input_files, js_error, object};
use crate::compute::NetworksOn::{Cpu, FasterDevice};
use crate::io::InputFile;
use crate::pipeline::{Methods, RigRequest, StageTimes};

/// Reads the compiled-in template library and loads the networks on the CPU now, so that the
/// first rig does not wait for them (the page's rig worker calls this while the page is idle).
#[wasm_bindgen(js_name = warmRig)]
pub fn warm_rig() {
    #[cfg(feature = "templates")]
    let _ = crate::skeleton::Library::shared();
    // A failure here is the first rig's to report.
    let _ = super::device::networks(Cpu);
}

/// Whether rigging with `template` (or a given skeleton file) by `method` runs a network, so
/// the worker starts a GPU only when one will be used.
#[wasm_bindgen(js_name = rigRunsNetworks)]
pub fn rig_runs_networks(template: &str, method: &str, skeleton_given: bool) -> bool {
    Methods::named_run_networks(template, method, skeleton_given)
}

/// Rigs the files (as `loadFiles` reads them) with a `template` by name, or the skeleton of
/// the file `skeleton_name` (a rigged GLB/glTF/VRM or a BVH) adapted to the mesh, by `method`
/// (as the CLI's `--method`; the networks run on WebGPU when `on_gpu`, `initWebGpu`
/// succeeded here and the adapter is not a software one, else on the CPU). Resolves to `{ glb: Uint8Array, timings: { parse,
/// voxelise, skeleton, skin, export }, device, recognised }` (milliseconds; device "webgpu" or
/// "cpu" where a network ran, else ""; recognised, for template "auto", `{ plan, confidence,
/// riggedAs, template }` with template null where the free-form skeleton was fitted); `on_progress(stage)` hears each stage as it begins.
/// `spread`, when given, takes an array of encoded carry jobs and resolves to their answers
/// (helper workers running `answerCarryJob`): a template's bodies are then carried side by
/// side, to the same rig.
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
    spread: Option<js_sys::Function>,
) -> Result<JsValue, JsError> {
    let skeleton = skeleton_name.as_deref().zip(skeleton_bytes.as_deref());
    let request =
        RigRequest::named(&template, &method, max_influences, skeleton).map_err(js_error)?;
    let files = input_files(&names, &contents, "rigFiles")?;
    let (mut device, mut times) = ("", StageTimes::default());
    let networks = || {
        let on = if on_gpu { FasterDevice } else { Cpu };
        let (networks, used) = super::device::networks(on)?;
        device = used;
        Ok(networks)
    };
    let progress = |stage: crate::pipeline::Stage| {
        times.begin(stage, js_sys::Date::now());
        // A failing progress callback must not stop the rig.
        let _ = on_progress.call1(&JsValue::NULL, &JsValue::from_str(stage.name()));
    };
    let helpers = spread.map(super::spread::Helpers);
    let spread = helpers.as_ref().map(|h| h as &dyn crate::skeleton::Spread);
    let crate::pipeline::RiggedFiles { glb, report, .. } = crate::pipeline::rig_files(
        &InputFile::list(&files),
        &request,
        networks,
        spread,
        progress,
    )
    .await
    .map_err(js_error)?;
    let recognised = match &report.recognised {
        Some(r) => {
            let (best, confidence) = r.recognition.best();
            object(&[
                ("plan", JsValue::from_str(best.name())),
                ("confidence", JsValue::from(confidence)),
                ("riggedAs", JsValue::from_str(r.class.name())),
                (
                    "template",
                    r.template.map_or(JsValue::NULL, JsValue::from_str),
                ),
                ("bend", r.bend.map_or(JsValue::NULL, JsValue::from)),
            ])?
        }
        None => JsValue::NULL,
    };
    let timings = times.durations(js_sys::Date::now());
    let timings: Vec<_> = timings
        .iter()
        .map(|(s, ms)| (s.name(), JsValue::from(*ms)))
        .collect();
    object(&[
        ("timings", object(&timings)?),
        ("device", JsValue::from_str(device)),
        ("recognised", recognised),
        ("glb", js_sys::Uint8Array::from(glb.as_slice()).into()),
    ])
}

/// What an embedding page needs of a rigged file: `{ name, names, parents: Int32Array,
/// joints: Float32Array (x, y, z per joint), weights: { offsets, joints, values },
/// vertexCount, clips: [{ name, duration }] }` (durations in seconds).
#[wasm_bindgen(js_name = describeRig)]
pub fn describe_rig(bytes: &[u8], name: &str) -> Result<JsValue, JsError> {
    let character = crate::io::import(bytes, name, &crate::Limits::default()).map_err(js_error)?;
    let skeleton = (character.skeleton.as_ref())
        .ok_or_else(|| JsError::new(&format!("'{name}' has no skeleton")))?;
    let rows = |s: &crate::rig::SkinWeights| s.to_rows();
    let (offsets, joints, values) = character
        .skin
        .as_ref()
        .map_or((vec![0], vec![], vec![]), rows);
    let u32s = |v: &[u32]| -> JsValue { js_sys::Uint32Array::from(v).into() };
    let f32s = |v: &[f32]| -> JsValue { js_sys::Float32Array::from(v).into() };
    let names: js_sys::Array = skeleton.names().iter().map(JsValue::from).collect();
    let clips: js_sys::Array = (character.animations.iter())
        .map(|clip| {
            object(&[
                ("name", JsValue::from_str(&clip.name)),
                ("duration", JsValue::from(clip.duration())),
            ])
        })
        .collect::<Result<_, _>>()?;
    let weights = object(&[
        ("offsets", u32s(&offsets)),
        ("joints", u32s(&joints)),
        ("values", f32s(&values)),
    ])?;
    object(&[
        ("name", JsValue::from_str(&character.name)),
        ("names", names.into()),
        (
            "parents",
            js_sys::Int32Array::from(&skeleton.parent_indices()[..]).into(),
        ),
        ("joints", f32s(&skeleton.flat_positions())),
        ("weights", weights),
        ("vertexCount", JsValue::from(character.mesh.vertex_count())),
        ("clips", clips.into()),
    ])
}

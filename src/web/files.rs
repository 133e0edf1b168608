//! The embedding API's operations on a rigged file, without a viewport (`Rigger.skin`,
//! `animate` and `export` in `rigkit-embed.js`, run on its worker): the core's
//! [`crate::pipeline`] on the bytes handed over, errors as the JS errors the caller sees.

use wasm_bindgen::prelude::*;

use super::{input_files, js_error};
use crate::compute::NetworksOn::{Cpu, FasterDevice};
use crate::document::Document;
use crate::export::OutputFormat;
use crate::io::InputFile;
use crate::pipeline::{Method, MotionSource, animate_files, convert_files};
use crate::rig::BoneNames;

/// The files (as `rigFiles` takes them) with new skin weights for their own skeleton, by
/// `method` (`"geometric"` or `"neural"`; the skinning head on WebGPU when `on_gpu` and
/// `initWebGpu` succeeded here); skeleton, names and clips kept. Resolves to the GLB;
/// `on_progress(stage)` hears parse, skin and export.
#[wasm_bindgen(js_name = skinFiles)]
pub async fn skin_files(
    names: Vec<String>,
    contents: Vec<js_sys::Uint8Array>,
    method: String,
    max_influences: usize,
    on_gpu: bool,
    on_progress: js_sys::Function,
) -> Result<Vec<u8>, JsError> {
    let method: Method = method
        .parse()
        .map_err(|e: crate::UnknownName| JsError::new(&e.to_string()))?;
    let files = input_files(&names, &contents, "skinFiles")?;
    let networks = || super::device::networks(if on_gpu { FasterDevice } else { Cpu }).map(|n| n.0);
    let progress = |stage: crate::pipeline::Stage| {
        // A failing progress callback must not stop the skinning.
        let _ = on_progress.call1(&JsValue::NULL, &JsValue::from_str(stage.name()));
    };
    crate::pipeline::skin_files(
        &InputFile::list(&files),
        method,
        max_influences,
        networks,
        progress,
    )
    .await
    .map_err(js_error)
}

/// The rigged GLB `glb` (named `name`) with a motion added (replacing a clip of the same
/// name): the generated motion `motion` ("walk", "idle", …), or, with `clip_bytes`, the file
/// named `motion` — a BVH capture or a rigged GLB/glTF/VRM's first clip — retargeted onto its
/// skeleton. Written as a GLB with `max_influences` weights per vertex.
#[wasm_bindgen(js_name = animateRig)]
pub fn animate_rig(
    glb: &[u8],
    name: &str,
    motion: &str,
    clip_bytes: Option<Vec<u8>>,
    max_influences: usize,
) -> Result<Vec<u8>, JsError> {
    let motion = match &clip_bytes {
        Some(bytes) => MotionSource::File(InputFile {
            name: motion,
            bytes,
        }),
        None => MotionSource::Named(motion),
    };
    let rig = [InputFile { name, bytes: glb }];
    animate_files(&rig, motion, max_influences).map_err(js_error)
}

/// The rigged GLB `glb` written as `format` (`"glb"`, `"fbx"` or `"vrm"`), clips included,
/// its humanoid joints renamed in the file to `bone_names` (`"mixamo"`, `"unity"`,
/// `"unreal"`, `"vrm"`; empty or absent: as they are), with corrective shapes keyed in every
/// clip when `correctives`.
#[wasm_bindgen(js_name = convertRig)]
pub fn convert_rig(
    glb: &[u8],
    name: &str,
    format: &str,
    max_influences: usize,
    bone_names: Option<String>,
    correctives: bool,
) -> Result<Vec<u8>, JsError> {
    let (format, bone_names) = export_request(format, bone_names.as_deref())?;
    let rig = [InputFile { name, bytes: glb }];
    convert_files(&rig, format, max_influences, bone_names, correctives).map_err(js_error)
}

/// What the page's download and `convertRig` write: `doc`'s character as `format`, its
/// humanoid joints renamed to `bone_names` where given.
pub(crate) fn export_as(
    doc: &Document,
    format: &str,
    max_influences: usize,
    bone_names: Option<&str>,
) -> Result<Vec<u8>, JsError> {
    match export_request(format, bone_names)? {
        (format, None) => doc.export(format, max_influences),
        (format, Some(names)) => doc
            .export_named(format, max_influences, names)
            .map(|(bytes, _)| bytes),
    }
    .map_err(js_error)
}

/// A format and bone naming as JS names them (`"glb"`, `"fbx"`, `"vrm"`; `"mixamo"`, …, or
/// empty for the names as they are), read or refused with the choices.
fn export_request(
    format: &str,
    bone_names: Option<&str>,
) -> Result<(OutputFormat, Option<BoneNames>), JsError> {
    let format: OutputFormat = format.parse().map_err(|e: String| JsError::new(&e))?;
    let names = match bone_names {
        None | Some("") => None,
        Some(names) => Some(
            names
                .parse()
                .map_err(|e: crate::UnknownName| JsError::new(&e.to_string()))?,
        ),
    };
    Ok((format, names))
}

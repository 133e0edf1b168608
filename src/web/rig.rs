//! The rig as the page's worker runs it: files in, a rigged GLB out, each stage announced to
//! a JS callback so the page can show progress. Runs off the main thread, so the page stays
//! responsive; the page shows the result by loading the GLB.

use wasm_bindgen::prelude::*;

use super::neural;
use crate::export::{ExportOptions, export_glb};
use crate::pipeline::{Method, Methods, Stage, refines, rig_character};
use crate::skeleton::{AutoOptions, Body, SkeletonSource, Template, skeleton_in};
use crate::skin::{SkinOptions, geodesic_skin};

/// Imports the files (as `loadFiles` does), fits a `template` skeleton (or the skeleton of
/// the file `skeleton_name`, a rigged GLB/glTF/VRM or a BVH, adapted to the mesh), skins it with at most
/// `max_influences` weights per vertex by `method` ("best", "geometric" or "neural", as the
/// CLI's `--method`; the networks run on WebGPU when `on_gpu` and `initWebGpu` succeeded here,
/// else on the CPU) and resolves to `{ glb: Uint8Array, timings: { parse, voxelise, skeleton,
/// skin, export }, device }` (milliseconds; device "webgpu" or "cpu" where a network ran, else
/// ""). `on_progress(stage)` hears "parse", "voxelise", "skeleton", "skin" and "export" as each
/// begins.
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
    let methods: Methods = method.parse().map_err(|e: String| JsError::new(&e))?;
    let source = match (skeleton_name, skeleton_bytes) {
        (Some(name), Some(bytes)) => SkeletonSource::Given(given_skeleton(&name, &bytes)?),
        _ => SkeletonSource::Template(
            template
                .parse::<Template>()
                .map_err(|e: String| JsError::new(&e))?,
        ),
    };
    let announce = |stage: &str| {
        // A failing progress callback must not stop the rig.
        let _ = on_progress.call1(&JsValue::NULL, &JsValue::from_str(stage));
    };
    let mut clock = Laps::start();
    announce("parse");
    let mut character = super::import_js_files(&names, &contents, "rigFiles")?;
    let parse = clock.lap();
    let (mut voxelise_ms, mut skeleton_ms) = (0.0, 0.0);
    let mut device = "";
    let refine = methods.skeleton == Method::Neural && refines(&source);
    let learned_skin = methods.skin == Method::Neural;
    if !refine && !learned_skin {
        // No network has anything to do (geometric, or a template the skeleton head leaves).
        let geometric = Methods::all(Method::Geometric);
        rig_character(
            &mut character,
            &source,
            max_influences,
            geometric,
            |stage| {
                match stage {
                    Stage::Skeleton => voxelise_ms = clock.lap(),
                    Stage::Skin => skeleton_ms = clock.lap(),
                    Stage::Voxelise => {}
                }
                announce(stage.name());
            },
        )
        .map_err(|e| JsError::new(&e.to_string()))?;
    } else {
        // The same stages as `rig_character`, with the networks' results awaited.
        let (networks, used) = neural::networks(on_gpu)?;
        let mesh = &character.mesh;
        let options = AutoOptions::default();
        announce(Stage::Voxelise.name());
        let body = Body::of(mesh, &options).map_err(|e| JsError::new(&e.to_string()))?;
        voxelise_ms = clock.lap();
        announce(Stage::Skeleton.name());
        let mut skeleton = skeleton_in(mesh, &body, &source, &options)
            .map_err(|e| JsError::new(&e.to_string()))?;
        if refine {
            skeleton = neural::refine_skeleton(&networks, mesh, &skeleton).await?;
            device = used;
        }
        skeleton_ms = clock.lap();
        announce(Stage::Skin.name());
        let skin = if learned_skin {
            device = used;
            neural::skin(&networks, mesh, &skeleton, max_influences).await?
        } else {
            let options = SkinOptions {
                max_influences,
                ..SkinOptions::default()
            };
            geodesic_skin(mesh, &skeleton, &options).map_err(|e| JsError::new(&e.to_string()))?
        };
        character.skeleton = Some(skeleton);
        character.skin = Some(skin);
        character.animations.clear();
        character.humanoid.clear();
    }
    let skin = clock.lap();
    announce("export");
    let options = ExportOptions {
        max_influences,
        ..ExportOptions::default()
    };
    let glb = export_glb(&character, &options).map_err(|e| JsError::new(&e.to_string()))?;
    let export = clock.lap();
    let result = js_sys::Object::new();
    let timings = js_sys::Object::new();
    for (key, ms) in [
        ("parse", parse),
        ("voxelise", voxelise_ms),
        ("skeleton", skeleton_ms),
        ("skin", skin),
        ("export", export),
    ] {
        js_sys::Reflect::set(&timings, &key.into(), &ms.into())
            .map_err(|_| JsError::new("cannot build the timings"))?;
    }
    for (key, value) in [
        ("timings", timings.into()),
        ("device", JsValue::from_str(device)),
        ("glb", js_sys::Uint8Array::from(glb.as_slice()).into()),
    ] {
        js_sys::Reflect::set(&result, &key.into(), &value)
            .map_err(|_| JsError::new("cannot build the result"))?;
    }
    Ok(result.into())
}

/// Milliseconds between laps, from the JS clock (there is no `Instant` in the browser).
struct Laps {
    last: f64,
}

impl Laps {
    fn start() -> Self {
        Self {
            last: js_sys::Date::now(),
        }
    }

    fn lap(&mut self) -> f64 {
        let now = js_sys::Date::now();
        let ms = now - self.last;
        self.last = now;
        ms
    }
}

/// What an embedding page needs of a rigged file: `{ name, names, parents: Int32Array,
/// joints: Float32Array (x, y, z per joint), weights: { offsets, joints, values },
/// vertexCount }`.
#[wasm_bindgen(js_name = describeRig)]
pub fn describe_rig(bytes: &[u8], name: &str) -> Result<JsValue, JsError> {
    let character = crate::io::import(bytes, name, &crate::Limits::default())
        .map_err(|e| JsError::new(&e.to_string()))?;
    let skeleton = character
        .skeleton
        .as_ref()
        .ok_or_else(|| JsError::new(&format!("'{name}' has no skeleton")))?;
    let names = js_sys::Array::new();
    for joint in &skeleton.joints {
        names.push(&JsValue::from_str(&joint.name));
    }
    let parents: Vec<i32> = skeleton
        .joints
        .iter()
        .map(|j| j.parent.map_or(-1, |p| p.0 as i32))
        .collect();
    let (mut offsets, mut joints, mut values) = (vec![0u32], Vec::new(), Vec::new());
    if let Some(skin) = &character.skin {
        for v in 0..skin.vertex_count() {
            for i in skin.influences(v) {
                joints.push(i.joint.0);
                values.push(i.weight);
            }
            offsets.push(joints.len() as u32);
        }
    }
    let weights = js_sys::Object::new();
    let result = js_sys::Object::new();
    let set = |target: &js_sys::Object, key: &str, value: &JsValue| {
        js_sys::Reflect::set(target, &key.into(), value)
            .map(|_| ())
            .map_err(|_| JsError::new("cannot build the rig description"))
    };
    set(
        &weights,
        "offsets",
        &js_sys::Uint32Array::from(offsets.as_slice()).into(),
    )?;
    set(
        &weights,
        "joints",
        &js_sys::Uint32Array::from(joints.as_slice()).into(),
    )?;
    set(
        &weights,
        "values",
        &js_sys::Float32Array::from(values.as_slice()).into(),
    )?;
    set(&result, "name", &JsValue::from_str(&character.name))?;
    set(&result, "names", &names.into())?;
    set(
        &result,
        "parents",
        &js_sys::Int32Array::from(parents.as_slice()).into(),
    )?;
    set(
        &result,
        "joints",
        &js_sys::Float32Array::from(skeleton.flat_positions().as_slice()).into(),
    )?;
    set(&result, "weights", &weights.into())?;
    set(
        &result,
        "vertexCount",
        &JsValue::from_f64(character.mesh.vertex_count() as f64),
    )?;
    Ok(result.into())
}

/// The skeleton of a user's skeleton file: a rigged GLB/glTF/VRM or a BVH.
fn given_skeleton(name: &str, bytes: &[u8]) -> Result<crate::rig::Skeleton, JsError> {
    if name.to_ascii_lowercase().ends_with(".bvh") {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| JsError::new(&format!("'{name}' is not a text BVH file")))?;
        let bvh =
            crate::io::bvh::Bvh::parse(text, name).map_err(|e| JsError::new(&e.to_string()))?;
        return Ok(bvh.to_skeleton());
    }
    crate::io::import_skeleton(bytes, name, &crate::Limits::default())
        .map_err(|e| JsError::new(&e.to_string()))
}

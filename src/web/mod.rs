//! The wasm shell: wasm-bindgen bindings that hand browser bytes and pointer input to the
//! core's [`Document`] and pipeline, draw what changed, and turn results and errors into JS
//! values. State and policy live in the core; this layer only translates.

mod device;
mod edit;
mod files;
mod motion;
mod paint;
mod rig;
mod shapes;
mod spread;

use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};

use crate::document::{Change, Document, Opened};
use crate::io::InputFile;
use crate::view::Viewer;

#[wasm_bindgen(start)]
fn start() {
    // SAFETY: the linker's constructor runner (registries burn's GPU compiler fills through
    // `inventory`), called once, first, as the module's instantiation expects. A module that
    // never calls it is linked "command-style": wasm-ld then runs every constructor again at
    // the top of every export — each frame's tick, each carry job, each rig.
    unsafe { __wasm_call_ctors() };
    // A last resort: the core returns errors rather than panicking, but if it ever does, the
    // console should say where.
    console_error_panic_hook::set_once();
}

unsafe extern "C" {
    /// Synthesised by wasm-ld: runs the static constructors of every linked crate.
    fn __wasm_call_ctors();
}

/// Any core error as the JS error the page shows: its message, once, here.
pub(crate) fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A plain JS object with these properties.
pub(crate) fn object(entries: &[(&str, JsValue)]) -> Result<JsValue, JsError> {
    let target = js_sys::Object::new();
    for (key, value) in entries {
        js_sys::Reflect::set(&target, &(*key).into(), value)
            .map_err(|_| JsError::new("cannot build the result object"))?;
    }
    Ok(target.into())
}

/// Files handed over from JS as parallel name and byte arrays; `caller` names the API call.
pub(crate) fn input_files(
    names: &[String],
    contents: &[js_sys::Uint8Array],
    caller: &str,
) -> Result<Vec<(String, Vec<u8>)>, JsError> {
    if names.len() != contents.len() {
        return Err(JsError::new(&format!(
            "{caller}: one name per file is needed"
        )));
    }
    Ok(names
        .iter()
        .cloned()
        .zip(contents.iter().map(|c| c.to_vec()))
        .collect())
}

/// What opening files did, as the page reads it: `{ clip: index }` for a retargeted capture,
/// else the character's info with `needsRig` when it has no skeleton yet.
fn opened_object(opened: Opened) -> Result<JsValue, JsError> {
    let (info, needs_rig) = match opened {
        Opened::Clip { index } => return object(&[("clip", JsValue::from(index))]),
        Opened::Character { info, needs_rig } => (info, needs_rig),
    };
    let info = serde_wasm_bindgen::to_value(&info)?;
    js_sys::Reflect::set(&info, &"needsRig".into(), &needs_rig.into())
        .map_err(|_| JsError::new("cannot build the result object"))?;
    Ok(info)
}

/// One viewport on one canvas, and the document it shows.
#[wasm_bindgen]
pub struct App {
    viewer: Viewer,
    doc: Document,
}

impl App {
    /// Draws what `change` says changed.
    fn redraw(&mut self, change: Change) {
        self.viewer.present(&self.doc, change);
    }

    /// Runs `call` on the document and draws what it changed.
    fn update(&mut self, call: impl FnOnce(&mut Document) -> Change) -> Change {
        let change = call(&mut self.doc);
        self.redraw(change);
        change
    }

    /// Runs a fallible `call` on the document, draws what it changed, returns its value.
    fn call<T>(
        &mut self,
        call: impl FnOnce(&mut Document) -> Result<(T, Change), crate::Error>,
    ) -> Result<T, JsError> {
        self.timed(call).map(|(value, _)| value)
    }

    /// [`Self::call`], also returning the milliseconds the document took (edits re-skin).
    fn timed<T>(
        &mut self,
        call: impl FnOnce(&mut Document) -> Result<(T, Change), crate::Error>,
    ) -> Result<(T, f64), JsError> {
        let started = js_sys::Date::now();
        let (value, change) = call(&mut self.doc).map_err(js_error)?;
        let ms = js_sys::Date::now() - started;
        self.redraw(change);
        Ok((value, ms))
    }
}

#[wasm_bindgen]
impl App {
    /// Takes over `canvas`, whose WebGL2 context the page may already have created with the
    /// options it wants.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<App, JsError> {
        let gl = (canvas.get_context("webgl2").ok().flatten())
            .and_then(|c| c.dyn_into::<WebGl2RenderingContext>().ok())
            .ok_or_else(|| JsError::new("this browser cannot create a WebGL2 context"))?;
        let gl = three_d::context::Context::from_webgl2_context(gl);
        // three-d's API takes an `Arc`; the page is single-threaded, so nothing is shared.
        #[allow(clippy::arc_with_non_send_sync)]
        let context = three_d::Context::from_gl_context(Arc::new(gl))
            .map_err(|e| JsError::new(&format!("cannot start the 3D viewport: {e}")))?;
        let (viewer, doc) = (Viewer::new(context), Document::new());
        Ok(App { viewer, doc })
    }

    /// Imports files given together (one model, or a `.gltf` with its `.bin` files, an `.obj`
    /// with its `.mtl`) and shows the character; `names[i]` is the name of `contents[i]`.
    /// Returns its info (with `needsRig`); on error the current character stays.
    #[wasm_bindgen(js_name = loadFiles)]
    pub fn load_files(
        &mut self,
        names: Vec<String>,
        contents: Vec<js_sys::Uint8Array>,
    ) -> Result<JsValue, JsError> {
        let files = input_files(&names, &contents, "loadFiles")?;
        opened_object(self.call(|doc| doc.load_files(&InputFile::list(&files)))?)
    }

    /// Opens files a user dropped or picked ([`Document::open`]: a capture plays on the
    /// character shown; anything else is a new character).
    #[wasm_bindgen(js_name = openFiles)]
    pub fn open_files(
        &mut self,
        names: Vec<String>,
        contents: Vec<js_sys::Uint8Array>,
    ) -> Result<JsValue, JsError> {
        let files = input_files(&names, &contents, "openFiles")?;
        opened_object(self.call(|doc| doc.open(&InputFile::list(&files)))?)
    }

    /// The character's vertex positions, flat `x, y, z, …`; empty when none is loaded.
    pub fn positions(&self) -> Vec<f32> {
        self.doc.flat_positions()
    }

    /// The joint positions at bind, flat `x, y, z, …`.
    #[wasm_bindgen(js_name = jointPositions)]
    pub fn joint_positions(&self) -> Vec<f32> {
        self.doc.joint_positions()
    }

    #[wasm_bindgen(js_name = jointNames)]
    pub fn joint_names(&self) -> Vec<String> {
        self.doc.joint_names()
    }

    /// The parent of every joint (-1 for roots), for the joint list and re-parenting.
    #[wasm_bindgen(js_name = jointParents)]
    pub fn joint_parents(&self) -> Vec<i32> {
        self.doc.joint_parents()
    }

    /// Joint `joint`'s weight on every vertex.
    #[wasm_bindgen(js_name = jointWeights)]
    pub fn joint_weights(&self, joint: u32) -> Vec<f32> {
        self.doc.joint_weights(joint)
    }

    pub fn render(&mut self, width: u32, height: u32) {
        self.viewer.render(width, height);
    }

    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.viewer.camera_mut().orbit(dx, dy);
    }

    pub fn zoom(&mut self, steps: f32) {
        self.viewer.camera_mut().zoom(steps);
    }

    pub fn pan(&mut self, dx: f32, dy: f32) {
        self.viewer.camera_mut().pan(dx, dy);
    }

    /// Paints joint `joint`'s skin weights as a heatmap; a negative index (or one without
    /// weights) shows the materials again.
    #[wasm_bindgen(js_name = showWeights)]
    pub fn show_weights(&mut self, joint: i32) {
        self.update(|doc| doc.show_weights(u32::try_from(joint).ok()));
    }

    /// The character as a rigged GLB, weights normalised to `max_influences` (4 or 8).
    #[wasm_bindgen(js_name = exportGlb)]
    pub fn export_glb(&self, max_influences: usize) -> Result<Vec<u8>, JsError> {
        self.doc.export_glb(max_influences).map_err(js_error)
    }

    /// The character as a rigged file in `format` (`"glb"`, `"fbx"` or `"vrm"`), its humanoid
    /// joints renamed in the file to `boneNames` (`"mixamo"`, `"unity"`, `"unreal"`, `"vrm"`;
    /// empty or absent: as they are).
    #[wasm_bindgen(js_name = exportAs)]
    pub fn export_as(
        &self,
        format: &str,
        max_influences: usize,
        #[wasm_bindgen(js_name = boneNames)] bone_names: Option<String>,
    ) -> Result<Vec<u8>, JsError> {
        files::export_as(&self.doc, format, max_influences, bone_names.as_deref())
    }

    /// Draws the mesh's edges over it, or not.
    #[wasm_bindgen(js_name = setWireframe)]
    pub fn set_wireframe(&mut self, on: bool) {
        if let Some(c) = self.doc.character() {
            self.viewer.set_wireframe(on, c);
        }
    }

    /// Shows the skeleton through the mesh (on) or lets the mesh hide it (off).
    #[wasm_bindgen(js_name = setXray)]
    pub fn set_xray(&mut self, on: bool) {
        self.viewer.set_xray(on, self.doc.skeleton());
        self.viewer.show_pose(&self.doc);
    }

    /// Frames the shown character again.
    pub fn frame(&mut self) {
        if let Some(c) = self.doc.character() {
            self.viewer.camera_mut().frame(&c.mesh.bounds());
        }
    }
}

//! The wasm shell: a thin wasm-bindgen layer that hands browser bytes and canvas input to the
//! core and turns its results and errors into JS values. No logic lives here.

mod compute;
mod edit;
mod motion;
mod neural;
mod rig;

use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};

use crate::io::InputFile;
use crate::view::Viewer;
use crate::{Character, Limits};

#[wasm_bindgen(start)]
fn start() {
    // A last resort: the core returns errors rather than panicking, but if it ever does, the
    // console should say where.
    console_error_panic_hook::set_once();
}

/// Imports files handed over from JS as parallel name and byte arrays (a `.gltf` with its
/// `.bin` files, an `.obj` with its `.mtl`); `caller` names the API call in errors.
fn import_js_files(
    names: &[String],
    contents: &[js_sys::Uint8Array],
    caller: &str,
) -> Result<Character, JsError> {
    if names.len() != contents.len() {
        return Err(JsError::new(&format!(
            "{caller}: one name per file is needed"
        )));
    }
    let bytes: Vec<Vec<u8>> = contents.iter().map(|c| c.to_vec()).collect();
    let files: Vec<InputFile<'_>> = names
        .iter()
        .zip(&bytes)
        .map(|(name, bytes)| InputFile { name, bytes })
        .collect();
    crate::io::import_files(&files, &Limits::default()).map_err(|e| JsError::new(&e.to_string()))
}

/// One viewport on one canvas, and the character it shows.
#[wasm_bindgen]
pub struct App {
    viewer: Viewer,
    character: Option<Character>,
    /// The clip being played (an index into the character's animations) and where in it.
    playing: Option<usize>,
    time: f32,
    /// Undo/redo of joint edits, and the joint being dragged with where it started.
    editor: crate::edit::RigEditor,
    dragging: Option<(crate::rig::JointId, glam::Vec3)>,
    /// The joint whose weights are painted, if any.
    heat: Option<crate::rig::JointId>,
    /// Pose mode: each joint's rotation on top of its rest pose; empty when not posing.
    pose_turns: Vec<glam::Quat>,
    /// The joint pose mode's rotation ring is on.
    gizmo: Option<u32>,
}

impl App {
    /// Shows the current pose again (the clip playing, or pose mode's turns) after the surface
    /// or the skeleton overlay was rebuilt at bind.
    fn repose(&mut self) {
        if self.playing.is_some() {
            self.pose(self.time);
        } else if !self.pose_turns.is_empty()
            && let Ok(skeleton) = self.skeleton()
        {
            self.show_pose(&skeleton);
        }
    }

    fn show(&mut self, character: Character) -> Result<JsValue, JsError> {
        let info = serde_wasm_bindgen::to_value(&character.info())?;
        self.viewer.show(&character);
        self.character = Some(character);
        self.playing = None;
        self.editor.clear();
        self.dragging = None;
        self.heat = None;
        self.pose_turns.clear();
        self.gizmo = None;
        self.viewer.set_gizmo(None, 0.0);
        Ok(info)
    }
}

#[wasm_bindgen]
impl App {
    /// Takes over `canvas`, whose WebGL2 context the page may already have created with the
    /// options it wants.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<App, JsError> {
        let gl = canvas
            .get_context("webgl2")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<WebGl2RenderingContext>().ok())
            .ok_or_else(|| JsError::new("this browser cannot create a WebGL2 context"))?;
        let gl = three_d::context::Context::from_webgl2_context(gl);
        // three-d's API takes an `Arc`; the page is single-threaded, so nothing is shared.
        #[allow(clippy::arc_with_non_send_sync)]
        let context = three_d::Context::from_gl_context(Arc::new(gl))
            .map_err(|e| JsError::new(&format!("cannot start the 3D viewport: {e}")))?;
        Ok(App {
            viewer: Viewer::new(context),
            character: None,
            playing: None,
            time: 0.0,
            editor: crate::edit::RigEditor::new(crate::skin::SkinOptions::default()),
            dragging: None,
            heat: None,
            pose_turns: Vec::new(),
            gizmo: None,
        })
    }

    /// Imports a file and shows it; returns its info. On error the current character stays.
    pub fn load(&mut self, bytes: &[u8], name: &str) -> Result<JsValue, JsError> {
        let character = crate::io::import(bytes, name, &Limits::default())
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.show(character)
    }

    /// Imports several files given together (a `.gltf` with its `.bin` files, an `.obj` with its
    /// `.mtl`) and shows the character; `names[i]` is the name of `contents[i]`.
    #[wasm_bindgen(js_name = loadFiles)]
    pub fn load_files(
        &mut self,
        names: Vec<String>,
        contents: Vec<js_sys::Uint8Array>,
    ) -> Result<JsValue, JsError> {
        let character = import_js_files(&names, &contents, "loadFiles")?;
        self.show(character)
    }

    /// The shown character's vertex positions, flat `x, y, z, …`; empty when none is loaded.
    pub fn positions(&self) -> Vec<f32> {
        self.character
            .as_ref()
            .map(|c| c.mesh.flat_positions())
            .unwrap_or_default()
    }

    /// The shown character's joint positions, flat `x, y, z, …`.
    #[wasm_bindgen(js_name = jointPositions)]
    pub fn joint_positions(&self) -> Vec<f32> {
        self.character
            .as_ref()
            .and_then(|c| c.skeleton.as_ref())
            .map(|s| s.flat_positions())
            .unwrap_or_default()
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

    /// The shown character's joint names, in joint order.
    #[wasm_bindgen(js_name = jointNames)]
    pub fn joint_names(&self) -> Vec<String> {
        self.character
            .as_ref()
            .and_then(|c| c.skeleton.as_ref())
            .map(|s| s.joints.iter().map(|j| j.name.clone()).collect())
            .unwrap_or_default()
    }

    /// Paints joint `joint`'s skin weights on the mesh as a heatmap; a negative index (or one
    /// without weights) shows the materials again.
    #[wasm_bindgen(js_name = showWeights)]
    pub fn show_weights(&mut self, joint: i32) {
        if let Some(c) = &self.character {
            let joint = u32::try_from(joint)
                .ok()
                .filter(|&j| {
                    c.skeleton
                        .as_ref()
                        .is_some_and(|s| (j as usize) < s.joints.len())
                })
                .map(crate::rig::JointId);
            self.viewer.show_weights(c, joint);
            self.heat = joint;
        }
        self.repose();
    }

    /// The shown character as a rigged GLB, weights normalised to `max_influences` (4 or 8).
    #[wasm_bindgen(js_name = exportGlb)]
    pub fn export_glb(&self, max_influences: usize) -> Result<Vec<u8>, JsError> {
        let c = self
            .character
            .as_ref()
            .ok_or_else(|| JsError::new("no character is loaded"))?;
        let options = crate::export::ExportOptions {
            max_influences,
            ..Default::default()
        };
        crate::export::export_glb(c, &options).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Draws the mesh's edges over it, or not.
    #[wasm_bindgen(js_name = setWireframe)]
    pub fn set_wireframe(&mut self, on: bool) {
        if let Some(c) = &self.character {
            self.viewer.set_wireframe(on, c);
        }
    }

    /// Shows the skeleton through the mesh (on) or lets the mesh hide it (off).
    #[wasm_bindgen(js_name = setXray)]
    pub fn set_xray(&mut self, on: bool) {
        if let Some(c) = &self.character {
            self.viewer.set_xray(on, c.skeleton.as_ref());
            self.repose();
        }
    }

    /// Frames the shown character again.
    pub fn frame(&mut self) {
        if let Some(c) = &self.character {
            self.viewer.camera_mut().frame(&c.mesh.bounds());
        }
    }
}

//! Motion in the page: the playable list, generated and retargeted clips, and playback, all
//! kept by the [`crate::document::Document`].

use wasm_bindgen::prelude::*;

use super::{App, js_error};

#[wasm_bindgen]
impl App {
    /// The character's clips and the generated motions its skeleton supports:
    /// `[{ name, kind: "clip" | "procedural", index, duration }]`.
    pub fn motions(&self) -> Result<JsValue, JsError> {
        Ok(serde_wasm_bindgen::to_value(&self.doc.motions())?)
    }

    /// Makes the generated motion `name`, adds it to the clips (so it is exported) and plays
    /// it; returns the clip's index.
    pub fn animate(&mut self, name: &str) -> Result<usize, JsError> {
        self.call(|doc| doc.animate(name))
    }

    /// Retargets a dropped BVH capture, or the first clip of a rigged GLB/glTF/VRM, onto the
    /// character; adds and plays it; returns the clip's index.
    #[wasm_bindgen(js_name = retargetFile)]
    pub fn retarget_file(&mut self, bytes: &[u8], name: &str) -> Result<usize, JsError> {
        self.call(|doc| doc.retarget_file(bytes, name))
    }

    /// Plays clip `index` from its start; returns its duration in seconds.
    pub fn play(&mut self, index: usize) -> Result<f32, JsError> {
        self.call(|doc| doc.play(index))
    }

    /// Shows the clip at `time` seconds from its start; without a clip, nothing.
    pub fn pose(&mut self, time: f32) {
        self.update(|doc| doc.seek(time));
    }

    /// Advances a playing clip by `seconds` of wall time; `true` when the pose moved.
    pub fn tick(&mut self, seconds: f32) -> bool {
        self.update(|doc| doc.tick(seconds)) != crate::document::Change::None
    }

    /// Starts or pauses the clip shown.
    #[wasm_bindgen(js_name = setPlaying)]
    pub fn set_playing(&mut self, on: bool) {
        self.doc.set_playing(on);
    }

    /// How fast clips play (1 is real time).
    #[wasm_bindgen(js_name = setSpeed)]
    pub fn set_speed(&mut self, speed: f32) -> Result<(), JsError> {
        self.doc.set_speed(speed).map_err(js_error)
    }

    /// `{ index, duration, time, speed, playing }` of the clip shown (`index` null at rest).
    pub fn playback(&self) -> Result<JsValue, JsError> {
        Ok(serde_wasm_bindgen::to_value(&self.doc.playback())?)
    }

    /// The vertices as posed, flat `x, y, z, …`; empty at rest. Skinned on the CPU with the
    /// weights and matrices the viewport's shader uses.
    #[wasm_bindgen(js_name = posedPositions)]
    pub fn posed_positions(&self) -> Vec<f32> {
        let posed = self
            .doc
            .character()
            .and_then(|c| self.viewer.posed_positions(c));
        crate::mesh::flatten(&posed.unwrap_or_default())
    }

    /// Shows the current pose skinned on the CPU (vertices and normals) instead of by the
    /// viewport's shader — the reference the GPU skinning is tested against.
    #[wasm_bindgen(js_name = bakePose)]
    pub fn bake_pose(&mut self) -> Result<(), JsError> {
        let c = self.doc.loaded().map_err(js_error)?;
        if self.viewer.bake(c) {
            Ok(())
        } else {
            Err(JsError::new("nothing is posed"))
        }
    }
}

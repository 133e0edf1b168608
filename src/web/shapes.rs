//! The shapes on the surface in the page: the character's own morph targets (a slider each)
//! and corrective shapes (on or off, live in every pose and clip); downloads carry both.

use wasm_bindgen::prelude::*;

use super::{App, object};

#[wasm_bindgen]
impl App {
    /// Turns correctives on (fitting them to the rig now) or off; returns
    /// `{ shapes, ms }`: how many corrective shapes there are and the fit's time.
    #[wasm_bindgen(js_name = setCorrectives)]
    pub fn set_correctives(&mut self, on: bool) -> Result<JsValue, JsError> {
        let (shapes, ms) = self.timed(|doc| doc.set_correctives(on))?;
        object(&[("shapes", JsValue::from(shapes)), ("ms", JsValue::from(ms))])
    }

    /// Paints the surface with how far correctives move each vertex in the pose shown (red at
    /// 1 % of the character's size), or as before.
    #[wasm_bindgen(js_name = showCorrectiveDifference)]
    pub fn show_corrective_difference(&mut self, on: bool) {
        if let Some(c) = self.doc.character() {
            self.viewer.show_difference(on, c);
        }
        self.viewer.show_pose(&self.doc);
    }

    /// The character's morph targets as shown: `[{ name, weight }]` (weights as the clip
    /// playing keys them, else their defaults).
    #[wasm_bindgen(js_name = morphTargets)]
    pub fn morph_targets(&self) -> Result<JsValue, JsError> {
        let weights = self.doc.morph_weights();
        let targets = self
            .doc
            .character()
            .map_or(&[][..], |c| &c.mesh.morph_targets[..]);
        let list = js_sys::Array::new();
        for (target, weight) in targets.iter().zip(weights) {
            list.push(&object(&[
                ("name", JsValue::from_str(&target.name)),
                ("weight", JsValue::from(weight)),
            ])?);
        }
        Ok(list.into())
    }

    /// Sets morph target `index`'s weight (shown unless a clip keys it, and downloaded).
    #[wasm_bindgen(js_name = setMorphWeight)]
    pub fn set_morph_weight(&mut self, index: usize, weight: f32) -> Result<(), JsError> {
        self.call(|doc| Ok(((), doc.set_morph_weight(index, weight)?)))
    }

    /// Whether correctives are on.
    #[wasm_bindgen(js_name = correctivesOn)]
    pub fn correctives_on(&self) -> bool {
        self.doc.correctives_on()
    }
}

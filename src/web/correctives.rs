//! Corrective shapes in the page: on or off, shown live in every pose and clip, and written
//! into the files the page exports.

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

    /// Whether correctives are on.
    #[wasm_bindgen(js_name = correctivesOn)]
    pub fn correctives_on(&self) -> bool {
        self.doc.correctives_on()
    }
}

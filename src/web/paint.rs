//! Weight painting in the page: the pointer's pixel becomes a point on the surface (through
//! the viewer's camera), and each dab there goes to the document, which keeps the undo.

use glam::Vec3;
use wasm_bindgen::prelude::*;

use super::App;
use crate::document::Change;
use crate::edit::{Brush, BrushMode};
use crate::rig::JointId;

#[wasm_bindgen]
impl App {
    /// The point of the character's surface (at rest) under the pointer at `x`, `y` of a
    /// `width` × `height` viewport, `[x, y, z]`, or `undefined` off the character.
    #[wasm_bindgen(js_name = pickSurface)]
    pub fn pick_surface(&self, x: f32, y: f32, width: f32, height: f32) -> Option<Vec<f32>> {
        let c = self.doc.character()?;
        let (origin, direction) = self.viewer.camera().ray(x, y, width, height);
        c.mesh
            .ray_hit(origin, direction)
            .map(|p| p.to_array().to_vec())
    }

    /// How many pixels a brush of `radius` (a share of the character's size) spans at the
    /// surface point `x, y, z` on a `width` × `height` viewport: its outline's size.
    #[wasm_bindgen(js_name = screenRadius)]
    pub fn screen_radius(
        &self,
        x: f32,
        y: f32,
        z: f32,
        radius: f32,
        width: f32,
        height: f32,
    ) -> f32 {
        let radius = radius * self.size();
        let camera = self.viewer.camera();
        let at = Vec3::new(x, y, z);
        let (_, right, _) = camera.view_axes();
        match (
            camera.screen_position(at, width, height),
            camera.screen_position(at + right * radius, width, height),
        ) {
            (Some(a), Some(b)) => a.distance(b),
            _ => 0.0,
        }
    }

    /// Paints one dab on `joint` at the surface point `x, y, z`: `mode` is add, subtract,
    /// smooth or blur; `radius` is a share of the character's size; `strength` 0 to 1;
    /// `mirror` paints the other side too. `newStroke` starts a stroke (one undo step).
    /// Returns how many vertices changed.
    #[allow(clippy::too_many_arguments)]
    pub fn paint(
        &mut self,
        joint: u32,
        mode: &str,
        x: f32,
        y: f32,
        z: f32,
        radius: f32,
        strength: f32,
        mirror: bool,
        #[wasm_bindgen(js_name = newStroke)] new_stroke: bool,
    ) -> Result<usize, JsError> {
        let mode = BrushMode::from_name(mode).ok_or_else(|| {
            JsError::new(&format!(
                "no brush '{mode}': the brushes are add, subtract, smooth and blur"
            ))
        })?;
        let size = self.size();
        let brush = Brush {
            joint: JointId(joint),
            mode,
            center: Vec3::new(x, y, z),
            radius: radius * size,
            strength,
            mirror,
        };
        self.call(|doc| doc.paint(&brush, new_stroke))
    }

    /// The character's longest side, which brush radii are shares of.
    fn size(&self) -> f32 {
        self.doc
            .character()
            .map_or(1.0, |c| c.mesh.bounds().longest_side())
    }

    /// Ends a stroke: the skinned mesh takes the painted weights for posing and playback.
    #[wasm_bindgen(js_name = endStroke)]
    pub fn end_stroke(&mut self) {
        self.redraw(Change::Rig);
    }
}

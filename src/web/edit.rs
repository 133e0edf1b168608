//! Editing and pose mode in the page: pointer pixels become moves and turns in the world
//! (through the viewer's camera), which the [`crate::document::Document`] applies.

use glam::Vec3;
use wasm_bindgen::prelude::*;

use super::App;
use crate::edit::Edit;
use crate::rig::JointId;

#[wasm_bindgen]
impl App {
    /// Each joint's position on a `width` × `height` viewport (pixels from the top-left, as
    /// shown: posed when a clip or pose is showing), flat `x, y, …`; NaN behind the camera.
    #[wasm_bindgen(js_name = jointScreenPositions)]
    pub fn joint_screen_positions(&self, width: f32, height: f32) -> Vec<f32> {
        let shown = self.doc.shown_joints();
        self.viewer
            .camera()
            .flat_screen_positions(&shown, width, height)
    }

    /// The joint nearest the pointer at `x`, `y` (within a few pixels), or -1.
    #[wasm_bindgen(js_name = pickJoint)]
    pub fn pick_joint(&self, x: f32, y: f32, width: f32, height: f32) -> i32 {
        let shown = self.doc.shown_joints();
        let picked = self.viewer.camera().pick(&shown, x, y, width, height);
        picked.map_or(-1, |j| j as i32)
    }

    /// Starts dragging `joint` (edit mode) until [`Self::end_drag`] makes the move one edit.
    #[wasm_bindgen(js_name = beginDrag)]
    pub fn begin_drag(&mut self, joint: u32) -> Result<(), JsError> {
        self.call(|doc| Ok(((), doc.begin_drag(joint)?)))
    }

    /// Moves the dragged joint by `dx`, `dy` pixels in the plane facing the camera (viewport
    /// `height` pixels tall); only the skeleton is redrawn until the drag ends.
    #[wasm_bindgen(js_name = dragJoint)]
    pub fn drag_joint(&mut self, dx: f32, dy: f32, height: f32) {
        let camera = self.viewer.camera().clone();
        self.update(|doc| doc.drag(|at| camera.drag_in_view_plane(at, dx, dy, height)));
    }

    /// Ends a drag: the move becomes an edit and the skin is recomputed. Returns the re-skin
    /// time in milliseconds.
    #[wasm_bindgen(js_name = endDrag)]
    pub fn end_drag(&mut self) -> Result<f64, JsError> {
        self.timed(|doc| Ok(((), doc.end_drag()?)))
            .map(|(_, ms)| ms)
    }

    /// Moves `joint` to (`x`, `y`, `z`) as one edit (for scripts); returns the re-skin time.
    #[wasm_bindgen(js_name = moveJoint)]
    pub fn move_joint(&mut self, joint: u32, x: f32, y: f32, z: f32) -> Result<f64, JsError> {
        let edit = self.doc.move_edit(JointId(joint), Vec3::new(x, y, z));
        self.timed(|doc| doc.edit(edit)).map(|(_, ms)| ms)
    }

    /// Recomputes the weights from the skeleton, replacing painted ones; returns the
    /// milliseconds it took.
    #[wasm_bindgen(js_name = recomputeWeights)]
    pub fn recompute_weights(&mut self) -> Result<f64, JsError> {
        self.timed(|doc| Ok(((), doc.recompute_weights()?)))
            .map(|(_, ms)| ms)
    }

    /// Whether the weights were painted by hand (joint edits then keep them).
    #[wasm_bindgen(js_name = weightsPainted)]
    pub fn weights_painted(&self) -> bool {
        self.doc.weights_painted()
    }

    /// X-mirror for joint moves: a moved joint's twin across the body moves with it.
    #[wasm_bindgen(js_name = setMirror)]
    pub fn set_mirror(&mut self, on: bool) {
        self.doc.set_mirror(on);
    }

    /// Adds a joint under `parent`, a little beyond it along its bone; returns its index.
    #[wasm_bindgen(js_name = addJoint)]
    pub fn add_joint(&mut self, parent: u32, name: &str) -> Result<u32, JsError> {
        self.call(|doc| doc.add_joint(parent, name)).map(|j| j.0)
    }

    #[wasm_bindgen(js_name = deleteJoint)]
    pub fn delete_joint(&mut self, joint: u32) -> Result<(), JsError> {
        let edit = Edit::Delete {
            joint: JointId(joint),
        };
        self.call(|doc| doc.edit(edit)).map(|_| ())
    }

    #[wasm_bindgen(js_name = renameJoint)]
    pub fn rename_joint(&mut self, joint: u32, name: &str) -> Result<(), JsError> {
        let edit = Edit::Rename {
            joint: JointId(joint),
            name: name.to_owned(),
        };
        self.call(|doc| doc.edit(edit)).map(|_| ())
    }

    /// Makes `parent` the parent of `joint`; returns the joint's new index.
    #[wasm_bindgen(js_name = reparentJoint)]
    pub fn reparent_joint(&mut self, joint: u32, parent: u32) -> Result<u32, JsError> {
        let edit = Edit::Reparent {
            joint: JointId(joint),
            parent: JointId(parent),
        };
        let applied = self.call(|doc| doc.edit(edit))?;
        Ok(applied.joint.map_or(joint, |j| j.0))
    }

    /// Prepares the mesh for quick re-skins (called on entering edit mode).
    #[wasm_bindgen(js_name = prepareEdits)]
    pub fn prepare_edits(&mut self) {
        self.doc.prepare_edits();
    }

    /// Steps back one edit; `false` when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        self.doc.undo().map(|c| self.redraw(c)).is_some()
    }

    pub fn redo(&mut self) -> bool {
        self.doc.redo().map(|c| self.redraw(c)).is_some()
    }

    /// Pose mode: turns `joint` by a drag of `dx`, `dy` pixels and shows the skinned result.
    #[wasm_bindgen(js_name = rotateJoint)]
    pub fn rotate_joint(&mut self, joint: u32, dx: f32, dy: f32) {
        let turn = self.viewer.camera().drag_turn(dx, dy);
        // A joint that does not exist turns nothing.
        let _ = self.call(|doc| Ok(((), doc.turn_joint(joint, turn)?)));
    }

    /// Pose mode, for scripts: turns `joint` by `degrees` about the world axis (`x`, `y`,
    /// `z`) on top of how it is posed now, and shows the skinned result.
    #[wasm_bindgen(js_name = turnJoint)]
    pub fn turn_joint(
        &mut self,
        joint: u32,
        x: f32,
        y: f32,
        z: f32,
        degrees: f32,
    ) -> Result<(), JsError> {
        let axis = Vec3::new(x, y, z).try_normalize().ok_or_else(|| {
            JsError::new("turnJoint: the axis must be a direction (x, y, z not all zero)")
        })?;
        let turn = glam::Quat::from_axis_angle(axis, degrees.to_radians());
        self.call(|doc| Ok(((), doc.turn_joint(joint, turn)?)))
    }

    /// Pose mode's rotation ring around `joint` (where it is shown), or none for -1.
    /// Shows the generated motion `name` at its farthest-from-rest moment as a test pose
    /// (pose mode's turns; nothing is added to the clips).
    #[wasm_bindgen(js_name = testPose)]
    pub fn test_pose(&mut self, name: &str) -> Result<(), JsError> {
        self.call(|doc| Ok(((), doc.test_pose(name)?)))
    }

    #[wasm_bindgen(js_name = showGizmo)]
    pub fn show_gizmo(&mut self, joint: i32) {
        let ring = self.doc.set_gizmo(u32::try_from(joint).ok());
        self.viewer
            .set_gizmo(ring.map(|(at, _)| at), ring.map_or(0.0, |(_, r)| r));
    }

    /// The joint pose mode's ring is on, or -1.
    #[wasm_bindgen(js_name = gizmoJoint)]
    pub fn gizmo_joint(&self) -> i32 {
        self.doc.gizmo().map_or(-1, |j| j.0 as i32)
    }

    /// Leaves pose mode (and playback): back to the bind pose.
    #[wasm_bindgen(js_name = resetPose)]
    pub fn reset_pose(&mut self) {
        self.viewer.set_gizmo(None, 0.0);
        self.update(|doc| doc.rest());
    }
}

//! Editing in the page: picking joints on screen, dragging them in the plane facing the
//! camera, adding, deleting, renaming and re-parenting them with undo/redo (each edit
//! re-skins), and pose mode — turning joints by hand with live skinning.

use glam::{Mat4, Quat, Vec3};
use wasm_bindgen::prelude::*;

use super::App;
use crate::anim::{rest_locals, skinning_matrices};
use crate::edit::Edit;
use crate::rig::{Joint, JointId, Skeleton};

/// How close (pixels) a pointer must be to a joint to pick it.
const PICK_RADIUS: f32 = 14.0;
/// Radians a joint turns per pixel dragged in pose mode.
const TURN_PER_PIXEL: f32 = 0.01;

fn error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl App {
    /// Each joint's position on a `width` × `height` viewport (pixels from the top-left, as
    /// shown: posed when a clip or pose is showing), flat `x, y, …`; NaN behind the camera.
    #[wasm_bindgen(js_name = jointScreenPositions)]
    pub fn joint_screen_positions(&self, width: f32, height: f32) -> Vec<f32> {
        let camera = self.viewer.camera();
        self.shown_joints()
            .iter()
            .flat_map(|p| {
                camera
                    .screen_position(*p, width, height)
                    .map_or([f32::NAN; 2], |s| s.to_array())
            })
            .collect()
    }

    /// The joint nearest the pointer at `x`, `y` (within a few pixels), or -1.
    #[wasm_bindgen(js_name = pickJoint)]
    pub fn pick_joint(&self, x: f32, y: f32, width: f32, height: f32) -> i32 {
        let screen = self.joint_screen_positions(width, height);
        let mut best = (-1, PICK_RADIUS);
        for (j, p) in screen.chunks_exact(2).enumerate() {
            let d = (p[0] - x).hypot(p[1] - y);
            if d < best.1 {
                best = (j as i32, d);
            }
        }
        best.0
    }

    /// The parent of every joint (-1 for roots), for the joint list and re-parenting.
    #[wasm_bindgen(js_name = jointParents)]
    pub fn joint_parents(&self) -> Vec<i32> {
        self.skeleton_ref()
            .map(|s| {
                s.joints
                    .iter()
                    .map(|j| j.parent.map_or(-1, |p| p.0 as i32))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Joint `joint`'s weight on every vertex.
    #[wasm_bindgen(js_name = jointWeights)]
    pub fn joint_weights(&self, joint: u32) -> Vec<f32> {
        let Some(c) = &self.character else {
            return Vec::new();
        };
        let Some(skin) = &c.skin else {
            return vec![0.0; c.mesh.vertex_count()];
        };
        (0..c.mesh.vertex_count())
            .map(|v| {
                skin.influences(v)
                    .iter()
                    .filter(|i| i.joint.0 == joint)
                    .map(|i| i.weight)
                    .sum()
            })
            .collect()
    }

    /// Starts dragging `joint` (edit mode): it follows [`Self::drag_joint`] until
    /// [`Self::end_drag`] makes the move one undoable edit.
    #[wasm_bindgen(js_name = beginDrag)]
    pub fn begin_drag(&mut self, joint: u32) -> Result<(), JsError> {
        let skeleton = self
            .skeleton_ref()
            .ok_or_else(|| error("no skeleton to edit"))?;
        let at = skeleton
            .joint(JointId(joint))
            .ok_or_else(|| error(format!("there is no joint {joint}")))?
            .position();
        self.stop_motion();
        self.dragging = Some((JointId(joint), at));
        Ok(())
    }

    /// Moves the dragged joint by `dx`, `dy` pixels in the plane facing the camera (viewport
    /// `height` pixels tall); only the skeleton is redrawn until the drag ends.
    #[wasm_bindgen(js_name = dragJoint)]
    pub fn drag_joint(&mut self, dx: f32, dy: f32, height: f32) {
        let Some((joint, _)) = self.dragging else {
            return;
        };
        let camera = self.viewer.camera().clone();
        let Some(c) = self.character.as_mut() else {
            return;
        };
        let Some(skeleton) = c.skeleton.as_mut() else {
            return;
        };
        let at = skeleton.joints[joint.index()].position();
        let to = at + camera.drag_in_view_plane(at, dx, dy, height);
        skeleton.joints[joint.index()].world_bind.w_axis = to.extend(1.0);
        self.viewer.show_skeleton(c.skeleton.as_ref());
    }

    /// Ends a drag: the move becomes an edit and the skin is recomputed. Returns the re-skin
    /// time in milliseconds.
    #[wasm_bindgen(js_name = endDrag)]
    pub fn end_drag(&mut self) -> Result<f64, JsError> {
        let Some((joint, start)) = self.dragging.take() else {
            return Ok(0.0);
        };
        let c = self
            .character
            .as_mut()
            .ok_or_else(|| error("no character is loaded"))?;
        let skeleton = c
            .skeleton
            .as_mut()
            .ok_or_else(|| error("no skeleton to edit"))?;
        let to = skeleton.joints[joint.index()].position();
        skeleton.joints[joint.index()].world_bind.w_axis = start.extend(1.0);
        self.edit(Edit::Move { joint, to }).map(|(_, ms)| ms)
    }

    /// Moves `joint` to (`x`, `y`, `z`) as one edit (for scripts); returns the re-skin time.
    #[wasm_bindgen(js_name = moveJoint)]
    pub fn move_joint(&mut self, joint: u32, x: f32, y: f32, z: f32) -> Result<f64, JsError> {
        let to = Vec3::new(x, y, z);
        self.edit(Edit::Move {
            joint: JointId(joint),
            to,
        })
        .map(|(_, ms)| ms)
    }

    /// Adds a joint under `parent`, a little beyond it along its bone; returns its index.
    #[wasm_bindgen(js_name = addJoint)]
    pub fn add_joint(&mut self, parent: u32, name: &str) -> Result<u32, JsError> {
        let skeleton = self
            .skeleton_ref()
            .ok_or_else(|| error("no skeleton to edit"))?;
        let p = skeleton
            .joint(JointId(parent))
            .ok_or_else(|| error(format!("there is no joint {parent}")))?;
        let size = self
            .character
            .as_ref()
            .map_or(1.0, |c| c.mesh.bounds().diagonal());
        let along = p
            .parent
            .and_then(|g| skeleton.joint(g))
            .and_then(|g| (p.position() - g.position()).try_normalize())
            .unwrap_or(Vec3::Y);
        let at = p.position() + along * 0.08 * size;
        let name = if name.trim().is_empty() {
            format!("joint{}", skeleton.joints.len())
        } else {
            name.to_owned()
        };
        let (applied, _) = self.edit(Edit::Add {
            parent: JointId(parent),
            at,
            name,
        })?;
        Ok(applied.joint.map_or(0, |j| j.0))
    }

    #[wasm_bindgen(js_name = deleteJoint)]
    pub fn delete_joint(&mut self, joint: u32) -> Result<(), JsError> {
        self.edit(Edit::Delete {
            joint: JointId(joint),
        })
        .map(|_| ())
    }

    #[wasm_bindgen(js_name = renameJoint)]
    pub fn rename_joint(&mut self, joint: u32, name: &str) -> Result<(), JsError> {
        self.edit(Edit::Rename {
            joint: JointId(joint),
            name: name.to_owned(),
        })
        .map(|_| ())
    }

    /// Makes `parent` the parent of `joint`; returns the joint's new index.
    #[wasm_bindgen(js_name = reparentJoint)]
    pub fn reparent_joint(&mut self, joint: u32, parent: u32) -> Result<u32, JsError> {
        let (applied, _) = self.edit(Edit::Reparent {
            joint: JointId(joint),
            parent: JointId(parent),
        })?;
        Ok(applied.joint.map_or(joint, |j| j.0))
    }

    /// Prepares the mesh for quick re-skins (called on entering edit mode).
    #[wasm_bindgen(js_name = prepareEdits)]
    pub fn prepare_edits(&mut self) {
        if let Some(c) = &self.character {
            self.editor.prepare(c);
        }
    }

    /// Steps back one edit; `false` when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let Some(c) = self.character.as_mut() else {
            return false;
        };
        let done = self.editor.undo(c);
        if done {
            self.after_edit();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let Some(c) = self.character.as_mut() else {
            return false;
        };
        let done = self.editor.redo(c);
        if done {
            self.after_edit();
        }
        done
    }

    /// Pose mode: turns `joint` by a drag of `dx`, `dy` pixels (about the view axis and the
    /// camera's horizontal axis) and shows the skinned result at once.
    #[wasm_bindgen(js_name = rotateJoint)]
    pub fn rotate_joint(&mut self, joint: u32, dx: f32, dy: f32) {
        let Some(skeleton) = self.skeleton_ref().cloned() else {
            return;
        };
        if joint as usize >= skeleton.joints.len() {
            return;
        }
        self.playing = None;
        if self.pose_turns.len() != skeleton.joints.len() {
            self.pose_turns = vec![Quat::IDENTITY; skeleton.joints.len()];
        }
        let camera = self.viewer.camera();
        let view = camera.view_direction();
        let right = view.cross(Vec3::Y).normalize_or(Vec3::X);
        let world_turn = Quat::from_axis_angle(view, -dx * TURN_PER_PIXEL)
            * Quat::from_axis_angle(right, dy * TURN_PER_PIXEL);
        let world = self.posed_world(&skeleton);
        let (_, rotation, _) = world[joint as usize].to_scale_rotation_translation();
        // The world-space turn in the joint's current frame, on top of its pose.
        let local = rotation.inverse() * world_turn * rotation;
        let turn = &mut self.pose_turns[joint as usize];
        *turn = (*turn * local).normalize();
        self.show_pose(&skeleton);
    }

    /// Pose mode's rotation ring around `joint` (where it is shown), or none for -1.
    #[wasm_bindgen(js_name = showGizmo)]
    pub fn show_gizmo(&mut self, joint: i32) {
        let shown = self.shown_joints();
        let at = usize::try_from(joint)
            .ok()
            .and_then(|j| shown.get(j).copied());
        let size = self
            .character
            .as_ref()
            .map_or(1.0, |c| c.mesh.bounds().diagonal());
        self.gizmo = at.map(|_| joint as u32);
        self.viewer.set_gizmo(at, 0.05 * size);
    }

    /// The joint pose mode's ring is on, or -1.
    #[wasm_bindgen(js_name = gizmoJoint)]
    pub fn gizmo_joint(&self) -> i32 {
        self.gizmo.map_or(-1, |j| j as i32)
    }

    /// Leaves pose mode: back to the bind pose.
    #[wasm_bindgen(js_name = resetPose)]
    pub fn reset_pose(&mut self) {
        self.pose_turns.clear();
        self.gizmo = None;
        self.viewer.set_gizmo(None, 0.0);
        if let Some(c) = &self.character {
            self.viewer.refresh(c, self.heat);
        }
    }
}

impl App {
    fn skeleton_ref(&self) -> Option<&Skeleton> {
        self.character.as_ref().and_then(|c| c.skeleton.as_ref())
    }

    /// The joints where they are drawn: posed by the clip or pose mode, else at bind.
    fn shown_joints(&self) -> Vec<Vec3> {
        let Some(c) = &self.character else {
            return Vec::new();
        };
        let Some(skeleton) = &c.skeleton else {
            return Vec::new();
        };
        if let Some(clip) = self
            .playing
            .and_then(|i| c.animations.get(i))
            .filter(|clip| clip.fits(skeleton))
        {
            let start = clip.times.first().copied().unwrap_or(0.0);
            return clip
                .world_at(skeleton, start + self.time)
                .iter()
                .map(|m| m.w_axis.truncate())
                .collect();
        }
        if self.pose_turns.len() == skeleton.joints.len() {
            return self
                .posed_world(skeleton)
                .iter()
                .map(|m| m.w_axis.truncate())
                .collect();
        }
        skeleton.joints.iter().map(Joint::position).collect()
    }

    /// Forward kinematics of the bind pose with pose mode's turns.
    fn posed_world(&self, skeleton: &Skeleton) -> Vec<Mat4> {
        let rest = rest_locals(skeleton);
        let mut world: Vec<Mat4> = Vec::with_capacity(skeleton.joints.len());
        for (j, joint) in skeleton.joints.iter().enumerate() {
            let mut local = rest[j];
            if let Some(turn) = self.pose_turns.get(j) {
                local.rotation = (local.rotation * *turn).normalize();
            }
            let parent = joint.parent.map_or(Mat4::IDENTITY, |p| world[p.index()]);
            world.push(parent * local.to_mat4());
        }
        world
    }

    pub(super) fn show_pose(&mut self, skeleton: &Skeleton) {
        let world = self.posed_world(skeleton);
        self.show_posed(skeleton, &world);
    }

    /// Shows the character with its joints at `world` (one matrix per joint of `skeleton`):
    /// the skeleton posed, the mesh skinned on the GPU.
    pub(super) fn show_posed(&mut self, skeleton: &Skeleton, world: &[Mat4]) {
        let Some(c) = &self.character else {
            return;
        };
        if c.skin.is_none() {
            return;
        }
        let skinning = skinning_matrices(skeleton, world);
        let posed = Skeleton {
            joints: skeleton
                .joints
                .iter()
                .zip(world)
                .map(|(j, m)| Joint {
                    world_bind: *m,
                    ..j.clone()
                })
                .collect(),
        };
        self.viewer.pose(c, &skinning, &posed);
    }

    /// The vertices as posed now, skinned on the CPU as the GPU draws them; `None` at rest.
    pub(super) fn posed_vertices(&self) -> Option<Vec<Vec3>> {
        self.viewer.posed_positions(self.character.as_ref()?)
    }

    fn stop_motion(&mut self) {
        if self.playing.take().is_some() || !self.pose_turns.is_empty() {
            self.pose_turns.clear();
            if let Some(c) = &self.character {
                self.viewer.refresh(c, self.heat);
            }
        }
    }

    /// Applies one edit and redraws; returns what it did and the milliseconds it took.
    fn edit(&mut self, edit: Edit) -> Result<(crate::edit::Applied, f64), JsError> {
        self.stop_motion();
        let c = self
            .character
            .as_mut()
            .ok_or_else(|| error("no character is loaded"))?;
        let started = js_sys::Date::now();
        let applied = self.editor.apply(c, edit).map_err(error)?;
        let ms = js_sys::Date::now() - started;
        self.after_edit();
        Ok((applied, ms))
    }

    /// Redraws after the rig changed; joint indices may have moved, so heatmap and pose reset
    /// when their joint is gone.
    fn after_edit(&mut self) {
        self.playing = None;
        self.pose_turns.clear();
        if let Some(c) = &self.character {
            let joints = c.skeleton.as_ref().map_or(0, |s| s.joints.len());
            self.heat = self.heat.filter(|j| j.index() < joints);
            self.viewer.refresh(c, self.heat);
        }
    }
}

//! The app's state, once, for every shell: the loaded character, its rig's edits with undo,
//! the joint being dragged, the weights shown, and the pose (a clip playing or joints turned
//! by hand). The page's wasm shell forwards calls here and redraws what each call says
//! changed ([`Change`]); native tests drive it directly.

mod correctives;
mod motion;
mod pose;
mod shapes;

use std::borrow::Cow;

use glam::Vec3;

use correctives::Correcting;
pub use correctives::fit_options;

pub use motion::{MotionInfo, MotionKind};
pub use pose::{Playback, Pose};
pub use shapes::Shapes;

use crate::edit::{Applied, Brush, Edit, RigEditor};
use crate::export::{ExportOptions, OutputFormat, export};
use crate::io::{InputFile, detect_format, import_files};
use crate::rig::{BoneNames, Joint, JointId, Skeleton, rename_humanoid};
use crate::skin::SkinOptions;
use crate::{Character, CharacterInfo, Error, Limits};

/// What opening files did.
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    /// A new character, shown; `needs_rig` when it came without a skeleton (rig it next).
    Character {
        info: CharacterInfo,
        needs_rig: bool,
    },
    /// A motion capture, retargeted onto the character shown and playing as clip `index`.
    Clip { index: usize },
}

/// What a call changed, so a viewer redraws only that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing to redraw.
    None,
    /// A new character: show it and frame it.
    Character,
    /// The rig changed (an edit, undo or redo): rebuild the surface and skeleton.
    Rig,
    /// Only the skeleton moved (a joint being dragged).
    Skeleton,
    /// The joint whose weights are painted changed.
    Weights,
    /// The pose changed (a clip frame, a turned joint, back to rest).
    Pose,
}

/// A joint being dragged: which, and where it started (restored if the drag is abandoned).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Drag {
    joint: JointId,
    from: Vec3,
}

/// One character being rigged, checked and animated.
pub struct Document {
    character: Option<Character>,
    editor: RigEditor,
    drag: Option<Drag>,
    /// The joint whose weights are painted, if any.
    heat: Option<JointId>,
    pose: Pose,
    /// The joint pose mode's rotation ring is on.
    gizmo: Option<JointId>,
    /// How fast clips play (1 is real time).
    speed: f32,
    /// X-mirror for joint moves: a moved joint's twin across the body moves with it.
    mirror: bool,
    /// Corrective shapes: shown in poses and written into exports when on.
    correcting: Correcting,
}

impl Default for Document {
    fn default() -> Self {
        Self::new()
    }
}

/// `character` as a file in `format`, its weights narrowed to `max_influences`.
fn write(
    character: &Character,
    format: OutputFormat,
    max_influences: usize,
) -> Result<Vec<u8>, Error> {
    let options = ExportOptions {
        max_influences,
        ..ExportOptions::default()
    };
    Ok(export(character, &options, format)?)
}

/// The error for a call that needs something the document does not have.
fn missing(what: &str) -> Error {
    Error::State(what.to_owned())
}

impl Document {
    pub fn new() -> Self {
        Self {
            character: None,
            editor: RigEditor::new(SkinOptions::default()),
            drag: None,
            heat: None,
            pose: Pose::Rest,
            gizmo: None,
            speed: 1.0,
            mirror: false,
            correcting: Correcting::default(),
        }
    }

    /// Replaces the character (everything about the previous one is forgotten).
    pub fn load(&mut self, character: Character) -> Change {
        *self = Self {
            character: Some(character),
            speed: self.speed,
            mirror: self.mirror,
            correcting: self.correcting.carried_over(),
            ..Self::new()
        };
        Change::Character
    }

    /// Opens files dropped or picked together. A motion capture (BVH) plays on the character
    /// shown; anything else is a new character (a `.gltf` with its `.bin` files, an `.obj`
    /// with its `.mtl`). On error nothing changes.
    ///
    /// # Errors
    /// As [`import_files`], or as [`Self::retarget_file`] for a capture.
    pub fn open(&mut self, files: &[InputFile<'_>]) -> Result<(Opened, Change), Error> {
        let capture = files
            .iter()
            .find(|f| detect_format(f.bytes, f.name).is_ok_and(|format| !format.has_mesh()));
        if let Some(capture) = capture {
            let (index, change) = self.retarget_file(capture.bytes, capture.name)?;
            return Ok((Opened::Clip { index }, change));
        }
        self.load_files(files)
    }

    /// Reads a character from files given together and shows it (see [`Self::open`] for
    /// files a user dropped, which may be a capture instead).
    ///
    /// # Errors
    /// As [`import_files`]; nothing changes then.
    pub fn load_files(&mut self, files: &[InputFile<'_>]) -> Result<(Opened, Change), Error> {
        let character = import_files(files, &Limits::default())?;
        let opened = Opened::Character {
            info: character.info(),
            needs_rig: character.skeleton.is_none(),
        };
        Ok((opened, self.load(character)))
    }

    /// The character's vertex positions, flat `x, y, z, …` (empty when none is loaded).
    pub fn flat_positions(&self) -> Vec<f32> {
        let mesh = self.character.as_ref().map(|c| &c.mesh);
        mesh.map(|m| m.flat_positions()).unwrap_or_default()
    }

    /// The skeleton's joint positions at bind, flat `x, y, z, …`.
    pub fn joint_positions(&self) -> Vec<f32> {
        self.skeleton()
            .map(Skeleton::flat_positions)
            .unwrap_or_default()
    }

    /// The joint names, in joint order.
    pub fn joint_names(&self) -> Vec<String> {
        self.skeleton().map(Skeleton::names).unwrap_or_default()
    }

    /// Each joint's parent index, -1 for roots.
    pub fn joint_parents(&self) -> Vec<i32> {
        self.skeleton()
            .map(Skeleton::parent_indices)
            .unwrap_or_default()
    }

    pub fn character(&self) -> Option<&Character> {
        self.character.as_ref()
    }

    pub fn skeleton(&self) -> Option<&Skeleton> {
        self.character.as_ref()?.skeleton.as_ref()
    }

    /// The character, or an error saying none is loaded.
    pub fn loaded(&self) -> Result<&Character, Error> {
        self.character
            .as_ref()
            .ok_or_else(|| missing("no character is loaded"))
    }

    /// The skeleton, or an error saying what to do first.
    pub fn rigged(&self) -> Result<&Skeleton, Error> {
        self.skeleton()
            .ok_or_else(|| missing("the character has no skeleton yet: rig it first"))
    }

    /// `joint` if the skeleton has it.
    pub fn joint(&self, joint: u32) -> Result<JointId, Error> {
        let skeleton = self.rigged()?;
        let id = JointId(joint);
        skeleton
            .joint(id)
            .map(|_| id)
            .ok_or_else(|| missing(&format!("there is no joint {joint}")))
    }

    /// The joint whose weights are painted.
    pub fn heat(&self) -> Option<JointId> {
        self.heat
    }

    /// Paints `joint`'s weights, or the materials again for `None` or a joint that does not
    /// exist.
    pub fn show_weights(&mut self, joint: Option<u32>) -> Change {
        self.heat = joint.and_then(|j| self.joint(j).ok());
        Change::Weights
    }

    /// Joint `joint`'s weight on every vertex (zeros without a skin).
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

    /// The character as a rigged GLB with at most `max_influences` (4 or 8) weights a vertex.
    ///
    /// # Errors
    /// When nothing is loaded, or as [`export_glb`].
    pub fn export_glb(&self, max_influences: usize) -> Result<Vec<u8>, Error> {
        self.export(OutputFormat::Glb, max_influences)
    }

    /// The character as a rigged file in `format` (GLB or FBX), its clips included.
    ///
    /// # Errors
    /// When nothing is loaded, or as [`export`].
    pub fn export(&self, format: OutputFormat, max_influences: usize) -> Result<Vec<u8>, Error> {
        write(&*self.exported()?, format, max_influences)
    }

    /// The character as files get it: with its corrective shapes when they are on.
    fn exported(&self) -> Result<Cow<'_, Character>, Error> {
        let character = self.loaded()?;
        // A character correctives cannot be fitted to (not rigged) is written as it is.
        Ok(match self.correctives().ok().flatten() {
            Some(correctives) => {
                let mut character = character.clone();
                crate::correctives::write_correctives(&mut character, correctives);
                Cow::Owned(character)
            }
            None => Cow::Borrowed(character),
        })
    }

    /// The character as [`Self::export`] writes it, its humanoid joints renamed to `names`
    /// (Mixamo, Unity, Unreal or VRM) in the file only; returns the file and how many joints
    /// were renamed (none for a body that is not a humanoid).
    ///
    /// # Errors
    /// As [`Self::export`].
    pub fn export_named(
        &self,
        format: OutputFormat,
        max_influences: usize,
        names: BoneNames,
    ) -> Result<(Vec<u8>, usize), Error> {
        let mut character = self.exported()?.into_owned();
        let renamed = character
            .skeleton
            .as_mut()
            .map_or(0, |skeleton| rename_humanoid(skeleton, names));
        Ok((write(&character, format, max_influences)?, renamed))
    }

    /// The character's size, which new joints and the rotation ring are placed in proportion to.
    fn size(&self) -> f32 {
        self.character
            .as_ref()
            .map_or(1.0, |c| c.mesh.bounds().diagonal())
    }

    /// Starts dragging `joint`: it follows [`Self::drag`] until [`Self::end_drag`] makes the
    /// move one undoable edit. Playback and pose mode stop.
    ///
    /// # Errors
    /// When there is no such joint.
    pub fn begin_drag(&mut self, joint: u32) -> Result<Change, Error> {
        let id = self.joint(joint)?;
        let from = self.rigged()?.joints[id.index()].position();
        self.cancel_drag();
        let change = self.rest();
        self.drag = Some(Drag { joint: id, from });
        Ok(change)
    }

    /// Moves the dragged joint by `by(where it is now)` (the shell turns pointer pixels into a
    /// move in the world); only the skeleton needs redrawing until the drag ends.
    pub fn drag(&mut self, by: impl FnOnce(Vec3) -> Vec3) -> Change {
        let Some(drag) = self.drag else {
            return Change::None;
        };
        let Some(joint) = self.joint_mut(drag.joint) else {
            self.drag = None;
            return Change::None;
        };
        let at = joint.position();
        joint.world_bind.w_axis = (at + by(at)).extend(1.0);
        Change::Skeleton
    }

    /// Ends a drag: the move becomes one edit and the skin is recomputed.
    ///
    /// # Errors
    /// As [`Self::edit`]; the joint goes back where it started.
    pub fn end_drag(&mut self) -> Result<Change, Error> {
        let Some(drag) = self.drag else {
            return Ok(Change::None);
        };
        let to = self
            .skeleton()
            .and_then(|s| s.joint(drag.joint))
            .map(|j| j.position());
        self.cancel_drag();
        match to {
            Some(to) => self
                .edit(self.move_edit(drag.joint, to))
                .map(|(_, change)| change),
            None => Ok(Change::Skeleton),
        }
    }

    /// Recomputes the weights from the skeleton, replacing painted ones (one undo step).
    ///
    /// # Errors
    /// As [`Self::edit`].
    pub fn recompute_weights(&mut self) -> Result<Change, Error> {
        self.edit(Edit::Reskin).map(|(_, change)| change)
    }

    /// Whether the weights were painted by hand: edits then keep them.
    pub fn weights_painted(&self) -> bool {
        self.editor.painted()
    }

    /// Turns X-mirror for joint moves on or off (it stays across characters).
    pub fn set_mirror(&mut self, on: bool) {
        self.mirror = on;
    }

    /// The edit that moves `joint` to `to`: mirrored when X-mirror is on.
    pub fn move_edit(&self, joint: JointId, to: Vec3) -> Edit {
        if self.mirror {
            Edit::MirroredMove { joint, to }
        } else {
            Edit::Move { joint, to }
        }
    }

    /// Puts a dragged joint back where the drag started and forgets the drag.
    fn cancel_drag(&mut self) {
        let Some(drag) = self.drag.take() else {
            return;
        };
        if let Some(joint) = self.joint_mut(drag.joint) {
            joint.world_bind.w_axis = drag.from.extend(1.0);
        }
    }

    /// Joint `id` of the skeleton, to move it; `None` when it is gone.
    fn joint_mut(&mut self, id: JointId) -> Option<&mut Joint> {
        let skeleton = self.character.as_mut()?.skeleton.as_mut()?;
        skeleton.joints.get_mut(id.index())
    }

    /// Applies one edit (re-skinning) as an undoable step; returns what it did.
    ///
    /// # Errors
    /// When nothing is loaded, or the edit is refused ([`crate::edit::EditError`]); nothing
    /// changes then.
    pub fn edit(&mut self, edit: Edit) -> Result<(Applied, Change), Error> {
        self.cancel_drag();
        let c = self
            .character
            .as_mut()
            .ok_or_else(|| missing("no character is loaded"))?;
        let applied = self.editor.apply(c, edit)?;
        Ok((applied, self.after_edit()))
    }

    /// Adds a joint under `parent`, a little beyond it along its bone (named `joint<N>` when
    /// `name` is blank); returns its index.
    ///
    /// # Errors
    /// As [`Self::edit`], or when `parent` does not exist.
    pub fn add_joint(&mut self, parent: u32, name: &str) -> Result<(JointId, Change), Error> {
        let parent = self.joint(parent)?;
        let skeleton = self.rigged()?;
        let p = &skeleton.joints[parent.index()];
        let along = p
            .parent
            .and_then(|g| skeleton.joint(g))
            .and_then(|g| (p.position() - g.position()).try_normalize())
            .unwrap_or(Vec3::Y);
        let at = p.position() + along * 0.08 * self.size();
        let name = if name.trim().is_empty() {
            format!("joint{}", skeleton.joints.len())
        } else {
            name.to_owned()
        };
        let (applied, change) = self.edit(Edit::Add { parent, at, name })?;
        Ok((applied.joint.unwrap_or(parent), change))
    }

    /// Prepares the mesh for quick re-skins (entering edit mode).
    pub fn prepare_edits(&mut self) {
        if let Some(c) = &self.character {
            self.editor.prepare(c);
        }
    }

    /// Steps back one edit (abandoning a drag first); `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<Change> {
        self.cancel_drag();
        let c = self.character.as_mut()?;
        self.editor.undo(c).then(|| self.after_edit())
    }

    /// Re-applies the last undone edit; `None` when there is none.
    pub fn redo(&mut self) -> Option<Change> {
        self.cancel_drag();
        let c = self.character.as_mut()?;
        self.editor.redo(c).then(|| self.after_edit())
    }

    /// Paints one dab of `brush` into the weights and shows the painted joint's heatmap; the
    /// first dab of a stroke (`new_stroke`) is one undo step with the rest of the stroke.
    /// Returns how many vertices changed.
    ///
    /// # Errors
    /// When nothing rigged is loaded, or the brush is invalid (see [`crate::edit::paint`]).
    pub fn paint(&mut self, brush: &Brush, new_stroke: bool) -> Result<(usize, Change), Error> {
        self.cancel_drag();
        let c = self
            .character
            .as_mut()
            .ok_or_else(|| missing("no character is loaded"))?;
        let changed = self.editor.paint(c, brush, new_stroke)?;
        self.correcting.rig_changed();
        self.heat = Some(brush.joint);
        Ok((changed, Change::Weights))
    }

    /// After the rig changed: joint indices may have moved, so the pose ends and the heatmap
    /// and ring go when their joint is gone.
    fn after_edit(&mut self) -> Change {
        self.pose = Pose::Rest;
        self.correcting.rig_changed();
        let joints = self.skeleton().map_or(0, |s| s.joints.len());
        self.heat = self.heat.filter(|j| j.index() < joints);
        self.gizmo = self.gizmo.filter(|j| j.index() < joints);
        Change::Rig
    }
}

//! Editing a rig by hand: joint edits with re-skinning (X-mirrored if asked), weight
//! painting, and undo/redo over both. The page's joint dragging, adding, deleting,
//! renaming, re-parenting and painting all go through [`RigEditor`].

mod mirror;
mod paint;
mod skeleton_edits;

pub use mirror::MirrorPlane;
pub use paint::{Brush, BrushMode, MAX_PAINTED_INFLUENCES, paint};

pub use skeleton_edits::{
    EditError, add_joint, delete_joint, move_joint, remove_joints, rename_joint, reparent_joint,
};

use glam::Vec3;

use crate::Character;
use crate::rig::{JointId, Skeleton, SkinWeights};
use crate::skin::{PreparedMesh, SkinOptions};

/// Most steps kept for undo; older ones are forgotten.
pub const MAX_UNDO: usize = 100;

/// One change to a rig.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    Move {
        joint: JointId,
        to: Vec3,
    },
    /// A move with X-mirror on: the joint's twin across the body's middle ([`MirrorPlane`])
    /// moves to the reflection of `to`; a joint on the middle line, or without a twin, moves
    /// alone.
    MirroredMove {
        joint: JointId,
        to: Vec3,
    },
    Add {
        parent: JointId,
        at: Vec3,
        name: String,
    },
    Delete {
        joint: JointId,
    },
    Rename {
        joint: JointId,
        name: String,
    },
    Reparent {
        joint: JointId,
        parent: JointId,
    },
    /// Recomputes the weights from the skeleton, replacing painted ones.
    Reskin,
}

impl Edit {
    /// Whether the skin must be recomputed after it (a rename changes no weight).
    fn reskins(&self) -> bool {
        !matches!(self, Edit::Rename { .. })
    }
}

/// A rig as it was: what undo brings back.
#[derive(Debug, Clone)]
struct Snapshot {
    skeleton: Option<Skeleton>,
    skin: Option<SkinWeights>,
    animations: Vec<crate::rig::Clip>,
    painted: bool,
}

impl Snapshot {
    fn of(c: &Character, painted: bool) -> Self {
        Self {
            skeleton: c.skeleton.clone(),
            skin: c.skin.clone(),
            animations: c.animations.clone(),
            painted,
        }
    }

    /// Puts the rig back; returns whether its weights were painted.
    fn restore(self, c: &mut Character) -> bool {
        c.skeleton = self.skeleton;
        c.skin = self.skin;
        c.animations = self.animations;
        self.painted
    }
}

/// The undo and redo stacks of one character's rig, and what re-skinning it after each edit
/// can reuse (the mesh does not change while its rig is edited).
#[derive(Default)]
pub struct RigEditor {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// How edits re-skin.
    pub skin: SkinOptions,
    prepared: Option<PreparedMesh>,
    /// Whether the weights were painted: edits then keep them rather than re-skin, until
    /// [`Edit::Reskin`].
    painted: bool,
}

/// What an edit did: the joint it concerns afterwards (new or moved in the order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    pub joint: Option<JointId>,
}

impl RigEditor {
    pub fn new(skin: SkinOptions) -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            skin,
            prepared: None,
            painted: false,
        }
    }

    /// Whether the weights were painted by hand (and edits keep them).
    pub fn painted(&self) -> bool {
        self.painted
    }

    /// Applies `edit` to `character` and re-skins it — unless its weights were painted, which
    /// edits then keep (a new joint moves nothing until painted or [`Edit::Reskin`]); on error
    /// nothing changes. Structural edits drop the character's clips, which no longer fit (undo
    /// brings them back).
    pub fn apply(&mut self, character: &mut Character, edit: Edit) -> Result<Applied, EditError> {
        let before = Snapshot::of(character, self.painted);
        let result = self.apply_inner(character, &edit);
        match result {
            Ok(applied) => {
                self.record(before);
                Ok(applied)
            }
            Err(e) => {
                before.restore(character);
                Err(e)
            }
        }
    }

    fn apply_inner(
        &mut self,
        character: &mut Character,
        edit: &Edit,
    ) -> Result<Applied, EditError> {
        let plane = MirrorPlane::of(&character.mesh);
        let skeleton = character.skeleton.as_mut().ok_or(EditError::NoSkeleton)?;
        let skin = character.skin.as_mut();
        let joint = match edit {
            Edit::Move { joint, to } => {
                move_joint(skeleton, *joint, *to)?;
                Some(*joint)
            }
            Edit::MirroredMove { joint, to } => {
                let twin = plane.twin(skeleton, *joint).filter(|t| t != joint);
                move_joint(skeleton, *joint, *to)?;
                if let Some(twin) = twin {
                    move_joint(skeleton, twin, plane.reflect(*to))?;
                }
                Some(*joint)
            }
            Edit::Add { parent, at, name } => Some(add_joint(skeleton, *parent, *at, name)?),
            Edit::Delete { joint } => {
                delete_joint(skeleton, skin, *joint)?;
                None
            }
            Edit::Rename { joint, name } => {
                rename_joint(skeleton, *joint, name)?;
                Some(*joint)
            }
            Edit::Reparent { joint, parent } => {
                Some(reparent_joint(skeleton, skin, *joint, *parent)?)
            }
            Edit::Reskin => None,
        };
        if matches!(
            edit,
            Edit::Add { .. } | Edit::Delete { .. } | Edit::Reparent { .. }
        ) {
            character.animations.clear();
        }
        if *edit == Edit::Reskin {
            self.painted = false;
        }
        if edit.reskins() && !self.painted {
            let skeleton = character.skeleton.as_ref().ok_or(EditError::NoSkeleton)?;
            // The mesh's solid and surface operators are prepared once. A mesh that cannot be
            // skinned keeps the carried-over weights.
            if self.prepared.is_none() {
                self.prepared = PreparedMesh::new(&character.mesh, &self.skin).ok();
            }
            // A move keeps the joints and their order, so unaffected heat solves are reused.
            let reuse = matches!(edit, Edit::Move { .. } | Edit::MirroredMove { .. });
            if let Some(prepared) = &self.prepared
                && let Ok((skin, _)) = prepared.skin(&character.mesh, skeleton, &self.skin, reuse)
            {
                character.skin = Some(skin);
            }
        }
        Ok(Applied { joint })
    }

    /// Paints one dab of `brush` into the character's weights. The first dab of a stroke
    /// (`new_stroke`) is where undo returns to, so a whole stroke undoes at once. On error
    /// nothing changes. Returns how many vertices changed.
    pub fn paint(
        &mut self,
        character: &mut Character,
        brush: &Brush,
        new_stroke: bool,
    ) -> Result<usize, EditError> {
        // A stroke's first dab keeps the rig as it was; `paint` checks everything before it
        // changes a weight, so on error there is nothing to undo.
        let before = new_stroke.then(|| Snapshot::of(character, self.painted));
        let skeleton = character.skeleton.as_ref().ok_or(EditError::NoSkeleton)?;
        let skin = character.skin.as_mut().ok_or(EditError::NoSkin)?;
        let changed = paint(&character.mesh, skeleton, skin, brush)?;
        if let Some(before) = before {
            self.record(before);
        }
        self.painted = true;
        Ok(changed)
    }

    /// Keeps `before` as the next undo step (forgetting the oldest past [`MAX_UNDO`]); a new
    /// change ends what could be redone.
    fn record(&mut self, before: Snapshot) {
        self.undo.push(before);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Prepares `character`'s mesh and heat solves ahead of the first edit (entering edit
    /// mode), so that the first drag is as quick as the ones after it.
    pub fn prepare(&mut self, character: &Character) {
        if self.prepared.is_some() {
            return;
        }
        self.prepared = PreparedMesh::new(&character.mesh, &self.skin).ok();
        // One solve for the current skeleton fills the heat cache that later moves reuse; the
        // character's own weights stay until an edit.
        if let (Some(prepared), Some(skeleton)) = (&self.prepared, &character.skeleton) {
            let _ = prepared.skin(&character.mesh, skeleton, &self.skin, false);
        }
    }

    /// Steps back one edit; `false` when there is none.
    pub fn undo(&mut self, character: &mut Character) -> bool {
        Self::step(&mut self.undo, &mut self.redo, &mut self.painted, character)
    }

    /// Re-applies the last undone edit; `false` when there is none.
    pub fn redo(&mut self, character: &mut Character) -> bool {
        Self::step(&mut self.redo, &mut self.undo, &mut self.painted, character)
    }

    /// Restores the last snapshot of `from`, keeping the state it replaces on `to`.
    fn step(
        from: &mut Vec<Snapshot>,
        to: &mut Vec<Snapshot>,
        painted: &mut bool,
        character: &mut Character,
    ) -> bool {
        let Some(snapshot) = from.pop() else {
            return false;
        };
        to.push(Snapshot::of(character, *painted));
        *painted = snapshot.restore(character);
        true
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets the history and the prepared mesh (a new character was loaded or rigged).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.prepared = None;
    }
}

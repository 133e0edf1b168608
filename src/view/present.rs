//! Drawing a [`Document`]: after each call the shell hands over what changed, and the viewer
//! rebuilds only that.

use glam::Mat4;

use super::Viewer;
use crate::anim::skinning_matrices;
use crate::document::{Change, Document};
use crate::rig::{Joint, Skeleton};

impl Viewer {
    /// Brings the picture up to date with `document` after `change`.
    pub fn present(&mut self, document: &Document, change: Change) {
        let Some(c) = document.character() else {
            return;
        };
        match change {
            Change::None => return,
            Change::Character => {
                self.show(c);
                self.set_gizmo(None, 0.0);
            }
            Change::Rig => self.refresh(c, document.heat()),
            Change::Skeleton => return self.show_skeleton(c.skeleton.as_ref()),
            Change::Weights => self.show_weights(c, document.heat()),
            Change::Pose => {}
        }
        self.show_pose(document);
    }

    /// Shows the document's pose: the mesh, moved by its shapes (morph targets and
    /// correctives), skinned on the GPU and the skeleton posed, or the bind pose (with the
    /// heatmap kept, and the morph targets) when nothing is posed.
    pub fn show_pose(&mut self, document: &Document) {
        let Some(c) = document.character() else {
            return;
        };
        let shape = document.shapes();
        let Some(world) = document.posed_world() else {
            if self.is_posed() {
                self.refresh(c, document.heat());
            }
            return self.shape_at_rest(c, &shape);
        };
        let (Some(skeleton), Some(_)) = (&c.skeleton, &c.skin) else {
            return self.shape_at_rest(c, &shape);
        };
        let skinning = skinning_matrices(skeleton, &world);
        self.pose(c, &skinning, &shape, &posed(skeleton, &world));
    }
}

/// `skeleton` with its joints at `world`.
fn posed(skeleton: &Skeleton, world: &[Mat4]) -> Skeleton {
    Skeleton {
        joints: skeleton
            .joints
            .iter()
            .zip(world)
            .map(|(j, m)| Joint {
                world_bind: *m,
                ..j.clone()
            })
            .collect(),
    }
}

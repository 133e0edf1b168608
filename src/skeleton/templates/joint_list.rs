use glam::{Mat4, Vec3};

use crate::rig::{Joint, JointId, Skeleton};
use crate::skeleton::curve::curves::{Path, length, point_at_length};

/// A skeleton being laid out by a template: joints added parents first, at world positions.
#[derive(Default)]
pub struct JointList {
    joints: Vec<Joint>,
}

impl JointList {
    pub fn add(&mut self, name: impl Into<String>, parent: Option<JointId>, at: Vec3) -> JointId {
        self.joints.push(Joint {
            name: name.into(),
            parent,
            world_bind: Mat4::from_translation(at),
        });
        JointId(self.joints.len() as u32 - 1)
    }

    /// Joints at `points`, each the child of the one before, the first under `parent`, named
    /// `name(k)` for k = 1, 2, …; returns the last (or `parent` for no points).
    pub fn add_chain(
        &mut self,
        name: impl Fn(usize) -> String,
        parent: Option<JointId>,
        points: &[Vec3],
    ) -> Option<JointId> {
        let mut last = parent;
        for (k, &p) in points.iter().enumerate() {
            last = Some(self.add(name(k + 1), last, p));
        }
        last
    }

    /// A limb: each `(name, position)` the child of the one before, the first under `parent`,
    /// each position moved by `inside`.
    pub fn add_limb(
        &mut self,
        parent: JointId,
        joints: &[(String, Vec3)],
        inside: &dyn Fn(Vec3) -> Vec3,
    ) {
        let mut last = parent;
        for (name, p) in joints {
            last = self.add(name.clone(), Some(last), inside(*p));
        }
    }

    /// A body: hips at `hips_at`, two spine joints a third and two thirds along `spine`, and
    /// the chest at `chest_at`, named `names` in that order, each the child of the one before
    /// and moved by `inside`; returns the hips and the chest.
    pub fn add_spine(
        &mut self,
        names: [&str; 4],
        spine: &Path,
        [hips_at, chest_at]: [Vec3; 2],
        inside: &dyn Fn(Vec3) -> Vec3,
    ) -> (JointId, JointId) {
        let spine_length = length(spine);
        let hips = self.add(names[0], None, inside(hips_at));
        let s1 = self.add(
            names[1],
            Some(hips),
            inside(point_at_length(spine, spine_length / 3.0)),
        );
        let s2 = self.add(
            names[2],
            Some(s1),
            inside(point_at_length(spine, 2.0 * spine_length / 3.0)),
        );
        let chest = self.add(names[3], Some(s2), inside(chest_at));
        (hips, chest)
    }

    pub fn finish(self) -> Skeleton {
        Skeleton {
            joints: self.joints,
        }
    }
}

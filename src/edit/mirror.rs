//! X-mirror editing: the body's middle plane, and the joint across it from another — what a
//! mirrored joint move or paint stroke acts on as well.

use glam::Vec3;

use crate::mesh::Mesh;
use crate::rig::{JointId, Skeleton};

/// A joint's twin must sit within this share of the body's size of its reflection.
const TWIN_TOLERANCE: f32 = 0.03;

/// The plane x = `middle` through the body's middle, which X-mirror edits reflect across.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MirrorPlane {
    pub middle: f32,
    /// How far from a joint's reflection its twin may sit.
    pub tolerance: f32,
}

impl MirrorPlane {
    /// The plane through the middle of `mesh`'s bounds.
    pub fn of(mesh: &Mesh) -> Self {
        let bounds = mesh.bounds();
        Self {
            middle: bounds.center().x,
            tolerance: TWIN_TOLERANCE * bounds.longest_side(),
        }
    }

    /// `p` reflected across the plane.
    pub fn reflect(&self, p: Vec3) -> Vec3 {
        Vec3::new(2.0 * self.middle - p.x, p.y, p.z)
    }

    /// The joint nearest `joint`'s reflection, if one sits within the tolerance of it: its
    /// twin on the other side, or `joint` itself when it lies on the middle line.
    pub fn twin(&self, skeleton: &Skeleton, joint: JointId) -> Option<JointId> {
        let target = self.reflect(skeleton.joint(joint)?.position());
        let (nearest, distance) = skeleton
            .joints
            .iter()
            .enumerate()
            .map(|(k, j)| (k, j.position().distance(target)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        (distance <= self.tolerance).then_some(JointId(nearest as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::Joint;
    use glam::Mat4;

    fn joint(name: &str, parent: Option<u32>, at: Vec3) -> Joint {
        Joint {
            name: name.to_owned(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(at),
        }
    }

    #[test]
    fn twins_are_found_across_the_middle_and_a_middle_joint_is_its_own() {
        let skeleton = Skeleton {
            joints: vec![
                joint("hips", None, Vec3::new(0.0, 1.0, 0.0)),
                joint("thigh.l", Some(0), Vec3::new(0.2, 0.9, 0.0)),
                joint("thigh.r", Some(0), Vec3::new(-0.2, 0.9, 0.01)),
                joint("tail", Some(0), Vec3::new(0.05, 1.0, -0.5)),
            ],
        };
        let plane = MirrorPlane {
            middle: 0.0,
            tolerance: 0.03,
        };
        assert_eq!(plane.twin(&skeleton, JointId(1)), Some(JointId(2)));
        assert_eq!(plane.twin(&skeleton, JointId(2)), Some(JointId(1)));
        assert_eq!(plane.twin(&skeleton, JointId(0)), Some(JointId(0)));
        // Off the middle with nothing across: no twin.
        assert_eq!(plane.twin(&skeleton, JointId(3)), None);
        assert_eq!(plane.twin(&skeleton, JointId(9)), None);
    }
}

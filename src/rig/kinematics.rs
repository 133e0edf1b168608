//! Forward kinematics, once for every hierarchy the crate walks: skeletons (parents first),
//! glTF node trees and BVH joint lists (visited in an order that puts parents first).

use glam::Mat4;

use super::Skeleton;

/// World matrices of a hierarchy of `count` nodes visited in `order` (each node after its
/// parent): `world_of(node, parent_world)` gives a node's world matrix from its parent's
/// (the identity for a root, and for a parent that is out of range or not visited yet, so a
/// malformed hierarchy degrades to roots instead of panicking). Nodes `order` skips stay at
/// the identity.
pub fn forward_kinematics(
    count: usize,
    order: impl IntoIterator<Item = usize>,
    parent_of: impl Fn(usize) -> Option<usize>,
    mut world_of: impl FnMut(usize, Mat4) -> Mat4,
) -> Vec<Mat4> {
    let mut world = vec![Mat4::IDENTITY; count];
    let mut visited = vec![false; count];
    for node in order {
        if node >= count {
            continue;
        }
        let parent = parent_of(node)
            .filter(|&p| p < count && visited[p])
            .map_or(Mat4::IDENTITY, |p| world[p]);
        world[node] = world_of(node, parent);
        visited[node] = true;
    }
    world
}

impl Skeleton {
    /// The joints' world matrices with each joint at `locals[j]` relative to its parent
    /// (joints without a local keep their parent's frame).
    pub fn world_from_locals(&self, locals: &[Mat4]) -> Vec<Mat4> {
        self.world_with(|j, parent| parent * locals.get(j).copied().unwrap_or(Mat4::IDENTITY))
    }

    /// The joints' world matrices, each computed by `world_of(joint, parent_world)`: forward
    /// kinematics where a joint's world frame is more than its parent's times a local.
    pub fn world_with(&self, world_of: impl FnMut(usize, Mat4) -> Mat4) -> Vec<Mat4> {
        forward_kinematics(
            self.joints.len(),
            0..self.joints.len(),
            |j| self.joints[j].parent.map(|p| p.index()),
            world_of,
        )
    }

    /// Each joint's matrix relative to its parent (parent⁻¹ × world) for world matrices
    /// `world`, one per joint: the inverse of [`Self::world_from_locals`].
    pub fn locals_from_world(&self, world: &[Mat4]) -> Vec<Mat4> {
        self.joints
            .iter()
            .zip(world)
            .map(|(joint, &w)| {
                let parent = joint
                    .parent
                    .and_then(|p| world.get(p.index()))
                    .copied()
                    .unwrap_or(Mat4::IDENTITY);
                parent.inverse() * w
            })
            .collect()
    }

    /// Each joint's bind matrices, one per joint.
    pub fn bind_world(&self) -> Vec<Mat4> {
        self.joints.iter().map(|j| j.world_bind).collect()
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::rig::{Joint, JointId};

    fn chain() -> Skeleton {
        let joint = |name: &str, parent: Option<u32>, y: f32| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::new(0.0, y, 0.0)),
        };
        Skeleton {
            joints: vec![
                joint("hips", None, 1.0),
                joint("spine", Some(0), 2.0),
                joint("head", Some(1), 3.0),
            ],
        }
    }

    #[test]
    fn locals_and_world_are_inverse() {
        let skeleton = chain();
        let bind = skeleton.bind_world();
        let locals = skeleton.locals_from_world(&bind);
        let world = skeleton.world_from_locals(&locals);
        for (a, b) in world.iter().zip(&bind) {
            assert!(a.abs_diff_eq(*b, 1e-6));
        }
    }

    #[test]
    fn a_parent_turn_carries_its_children() {
        let skeleton = chain();
        let mut locals = skeleton.locals_from_world(&skeleton.bind_world());
        locals[0] *= Mat4::from_quat(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
        let world = skeleton.world_from_locals(&locals);
        // Spine and head swing from up to −x about the hips at y = 1.
        assert!(
            world[2]
                .w_axis
                .truncate()
                .abs_diff_eq(Vec3::new(-2.0, 1.0, 0.0), 1e-5)
        );
    }

    #[test]
    fn a_parent_after_its_child_is_read_as_a_root() {
        let world = forward_kinematics(
            2,
            [0, 1],
            |n| (n == 0).then_some(1),
            |_, parent| parent * Mat4::from_translation(Vec3::X),
        );
        assert!(world[0].abs_diff_eq(Mat4::from_translation(Vec3::X), 1e-6));
        assert!(world[1].abs_diff_eq(Mat4::from_translation(Vec3::X), 1e-6));
    }
}

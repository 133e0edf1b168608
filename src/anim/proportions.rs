//! A humanoid rig changed the ways real characters differ from a template: arms lowered from
//! a T-pose into an A-pose, chibi proportions (a big head on short legs). Each change is baked
//! into the rest pose — mesh, joints and weights stay consistent — so that template fitting
//! can be scored on bodies no template was made on, against joints known exactly.

use glam::{Mat4, Quat, Vec3};

use super::bake_rest_pose;
use crate::Character;
use crate::rig::{HumanoidRole, Side, humanoid_roles, role_joint};

/// Lowers both upper arms by `degrees` towards the ground (+Y up), turning about the
/// shoulder joints; false (and unchanged) for a rig without named upper arms or a skin.
pub fn lower_arms(character: &mut Character, degrees: f32) -> bool {
    let Some(skeleton) = character.skeleton.as_ref() else {
        return false;
    };
    let roles = humanoid_roles(skeleton);
    let mut edits = Vec::new();
    for side in [Side::Left, Side::Right] {
        let upper = roles
            .iter()
            .find(|(r, _)| *r == HumanoidRole::UpperArm(side));
        let lower = roles
            .iter()
            .find(|(r, _)| *r == HumanoidRole::LowerArm(side));
        let (Some(&(_, upper)), Some(&(_, lower))) = (upper, lower) else {
            return false;
        };
        let pivot = skeleton.joints[upper.index()].position();
        let arm = skeleton.joints[lower.index()].position() - pivot;
        let axis = arm.cross(Vec3::NEG_Y).normalize_or_zero();
        if axis == Vec3::ZERO {
            return false;
        }
        let turn = Quat::from_axis_angle(axis, degrees.to_radians());
        edits.push((upper.index(), about(pivot, Mat4::from_quat(turn))));
    }
    bake(character, &edits)
}

/// Chibi proportions: the head `head` times its size (about the neck's top) and the legs
/// `legs` times their length (about the hips' joints), the body lowered onto the shorter
/// legs. False (and unchanged) for a rig without a named head and legs, or without a skin.
pub fn chibi(character: &mut Character, head: f32, legs: f32) -> bool {
    let Some(skeleton) = character.skeleton.as_ref() else {
        return false;
    };
    let roles = humanoid_roles(skeleton);
    let find = |role| role_joint(&roles, role);
    let (Some(head_joint), Some(left), Some(right), Some(hips)) = (
        find(HumanoidRole::Head),
        find(HumanoidRole::UpperLeg(Side::Left)),
        find(HumanoidRole::UpperLeg(Side::Right)),
        find(HumanoidRole::Hips),
    ) else {
        return false;
    };
    let at = |j: usize| skeleton.joints[j].position();
    // The feet stay on the ground: everything but the legs drops by what the legs lose.
    let ground = character
        .mesh
        .positions
        .iter()
        .map(|p| p.y)
        .fold(f32::INFINITY, f32::min);
    let hip_height = 0.5 * (at(left).y + at(right).y) - ground;
    let drop = Vec3::NEG_Y * hip_height * (1.0 - legs);
    let mut edits = vec![(hips, Mat4::from_translation(drop))];
    for leg in [left, right] {
        // Shortened about its (lowered) hip, the foot comes back to the ground.
        let shorten = Mat4::from_scale(Vec3::new(1.0, legs, 1.0));
        edits.push((leg, about(at(leg) + drop, shorten)));
    }
    let grow = Mat4::from_scale(Vec3::splat(head));
    edits.push((head_joint, about(at(head_joint) + drop, grow)));
    bake(character, &edits)
}

/// `m` about `pivot`.
fn about(pivot: Vec3, m: Mat4) -> Mat4 {
    Mat4::from_translation(pivot) * m * Mat4::from_translation(-pivot)
}

/// Applies each `(joint, transform)` to that joint and everything below it, in order, then
/// skins the mesh into the new rest pose.
fn bake(character: &mut Character, edits: &[(usize, Mat4)]) -> bool {
    let (Some(skeleton), Some(_)) = (character.skeleton.as_ref(), character.skin.as_ref()) else {
        return false;
    };
    let mut posed = skeleton.bind_world();
    for &(joint, m) in edits {
        for (j, world) in posed.iter_mut().enumerate() {
            if skeleton.is_at_or_below(j, joint) {
                *world = m * *world;
            }
        }
    }
    bake_rest_pose(character, posed);
    true
}

#[cfg(test)]
#[cfg(feature = "dataset")]
mod tests {
    use super::*;
    use crate::dataset::creature::{Morphology, generate};

    fn at(c: &Character, name: &str) -> Vec3 {
        let s = c.skeleton.as_ref().unwrap();
        s.joints.iter().find(|j| j.name == name).unwrap().position()
    }

    fn lowest(c: &Character) -> f32 {
        c.mesh
            .positions
            .iter()
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn lowered_arms_hang_by_the_angle_and_keep_their_length() {
        let original = generate(0, Some(Morphology::Biped));
        let mut lowered = original.clone();
        assert!(lower_arms(&mut lowered, 40.0));
        for side in ["L", "R"] {
            let (shoulder, elbow) = (format!("upper_arm.{side}"), format!("forearm.{side}"));
            let before = at(&original, &elbow) - at(&original, &shoulder);
            let after = at(&lowered, &elbow) - at(&lowered, &shoulder);
            assert!((before.length() - after.length()).abs() < 1e-4);
            let drop = after.normalize().dot(Vec3::NEG_Y) - before.normalize().dot(Vec3::NEG_Y);
            assert!(drop > 0.3, "{side}: the arm did not come down ({drop})");
        }
        // The skin followed: the lowest point is still the feet's.
        assert!((lowest(&lowered) - lowest(&original)).abs() < 1e-3);
    }

    #[test]
    fn chibi_grows_the_head_and_shortens_the_legs_with_the_feet_on_the_ground() {
        let original = generate(0, Some(Morphology::Biped));
        let mut small = original.clone();
        assert!(chibi(&mut small, 2.0, 0.7));
        let head = |c: &Character| at(c, "head_end").distance(at(c, "head"));
        assert!((head(&small) / head(&original) - 2.0).abs() < 1e-3);
        let hip = |c: &Character| at(c, "leg_upper.L").y - lowest(c);
        let ratio = hip(&small) / hip(&original);
        assert!((ratio - 0.7).abs() < 0.05, "legs x{ratio}");
        assert!((lowest(&small) - lowest(&original)).abs() < 0.02 * hip(&original));
        // A rig without a humanoid's named parts is left as it was.
        let mut fish = generate(0, Some(Morphology::Fish));
        let before = fish.mesh.positions.clone();
        assert!(!chibi(&mut fish, 2.0, 0.7) && !lower_arms(&mut fish, 40.0));
        assert_eq!(fish.mesh.positions, before);
    }
}

//! How far each joint turns: the rotations a joint's correctives are fitted over. A
//! humanoid's joints, found by name, move as bodies do — elbows and knees are hinges that
//! bend one way (elbows forward, knees back), upper arms swing 120°, the spine and neck bend
//! a little, collarbones less, fingers curl; other joints swing and twist as far as the
//! options allow.

use glam::{Quat, Vec3};

use super::CorrectiveOptions;
use crate::random::Rng;
use crate::rig::{HumanoidRole, Skeleton, Transform, name_words};

/// A joint's range of motion about its bone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Reach {
    /// The joint's bone in its own frame.
    pub bone: Vec3,
    /// The hinge axis in its own frame, for a joint that only bends one way: turning about
    /// it by a positive angle bends the joint as a body does (an elbow forward, a knee back).
    pub hinge: Option<Vec3>,
    /// The largest swing across the bone (or bend about the hinge), in radians.
    pub swing: f32,
    /// The largest twist about the bone, in radians.
    pub twist: f32,
}

/// Words naming the segments of a spine, whatever the convention.
const SPINE: [&str; 6] = ["spine", "chest", "torso", "abdomen", "pelvis", "waist"];
/// Words naming a chain's end marker (`HeadTop_End`, `head_leaf`, `Bip01 L Finger0Nub`): a
/// leaf no clip turns.
const END: [&str; 4] = ["end", "leaf", "nub", "tip"];
/// Words naming fingers: they curl, they hardly twist.
const FINGER: [&str; 7] = [
    "finger", "thumb", "index", "middle", "ring", "pinky", "little",
];

impl Reach {
    /// `joint`'s range of motion, with `rest` its skeleton's rest pose and `role` the
    /// humanoid part it plays, if any; `None` for a chain's end marker, which never turns.
    pub fn of(
        skeleton: &Skeleton,
        rest: &[Transform],
        joint: usize,
        role: Option<HumanoidRole>,
        options: &CorrectiveOptions,
    ) -> Option<Self> {
        let words = name_words(&skeleton.joints[joint].name);
        let named = |these: &[&str]| words.iter().any(|w| these.contains(&w.as_str()));
        let leaf = !(skeleton.joints.iter()).any(|j| j.parent.is_some_and(|p| p.index() == joint));
        if leaf && named(&END) {
            return None;
        }
        let bone = bone_axis(skeleton, rest, joint);
        let free = Self {
            bone,
            hinge: None,
            swing: options.swing,
            twist: options.twist,
        };
        let limited = |swing: f32, twist: f32| Self {
            swing: swing.to_radians().min(options.swing),
            twist: twist.to_radians().min(options.twist),
            ..free
        };
        Some(match role {
            Some(HumanoidRole::LowerArm(_)) => Self {
                hinge: hinge_axis(skeleton, joint, bone),
                twist: options.twist * HINGE_TWIST,
                ..free
            },
            Some(HumanoidRole::LowerLeg(_)) => Self {
                hinge: hinge_axis(skeleton, joint, bone).map(|axis| -axis),
                twist: options.twist * HINGE_TWIST,
                ..free
            },
            Some(HumanoidRole::Hips | HumanoidRole::Neck | HumanoidRole::Head) => {
                limited(60.0, 60.0)
            }
            Some(HumanoidRole::Shoulder(_)) => limited(35.0, 20.0),
            Some(HumanoidRole::UpperLeg(_)) => limited(120.0, 45.0),
            Some(HumanoidRole::Foot(_) | HumanoidRole::Toes(_)) => limited(50.0, 25.0),
            Some(HumanoidRole::Hand(_)) => limited(90.0, 110.0),
            // The shoulder joint itself raises the arm about 120° (the collarbone the rest)
            // and turns it about 90° either way.
            Some(HumanoidRole::UpperArm(_)) => limited(120.0, 90.0),
            None if named(&FINGER) => limited(90.0, 15.0),
            None if named(&SPINE) => limited(60.0, 60.0),
            None => free,
        })
    }

    /// A random turn within reach.
    pub fn sample(&self, rng: &mut Rng) -> Quat {
        let twist = Quat::from_axis_angle(self.bone, rng.range(-self.twist, self.twist));
        match self.hinge {
            Some(axis) => {
                let bend = rng.range(-OVERSTRETCH.min(self.swing), self.swing);
                Quat::from_axis_angle(axis, bend) * twist
            }
            None => {
                let across = (rng.direction().reject_from_normalized(self.bone))
                    .normalize_or(self.bone.any_orthonormal_vector());
                Quat::from_axis_angle(across, rng.range(0.0, self.swing)) * twist
            }
        }
    }
}

/// How far a hinge straightens past its rest (radians): elbows and knees hardly do.
const OVERSTRETCH: f32 = 0.175;

/// A hinge twists this much of what other joints do.
const HINGE_TWIST: f32 = 0.2;

/// The axis, in `joint`'s own frame, an elbow bends about: across the bone and the
/// character's facing (+Z, glTF's front), turning the forearm forward (a knee bends the
/// other way).
fn hinge_axis(skeleton: &Skeleton, joint: usize, bone: Vec3) -> Option<Vec3> {
    let (_, turn, _) = skeleton.joints[joint]
        .world_bind
        .to_scale_rotation_translation();
    bone.cross(turn.inverse() * Vec3::Z).try_normalize()
}

/// The direction of `joint`'s bone in its own frame: toward its first child, else away from
/// its parent.
fn bone_axis(skeleton: &Skeleton, rest: &[Transform], joint: usize) -> Vec3 {
    let child = (skeleton.joints.iter()).position(|j| j.parent.is_some_and(|p| p.index() == joint));
    let along = match child {
        Some(child) => rest[child].translation,
        None => rest[joint].rotation.inverse() * rest[joint].translation,
    };
    along.try_normalize().unwrap_or(Vec3::Y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correctives::tests::arm;
    use crate::rig::{humanoid_roles, rest_locals};

    #[test]
    fn an_elbow_is_a_hinge_and_a_collarbone_reaches_less_than_a_shoulder() {
        let arm = arm();
        let skeleton = arm.skeleton.as_ref().unwrap();
        let rest = rest_locals(skeleton);
        let options = CorrectiveOptions::default();
        let [collarbone, shoulder, elbow] = [0, 1, 2].map(|j| {
            let role = (humanoid_roles(skeleton).into_iter())
                .find(|(_, at)| at.index() == j)
                .map(|(role, _)| role);
            Reach::of(skeleton, &rest, j, role, &options).expect("a joint that turns")
        });
        // The arm lies along +X facing +Z: the elbow bends about ±Y.
        let hinge = elbow.hinge.expect("the elbow is a hinge");
        assert!(hinge.abs().abs_diff_eq(Vec3::Y, 1e-5), "{hinge}");
        assert!(elbow.twist < 0.5 * options.twist);
        assert!(shoulder.hinge.is_none() && shoulder.swing < options.swing);
        assert!(collarbone.swing < 0.5 * shoulder.swing);
        // Every sample stays within reach, and the elbow bends the forearm forward (+Z).
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let forearm = elbow.sample(&mut rng) * Vec3::X;
            assert!(forearm.z >= -OVERSTRETCH.sin() - 1e-4, "{forearm}");
        }
        for _ in 0..100 {
            let (_, angle) = collarbone.sample(&mut rng).to_axis_angle();
            assert!(
                angle <= collarbone.swing + collarbone.twist + 1e-4,
                "{angle}"
            );
        }
    }

    #[test]
    fn fingers_curl_and_end_markers_never_turn() {
        let mut arm = arm();
        let skeleton = arm.skeleton.as_mut().unwrap();
        skeleton.joints[2].name = "LeftHandIndex2".into();
        skeleton.joints[3].name = "LeftHandIndex_End".into();
        let rest = rest_locals(skeleton);
        let options = CorrectiveOptions::default();
        let finger = Reach::of(skeleton, &rest, 2, None, &options).unwrap();
        assert!(finger.swing < 0.7 * options.swing && finger.twist < 0.2 * options.twist);
        assert_eq!(Reach::of(skeleton, &rest, 3, None, &options), None);
        // Only a leaf is an end marker: a joint so named with children still turns.
        skeleton.joints[2].name = "tip".into();
        assert!(Reach::of(skeleton, &rest, 2, None, &options).is_some());
    }
}

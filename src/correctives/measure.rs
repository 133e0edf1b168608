//! How much of linear blending's error correctives remove: standard test poses (elbows and
//! knees bent 90° and 130°, forearms twisted 90°, shoulders raised 90°, the spine bent 45°)
//! and random ones, each compared with the reference deformation.

use glam::{Quat, Vec3};

use super::Correctives;
use crate::anim::{dual_quaternion_positions, skin_positions, skinning_matrices};
use crate::mesh::Mesh;
use crate::random::Rng;
use crate::rig::{
    HumanoidRole, Side, Skeleton, SkinWeights, Transform, humanoid_roles, name_words, pose_world,
    rest_locals, role_joint,
};

/// A named pose: every joint's local transform.
#[derive(Debug, Clone)]
pub struct TestPose {
    pub name: String,
    /// One of the standard test poses (else a random one).
    pub standard: bool,
    pub locals: Vec<Transform>,
}

/// The standard poses `skeleton`'s humanoid joints allow (none for other bodies), then
/// `random` poses turning every joint but the roots by up to `max_angle` radians.
pub fn test_poses(skeleton: &Skeleton, random: usize, max_angle: f32, seed: u64) -> Vec<TestPose> {
    let roles = humanoid_roles(skeleton);
    let role = |r| role_joint(&roles, r);
    let mut poses = Vec::new();
    let mut add = |name: String, joint: Option<usize>, turn: &dyn Fn(Vec3) -> Quat| {
        if let Some(joint) = joint
            && let Some(bone) = bone_direction(skeleton, joint)
        {
            poses.push(TestPose {
                name,
                standard: true,
                locals: turned(skeleton, joint, turn(bone)),
            });
        }
    };
    let bend = |degrees: f32, knee: bool| {
        move |bone: Vec3| {
            let axis = if knee {
                Vec3::Z.cross(bone)
            } else {
                bone.cross(Vec3::Z)
            };
            Quat::from_axis_angle(axis.normalize_or(Vec3::X), degrees.to_radians())
        }
    };
    for side in [Side::Left, Side::Right] {
        let s = if side == Side::Left { "left" } else { "right" };
        for degrees in [90.0, 130.0] {
            let elbow = role(HumanoidRole::LowerArm(side));
            add(
                format!("{s} elbow bent {degrees}°"),
                elbow,
                &bend(degrees, false),
            );
            let knee = role(HumanoidRole::LowerLeg(side));
            add(
                format!("{s} knee bent {degrees}°"),
                knee,
                &bend(degrees, true),
            );
        }
        // The hand turned about the forearm: the wrist's candy wrapper.
        let forearm = role(HumanoidRole::LowerArm(side));
        if let Some(axis) = forearm.and_then(|j| bone_direction(skeleton, j)) {
            let twist = Quat::from_axis_angle(axis, 90f32.to_radians());
            add(
                format!("{s} forearm twisted 90°"),
                role(HumanoidRole::Hand(side)),
                &|_| twist,
            );
        }
        let raise = |bone: Vec3| {
            Quat::from_axis_angle(
                bone.cross(Vec3::Y).normalize_or(Vec3::Z),
                90f32.to_radians(),
            )
        };
        add(
            format!("{s} shoulder raised 90°"),
            role(HumanoidRole::UpperArm(side)),
            &raise,
        );
    }
    let spine =
        (skeleton.joints.iter()).position(|j| name_words(&j.name).iter().any(|w| w == "spine"));
    add("spine bent 45°".into(), spine, &bend(45.0, false));
    let rest = rest_locals(skeleton);
    let mut rng = Rng::new(seed);
    for k in 0..random {
        let locals = (rest.iter().zip(&skeleton.joints))
            .map(|(local, joint)| match joint.parent {
                None => *local,
                Some(_) => {
                    let turn = Quat::from_axis_angle(rng.direction(), rng.range(0.0, max_angle));
                    Transform {
                        rotation: local.rotation * turn,
                        ..*local
                    }
                }
            })
            .collect();
        poses.push(TestPose {
            name: format!("random pose {}", k + 1),
            standard: false,
            locals,
        });
    }
    poses
}

/// From `joint` toward its first child at rest; `None` for a leaf or a zero-length bone.
fn bone_direction(skeleton: &Skeleton, joint: usize) -> Option<Vec3> {
    let child =
        (skeleton.joints.iter()).position(|j| j.parent.is_some_and(|p| p.index() == joint))?;
    let from = skeleton.joints[joint].position();
    (skeleton.joints[child].position() - from).try_normalize()
}

/// The rest pose with `joint` (and what hangs from it) turned by `turn` in world space about
/// the joint.
fn turned(skeleton: &Skeleton, joint: usize, turn: Quat) -> Vec<Transform> {
    let mut locals = rest_locals(skeleton);
    let parent_turn = skeleton.joints[joint].parent.map_or(Quat::IDENTITY, |p| {
        skeleton.joints[p.index()]
            .world_bind
            .to_scale_rotation_translation()
            .1
    });
    locals[joint].rotation =
        (parent_turn.inverse() * turn * parent_turn * locals[joint].rotation).normalize();
    locals
}

/// Linear blending, with and without correctives, against the reference in one pose.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseError {
    /// Root-mean-square distance of linear blending's vertices from the reference's, as a
    /// fraction of the mesh's longest side.
    pub linear: f32,
    /// The same with the correctives added.
    pub corrected: f32,
    /// The mesh's volume in the pose relative to rest, minus one: linear blending, the
    /// reference and with correctives.
    pub volume: [f32; 3],
}

impl PoseError {
    /// The fraction of linear blending's error the correctives remove (1 where there was none).
    pub fn removed(&self) -> f32 {
        if self.linear > 0.0 {
            1.0 - self.corrected / self.linear
        } else {
            1.0
        }
    }
}

/// Linear blending of `mesh` on `skeleton` with `skin`, with and without `correctives`, against
/// dual-quaternion skinning in the pose `locals`.
pub fn pose_error(
    mesh: &Mesh,
    skeleton: &Skeleton,
    skin: &SkinWeights,
    correctives: &Correctives,
    locals: &[Transform],
) -> PoseError {
    let skinning = skinning_matrices(skeleton, &pose_world(skeleton, locals));
    let rest = &mesh.positions;
    let reference = dual_quaternion_positions(rest, skin, &skinning);
    let linear = skin_positions(rest, skin, &skinning);
    let corrected = skin_positions(&correctives.corrected(rest, locals), skin, &skinning);
    let size = mesh.bounds().longest_side().max(1e-12);
    let rms = |p: &[Vec3]| {
        let sum: f32 = p
            .iter()
            .zip(&reference)
            .map(|(a, b)| a.distance_squared(*b))
            .sum();
        (sum / p.len().max(1) as f32).sqrt() / size
    };
    let at_rest = volume(rest, &mesh.triangles);
    let change = |p: &[Vec3]| {
        if at_rest.abs() > 0.0 {
            volume(p, &mesh.triangles) / at_rest - 1.0
        } else {
            0.0
        }
    };
    PoseError {
        linear: rms(&linear),
        corrected: rms(&corrected),
        volume: [change(&linear), change(&reference), change(&corrected)],
    }
}

/// The signed volume the triangles enclose (exact for a closed mesh).
fn volume(positions: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            a.dot(b.cross(c)) / 6.0
        })
        .sum()
}

//! The humanoid template: a Mixamo-named skeleton (`mixamorig:Hips` … `LeftToeBase`) fitted
//! inside a two-armed, two-legged body in any frame and any rest pose.
//!
//! The automatic curve skeleton finds the limbs; of its tips, the five that look most like a
//! head, two arms and two legs (arms level with each other, legs level and lowest, head above
//! and between them) are chosen. Up runs from the legs to the head, the side axis from arm to
//! arm, forward is where the toes point. Joints are then placed along the spine, arm and leg
//! curves at the proportions of a human body, with elbows and knees at the limb's bend when it
//! has one, and mirrored left and right when the body is symmetric.

use glam::{Mat4, Vec3};

use super::Fit;
use super::joint_list::JointList;
use crate::rig::{JointId, Skeleton};
use crate::skeleton::RigError;
use crate::skeleton::curve::curves::{
    Path, arc_of_nearest, arc_where, bend_between, common_prefix, departure, left_first, length,
    limb_from, point_at_fraction, point_at_length, reject,
};

/// Role assignments scoring worse than this are not humanoid (a quadruped's "arms" are as low
/// as its legs, which alone costs more).
const MAX_SCORE: f32 = 1.5;

/// The prefix of Mixamo's joint names.
pub const MIXAMO_PREFIX: &str = "mixamorig:";

/// The roles a humanoid's tips play, found from their positions alone.
#[derive(Debug, Clone, Copy)]
struct Roles {
    head: usize,
    arms: [usize; 2],
    legs: [usize; 2],
    score: f32,
}

/// Fits the humanoid template using the curve skeleton `auto` of the same mesh; `inside`
/// moves a point into the body.
pub fn fit_humanoid(fit: &Fit) -> Result<Skeleton, RigError> {
    let Fit { size, inside, .. } = *fit;
    let not_humanoid = |reason: String| RigError::NotHumanoid { reason };
    let tips = (fit.limbs("a humanoid needs 5")).map_err(not_humanoid)?;
    let ends: Vec<Vec3> = tips.iter().map(|p| p[p.len() - 1]).collect();
    let roles = choose_roles(&ends, size).ok_or(RigError::NotHumanoid {
        reason: "no head, two arms and two legs could be told apart".into(),
    })?;
    let [l0, l1] = roles.legs.map(|i| ends[i]);
    let [a0, a1] = roles.arms.map(|i| ends[i]);
    let up = (ends[roles.head] - (l0 + l1) * 0.5).normalize_or_zero();
    let side = reject(a0 - a1, up).normalize_or_zero();
    if up == Vec3::ZERO || side == Vec3::ZERO {
        return Err(RigError::NotHumanoid {
            reason: "its limbs do not span a body".into(),
        });
    }
    // Forward: where the feet point (toes reach beyond the ankles); glTF's +Z when unclear.
    let across = up.cross(side);
    let toes: f32 = roles
        .legs
        .iter()
        .map(|&i| {
            let path = &tips[i];
            let tip = path[path.len() - 1];
            let ankle = point_at_fraction(path, 0.85);
            (tip - ankle).dot(across)
        })
        .sum();
    let forward = if toes.abs() > 0.01 * size {
        across * toes.signum()
    } else if across.z >= 0.0 {
        across
    } else {
        -across
    };
    // The character's left is to the right of someone facing it: up × forward.
    let left = up.cross(forward);
    let [left_arm, right_arm] = left_first(&tips, roles.arms, left);
    let [left_leg, right_leg] = left_first(&tips, roles.legs, left);

    let legs_fork = common_prefix(&tips[left_leg], &tips[right_leg]);
    // The hip joints sit a little above the fork of the legs.
    let leg_length = length(&limb_from(&tips[left_leg], &tips[right_leg]));
    let hips = inside(legs_fork + up * (0.06 * leg_length));
    // The spine: from the hips up through the root to the head's tip.
    let head_path = &tips[roles.head];
    let mut spine: Path = vec![hips];
    let above_fork: Vec<Vec3> = tips[left_leg]
        .iter()
        .take_while(|p| **p != legs_fork)
        .copied()
        .collect();
    spine.extend(above_fork.iter().rev());
    spine.extend(head_path.iter().copied());
    spine.dedup();
    let spine_length = length(&spine);
    // Shoulder level: where the spine passes closest to the arms' roots.
    let arm_root = |arm: usize| departure(&tips[arm], &spine);
    let shoulders = (arm_root(left_arm) + arm_root(right_arm)) * 0.5;
    let neck_at = arc_of_nearest(&spine, shoulders).clamp(0.3 * spine_length, 0.9 * spine_length);
    let above = spine_length - neck_at;

    let mut b = TemplateBuilder::default();
    let at = |s: f32| inside(point_at_length(&spine, s));
    // Mixamo's proportions: spine joints at a fifth, under half and under three quarters of
    // the way from hips to neck; the neck at shoulder level.
    let hips_id = b.add("Hips", None, hips);
    let spine0 = b.add("Spine", Some(hips_id), at(0.2 * neck_at));
    let spine1 = b.add("Spine1", Some(spine0), at(0.45 * neck_at));
    let spine2 = b.add("Spine2", Some(spine1), at(0.72 * neck_at));
    let neck = b.add("Neck", Some(spine2), at(neck_at));
    let head = b.add("Head", Some(neck), at(neck_at + 0.3 * above));
    b.add("HeadTop_End", Some(head), at(spine_length));

    for (side_name, arm) in [("Left", left_arm), ("Right", right_arm)] {
        let path = limb_from(&tips[arm], &spine);
        let elbow = bend_between(&path, 0.4, 0.62).unwrap_or_else(|| point_at_fraction(&path, 0.5));
        let joints = [
            ("Shoulder", point_at_fraction(&path, 0.06)),
            ("Arm", point_at_fraction(&path, 0.18)),
            ("ForeArm", elbow),
            ("Hand", point_at_fraction(&path, 0.8)),
            ("Hand_End", path[path.len() - 1]),
        ]
        .map(|(part, p)| (format!("{MIXAMO_PREFIX}{side_name}{part}"), p));
        b.joints.add_limb(spine2, &joints, inside);
    }
    for (side_name, leg, other) in [
        ("Left", left_leg, right_leg),
        ("Right", right_leg, left_leg),
    ] {
        let path = limb_from(&tips[leg], &tips[other]);
        let lowest = path.iter().map(|p| p.dot(up)).fold(f32::INFINITY, f32::min);
        // Level with the hips, beside them.
        let beside = point_at_fraction(&path, 0.1);
        let hip = beside + up * (hips - beside).dot(up);
        let top = inside(hip).dot(up);
        // The ankle: the first point a tenth of the leg's height above the lowest one.
        let ankle_height = lowest + 0.1 * (top - lowest);
        let ankle_s =
            arc_where(&path, |p| p.dot(up) <= ankle_height).unwrap_or(0.85 * length(&path));
        let ankle = point_at_length(&path, ankle_s);
        let knee_range = (
            0.35 * ankle_s / length(&path).max(f32::MIN_POSITIVE),
            0.65 * ankle_s / length(&path).max(f32::MIN_POSITIVE),
        );
        let knee = bend_between(&path, knee_range.0, knee_range.1)
            .unwrap_or_else(|| point_at_length(&path, 0.5 * ankle_s));
        let total = length(&path);
        let joints = [
            ("UpLeg", hip),
            ("Leg", knee),
            ("Foot", ankle),
            (
                "ToeBase",
                point_at_length(&path, ankle_s + 0.6 * (total - ankle_s)),
            ),
            ("Toe_End", path[path.len() - 1]),
        ]
        .map(|(part, p)| (format!("{MIXAMO_PREFIX}{side_name}{part}"), p));
        b.joints.add_limb(hips_id, &joints, inside);
    }
    let mut skeleton = b.finish();
    symmetrize(&mut skeleton, hips, left, size, inside);
    Ok(skeleton)
}

/// Joints named with Mixamo's prefix.
#[derive(Default)]
struct TemplateBuilder {
    joints: JointList,
}

impl TemplateBuilder {
    fn add(&mut self, name: &str, parent: Option<JointId>, at: Vec3) -> JointId {
        self.joints
            .add(format!("{MIXAMO_PREFIX}{name}"), parent, at)
    }

    fn finish(self) -> Skeleton {
        self.joints.finish()
    }
}

/// The best head, arm pair and leg pair among the tips `ends`, or `None` when nothing is
/// remotely humanoid.
fn choose_roles(ends: &[Vec3], size: f32) -> Option<Roles> {
    let n = ends.len();
    let mut best: Option<Roles> = None;
    for head in 0..n {
        for a0 in 0..n {
            for a1 in a0 + 1..n {
                for l0 in 0..n {
                    for l1 in l0 + 1..n {
                        let picked = [head, a0, a1, l0, l1];
                        if (0..5).any(|i| (i + 1..5).any(|j| picked[i] == picked[j])) {
                            continue;
                        }
                        let score = role_score(ends, head, [a0, a1], [l0, l1], size);
                        if best.is_none_or(|b| score < b.score) {
                            best = Some(Roles {
                                head,
                                arms: [a0, a1],
                                legs: [l0, l1],
                                score,
                            });
                        }
                    }
                }
            }
        }
    }
    best.filter(|b| b.score < MAX_SCORE)
}

/// How unlike a humanoid the assignment is (0 is a perfect T- or A-pose figure).
fn role_score(ends: &[Vec3], head: usize, arms: [usize; 2], legs: [usize; 2], size: f32) -> f32 {
    let (h, a0, a1, l0, l1) = (
        ends[head],
        ends[arms[0]],
        ends[arms[1]],
        ends[legs[0]],
        ends[legs[1]],
    );
    let legs_mid = (l0 + l1) * 0.5;
    let arms_mid = (a0 + a1) * 0.5;
    let height = h.distance(legs_mid);
    if height < 1e-6 * size {
        return f32::INFINITY;
    }
    let up = (h - legs_mid) / height;
    let level = |a: Vec3, b: Vec3| (a - b).dot(up).abs() / height;
    // Arms and legs level pairwise; arm and leg midpoints under the head; legs lowest; arms
    // spread wider than they are low; head highest.
    let off_axis = |p: Vec3| reject(p - legs_mid, up).length() / height;
    let arms_height = (arms_mid - legs_mid).dot(up) / height;
    let mut score = level(a0, a1) + level(l0, l1) + off_axis(arms_mid) + off_axis(h);
    if !(0.3..1.0).contains(&arms_height) {
        score += 1.0 + (arms_height - 0.65).abs();
    }
    let arm_span = reject(a0 - a1, up).length() / height;
    let leg_span = reject(l0 - l1, up).length() / height;
    if arm_span < leg_span {
        score += 0.5;
    }
    score
}

/// Makes left and right joints mirror images across the plane through `hips` with normal
/// `left`, when they nearly are already (a symmetric body fitted slightly unevenly).
fn symmetrize(
    skeleton: &mut Skeleton,
    hips: Vec3,
    left: Vec3,
    size: f32,
    inside: &dyn Fn(Vec3) -> Vec3,
) {
    let mirror = |p: Vec3| p - left * (2.0 * (p - hips).dot(left));
    let names: Vec<String> = skeleton.joints.iter().map(|j| j.name.clone()).collect();
    let pairs: Vec<(usize, usize)> = names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let right = n.replacen(":Left", ":Right", 1);
            (right != *n)
                .then(|| names.iter().position(|m| *m == right).map(|j| (i, j)))
                .flatten()
        })
        .collect();
    let off: f32 = pairs
        .iter()
        .map(|&(l, r)| {
            mirror(skeleton.joints[l].position()).distance(skeleton.joints[r].position())
        })
        .fold(0.0, f32::max);
    if off > 0.15 * size {
        return; // an asymmetric pose or body: keep the fit as it is
    }
    for (l, r) in pairs {
        let (pl, pr) = (skeleton.joints[l].position(), skeleton.joints[r].position());
        let left_at = inside((pl + mirror(pr)) * 0.5);
        skeleton.joints[l].world_bind = Mat4::from_translation(left_at);
        skeleton.joints[r].world_bind = Mat4::from_translation(inside(mirror(left_at)));
    }
    // Centre-line joints onto the plane.
    for (i, joint) in skeleton.joints.iter_mut().enumerate() {
        let n = &names[i];
        if !n.contains("Left") && !n.contains("Right") {
            let p = joint.position();
            joint.world_bind = Mat4::from_translation(p - left * (p - hips).dot(left));
        }
    }
}

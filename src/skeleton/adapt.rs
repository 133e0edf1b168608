//! A user's skeleton (from a rigged GLB or a BVH file) fitted to a mesh, keeping its joints,
//! names, hierarchy and joint orientations, so that motion made for it plays on the mesh: the
//! ASMR setting, solved geometrically for humanoids.
//!
//! The joints whose names say which humanoid part they are (hips, neck, head, shoulders, arms,
//! forearms, hands, legs, feet, toes, in any common convention) go where the humanoid template
//! puts those parts in this mesh. Every other joint keeps its place relative to them: between
//! two placed joints (extra spine joints, a hip joint, twist bones) at the same fraction of the
//! way, and beyond the last one (fingers, toes, end sites) at its offset in the template, turned
//! and scaled from the template's body frame to the mesh's.

use glam::{Mat3, Mat4, Quat, Vec3};

use super::RigError;
use crate::rig::{HumanoidRole, Side, Skeleton, humanoid_roles};

/// The roles that must be named for a skeleton to be adapted as a humanoid.
const REQUIRED: [HumanoidRole; 11] = [
    HumanoidRole::Hips,
    HumanoidRole::Head,
    HumanoidRole::UpperArm(Side::Left),
    HumanoidRole::UpperArm(Side::Right),
    HumanoidRole::LowerArm(Side::Left),
    HumanoidRole::LowerArm(Side::Right),
    HumanoidRole::Hand(Side::Left),
    HumanoidRole::Hand(Side::Right),
    HumanoidRole::UpperLeg(Side::Left),
    HumanoidRole::UpperLeg(Side::Right),
    HumanoidRole::LowerLeg(Side::Left),
];

/// Whether `skeleton`'s joint names say which joints are a humanoid's hips, head, arms and
/// legs.
pub fn has_humanoid_names(skeleton: &Skeleton) -> bool {
    let roles = humanoid_roles(skeleton);
    REQUIRED
        .iter()
        .all(|r| roles.iter().any(|(found, _)| found == r))
}

/// The Mixamo joint of the fitted template that plays each role.
fn mixamo_name(role: HumanoidRole) -> String {
    let sided = |side: Side, part: &str| {
        let s = match side {
            Side::Left => "Left",
            Side::Right => "Right",
        };
        format!("{s}{part}")
    };
    let name = match role {
        HumanoidRole::Hips => "Hips".to_owned(),
        HumanoidRole::Neck => "Neck".to_owned(),
        HumanoidRole::Head => "Head".to_owned(),
        HumanoidRole::Shoulder(s) => sided(s, "Shoulder"),
        HumanoidRole::UpperArm(s) => sided(s, "Arm"),
        HumanoidRole::LowerArm(s) => sided(s, "ForeArm"),
        HumanoidRole::Hand(s) => sided(s, "Hand"),
        HumanoidRole::UpperLeg(s) => sided(s, "UpLeg"),
        HumanoidRole::LowerLeg(s) => sided(s, "Leg"),
        HumanoidRole::Foot(s) => sided(s, "Foot"),
        HumanoidRole::Toes(s) => sided(s, "ToeBase"),
    };
    format!("{}{name}", super::MIXAMO_PREFIX)
}

/// A body frame: where the hips are, the unit left/up/forward axes, and the height from hips
/// to head.
struct BodyFrame {
    hips: Vec3,
    axes: Mat3,
    height: f32,
}

impl BodyFrame {
    fn new(hips: Vec3, head: Vec3, left_arm: Vec3, right_arm: Vec3) -> Option<Self> {
        let height = hips.distance(head);
        let up = (head - hips).normalize_or_zero();
        let across = left_arm - right_arm;
        let left = (across - up * across.dot(up)).normalize_or_zero();
        if up == Vec3::ZERO || left == Vec3::ZERO || height <= 0.0 {
            return None;
        }
        let forward = left.cross(up);
        Some(Self {
            hips,
            axes: Mat3::from_cols(left, up, forward),
            height,
        })
    }
}

/// `template` adapted to the body whose fitted Mixamo skeleton is `fitted`.
///
/// # Errors
/// [`RigError::NotHumanoid`] when the template's joint names do not say which joints are the
/// hips, head, arms and legs.
pub fn adapt_humanoid(template: &Skeleton, fitted: &Skeleton) -> Result<Skeleton, RigError> {
    let roles = humanoid_roles(template);
    let missing: Vec<String> = REQUIRED
        .iter()
        .filter(|r| !roles.iter().any(|(found, _)| found == *r))
        .map(|r| format!("{r:?}"))
        .collect();
    if !missing.is_empty() {
        return Err(RigError::NotHumanoid {
            reason: format!(
                "the given skeleton's joint names do not name its {} (only humanoid skeletons can be adapted yet)",
                missing.join(", ")
            ),
        });
    }
    let fitted_position = |role: HumanoidRole| {
        let name = mixamo_name(role);
        fitted
            .joints
            .iter()
            .find(|j| j.name == name)
            .map(|j| j.position())
    };
    let template_position = |role: HumanoidRole| {
        roles
            .iter()
            .find(|(r, _)| *r == role)
            .and_then(|(_, j)| template.joint(*j))
            .map(|j| j.position())
    };
    let frame = |position: &dyn Fn(HumanoidRole) -> Option<Vec3>| {
        BodyFrame::new(
            position(HumanoidRole::Hips)?,
            position(HumanoidRole::Head)?,
            position(HumanoidRole::UpperArm(Side::Left))?,
            position(HumanoidRole::UpperArm(Side::Right))?,
        )
    };
    let (Some(from), Some(to)) = (frame(&template_position), frame(&fitted_position)) else {
        return Err(RigError::NotHumanoid {
            reason: "the skeleton's head, hips and arms do not span a body".into(),
        });
    };
    let turn = to.axes * from.axes.transpose();
    let scale = to.height / from.height;
    let carry = |offset: Vec3| turn * offset * scale;

    // Anchors: template joints with a role the fitted skeleton has.
    let n = template.joints.len();
    let mut anchor: Vec<Option<Vec3>> = vec![None; n];
    for (role, joint) in &roles {
        if let Some(p) = fitted_position(*role) {
            anchor[joint.index()] = Some(p);
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for bone in template.bones() {
        children[bone.parent.index()].push(bone.child.index());
    }
    let mut placed: Vec<Vec3> = vec![Vec3::ZERO; n];
    for i in 0..n {
        let joint = &template.joints[i];
        placed[i] = if let Some(p) = anchor[i] {
            p
        } else if let Some(parent) = joint.parent {
            let ancestor = nearest_anchored_ancestor(template, &anchor, parent.index());
            let below = first_anchored_below(&children, &anchor, i);
            match (ancestor, below) {
                (Some(a), Some(d)) => between(template, &anchor, &placed, a, d, i, &carry),
                (Some(a), None) => {
                    placed[a] + carry(joint.position() - template.joints[a].position())
                }
                _ => {
                    // Above every anchor (a root above the hips): keep its offset from the hips.
                    let hips = roles
                        .iter()
                        .find(|(r, _)| *r == HumanoidRole::Hips)
                        .map(|(_, j)| j.index())
                        .unwrap_or(0);
                    to.hips + carry(joint.position() - template.joints[hips].position())
                }
            }
        } else {
            to.hips + carry(joint.position() - from.hips)
        };
    }
    let rotation = Quat::from_mat3(&turn).normalize();
    let joints = template
        .joints
        .iter()
        .zip(&placed)
        .map(|(joint, &p)| {
            let (_, r, _) = joint.world_bind.to_scale_rotation_translation();
            let mut adapted = joint.clone();
            adapted.world_bind = Mat4::from_rotation_translation(rotation * r, p);
            adapted
        })
        .collect();
    Ok(Skeleton { joints })
}

fn nearest_anchored_ancestor(
    template: &Skeleton,
    anchor: &[Option<Vec3>],
    mut j: usize,
) -> Option<usize> {
    loop {
        if anchor[j].is_some() {
            return Some(j);
        }
        j = template.joints[j].parent?.index();
    }
}

/// The first anchored joint below `j` along its first chain of descendants with one.
fn first_anchored_below(
    children: &[Vec<usize>],
    anchor: &[Option<Vec3>],
    j: usize,
) -> Option<usize> {
    let mut stack: Vec<usize> = children[j].iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        if anchor[c].is_some() {
            return Some(c);
        }
        stack.extend(children[c].iter().rev());
    }
    None
}

/// A joint between the anchored joints `a` (above) and `d` (below): at the same fraction of
/// the way along, plus its sideways offset from that line carried into the mesh's frame.
fn between(
    template: &Skeleton,
    anchor: &[Option<Vec3>],
    placed: &[Vec3],
    a: usize,
    d: usize,
    i: usize,
    carry: &dyn Fn(Vec3) -> Vec3,
) -> Vec3 {
    let (ta, td, tp) = (
        template.joints[a].position(),
        template.joints[d].position(),
        template.joints[i].position(),
    );
    let line = td - ta;
    let t = crate::mesh::segment_parameter(tp, ta, td);
    let side = tp - (ta + line * t);
    let (pa, pd) = (placed[a], anchor[d].unwrap_or(placed[a]));
    pa + (pd - pa) * t + carry(side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixamo_names_match_the_humanoid_template() {
        assert_eq!(
            mixamo_name(HumanoidRole::LowerArm(Side::Left)),
            "mixamorig:LeftForeArm"
        );
        assert_eq!(
            mixamo_name(HumanoidRole::Toes(Side::Right)),
            "mixamorig:RightToeBase"
        );
    }
}

//! What part of a humanoid a joint plays, from its name, across the naming conventions in the
//! wild: Mixamo (`mixamorig:LeftForeArm`), CMU/MotionBuilder BVH (`LeftUpLeg`, `LHipJoint`),
//! Unreal/Mesh2Motion (`thigh_l`, `lowerarm_r`, `clavicle_l`), Blender/Rigify-style
//! (`UpperArm.L`, `shin.R`), Unity/VRM (`leftUpperArm`, `J_Bip_L_Hand`) and Bandai-Namco
//! (`UpperArm_L`, `Toes_R`).

use super::{JointId, Skeleton};

/// Left or right of the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

/// The parts of a humanoid that every convention names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HumanoidRole {
    Hips,
    Neck,
    Head,
    Shoulder(Side),
    UpperArm(Side),
    LowerArm(Side),
    Hand(Side),
    UpperLeg(Side),
    LowerLeg(Side),
    Foot(Side),
    Toes(Side),
}

/// The name split into lowercase words at separators, namespace prefixes and case changes
/// (`mixamorig:LeftUpLeg` → `left up leg`; `J_Bip_L_Hand` → `j bip l hand`).
pub(crate) fn words(name: &str) -> Vec<String> {
    let base = name.rsplit([':', '|']).next().unwrap_or(name);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = base.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        let starts_word = c.is_ascii_uppercase()
            && !current.is_empty()
            && (chars[i - 1].is_ascii_lowercase()
                || chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase()));
        let digit_boundary =
            !current.is_empty() && (c.is_ascii_digit() != chars[i - 1].is_ascii_digit());
        if starts_word || digit_boundary {
            out.push(std::mem::take(&mut current));
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The role `name` plays in a humanoid, if it names one of the parts every humanoid has.
pub fn humanoid_role(name: &str) -> Option<HumanoidRole> {
    let mut words = words(name);
    let mut side = None;
    // Side words anywhere (`left`, `l`, `right`, `r`), or an `l`/`r` glued to a known part
    // (`lhumerus`, `rfoot`).
    words.retain(|w| match w.as_str() {
        "left" | "l" => {
            side = Some(Side::Left);
            false
        }
        "right" | "r" => {
            side = Some(Side::Right);
            false
        }
        _ => true,
    });
    let mut part: String = words
        .iter()
        .filter(|w| !matches!(w.as_str(), "j" | "bip" | "c" | "def" | "mixamorig" | "bone"))
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .cloned()
        .collect();
    if side.is_none() && part.len() > 2 {
        for (prefix, s) in [("l", Side::Left), ("r", Side::Right)] {
            if let Some(rest) = part.strip_prefix(prefix)
                && sided_part(rest).is_some()
            {
                side = Some(s);
                part = rest.to_owned();
                break;
            }
        }
    }
    match side {
        None => match part.as_str() {
            "hips" | "pelvis" | "hip" => Some(HumanoidRole::Hips),
            "neck" => Some(HumanoidRole::Neck),
            "head" => Some(HumanoidRole::Head),
            _ => None,
        },
        Some(side) => sided_part(&part).map(|make| make(side)),
    }
}

/// The sided role a part name means.
fn sided_part(part: &str) -> Option<fn(Side) -> HumanoidRole> {
    Some(match part {
        "shoulder" | "clavicle" | "collar" | "collarbone" => HumanoidRole::Shoulder,
        "arm" | "upperarm" | "humerus" | "uparm" => HumanoidRole::UpperArm,
        "forearm" | "lowerarm" | "elbow" | "radius" | "lowarm" => HumanoidRole::LowerArm,
        "hand" | "wrist" => HumanoidRole::Hand,
        "upleg" | "upperleg" | "legupper" | "thigh" | "femur" | "uleg" => HumanoidRole::UpperLeg,
        "leg" | "lowerleg" | "leglower" | "calf" | "shin" | "knee" | "tibia" | "lowleg" => {
            HumanoidRole::LowerLeg
        }
        "foot" | "ankle" | "legfoot" => HumanoidRole::Foot,
        "toebase" | "toe" | "toes" | "ball" | "legtoe" => HumanoidRole::Toes,
        _ => return None,
    })
}

/// The joint playing `role` among `roles` (as [`humanoid_roles`] lists them).
pub fn role_joint(roles: &[(HumanoidRole, JointId)], role: HumanoidRole) -> Option<usize> {
    roles
        .iter()
        .find(|(r, _)| *r == role)
        .map(|(_, j)| j.index())
}

/// Each role's joint in `skeleton` (the first joint, in hierarchy order, that plays it).
pub fn humanoid_roles(skeleton: &Skeleton) -> Vec<(HumanoidRole, JointId)> {
    let mut found: Vec<(HumanoidRole, JointId)> = Vec::new();
    for (i, joint) in skeleton.joints.iter().enumerate() {
        if let Some(role) = humanoid_role(&joint.name)
            && !found.iter().any(|(r, _)| *r == role)
        {
            found.push((role, JointId(i as u32)));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::HumanoidRole::*;
    use super::Side::*;
    use super::*;

    #[test]
    fn every_convention_names_the_same_parts() {
        let cases = [
            ("mixamorig:Hips", Some(Hips)),
            ("mixamorig:LeftForeArm", Some(LowerArm(Left))),
            ("mixamorig:RightUpLeg", Some(UpperLeg(Right))),
            ("LeftUpLeg", Some(UpperLeg(Left))),
            ("LHipJoint", None),
            ("thigh_l", Some(UpperLeg(Left))),
            ("calf_r", Some(LowerLeg(Right))),
            ("clavicle_l", Some(Shoulder(Left))),
            ("lowerarm_r", Some(LowerArm(Right))),
            ("ball_l", Some(Toes(Left))),
            ("UpperArm.L", Some(UpperArm(Left))),
            ("shin.R", Some(LowerLeg(Right))),
            ("leftUpperArm", Some(UpperArm(Left))),
            ("J_Bip_L_Hand", Some(Hand(Left))),
            ("UpperLeg_L", Some(UpperLeg(Left))),
            ("Toes_R", Some(Toes(Right))),
            ("lhumerus", Some(UpperArm(Left))),
            ("pelvis", Some(Hips)),
            ("neck_01", Some(Neck)),
            ("Head", Some(Head)),
            ("Spine1", None),
            ("LeftHandIndex1", None),
            ("lowerarm", None),
        ];
        for (name, role) in cases {
            assert_eq!(humanoid_role(name), role, "{name}");
        }
    }
}

//! Standard humanoid joint names on export: Mixamo's, Unity's humanoid, Unreal's mannequin or
//! VRM's, so that a game engine's retargeting or a motion library finds every bone by name.

use super::{HumanoidRole, JointId, Side, Skeleton, humanoid_role};

/// A naming convention for humanoid joints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoneNames {
    /// `mixamorig:Hips`, `mixamorig:Spine1`, `mixamorig:LeftArm`, … (what Mixamo's files and
    /// clips use, and the humanoid template's names).
    Mixamo,
    /// Unity's `HumanBodyBones`: `Hips`, `Chest`, `LeftUpperArm`, `LeftLowerLeg`, ….
    Unity,
    /// Unreal's mannequin: `pelvis`, `spine_01`, `upperarm_l`, `calf_r`, `ball_l`, ….
    Unreal,
    /// VRM's humanoid bones: `hips`, `upperChest`, `leftUpperArm`, `rightToes`, ….
    Vrm,
}

crate::choice::named_choice!(BoneNames, "bone names", {
    Mixamo => "mixamo",
    Unity => "unity",
    Unreal => "unreal",
    Vrm => "vrm",
});

/// The bones every convention names (the spine counted up from the hips).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Role(HumanoidRole),
    /// The first, second and third spine joint above the hips.
    Spine(usize),
}

/// Each joint's humanoid part: the role its name says (any convention `humanoid_role`
/// reads), and up to three spine joints between the hips and the neck.
fn parts(skeleton: &Skeleton) -> Vec<Option<Part>> {
    let mut parts: Vec<Option<Part>> = skeleton
        .joints
        .iter()
        .map(|j| humanoid_role(&j.name).map(Part::Role))
        .collect();
    // The spine: the joints on the way down from the neck to the hips.
    let find = |role: HumanoidRole| parts.iter().position(|p| *p == Some(Part::Role(role)));
    if let (Some(hips), Some(neck)) = (find(HumanoidRole::Hips), find(HumanoidRole::Neck)) {
        let mut chain = Vec::new();
        let mut at = skeleton.joints[neck].parent;
        while let Some(j) = at.filter(|j| j.index() != hips) {
            chain.push(j.index());
            at = skeleton.joints[j.index()].parent;
        }
        if at.is_some() {
            for (k, &j) in chain.iter().rev().take(3).enumerate() {
                if parts[j].is_none() {
                    parts[j] = Some(Part::Spine(k));
                }
            }
        }
    }
    parts
}

/// The humanoid bones of `skeleton` under `names`' convention, as (name, joint): what a
/// VRM's bone map lists. Each name once, for the first joint (in hierarchy order) that
/// plays it.
pub fn humanoid_bone_map(skeleton: &Skeleton, names: BoneNames) -> Vec<(String, JointId)> {
    let mut map: Vec<(String, JointId)> = Vec::new();
    for (i, part) in parts(skeleton).into_iter().enumerate() {
        if let Some(name) = part.and_then(|p| name_of(p, names))
            && !map.iter().any(|(n, _)| *n == name)
        {
            map.push((name, JointId(i as u32)));
        }
    }
    map
}

/// Renames `skeleton`'s humanoid joints to `names`' convention: those whose role a name says
/// (any convention `humanoid_role` reads) and up to three spine joints between the hips and
/// the neck. Other joints (fingers, tips, props) keep their names, and a name another joint
/// already has is not given twice. Returns how many joints were renamed.
pub fn rename_humanoid(skeleton: &mut Skeleton, names: BoneNames) -> usize {
    let parts = parts(skeleton);
    let mut renamed = 0;
    for (i, part) in parts.iter().enumerate() {
        let Some(name) = part.and_then(|p| name_of(p, names)) else {
            continue;
        };
        let taken = skeleton
            .joints
            .iter()
            .enumerate()
            .any(|(k, j)| k != i && j.name == name);
        if !taken && skeleton.joints[i].name != name {
            skeleton.joints[i].name = name;
            renamed += 1;
        }
    }
    renamed
}

fn name_of(part: Part, names: BoneNames) -> Option<String> {
    use HumanoidRole as R;
    let sided = |side: Side, mixamo: &str, unity: &str, unreal: &str| -> String {
        let (word, letter) = match side {
            Side::Left => ("Left", "l"),
            Side::Right => ("Right", "r"),
        };
        match names {
            BoneNames::Mixamo => format!("{word}{mixamo}"),
            BoneNames::Unity => format!("{word}{unity}"),
            BoneNames::Vrm => format!("{}{unity}", word.to_ascii_lowercase()),
            BoneNames::Unreal => format!("{unreal}_{letter}"),
        }
    };
    let plain = |mixamo: &str, unity: &str, unreal: &str, vrm: &str| -> String {
        match names {
            BoneNames::Mixamo => mixamo,
            BoneNames::Unity => unity,
            BoneNames::Unreal => unreal,
            BoneNames::Vrm => vrm,
        }
        .to_owned()
    };
    let name = match part {
        Part::Role(R::Hips) => plain("Hips", "Hips", "pelvis", "hips"),
        Part::Spine(0) => plain("Spine", "Spine", "spine_01", "spine"),
        Part::Spine(1) => plain("Spine1", "Chest", "spine_02", "chest"),
        Part::Spine(2) => plain("Spine2", "UpperChest", "spine_03", "upperChest"),
        Part::Spine(_) => return None,
        Part::Role(R::Neck) => plain("Neck", "Neck", "neck_01", "neck"),
        Part::Role(R::Head) => plain("Head", "Head", "head", "head"),
        Part::Role(R::Shoulder(s)) => sided(s, "Shoulder", "Shoulder", "clavicle"),
        Part::Role(R::UpperArm(s)) => sided(s, "Arm", "UpperArm", "upperarm"),
        Part::Role(R::LowerArm(s)) => sided(s, "ForeArm", "LowerArm", "lowerarm"),
        Part::Role(R::Hand(s)) => sided(s, "Hand", "Hand", "hand"),
        Part::Role(R::UpperLeg(s)) => sided(s, "UpLeg", "UpperLeg", "thigh"),
        Part::Role(R::LowerLeg(s)) => sided(s, "Leg", "LowerLeg", "calf"),
        Part::Role(R::Foot(s)) => sided(s, "Foot", "Foot", "foot"),
        Part::Role(R::Toes(s)) => sided(s, "ToeBase", "Toes", "ball"),
    };
    Some(match names {
        BoneNames::Mixamo => format!("mixamorig:{name}"),
        _ => name,
    })
}

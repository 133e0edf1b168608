//! VRM out: a VRM avatar that comes in goes out as one — its version and meta (name,
//! authors, licence) kept, its humanoid bone map pointing at the joints of the skeleton being
//! written (rigged anew, the map is rebuilt from the new joints' roles) — and a humanoid rig
//! can be written as a VRM 1.0 on request.

use serde_json::{Map, Value, json};

use super::ExportError;
use crate::Character;
use crate::character::VrmVersion;
use crate::rig::{BoneNames, JointId, humanoid_bone_map};

/// The humanoid bones VRM 1.0 requires.
const REQUIRED: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
];
/// VRM 0.x requires these as well.
const REQUIRED_V0: [&str; 2] = ["chest", "neck"];

/// The VRM extension's name and object for `character`, whose joints are nodes `0..n`:
/// for a VRM input always, for any other input when `requested`. `None` when neither, or
/// when a VRM input's skeleton (rigged anew) no longer has every bone VRM requires.
///
/// # Errors
/// [`ExportError::NotHumanoid`] when `requested` and a required bone has no joint.
pub(super) fn extension(
    character: &Character,
    requested: bool,
) -> Result<Option<(&'static str, Value)>, ExportError> {
    if !requested && character.vrm.is_none() {
        return Ok(None);
    }
    let version = character.vrm.as_ref().map_or(VrmVersion::V1, |v| v.version);
    let bones = bone_map(character);
    let required = REQUIRED.iter().chain(if version == VrmVersion::V0 {
        &REQUIRED_V0[..]
    } else {
        &[]
    });
    let missing: Vec<&str> = required
        .filter(|b| !bones.iter().any(|(n, _)| n == *b))
        .copied()
        .collect();
    if !missing.is_empty() {
        return if requested {
            Err(ExportError::NotHumanoid {
                name: character.name.clone(),
                missing: missing.join(", "),
            })
        } else {
            Ok(None)
        };
    }
    let meta = meta(character, version);
    Ok(Some(match version {
        VrmVersion::V1 => {
            let map: Map<String, Value> = bones
                .iter()
                .map(|(bone, joint)| (bone.clone(), json!({ "node": joint.0 })))
                .collect();
            (
                "VRMC_vrm",
                json!({ "specVersion": "1.0", "meta": meta, "humanoid": { "humanBones": map } }),
            )
        }
        VrmVersion::V0 => {
            let list: Vec<Value> = bones
                .iter()
                .map(|(bone, joint)| json!({ "bone": bone, "node": joint.0, "useDefaultValues": true }))
                .collect();
            let head = bones.iter().find(|(b, _)| b == "head").map(|(_, j)| j.0);
            (
                "VRM",
                json!({
                    "exporterVersion": concat!("rigkit-", env!("CARGO_PKG_VERSION")),
                    "specVersion": "0.0",
                    "meta": meta,
                    "humanoid": { "humanBones": list },
                    "firstPerson": {
                        "firstPersonBone": head,
                        "firstPersonBoneOffset": { "x": 0.0, "y": 0.06, "z": 0.0 },
                        "meshAnnotations": [],
                        "lookAtTypeName": "Bone",
                    },
                    "blendShapeMaster": { "blendShapeGroups": [] },
                    "secondaryAnimation": { "boneGroups": [], "colliderGroups": [] },
                    "materialProperties": [],
                }),
            )
        }
    }))
}

/// The file's own map when it still fits the skeleton (every joint it names exists), else
/// the one the joints' roles give.
fn bone_map(character: &Character) -> Vec<(String, JointId)> {
    let Some(skeleton) = &character.skeleton else {
        return Vec::new();
    };
    let n = skeleton.joints.len();
    if !character.humanoid.is_empty() && character.humanoid.iter().all(|h| h.joint.index() < n) {
        return (character.humanoid.iter())
            .map(|h| (h.bone.clone(), h.joint))
            .collect();
    }
    humanoid_bone_map(skeleton, BoneNames::Vrm)
}

/// The avatar's meta as the input wrote it, less its thumbnail (an image index this file
/// does not keep); for a new avatar, its name and VRM 1.0's most restrictive licence terms,
/// which only the author can loosen.
fn meta(character: &Character, version: VrmVersion) -> Value {
    if let Some(Value::Object(kept)) = character.vrm.as_ref().map(|v| &v.meta) {
        let mut meta = kept.clone();
        meta.remove("thumbnailImage");
        meta.remove("texture");
        return Value::Object(meta);
    }
    let name = character
        .name
        .rsplit_once('.')
        .map_or(character.name.as_str(), |(stem, _)| stem);
    match version {
        VrmVersion::V1 => json!({
            "name": name,
            "authors": ["unknown"],
            "licenseUrl": "https://vrm.dev/licenses/1.0/",
            "avatarPermission": "onlyAuthor",
            "commercialUsage": "personalNonProfit",
            "creditNotation": "required",
            "allowRedistribution": false,
            "modification": "prohibited",
        }),
        VrmVersion::V0 => json!({
            "title": name,
            "author": "unknown",
            "allowedUserName": "OnlyAuthor",
            "commercialUssageName": "Disallow",
            "licenseName": "Redistribution_Prohibited",
        }),
    }
}

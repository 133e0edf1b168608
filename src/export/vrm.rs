//! VRM out: a VRM avatar that comes in goes out as one — its version and meta (name,
//! authors, licence) kept, its humanoid bone map pointing at the joints of the skeleton being
//! written (rigged anew, the map is rebuilt from the new joints' roles), its expressions
//! bound to the targets as written — and a humanoid rig can be written as a VRM 1.0 on
//! request.

use serde_json::{Map, Value, json};

use super::ExportError;
use crate::Character;
use crate::character::{VrmExpression, VrmVersion};
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

/// Where the written file keeps the character's morph targets, for expressions to bind to.
pub(super) struct Face<'a> {
    /// The node of the one mesh (mesh 0).
    pub node: usize,
    /// The character's targets in the order written (indices into its morph targets).
    pub targets: &'a [usize],
}

impl Face<'_> {
    /// The written index of the character's target `t`, if it was written.
    fn index(&self, t: usize) -> Option<usize> {
        self.targets.iter().position(|&w| w == t)
    }
}

/// The VRM extensions (names and objects) for `character`, whose joints are nodes `0..n`
/// and morph targets are written as `face` says: for a VRM input always, for any other input
/// when `requested`. None when neither, or when a VRM input's skeleton (rigged anew) no
/// longer has every bone VRM requires. VRM 1.0's spring bones are an extension of their own.
///
/// # Errors
/// [`ExportError::NotHumanoid`] when `requested` and a required bone has no joint.
pub(super) fn extensions(
    character: &Character,
    requested: bool,
    face: &Face<'_>,
) -> Result<Vec<(&'static str, Value)>, ExportError> {
    let Some(vrm) = extension(character, requested, face)? else {
        return Ok(Vec::new());
    };
    let springs = springs(character);
    Ok(match (vrm, springs) {
        (("VRM", mut v0), Some(springs)) => {
            v0["secondaryAnimation"] = springs;
            vec![("VRM", v0)]
        }
        (v1, Some(springs)) => vec![v1, ("VRMC_springBone", springs)],
        (vrm, None) => vec![vrm],
    })
}

/// The avatar's spring bones with each joint they name as the node it is written as; `None`
/// without, or when the skeleton lost one of those joints (rigged anew with other names).
fn springs(character: &Character) -> Option<Value> {
    let mut springs = character.vrm.as_ref()?.springs.clone()?;
    let skeleton = character.skeleton.as_ref()?;
    let mapped = crate::character::spring_nodes(&mut springs, |name| {
        let name = name.as_str()?;
        Some(skeleton.joints.iter().position(|j| j.name == name)?.into())
    });
    mapped.then_some(springs)
}

/// The VRM extension proper; see [`extensions`].
fn extension(
    character: &Character,
    requested: bool,
    face: &Face<'_>,
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
    let expressions = character
        .vrm
        .as_ref()
        .map_or(&[][..], |v| &v.expressions[..]);
    Ok(Some(match version {
        VrmVersion::V1 => {
            let map: Map<String, Value> = bones
                .iter()
                .map(|(bone, joint)| (bone.clone(), json!({ "node": joint.0 })))
                .collect();
            let mut vrm =
                json!({ "specVersion": "1.0", "meta": meta, "humanoid": { "humanBones": map } });
            if !expressions.is_empty() {
                vrm["expressions"] = expressions_v1(expressions, face);
            }
            ("VRMC_vrm", vrm)
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
                    "blendShapeMaster": { "blendShapeGroups": expressions_v0(expressions, face) },
                    "secondaryAnimation": { "boneGroups": [], "colliderGroups": [] },
                    "materialProperties": [],
                }),
            )
        }
    }))
}

/// VRM 1.0's `expressions`: presets and custom ones by name, each binding the written
/// targets on the mesh's node.
fn expressions_v1(expressions: &[VrmExpression], face: &Face<'_>) -> Value {
    let (mut preset, mut custom) = (Map::new(), Map::new());
    for e in expressions {
        let binds: Vec<Value> = (e.binds.iter())
            .filter_map(|&(t, w)| {
                Some(json!({ "node": face.node, "index": face.index(t)?, "weight": w }))
            })
            .collect();
        let mut object = e.fields.clone();
        object.insert("morphTargetBinds".into(), binds.into());
        let section = if e.preset { &mut preset } else { &mut custom };
        section.insert(e.name.clone(), object.into());
    }
    json!({ "preset": preset, "custom": custom })
}

/// VRM 0.x's blend shape groups, each binding the written targets of mesh 0 (weights 0–100).
fn expressions_v0(expressions: &[VrmExpression], face: &Face<'_>) -> Vec<Value> {
    (expressions.iter())
        .map(|e| {
            let binds: Vec<Value> = (e.binds.iter())
                .filter_map(|&(t, w)| {
                    Some(json!({ "mesh": 0, "index": face.index(t)?, "weight": w * 100.0 }))
                })
                .collect();
            let mut object = e.fields.clone();
            object.insert("name".into(), e.name.clone().into());
            object.insert("binds".into(), binds.into());
            object.insert("materialValues".into(), json!([]));
            object.into()
        })
        .collect()
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

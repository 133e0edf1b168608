//! VRM avatars: the humanoid bone map their extension adds to a GLB, and the avatar's
//! version, `meta` (name, authors, licence), expressions and spring bones to write it back as
//! a VRM, in both versions.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::primitive::TargetSlots;
use crate::character::{VrmAvatar, VrmExpression, VrmVersion, spring_nodes};
use crate::rig::{JointId, Skeleton};

/// What a VRM file says of its avatar, read from its JSON before the mesh is: the humanoid
/// bone map as (bone, node index) pairs, and the avatar, whose expressions still name the
/// file's meshes. Empty for other files.
#[derive(Debug, Default)]
pub(super) struct VrmFile {
    pub humanoid: Vec<(String, usize)>,
    avatar: Option<(VrmVersion, Value)>,
    expressions: Vec<FileExpression>,
    /// The spring bones with the file's node indices.
    springs: Option<Value>,
}

/// An expression as the file binds it: to (mesh index, target index, weight 0–1).
#[derive(Debug)]
struct FileExpression {
    name: String,
    preset: bool,
    binds: Vec<(usize, usize, f32)>,
    fields: Map<String, Value>,
}

impl VrmFile {
    /// The avatar, its expressions bound to the merged mesh's targets (`slots`: by the file's
    /// mesh and target index; binds to targets the mesh did not keep are dropped) and its
    /// spring bones' nodes named by their joints (`joints`: the joint of each joint node of
    /// `skeleton`; springs naming a node that is no joint are dropped, with a warning).
    pub fn avatar(
        &self,
        slots: &TargetSlots,
        (skeleton, joints): (&Skeleton, &HashMap<usize, JointId>),
        warnings: &mut Vec<String>,
    ) -> Option<VrmAvatar> {
        let (version, meta) = self.avatar.clone()?;
        let expressions = (self.expressions.iter())
            .map(|e| VrmExpression {
                name: e.name.clone(),
                preset: e.preset,
                binds: (e.binds.iter())
                    .filter_map(|&(mesh, target, w)| Some((*slots.get(&(mesh, target))?, w)))
                    .collect(),
                fields: e.fields.clone(),
            })
            .collect();
        let springs = self.springs.clone().and_then(|mut springs| {
            let named = spring_nodes(&mut springs, |node| {
                let joint = joints.get(&usize::try_from(node.as_u64()?).ok()?)?;
                Some(skeleton.joints[joint.index()].name.clone().into())
            });
            if !named {
                warnings
                    .push("the VRM's spring bones name nodes that are not joints: not kept".into());
            }
            named.then_some(springs)
        });
        Some(VrmAvatar {
            version,
            meta,
            expressions,
            springs,
        })
    }
}

/// What a VRM file says of its avatar; nothing for other files.
pub(super) fn read(root: &gltf::json::Root, json: &[u8]) -> VrmFile {
    let used = |e: &str| root.extensions_used.iter().any(|u| u == e);
    if !used("VRM") && !used("VRMC_vrm") {
        return VrmFile::default();
    }
    let Ok(raw) = serde_json::from_slice::<Value>(json) else {
        return VrmFile::default();
    };
    let mesh_of_node = |node: usize| root.nodes.get(node)?.mesh.map(|m| m.value());
    let (avatar, expressions, springs) = if let Some(v1) = raw.pointer("/extensions/VRMC_vrm") {
        let meta = v1.get("meta").cloned().unwrap_or_default();
        let expressions = expressions_v1(v1, mesh_of_node);
        let springs = raw.pointer("/extensions/VRMC_springBone").cloned();
        (Some((VrmVersion::V1, meta)), expressions, springs)
    } else if let Some(v0) = raw.pointer("/extensions/VRM") {
        let meta = v0.get("meta").cloned().unwrap_or_default();
        let springs = v0.get("secondaryAnimation").cloned();
        (Some((VrmVersion::V0, meta)), expressions_v0(v0), springs)
    } else {
        (None, Vec::new(), None)
    };
    VrmFile {
        humanoid: humanoid_nodes(&raw),
        avatar,
        expressions,
        springs,
    }
}

/// VRM 1.0's `expressions.preset.<name>` and `expressions.custom.<name>`, each binding
/// `morphTargetBinds[] = {node, index, weight}` (weights 0–1).
fn expressions_v1(
    v1: &Value,
    mesh_of_node: impl Fn(usize) -> Option<usize>,
) -> Vec<FileExpression> {
    let mut out = Vec::new();
    for (section, preset) in [("preset", true), ("custom", false)] {
        let Some(map) = v1
            .pointer(&format!("/expressions/{section}"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, expression) in map {
            let Some(fields) = expression.as_object() else {
                continue;
            };
            let binds = (fields.get("morphTargetBinds").and_then(Value::as_array))
                .into_iter()
                .flatten()
                .filter_map(|b| {
                    let mesh = mesh_of_node(index(b.get("node")?)?)?;
                    Some((mesh, index(b.get("index")?)?, weight(b.get("weight"))?))
                })
                .collect();
            out.push(FileExpression {
                name: name.clone(),
                preset,
                binds,
                fields: without(
                    fields,
                    &[
                        "morphTargetBinds",
                        "materialColorBinds",
                        "textureTransformBinds",
                    ],
                ),
            });
        }
    }
    out
}

/// VRM 0.x's `blendShapeMaster.blendShapeGroups[]`, each binding `binds[] = {mesh, index,
/// weight}` (weights 0–100).
fn expressions_v0(v0: &Value) -> Vec<FileExpression> {
    let groups = v0
        .pointer("/blendShapeMaster/blendShapeGroups")
        .and_then(Value::as_array);
    (groups.into_iter().flatten())
        .filter_map(|group| {
            let fields = group.as_object()?;
            let binds = (fields.get("binds").and_then(Value::as_array))
                .into_iter()
                .flatten()
                .filter_map(|b| {
                    let w = weight(b.get("weight"))? / 100.0;
                    Some((index(b.get("mesh")?)?, index(b.get("index")?)?, w))
                })
                .collect();
            Some(FileExpression {
                name: fields.get("name")?.as_str()?.to_owned(),
                preset: false,
                binds,
                fields: without(fields, &["binds", "materialValues"]),
            })
        })
        .collect()
}

fn index(v: &Value) -> Option<usize> {
    usize::try_from(v.as_u64()?).ok()
}

/// A bind's weight, 1 when the file leaves it out (VRM 1.0's default); finite only.
fn weight(v: Option<&Value>) -> Option<f32> {
    let w = v.map_or(Some(1.0), Value::as_f64)? as f32;
    w.is_finite().then_some(w)
}

fn without(fields: &Map<String, Value>, dropped: &[&str]) -> Map<String, Value> {
    (fields.iter())
        .filter(|(k, _)| !dropped.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// VRM's humanoid bone map as (bone, node index) pairs: VRM 0.x lists
/// `extensions.VRM.humanoid.humanBones[] = {bone, node}`, VRM 1.0 maps
/// `extensions.VRMC_vrm.humanoid.humanBones.<bone> = {node}`.
fn humanoid_nodes(raw: &Value) -> Vec<(String, usize)> {
    let node = |v: &Value| v.get("node")?.as_u64().map(|n| n as usize);
    let mut bones = Vec::new();
    if let Some(list) = raw
        .pointer("/extensions/VRM/humanoid/humanBones")
        .and_then(|v| v.as_array())
    {
        for b in list {
            if let (Some(bone), Some(n)) = (b.get("bone").and_then(|v| v.as_str()), node(b)) {
                bones.push((bone.to_owned(), n));
            }
        }
    }
    if let Some(map) = raw
        .pointer("/extensions/VRMC_vrm/humanoid/humanBones")
        .and_then(|v| v.as_object())
    {
        for (bone, b) in map {
            if let Some(n) = node(b) {
                bones.push((bone.clone(), n));
            }
        }
    }
    bones
}

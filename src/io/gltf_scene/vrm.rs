//! VRM avatars: the humanoid bone map their extension adds to a GLB, and the avatar's
//! version and `meta` (name, authors, licence) to write it back as a VRM, in both versions.

use crate::character::{VrmAvatar, VrmVersion};

/// What a VRM file says of its avatar: the humanoid bone map as (bone, node index) pairs,
/// and its version and meta. Nothing for other files.
pub(super) fn read(
    root: &gltf::json::Root,
    json: &[u8],
) -> (Vec<(String, usize)>, Option<VrmAvatar>) {
    let used = |e: &str| root.extensions_used.iter().any(|u| u == e);
    if !used("VRM") && !used("VRMC_vrm") {
        return (Vec::new(), None);
    }
    let Ok(raw) = serde_json::from_slice::<serde_json::Value>(json) else {
        return (Vec::new(), None);
    };
    let avatar = [
        ("/extensions/VRMC_vrm", VrmVersion::V1),
        ("/extensions/VRM", VrmVersion::V0),
    ]
    .into_iter()
    .find_map(|(pointer, version)| {
        let extension = raw.pointer(pointer)?;
        let meta = extension.get("meta").cloned().unwrap_or_default();
        Some(VrmAvatar { version, meta })
    });
    (humanoid_nodes(&raw), avatar)
}

/// VRM's humanoid bone map as (bone, node index) pairs: VRM 0.x lists
/// `extensions.VRM.humanoid.humanBones[] = {bone, node}`, VRM 1.0 maps
/// `extensions.VRMC_vrm.humanoid.humanBones.<bone> = {node}`.
fn humanoid_nodes(raw: &serde_json::Value) -> Vec<(String, usize)> {
    let node = |v: &serde_json::Value| v.get("node")?.as_u64().map(|n| n as usize);
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

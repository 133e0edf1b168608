//! VRM avatars: the humanoid bone map their extension adds to a GLB, in both versions.

/// VRM's humanoid bone map as (bone, node index) pairs: VRM 0.x lists
/// `extensions.VRM.humanoid.humanBones[] = {bone, node}`, VRM 1.0 maps
/// `extensions.VRMC_vrm.humanoid.humanBones.<bone> = {node}`. Empty for other files.
pub(super) fn humanoid_nodes(root: &gltf::json::Root, json: &[u8]) -> Vec<(String, usize)> {
    let used = |e: &str| root.extensions_used.iter().any(|u| u == e);
    if !used("VRM") && !used("VRMC_vrm") {
        return Vec::new();
    }
    let Ok(raw) = serde_json::from_slice::<serde_json::Value>(json) else {
        return Vec::new();
    };
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

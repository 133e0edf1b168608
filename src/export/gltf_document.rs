//! Builds the glTF document of a character: one skinned mesh in world space, the skeleton as a
//! named node hierarchy under an `Armature` node, inverse bind matrices, and
//! `JOINTS_n`/`WEIGHTS_n` normalised per vertex.

use glam::{Mat4, Vec3};
use serde_json::{Value, json};

use super::animation::animation_documents;
use super::glb_container;
use super::gltf_buffers::{
    ARRAY_BUFFER, Buffers, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};
use crate::Character;
use crate::mesh::{AlphaMode, Material, MorphTarget};
use crate::rig::Transform;
use crate::rig::top_influences;
use crate::rig::{Influence, JointId, Skeleton, SkinWeights};

/// Choices a user makes when exporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// Influences kept per vertex: 4 (`JOINTS_0` only, what every engine reads) or 8 (adds
    /// `JOINTS_1`/`WEIGHTS_1`).
    pub max_influences: usize,
    /// Write the character's animation clips.
    pub animations: bool,
    /// Write a GLB as a VRM 1.0 avatar even when the input was no VRM (a VRM input is always
    /// written back as the VRM it was).
    pub vrm: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            max_influences: 4,
            animations: true,
            vrm: false,
        }
    }
}

/// Why a character could not be written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    #[error("'{name}' has no triangles to export")]
    EmptyMesh { name: String },
    #[error("max influences must be 4 or 8, not {0}")]
    BadInfluenceCount(usize),
    #[error("'{name}' has {count} joints; glTF skins index at most 65,535")]
    TooManyJoints { name: String, count: usize },
    #[error("'{name}' is too large to write as {format} (over 4 GiB)")]
    TooLarge { name: String, format: &'static str },
    #[error(
        "'{name}' cannot be written as a VRM: VRM needs a humanoid skeleton, and no joint plays {missing} (rig it with the humanoid template)"
    )]
    NotHumanoid { name: String, missing: String },
}

/// Writes `character` as a GLB file.
///
/// Vertex positions and order are the character's own (its world frame); the skeleton's bind
/// pose is its joints' world frames, so the file shows the mesh exactly where it was.
///
/// # Errors
/// [`ExportError`] for a mesh without triangles, a bad option or too many joints.
pub fn export_glb(character: &Character, options: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    let mesh = &character.mesh;
    if mesh.triangles.is_empty() {
        return Err(ExportError::EmptyMesh {
            name: character.name.clone(),
        });
    }
    let sets = match options.max_influences {
        4 => 1,
        8 => 2,
        n => return Err(ExportError::BadInfluenceCount(n)),
    };
    let mut buffers = Buffers::default();
    let position = buffers.push_vec3(&mesh.positions, true);
    let normal = buffers.push_vec3(&mesh.normals, false);
    let mut attributes = json!({ "POSITION": position, "NORMAL": normal });
    // Morph targets as the input carried them (position offsets; viewers keep the normals);
    // one whose offsets no longer match the vertices is not written.
    let morphs: Vec<&MorphTarget> = mesh
        .morph_targets
        .iter()
        .filter(|t| t.offsets.len() == mesh.positions.len())
        .collect();
    let targets: Vec<Value> = morphs
        .iter()
        .map(|t| json!({ "POSITION": buffers.push_vec3(&t.offsets, true) }))
        .collect();
    if mesh.uvs.len() == mesh.positions.len() {
        let bytes: Vec<u8> = mesh
            .uvs
            .iter()
            .flat_map(|uv| uv.to_array())
            .flat_map(f32::to_le_bytes)
            .collect();
        attributes["TEXCOORD_0"] = json!(buffers.push(
            &bytes,
            Some(ARRAY_BUFFER),
            json!({ "componentType": FLOAT, "count": mesh.uvs.len(), "type": "VEC2" }),
        ));
    }

    let name = if character.name.is_empty() {
        "character"
    } else {
        character.name.as_str()
    };
    let mut nodes = Vec::new();
    let mut scene_nodes = Vec::new();
    let mut skins = Vec::new();
    let mut animations = Vec::new();
    let mut mesh_node = json!({ "name": name, "mesh": 0 });

    if let Some(skeleton) = character.skeleton.as_ref().filter(|s| !s.joints.is_empty()) {
        if skeleton.joints.len() > usize::from(u16::MAX) {
            return Err(ExportError::TooManyJoints {
                name: character.name.clone(),
                count: skeleton.joints.len(),
            });
        }
        let empty = SkinWeights::new();
        let skin = character.skin.as_ref().unwrap_or(&empty);
        let per_vertex = vertex_influences(&mesh.positions, skeleton, skin, sets * 4);
        for set in 0..sets {
            let (joints, weights) = influence_set(&per_vertex, set);
            let j = buffers.push(
                &joints,
                Some(ARRAY_BUFFER),
                json!({ "componentType": UNSIGNED_SHORT, "count": per_vertex.len(), "type": "VEC4" }),
            );
            let w = buffers.push(
                &weights,
                Some(ARRAY_BUFFER),
                json!({ "componentType": FLOAT, "count": per_vertex.len(), "type": "VEC4" }),
            );
            attributes[format!("JOINTS_{set}")] = json!(j);
            attributes[format!("WEIGHTS_{set}")] = json!(w);
        }
        let ibm_bytes: Vec<u8> = skeleton
            .joints
            .iter()
            .flat_map(|j| inverse_bind(j.world_bind).to_cols_array())
            .flat_map(f32::to_le_bytes)
            .collect();
        let ibm = buffers.push(
            &ibm_bytes,
            None,
            json!({ "componentType": FLOAT, "count": skeleton.joints.len(), "type": "MAT4" }),
        );
        // Joints are nodes 0..n in skeleton order; the Armature node holds the roots so that
        // every joint has one common root, as the glTF validator requires.
        let (joints, rest) = joint_nodes(skeleton);
        nodes.extend(joints);
        if options.animations {
            animations = animation_documents(&character.animations, skeleton, &rest, &mut buffers);
        }
        let armature = nodes.len();
        let roots: Vec<usize> = skeleton
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.parent.is_none())
            .map(|(i, _)| i)
            .collect();
        nodes.push(json!({ "name": "Armature", "children": roots }));
        scene_nodes.push(armature);
        skins.push(json!({
            "name": format!("{name} skin"),
            "joints": (0..skeleton.joints.len()).collect::<Vec<_>>(),
            "inverseBindMatrices": ibm,
            "skeleton": armature,
        }));
        mesh_node["skin"] = json!(0);
    }
    scene_nodes.push(nodes.len());
    nodes.push(mesh_node);
    // One primitive per input part, sharing the vertex attributes; parts without a material
    // use a neutral one appended after the character's own.
    let parts = mesh.parts_or_whole();
    let neutral = character.materials.len();
    let needs_neutral = parts
        .iter()
        .any(|p| p.material.is_none_or(|m| m >= neutral));
    let (materials, textures, images) = material_documents(character, needs_neutral, &mut buffers);
    let primitives: Vec<Value> = parts
        .iter()
        .filter_map(|part| {
            let triangles = mesh
                .triangles
                .get(part.first_triangle..part.first_triangle + part.triangle_count)?;
            if triangles.is_empty() {
                return None;
            }
            let bytes: Vec<u8> = triangles
                .iter()
                .flatten()
                .flat_map(|i| i.to_le_bytes())
                .collect();
            let indices = buffers.push(
                &bytes,
                Some(ELEMENT_ARRAY_BUFFER),
                json!({ "componentType": UNSIGNED_INT, "count": triangles.len() * 3, "type": "SCALAR" }),
            );
            let material = part.material.filter(|&m| m < neutral).unwrap_or(neutral);
            let mut primitive = json!({ "attributes": attributes, "indices": indices, "material": material, "mode": 4 });
            if !targets.is_empty() {
                primitive["targets"] = json!(targets);
            }
            Some(primitive)
        })
        .collect();

    let mut document = json!({
        "asset": { "version": "2.0", "generator": concat!("rigkit ", env!("CARGO_PKG_VERSION")) },
        "scene": 0,
        "scenes": [{ "name": name, "nodes": scene_nodes }],
        "nodes": nodes,
        "meshes": [mesh_document(name, primitives, &morphs)],
        "materials": materials,
        "accessors": buffers.accessors,
        "bufferViews": buffers.views,
        "buffers": [{ "byteLength": buffers.bin.len() }],
    });
    if !skins.is_empty() {
        document["skins"] = json!(skins);
    }
    if !animations.is_empty() {
        document["animations"] = json!(animations);
    }
    if !images.is_empty() {
        document["images"] = json!(images);
        document["textures"] = json!(textures);
        document["samplers"] = json!([{}]);
    }
    if let Some((extension, object)) = super::vrm::extension(character, options.vrm)? {
        document["extensionsUsed"] = json!([extension]);
        document["extensions"] = json!({ extension: object });
    }
    let json = serde_json::to_vec(&document).unwrap_or_default();
    Ok(glb_container::write(&json, &buffers.bin))
}

/// The glTF mesh: its primitives and, with morph targets, their rest weights and names.
fn mesh_document(name: &str, primitives: Vec<Value>, morphs: &[&MorphTarget]) -> Value {
    let mut document = json!({ "name": name, "primitives": primitives });
    if !morphs.is_empty() {
        document["weights"] = json!(morphs.iter().map(|t| t.weight).collect::<Vec<_>>());
        document["extras"] =
            json!({ "targetNames": morphs.iter().map(|t| t.name.as_str()).collect::<Vec<_>>() });
    }
    document
}

/// glTF materials (the character's, then a neutral one), textures and images; images are
/// embedded in the binary chunk as the input carried them.
fn material_documents(
    character: &Character,
    with_neutral: bool,
    buffers: &mut Buffers,
) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let neutral = Material {
        name: Some("rigkit neutral".into()),
        ..Material::default()
    };
    let has_uvs = character.mesh.uvs.len() == character.mesh.positions.len();
    let images: Vec<Value> = character
        .images
        .iter()
        .map(|image| {
            let view = buffers.push_view(&image.bytes, None);
            json!({ "bufferView": view, "mimeType": image.mime_type })
        })
        .collect();
    let textures: Vec<Value> = (0..images.len())
        .map(|i| json!({ "source": i, "sampler": 0 }))
        .collect();
    let materials: Vec<Value> = character
        .materials
        .iter()
        .chain(with_neutral.then_some(&neutral))
        .map(|m| {
            let mut pbr = json!({
                "baseColorFactor": m.base_color,
                "metallicFactor": m.metallic,
                "roughnessFactor": m.roughness,
            });
            // A texture needs coordinates to be sampled with.
            let texture = |image: Option<usize>| {
                image
                    .filter(|&i| has_uvs && i < images.len())
                    .map(|i| json!({ "index": i }))
            };
            if let Some(t) = texture(m.base_color_image) {
                pbr["baseColorTexture"] = t;
            }
            if let Some(t) = texture(m.metallic_roughness_image) {
                pbr["metallicRoughnessTexture"] = t;
            }
            let mut material =
                json!({ "pbrMetallicRoughness": pbr, "doubleSided": m.double_sided });
            if let Some(mut t) = texture(m.normal_image) {
                t["scale"] = json!(m.normal_scale);
                material["normalTexture"] = t;
            }
            if let Some(mut t) = texture(m.occlusion_image) {
                t["strength"] = json!(m.occlusion_strength.clamp(0.0, 1.0));
                material["occlusionTexture"] = t;
            }
            if let Some(t) = texture(m.emissive_image) {
                material["emissiveTexture"] = t;
            }
            if m.emissive != [0.0; 3] {
                material["emissiveFactor"] = json!(m.emissive.map(|c| c.clamp(0.0, 1.0)));
            }
            if let Some(name) = &m.name {
                material["name"] = json!(name);
            }
            match m.alpha {
                AlphaMode::Opaque => {}
                AlphaMode::Mask { cutoff } => {
                    material["alphaMode"] = json!("MASK");
                    material["alphaCutoff"] = json!(cutoff);
                }
                AlphaMode::Blend => material["alphaMode"] = json!("BLEND"),
            }
            material
        })
        .collect();
    (materials, textures, images)
}

/// Each vertex's strongest influences, normalised; a vertex bound to nothing rides on the
/// joint nearest to it, so that every vertex moves with the rig.
pub(super) fn vertex_influences(
    positions: &[Vec3],
    skeleton: &Skeleton,
    skin: &SkinWeights,
    k: usize,
) -> Vec<Vec<Influence>> {
    positions
        .iter()
        .enumerate()
        .map(|(v, p)| {
            let top = top_influences(skin.influences(v), k);
            if !top.is_empty() {
                return top;
            }
            let nearest = skeleton
                .joints
                .iter()
                .enumerate()
                .min_by(|(_, a), (_, b)| {
                    a.position()
                        .distance_squared(*p)
                        .total_cmp(&b.position().distance_squared(*p))
                })
                .map_or(0, |(i, _)| i);
            vec![Influence {
                joint: JointId(nearest as u32),
                weight: 1.0,
            }]
        })
        .collect()
}

/// The bytes of `JOINTS_set` (u16 × 4) and `WEIGHTS_set` (f32 × 4); unused slots are joint 0
/// with weight 0.
fn influence_set(per_vertex: &[Vec<Influence>], set: usize) -> (Vec<u8>, Vec<u8>) {
    let mut joints = Vec::with_capacity(per_vertex.len() * 8);
    let mut weights = Vec::with_capacity(per_vertex.len() * 16);
    for influences in per_vertex {
        for slot in set * 4..set * 4 + 4 {
            let (j, w) = influences
                .get(slot)
                .map_or((0, 0.0), |i| (i.joint.0 as u16, i.weight));
            joints.extend_from_slice(&j.to_le_bytes());
            weights.extend_from_slice(&w.to_le_bytes());
        }
    }
    (joints, weights)
}

/// The inverse of a bind matrix, with its last row exactly (0, 0, 0, 1) as glTF requires of
/// an affine transform.
fn inverse_bind(world: Mat4) -> Mat4 {
    let mut m = world.inverse();
    m.x_axis.w = 0.0;
    m.y_axis.w = 0.0;
    m.z_axis.w = 0.0;
    m.w_axis.w = 1.0;
    m
}

/// Joint nodes with local transforms (parent⁻¹ × world), as translation/rotation/scale when
/// the matrix decomposes exactly, which animation needs, else as a matrix; and those
/// decomposed transforms (`None` for a matrix node).
fn joint_nodes(skeleton: &Skeleton) -> (Vec<Value>, Vec<Option<Transform>>) {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); skeleton.joints.len()];
    for bone in skeleton.bones() {
        children[bone.parent.index()].push(bone.child.index());
    }
    skeleton
        .joints
        .iter()
        .zip(children)
        .map(|(joint, kids)| {
            let parent_world = joint
                .parent
                .and_then(|p| skeleton.joint(p))
                .map_or(Mat4::IDENTITY, |p| p.world_bind);
            let local = parent_world.inverse() * joint.world_bind;
            let mut node = json!({ "name": joint.name });
            let trs = Transform::from_mat4(local);
            let exact = trs
                .to_mat4()
                .abs_diff_eq(local, 1e-5 * (1.0 + local.w_axis.truncate().length()));
            if exact {
                node["translation"] = json!(trs.translation.to_array());
                node["rotation"] = json!(trs.rotation.to_array());
                node["scale"] = json!(trs.scale.to_array());
            } else {
                node["matrix"] = json!(local.to_cols_array());
            }
            if !kids.is_empty() {
                node["children"] = json!(kids);
            }
            (node, exact.then_some(trs))
        })
        .unzip()
}

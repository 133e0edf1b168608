//! Builds the glTF document of a character: one skinned mesh in world space, the skeleton as a
//! named node hierarchy under an `Armature` node, inverse bind matrices, and
//! `JOINTS_n`/`WEIGHTS_n` normalised per vertex — typed through the `gltf` crate's JSON model,
//! which the reader shares.

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::buffer::Target;
use gltf::json::mesh::{Mode, Primitive, Semantic};
use gltf::json::scene::UnitQuaternion;
use gltf::json::validation::{Checked::Valid, USize64};
use gltf::json::{self, Asset, Index, Node, Scene, Skin};
use serde_json::json;

use super::animation::{MorphChannel, animation_documents};
use super::glb_container;
use super::gltf_buffers::{Buffers, accessor};
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
    let mut attributes = BTreeMap::new();
    let mut attribute = |semantic, accessor| attributes.insert(Valid(semantic), accessor);
    attribute(
        Semantic::Positions,
        buffers.push_vec3(&mesh.positions, true),
    );
    attribute(Semantic::Normals, buffers.push_vec3(&mesh.normals, false));
    if mesh.tangents.len() == mesh.positions.len() {
        let tangents = mesh.tangents.iter().flat_map(|t| t.to_array());
        let target = Some(Target::ArrayBuffer);
        attribute(
            Semantic::Tangents,
            buffers.push_floats(tangents, Type::Vec4, target, None),
        );
    }
    // Morph targets as the input carried them, with the normals' change so that a shaped face
    // shades as its shape; one whose offsets no longer match the vertices is not written.
    let written: Vec<usize> = (mesh.morph_targets.iter().enumerate())
        .filter(|(_, t)| t.offsets.len() == mesh.positions.len())
        .map(|(i, _)| i)
        .collect();
    let morphs: Vec<&MorphTarget> = written.iter().map(|&i| &mesh.morph_targets[i]).collect();
    let rest_normals = match morphs.is_empty() {
        true => Vec::new(),
        false => crate::mesh::vertex_normals(&mesh.positions, &mesh.triangles),
    };
    let targets: Vec<json::mesh::MorphTarget> = morphs
        .iter()
        .map(|t| json::mesh::MorphTarget {
            positions: Some(buffers.push_offsets(&t.offsets, true)),
            normals: Some(buffers.push_offsets(&normal_offsets(mesh, &rest_normals, t), false)),
            tangents: None,
        })
        .collect();
    // The second set only beside a first: glTF numbers the sets from 0.
    let uv_sets = [&mesh.uvs, &mesh.second_uvs];
    let written_sets = uv_sets
        .iter()
        .take_while(|uvs| uvs.len() == mesh.positions.len());
    for (set, uvs) in written_sets.enumerate() {
        let uvs = uvs.iter().flat_map(|uv| uv.to_array());
        let target = Some(Target::ArrayBuffer);
        attribute(
            Semantic::TexCoords(set as u32),
            buffers.push_floats(uvs, Type::Vec2, target, None),
        );
    }
    // White everywhere changes no material: not written.
    let coloured = mesh.colors.iter().any(|c| *c != glam::Vec4::ONE);
    if coloured && mesh.colors.len() == mesh.positions.len() {
        let colors = mesh.colors.iter().flat_map(|c| c.to_array());
        let target = Some(Target::ArrayBuffer);
        attribute(
            Semantic::Colors(0),
            buffers.push_floats(colors, Type::Vec4, target, None),
        );
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
    let mut mesh_node = Node {
        name: Some(name.to_owned()),
        mesh: Some(Index::new(0)),
        ..Node::default()
    };

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
            let (target, count) = (Some(Target::ArrayBuffer), per_vertex.len());
            let layout = accessor(ComponentType::U16, Type::Vec4, count);
            let j = buffers.push(&joints, target, layout);
            let layout = accessor(ComponentType::F32, Type::Vec4, count);
            let w = buffers.push(&weights, target, layout);
            attribute(Semantic::Joints(set as u32), j);
            attribute(Semantic::Weights(set as u32), w);
        }
        let ibm = (skeleton.joints.iter()).flat_map(|j| inverse_bind(j.world_bind).to_cols_array());
        let ibm = buffers.push_floats(ibm, Type::Mat4, None, None);
        // Joints are nodes 0..n in skeleton order; the Armature node holds the roots so that
        // every joint has one common root, as the glTF validator requires.
        let (joints, rest) = joint_nodes(skeleton);
        nodes.extend(joints);
        let roots: Vec<Index<Node>> = (skeleton.joints.iter().enumerate())
            .filter(|(_, j)| j.parent.is_none())
            .map(|(i, _)| Index::new(i as u32))
            .collect();
        let armature = Index::push(
            &mut nodes,
            Node {
                name: Some("Armature".to_owned()),
                children: Some(roots),
                ..Node::default()
            },
        );
        scene_nodes.push(armature);
        skins.push(Skin {
            name: Some(format!("{name} skin")),
            joints: (0..skeleton.joints.len() as u32).map(Index::new).collect(),
            inverse_bind_matrices: Some(ibm),
            skeleton: Some(armature),
            extensions: None,
            extras: Default::default(),
        });
        mesh_node.skin = Some(Index::new(0));
        if options.animations {
            // The mesh's node comes next.
            let morphs = MorphChannel {
                node: nodes.len(),
                targets: mesh.morph_targets.len(),
                written: &written,
            };
            let clips = &character.animations;
            animations = animation_documents(clips, skeleton, &rest, &morphs, &mut buffers);
        }
    }
    let mesh_node = Index::push(&mut nodes, mesh_node);
    scene_nodes.push(mesh_node);
    // One primitive per input part, sharing the vertex attributes; parts without a material
    // use a neutral one appended after the character's own.
    let parts = mesh.parts_or_whole();
    let neutral = character.materials.len();
    let needs_neutral = parts
        .iter()
        .any(|p| p.material.is_none_or(|m| m >= neutral));
    let (materials, textures, images) = material_documents(character, needs_neutral, &mut buffers);
    let primitives: Vec<Primitive> = parts
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
            let layout = accessor(ComponentType::U32, Type::Scalar, triangles.len() * 3);
            let indices = buffers.push(&bytes, Some(Target::ElementArrayBuffer), layout);
            let material = part.material.filter(|&m| m < neutral).unwrap_or(neutral);
            Some(Primitive {
                attributes: attributes.clone(),
                indices: Some(indices),
                material: Some(Index::new(material as u32)),
                mode: Valid(Mode::Triangles),
                targets: (!targets.is_empty()).then(|| targets.clone()),
                extensions: None,
                extras: Default::default(),
            })
        })
        .collect();

    let mut root = json::Root {
        asset: Asset {
            version: "2.0".to_owned(),
            generator: Some(concat!("rigkit ", env!("CARGO_PKG_VERSION")).to_owned()),
            copyright: None,
            min_version: None,
            extensions: None,
            extras: Default::default(),
        },
        scene: Some(Index::new(0)),
        scenes: vec![Scene {
            name: Some(name.to_owned()),
            nodes: scene_nodes,
            extensions: None,
            extras: Default::default(),
        }],
        nodes,
        meshes: vec![mesh_document(name, primitives, &morphs)],
        materials,
        buffers: vec![json::Buffer {
            byte_length: USize64::from(buffers.bin.len()),
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        }],
        skins,
        animations,
        ..json::Root::default()
    };
    if !images.is_empty() {
        root.images = images;
        root.textures = textures;
        root.samplers = vec![json::texture::Sampler::default()];
    }
    let face = super::vrm::Face {
        node: mesh_node.value(),
        targets: &written,
    };
    let vrm = super::vrm::extensions(character, options.vrm, &face)?;
    if !vrm.is_empty() {
        let mut extensions = json::extensions::Root::default();
        for (extension, object) in vrm {
            root.extensions_used.push(extension.to_owned());
            extensions.others.insert(extension.to_owned(), object);
        }
        root.extensions = Some(extensions);
    }
    let Buffers {
        bin,
        views,
        accessors,
    } = buffers;
    root.accessors = accessors;
    root.buffer_views = views;
    let json = serde_json::to_vec(&root).unwrap_or_default();
    Ok(glb_container::write(&json, &bin))
}

/// How `target` turns each vertex normal of `mesh`: as the surface's normal turns from the
/// rest mesh's (`rest`, computed from the triangles) to the shaped mesh's, so exactly zero
/// where no vertex around moved.
fn normal_offsets(mesh: &crate::mesh::Mesh, rest: &[Vec3], target: &MorphTarget) -> Vec<Vec3> {
    let shaped: Vec<Vec3> = (mesh.positions.iter().zip(&target.offsets))
        .map(|(p, d)| *p + *d)
        .collect();
    let shaped = crate::mesh::vertex_normals(&shaped, &mesh.triangles);
    // The mesh's own normal turned as the surface around it turns (the file's shading
    // normals stay the file's where nothing moves, and stay unit where it does).
    (shaped.iter().zip(rest).zip(&mesh.normals))
        .map(
            |((s, r), n)| match (s == r, s.is_normalized() && r.is_normalized()) {
                (true, _) => Vec3::ZERO,
                (false, true) => glam::Quat::from_rotation_arc(*r, *s) * *n - *n,
                (false, false) => *s - *r,
            },
        )
        .collect()
}

/// The glTF mesh: its primitives and, with morph targets, their rest weights and names.
fn mesh_document(name: &str, primitives: Vec<Primitive>, morphs: &[&MorphTarget]) -> json::Mesh {
    let names =
        json!({ "targetNames": morphs.iter().map(|t| t.name.as_str()).collect::<Vec<_>>() });
    json::Mesh {
        name: Some(name.to_owned()),
        primitives,
        weights: (!morphs.is_empty()).then(|| morphs.iter().map(|t| t.weight).collect()),
        extras: (!morphs.is_empty())
            .then(|| serde_json::value::to_raw_value(&names).ok())
            .flatten(),
        extensions: None,
    }
}

/// glTF materials (the character's, then a neutral one), textures and images; images are
/// embedded in the binary chunk as the input carried them.
fn material_documents(
    character: &Character,
    with_neutral: bool,
    buffers: &mut Buffers,
) -> (Vec<json::Material>, Vec<json::Texture>, Vec<json::Image>) {
    let neutral = Material {
        name: Some("rigkit neutral".into()),
        ..Material::default()
    };
    let has_uvs = character.mesh.uvs.len() == character.mesh.positions.len();
    let images: Vec<json::Image> = (character.images.iter())
        .map(|image| json::Image {
            buffer_view: Some(buffers.push_view(&image.bytes, None)),
            mime_type: Some(json::image::MimeType(image.mime_type.clone())),
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        })
        .collect();
    let textures: Vec<json::Texture> = (0..images.len() as u32)
        .map(|i| json::Texture {
            source: Index::new(i),
            sampler: Some(Index::new(0)),
            name: None,
            extensions: None,
            extras: Default::default(),
        })
        .collect();
    // A texture needs coordinates to be sampled with.
    let texture = |image: Option<usize>| {
        (image.filter(|&i| has_uvs && i < images.len())).map(|i| Index::new(i as u32))
    };
    let info = |index| json::texture::Info {
        index,
        tex_coord: 0,
        extensions: None,
        extras: Default::default(),
    };
    let materials = (character.materials.iter())
        .chain(with_neutral.then_some(&neutral))
        .map(|m| {
            let (alpha_mode, alpha_cutoff) = match m.alpha {
                AlphaMode::Opaque => (json::material::AlphaMode::Opaque, None),
                AlphaMode::Mask { cutoff } => (
                    json::material::AlphaMode::Mask,
                    Some(json::material::AlphaCutoff(cutoff)),
                ),
                AlphaMode::Blend => (json::material::AlphaMode::Blend, None),
            };
            json::Material {
                name: m.name.clone(),
                pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                    base_color_factor: json::material::PbrBaseColorFactor(m.base_color),
                    base_color_texture: texture(m.base_color_image).map(info),
                    metallic_factor: json::material::StrengthFactor(m.metallic),
                    roughness_factor: json::material::StrengthFactor(m.roughness),
                    metallic_roughness_texture: texture(m.metallic_roughness_image).map(info),
                    extensions: None,
                    extras: Default::default(),
                },
                normal_texture: texture(m.normal_image).map(|index| {
                    json::material::NormalTexture {
                        index,
                        scale: m.normal_scale,
                        tex_coord: 0,
                        extensions: None,
                        extras: Default::default(),
                    }
                }),
                occlusion_texture: texture(m.occlusion_image).map(|index| {
                    json::material::OcclusionTexture {
                        index,
                        strength: json::material::StrengthFactor(
                            m.occlusion_strength.clamp(0.0, 1.0),
                        ),
                        tex_coord: 0,
                        extensions: None,
                        extras: Default::default(),
                    }
                }),
                emissive_texture: texture(m.emissive_image).map(info),
                emissive_factor: json::material::EmissiveFactor(
                    m.emissive.map(|c| c.clamp(0.0, 1.0)),
                ),
                double_sided: m.double_sided,
                alpha_mode: Valid(alpha_mode),
                alpha_cutoff,
                ..json::Material::default()
            }
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
fn joint_nodes(skeleton: &Skeleton) -> (Vec<Node>, Vec<Option<Transform>>) {
    let mut children: Vec<Vec<Index<Node>>> = vec![Vec::new(); skeleton.joints.len()];
    for bone in skeleton.bones() {
        children[bone.parent.index()].push(Index::new(bone.child.0));
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
            let trs = Transform::from_mat4(local);
            let exact = trs
                .to_mat4()
                .abs_diff_eq(local, 1e-5 * (1.0 + local.w_axis.truncate().length()));
            let mut node = Node {
                name: Some(joint.name.clone()),
                children: (!kids.is_empty()).then_some(kids),
                ..Node::default()
            };
            if exact {
                node.translation = Some(trs.translation.to_array());
                node.rotation = Some(UnitQuaternion(trs.rotation.to_array()));
                node.scale = Some(trs.scale.to_array());
            } else {
                node.matrix = Some(local.to_cols_array());
            }
            (node, exact.then_some(trs))
        })
        .unzip()
}

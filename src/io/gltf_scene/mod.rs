//! A glTF document → one [`Character`] in world space at its rest pose (the nodes' default
//! transforms), with the skeleton and skin weights of every skin merged.

use std::collections::HashMap;

use glam::Vec3;
use gltf::Document;
use gltf::mesh::Mode;

mod clips;
mod hierarchy;
mod material;
mod primitive;
mod skin;
mod vrm;

use hierarchy::Hierarchy;
use skin::Binding;

use super::{ImportError, InputFile, resources};
use crate::mesh::{Mesh, UnitBox, vertex_normals};
use crate::rig::{HumanoidBone, Skeleton, SkinWeights};
use crate::{Character, Limits};

/// Extensions that change how geometry is stored; a file that requires one cannot be read
/// without a decoder for it.
const GEOMETRY_EXTENSIONS: &[(&str, &str)] = &[
    (
        "KHR_draco_mesh_compression",
        " (Draco-compressed meshes are not supported yet; re-export without Draco compression)",
    ),
    (
        "EXT_meshopt_compression",
        " (meshopt-compressed meshes are not supported yet; re-export without compression)",
    ),
    (
        "KHR_mesh_quantization",
        " (quantized vertex attributes are not supported yet; re-export with float positions)",
    ),
];

pub fn import(
    json: &[u8],
    bin: Option<&[u8]>,
    name: &str,
    files: &[InputFile<'_>],
    limits: &Limits,
) -> Result<Character, ImportError> {
    let (document, vrm) = parse(json, name, limits)?;
    let buffers = load_buffers(&document, bin, name, files)?;
    SceneReader {
        document: &document,
        files,
        buffers: &buffers,
        name,
        limits,
    }
    .read(&vrm)
}

/// Only the skeleton of a glTF document (all skins' joints merged, at the nodes' default
/// pose), for files that carry a skeleton without a mesh, such as rig templates.
pub fn import_skeleton(json: &[u8], name: &str, limits: &Limits) -> Result<Skeleton, ImportError> {
    let (document, _) = parse(json, name, limits)?;
    let hierarchy = Hierarchy::new(&document).map_err(|reason| ImportError::Malformed {
        name: name.into(),
        reason,
    })?;
    let reader = SceneReader {
        document: &document,
        files: &[],
        buffers: &[],
        name,
        limits,
    };
    let (skeleton, _) = reader.skeleton(&hierarchy)?;
    if skeleton.joints.is_empty() {
        return Err(ImportError::NoSkeleton { name: name.into() });
    }
    Ok(skeleton)
}

/// The validated document and what a VRM says of its avatar, before any buffer is read.
fn parse(
    json: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<(Document, vrm::VrmFile), ImportError> {
    let malformed = |reason: String| ImportError::Malformed {
        name: name.into(),
        reason,
    };
    let root =
        gltf::json::Root::from_slice(json).map_err(|e| malformed(format!("bad JSON: {e}")))?;
    for required in &root.extensions_required {
        if let Some((extension, hint)) = GEOMETRY_EXTENSIONS.iter().find(|(e, _)| e == required) {
            return Err(ImportError::UnsupportedExtension {
                name: name.into(),
                extension: (*extension).into(),
                hint,
            });
        }
    }
    ImportError::at_most(name, "nodes", root.nodes.len(), limits.max_nodes)?;
    check_position_references(&root).map_err(malformed)?;
    let vrm = vrm::read(&root, json);
    let document = Document::from_json(root).map_err(|e| malformed(describe(&e)))?;
    Ok((document, vrm))
}

/// The `gltf` crate's validation indexes the POSITION accessor without a bounds check, so a
/// dangling reference there would panic inside it: catch it first.
fn check_position_references(root: &gltf::json::Root) -> Result<(), String> {
    use gltf::json::mesh::Semantic;
    use gltf::json::validation::Checked;
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let Some(index) = primitive
                .attributes
                .get(&Checked::Valid(Semantic::Positions))
            else {
                continue;
            };
            if index.value() >= root.accessors.len() {
                return Err(format!(
                    "invalid glTF: meshes[{m}].primitives[{p}].attributes.POSITION refers to accessor {}, but there are {}",
                    index.value(),
                    root.accessors.len()
                ));
            }
        }
    }
    Ok(())
}

/// URIs of buffers and images that are not embedded.
pub fn external_uris(json: &[u8]) -> Vec<String> {
    let Ok(root) = gltf::json::Root::from_slice(json) else {
        return Vec::new();
    };
    let buffers = root.buffers.iter().filter_map(|b| b.uri.clone());
    let images = root.images.iter().filter_map(|i| i.uri.clone());
    buffers
        .chain(images)
        .filter(|u| !u.starts_with("data:"))
        .collect()
}

fn describe(error: &gltf::Error) -> String {
    match error {
        gltf::Error::Validation(errors) => {
            let shown: Vec<String> = errors
                .iter()
                .take(3)
                .map(|(path, e)| format!("{path}: {e}"))
                .collect();
            let more = errors.len().saturating_sub(shown.len());
            let tail = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            format!("invalid glTF: {}{tail}", shown.join("; "))
        }
        other => other.to_string(),
    }
}

/// The bytes of every buffer: the GLB binary chunk, a base64 data URI, or a file given along
/// with the document.
fn load_buffers(
    document: &Document,
    bin: Option<&[u8]>,
    name: &str,
    files: &[InputFile<'_>],
) -> Result<Vec<Vec<u8>>, ImportError> {
    let malformed = |reason: String| ImportError::Malformed {
        name: name.into(),
        reason,
    };
    document
        .buffers()
        .map(|buffer| {
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => bin
                    .ok_or_else(|| {
                        malformed(format!(
                            "buffer {} refers to the binary chunk, which the file lacks",
                            buffer.index()
                        ))
                    })?
                    .to_vec(),
                gltf::buffer::Source::Uri(uri) => {
                    resources::resolve(uri, files).map_err(|e| e.into_import_error(name))?
                }
            };
            if data.len() < buffer.length() {
                return Err(malformed(format!(
                    "buffer {} has {} bytes but declares {}",
                    buffer.index(),
                    data.len(),
                    buffer.length()
                )));
            }
            Ok(data)
        })
        .collect()
}

struct SceneReader<'a> {
    document: &'a Document,
    files: &'a [InputFile<'a>],
    buffers: &'a [Vec<u8>],
    name: &'a str,
    limits: &'a Limits,
}

impl SceneReader<'_> {
    fn bad(&self, place: impl Into<String>, reason: impl Into<String>) -> ImportError {
        ImportError::BadData {
            name: self.name.into(),
            place: place.into(),
            reason: reason.into(),
        }
    }

    fn read(&self, vrm: &vrm::VrmFile) -> Result<Character, ImportError> {
        let hierarchy = Hierarchy::new(self.document).map_err(|reason| ImportError::Malformed {
            name: self.name.into(),
            reason,
        })?;
        let (skeleton, joint_of_node) = self.skeleton(&hierarchy)?;
        let visible = self.visible_nodes(&hierarchy);

        let mut mesh = Mesh::default();
        // Primitives of one node often share their vertex attributes; read those vertices once.
        let mut shared_vertices = HashMap::new();
        let mut target_slots = primitive::TargetSlots::new();
        let mut skin = SkinWeights::new();
        let mut warnings = Vec::new();
        let mut dropped_weights = 0usize;
        for &node_index in &hierarchy.order {
            if !visible[node_index] {
                continue;
            }
            let Some(node) = self.document.nodes().nth(node_index) else {
                continue;
            };
            let Some(gltf_mesh) = node.mesh() else {
                continue;
            };
            for primitive in gltf_mesh.primitives() {
                let place = format!(
                    "mesh '{}' primitive {}",
                    gltf_mesh.name().unwrap_or("unnamed"),
                    primitive.index()
                );
                if !matches!(
                    primitive.mode(),
                    Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
                ) {
                    warnings.push(format!(
                        "skipped {place}: {:?} primitives have no surface to rig",
                        primitive.mode()
                    ));
                    continue;
                }
                let binding = match node.skin() {
                    Some(s) => {
                        Binding::Skinned(self.skin_matrices(&s, &hierarchy, &joint_of_node)?)
                    }
                    None => Binding::Rigid {
                        world: hierarchy.world[node_index],
                        joint: hierarchy
                            .nearest(node_index, |n| joint_of_node.contains_key(&n))
                            .and_then(|n| joint_of_node.get(&n).copied()),
                    },
                };
                dropped_weights += self.append_primitive(
                    &primitive,
                    &place,
                    &binding,
                    (node_index, &mut shared_vertices),
                    (&gltf_mesh, &mut target_slots),
                    &mut mesh,
                    &mut skin,
                )?;
            }
        }
        if dropped_weights > 0 {
            warnings.push(format!(
                "ignored {dropped_weights} NaN, infinite or negative skin weights"
            ));
        }
        if mesh.triangles.is_empty() {
            return Err(ImportError::NoTriangles {
                name: self.name.into(),
            });
        }
        if UnitBox::of(&mesh.bounds()).is_none() {
            return Err(ImportError::Degenerate {
                name: self.name.into(),
            });
        }
        // Vertices read after a target's last primitive do not move with it.
        for target in &mut mesh.morph_targets {
            target
                .offsets
                .resize(mesh.positions.len(), glam::Vec3::ZERO);
        }
        finish_normals(&mut mesh);
        let (materials, images) = self.materials(self.files, &mut warnings);
        let has_skeleton = !skeleton.joints.is_empty();
        let morphs = clips::Morphs {
            slots: &target_slots,
            rest: mesh.morph_targets.iter().map(|t| t.weight).collect(),
        };
        let animations = clips::read_clips(
            self.document,
            self.buffers,
            &hierarchy,
            (&skeleton, &joint_of_node),
            &morphs,
            self.limits,
            &mut warnings,
        );
        let avatar = vrm.avatar(&target_slots, (&skeleton, &joint_of_node), &mut warnings);
        let humanoid = (vrm.humanoid.iter())
            .filter_map(|(bone, node)| {
                let joint = *joint_of_node.get(node)?;
                Some(HumanoidBone {
                    bone: bone.clone(),
                    joint,
                })
            })
            .collect();
        Ok(Character {
            name: self.name.into(),
            mesh,
            skeleton: has_skeleton.then_some(skeleton),
            skin: has_skeleton.then_some(skin),
            animations,
            materials,
            images,
            humanoid,
            vrm: avatar,
            warnings,
            source: crate::character::SourceSummary {
                materials: self.document.materials().len(),
                textures: self.document.textures().len(),
                skins: self.document.skins().len(),
                animations: self.document.animations().len(),
            },
        })
    }

    /// Nodes of the default scene (or the first, or all when there are no scenes).
    fn visible_nodes(&self, hierarchy: &Hierarchy) -> Vec<bool> {
        let count = hierarchy.world.len();
        let scene = self
            .document
            .default_scene()
            .or_else(|| self.document.scenes().next());
        let Some(scene) = scene else {
            return vec![true; count];
        };
        let mut roots = vec![false; count];
        for node in scene.nodes() {
            roots[node.index()] = true;
        }
        // `order` is parents-first, so one pass propagates visibility down.
        let mut visible = vec![false; count];
        for &n in &hierarchy.order {
            visible[n] = roots[n] || hierarchy.parent[n].is_some_and(|p| visible[p]);
        }
        visible
    }
}

/// The file's normals where it gave them, smooth ones from the triangles elsewhere; its
/// tangents only if every vertex has a usable one (a tangent is a unit direction, so a
/// degenerate one would make the file written invalid).
fn finish_normals(mesh: &mut Mesh) {
    let smooth = vertex_normals(&mesh.positions, &mesh.triangles);
    mesh.normals.resize(smooth.len(), Vec3::ZERO);
    for (normal, smooth) in mesh.normals.iter_mut().zip(smooth) {
        if *normal == Vec3::ZERO {
            *normal = smooth;
        }
    }
    let usable = |t: &glam::Vec4| t.truncate() != Vec3::ZERO;
    if mesh.tangents.len() != mesh.positions.len() || !mesh.tangents.iter().all(usable) {
        mesh.tangents.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::primitive::triangulate;
    use super::*;

    #[test]
    fn strips_and_fans_become_lists() {
        assert_eq!(
            triangulate(Mode::TriangleStrip, &[0, 1, 2, 3]),
            vec![[0, 1, 2], [2, 1, 3]]
        );
        assert_eq!(
            triangulate(Mode::TriangleFan, &[0, 1, 2, 3]),
            vec![[0, 1, 2], [0, 2, 3]]
        );
        assert_eq!(triangulate(Mode::Triangles, &[0, 1, 2, 3]), vec![[0, 1, 2]]);
    }
}

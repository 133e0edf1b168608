//! A glTF document → one [`Character`] in world space at its rest pose (the nodes' default
//! transforms), with the skeleton and skin weights of every skin merged.

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;
use gltf::{Document, Node, Primitive};

use super::{ImportError, InputFile, accessor_check, gltf_animation, resources};
use crate::mesh::{AlphaMode, Image, Material, Mesh, UnitBox, vertex_normals};
use crate::rig::{
    HumanoidBone, Influence, Joint, JointId, Skeleton, SkinWeights, forward_kinematics,
};
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
    let (document, humanoid_nodes) = parse(json, name, limits)?;
    let buffers = load_buffers(&document, bin, name, files)?;
    SceneReader {
        document: &document,
        files,
        buffers: &buffers,
        name,
        limits,
    }
    .read(&humanoid_nodes)
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

/// The validated document and its VRM humanoid map, before any buffer is read.
fn parse(
    json: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<(Document, Vec<(String, usize)>), ImportError> {
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
    if root.nodes.len() > limits.max_nodes {
        return Err(ImportError::TooMany {
            name: name.into(),
            what: "nodes",
            count: root.nodes.len(),
            limit: limits.max_nodes,
        });
    }
    check_position_references(&root).map_err(malformed)?;
    let humanoid_nodes = humanoid_nodes(&root, json);
    let document = Document::from_json(root).map_err(|e| malformed(describe(&e)))?;
    Ok((document, humanoid_nodes))
}

/// VRM's humanoid bone map as (bone, node index) pairs: VRM 0.x lists
/// `extensions.VRM.humanoid.humanBones[] = {bone, node}`, VRM 1.0 maps
/// `extensions.VRMC_vrm.humanoid.humanBones.<bone> = {node}`. Empty for other files.
fn humanoid_nodes(root: &gltf::json::Root, json: &[u8]) -> Vec<(String, usize)> {
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

/// The node hierarchy resolved once: parents, world matrices and a parents-first order.
pub(super) struct Hierarchy {
    pub(super) parent: Vec<Option<usize>>,
    pub(super) world: Vec<Mat4>,
    /// Every node reachable from a root, parents before children.
    pub(super) order: Vec<usize>,
}

impl Hierarchy {
    fn new(document: &Document) -> Result<Self, String> {
        let count = document.nodes().len();
        let mut parent = vec![None; count];
        for node in document.nodes() {
            for child in node.children() {
                if parent[child.index()].is_some() {
                    return Err(format!("node {} has more than one parent", child.index()));
                }
                parent[child.index()] = Some(node.index());
            }
        }
        let nodes: Vec<Node> = document.nodes().collect();
        let mut order = Vec::with_capacity(count);
        let mut stack: Vec<usize> = (0..count).rev().filter(|&i| parent[i].is_none()).collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(
                nodes[i]
                    .children()
                    .map(|c| c.index())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            );
        }
        if order.len() != count {
            return Err("the node hierarchy contains a cycle".into());
        }
        let world = forward_kinematics(
            count,
            order.iter().copied(),
            |n| parent[n],
            |n, parent_world| {
                parent_world * Mat4::from_cols_array_2d(&nodes[n].transform().matrix())
            },
        );
        Ok(Self {
            parent,
            world,
            order,
        })
    }

    /// `node` itself or its nearest ancestor that satisfies `pred`.
    fn nearest(&self, mut node: usize, pred: impl Fn(usize) -> bool) -> Option<usize> {
        loop {
            if pred(node) {
                return Some(node);
            }
            node = self.parent[node]?;
        }
    }
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

    fn too_many(&self, what: &'static str, count: usize, limit: usize) -> ImportError {
        ImportError::TooMany {
            name: self.name.into(),
            what,
            count,
            limit,
        }
    }

    fn read(&self, humanoid_nodes: &[(String, usize)]) -> Result<Character, ImportError> {
        let hierarchy = Hierarchy::new(self.document).map_err(|reason| ImportError::Malformed {
            name: self.name.into(),
            reason,
        })?;
        let (skeleton, joint_of_node) = self.skeleton(&hierarchy)?;
        let visible = self.visible_nodes(&hierarchy);

        let mut mesh = Mesh::default();
        // Primitives of one node often share their vertex attributes; read those vertices once.
        let mut shared_vertices = HashMap::new();
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
        mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
        let (materials, images) = self.materials(self.files, &mut warnings);
        let has_skeleton = !skeleton.joints.is_empty();
        let animations = gltf_animation::read_clips(
            self.document,
            self.buffers,
            &hierarchy,
            &skeleton,
            &joint_of_node,
            self.limits,
            &mut warnings,
        );
        let humanoid = humanoid_nodes
            .iter()
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

    /// The union of all skins' joints, parents first, and the map from node to joint.
    fn skeleton(
        &self,
        hierarchy: &Hierarchy,
    ) -> Result<(Skeleton, HashMap<usize, JointId>), ImportError> {
        let mut is_joint = vec![false; hierarchy.world.len()];
        for skin in self.document.skins() {
            for joint in skin.joints() {
                is_joint[joint.index()] = true;
            }
        }
        let count = is_joint.iter().filter(|j| **j).count();
        if count > self.limits.max_joints {
            return Err(self.too_many("joints", count, self.limits.max_joints));
        }
        let nodes: Vec<Node> = self.document.nodes().collect();
        let mut joint_of_node = HashMap::new();
        let mut joints = Vec::with_capacity(count);
        for &n in &hierarchy.order {
            if !is_joint[n] {
                continue;
            }
            let parent = hierarchy.parent[n]
                .and_then(|p| hierarchy.nearest(p, |a| is_joint[a]))
                .and_then(|p| joint_of_node.get(&p).copied());
            let id = JointId(joints.len() as u32);
            joint_of_node.insert(n, id);
            joints.push(Joint {
                name: nodes[n]
                    .name()
                    .map_or_else(|| format!("joint{n}"), str::to_owned),
                parent,
                world_bind: hierarchy.world[n],
            });
        }
        Ok((Skeleton { joints }, joint_of_node))
    }

    /// Per skin joint: its global id and its skinning matrix (world × inverse bind).
    fn skin_matrices(
        &self,
        skin: &gltf::Skin<'_>,
        hierarchy: &Hierarchy,
        joint_of_node: &HashMap<usize, JointId>,
    ) -> Result<Vec<(JointId, Mat4)>, ImportError> {
        let place = format!("skin {}", skin.index());
        let joint_count = skin.joints().count();
        let inverse_binds: Vec<Mat4> = match skin.inverse_bind_matrices() {
            Some(accessor) => {
                accessor_check::check(&accessor, self.buffers)
                    .and_then(|()| {
                        accessor_check::check_kind(
                            &accessor,
                            "inverse bind matrix",
                            &[DataType::F32],
                            Dimensions::Mat4,
                        )
                    })
                    .map_err(|r| self.bad(&place, r))?;
                skin.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]))
                    .read_inverse_bind_matrices()
                    .map(|m| m.map(|c| Mat4::from_cols_array_2d(&c)).collect())
                    .unwrap_or_default()
            }
            None => vec![Mat4::IDENTITY; joint_count],
        };
        if inverse_binds.len() < joint_count {
            return Err(self.bad(
                place,
                format!(
                    "{} inverse bind matrices for {joint_count} joints",
                    inverse_binds.len()
                ),
            ));
        }
        Ok(skin
            .joints()
            .zip(inverse_binds)
            .filter_map(|(node, ibm)| {
                let id = joint_of_node.get(&node.index())?;
                Some((*id, hierarchy.world[node.index()] * ibm))
            })
            .collect())
    }

    /// Reads one primitive into `mesh` and `skin`; returns how many weights it dropped.
    fn append_primitive(
        &self,
        primitive: &Primitive<'_>,
        place: &str,
        binding: &Binding,
        (node_index, shared): (usize, &mut HashMap<(usize, Vec<usize>), u32>),
        mesh: &mut Mesh,
        skin: &mut SkinWeights,
    ) -> Result<usize, ImportError> {
        let bad = |r: String| self.bad(place, r);
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        let Some(positions_accessor) = primitive.get(&gltf::Semantic::Positions) else {
            return Err(bad("it has no POSITION attribute".into()));
        };
        accessor_check::check(&positions_accessor, self.buffers)
            .and_then(|()| {
                accessor_check::check_kind(
                    &positions_accessor,
                    "POSITION",
                    &[DataType::F32],
                    Dimensions::Vec3,
                )
            })
            .map_err(bad)?;
        let count = positions_accessor.count();
        let key = (
            node_index,
            primitive.attributes().map(|(_, a)| a.index()).collect(),
        );
        let shared_base = shared.get(&key).copied();
        let total = mesh.positions.len() + count;
        if shared_base.is_none() && total > self.limits.max_vertices {
            return Err(self.too_many("vertices", total, self.limits.max_vertices));
        }
        let local: Vec<Vec3> = match shared_base {
            Some(_) => Vec::new(),
            None => reader
                .read_positions()
                .map(|p| p.map(Vec3::from_array).collect())
                .unwrap_or_default(),
        };
        if let Some(vertex) = local.iter().position(|p| !p.is_finite()) {
            return Err(ImportError::NonFinitePosition {
                name: self.name.into(),
                place: place.into(),
                vertex,
            });
        }

        let indices: Vec<u32> = match primitive.indices() {
            Some(accessor) => {
                accessor_check::check(&accessor, self.buffers)
                    .and_then(|()| {
                        accessor_check::check_kind(
                            &accessor,
                            "index",
                            &[DataType::U8, DataType::U16, DataType::U32],
                            Dimensions::Scalar,
                        )
                    })
                    .map_err(bad)?;
                reader
                    .read_indices()
                    .map(|i| i.into_u32().collect())
                    .unwrap_or_default()
            }
            None => (0..count as u32).collect(),
        };
        if let Some(i) = indices.iter().find(|&&i| i as usize >= count) {
            return Err(bad(format!(
                "index {i} is out of range for its {count} vertices"
            )));
        }
        let triangles = triangulate(primitive.mode(), &indices);
        let total = mesh.triangles.len() + triangles.len();
        if total > self.limits.max_triangles {
            return Err(self.too_many("triangles", total, self.limits.max_triangles));
        }

        let (base, dropped) = match shared_base {
            Some(base) => (base, 0),
            None => {
                let base = mesh.positions.len() as u32;
                let dropped =
                    self.append_vertices(primitive, place, binding, &local, mesh, skin)?;
                shared.insert(key, base);
                (base, dropped)
            }
        };
        mesh.parts.push(crate::mesh::MeshPart {
            first_triangle: mesh.triangles.len(),
            triangle_count: triangles.len(),
            material: primitive.material().index(),
        });
        mesh.triangles
            .extend(triangles.iter().map(|t| t.map(|i| i + base)));
        Ok(dropped)
    }

    /// Poses a primitive's vertices to world space and appends them with their influences and
    /// texture coordinates; returns how many weights it dropped.
    fn append_vertices(
        &self,
        primitive: &Primitive<'_>,
        place: &str,
        binding: &Binding,
        local: &[Vec3],
        mesh: &mut Mesh,
        skin: &mut SkinWeights,
    ) -> Result<usize, ImportError> {
        let bad = |r: String| self.bad(place, r);
        let count = local.len();
        let (influences, dropped) = match binding {
            Binding::Skinned(matrices) => {
                self.read_influences(primitive, count, matrices, place)?
            }
            Binding::Rigid { joint, .. } => {
                let one = joint.map(|joint| Influence { joint, weight: 1.0 });
                (vec![one.into_iter().collect(); count], 0)
            }
        };
        let uvs = self.read_uvs(primitive, count).map_err(bad)?;
        if let Some(uvs) = uvs {
            // Earlier primitives without coordinates get zeros, so indices stay aligned.
            mesh.uvs.resize(mesh.positions.len(), glam::Vec2::ZERO);
            mesh.uvs.extend(uvs);
        } else if !mesh.uvs.is_empty() {
            mesh.uvs
                .resize(mesh.positions.len() + count, glam::Vec2::ZERO);
        }
        for (p, vertex_influences) in local.iter().zip(&influences) {
            let world = match binding {
                Binding::Rigid { world, .. } => world.transform_point3(*p),
                Binding::Skinned(matrices) => rest_pose(*p, vertex_influences, matrices),
            };
            mesh.positions.push(world);
            skin.push_vertex(vertex_influences.iter().copied());
        }
        Ok(dropped)
    }

    /// TEXCOORD_0 as floats, when the primitive has it.
    fn read_uvs(
        &self,
        primitive: &Primitive<'_>,
        count: usize,
    ) -> Result<Option<Vec<glam::Vec2>>, String> {
        let Some(accessor) = primitive.get(&gltf::Semantic::TexCoords(0)) else {
            return Ok(None);
        };
        accessor_check::check(&accessor, self.buffers)?;
        accessor_check::check_kind(
            &accessor,
            "TEXCOORD_0",
            &[DataType::F32, DataType::U8, DataType::U16],
            Dimensions::Vec2,
        )?;
        if accessor.count() != count {
            return Err(format!(
                "TEXCOORD_0 has {} entries for {count} vertices",
                accessor.count()
            ));
        }
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        Ok(reader.read_tex_coords(0).map(|t| {
            t.into_f32()
                .map(|uv| {
                    let uv = glam::Vec2::from_array(uv);
                    if uv.is_finite() { uv } else { glam::Vec2::ZERO }
                })
                .collect()
        }))
    }

    /// Materials and the images their base colour textures use. An image that cannot be
    /// found is dropped with a warning: the geometry is what rigging needs.
    fn materials(
        &self,
        files: &[InputFile<'_>],
        warnings: &mut Vec<String>,
    ) -> (Vec<Material>, Vec<Image>) {
        let mut images: Vec<Image> = Vec::new();
        let mut image_of: HashMap<usize, Option<usize>> = HashMap::new();
        let mut load_image = |image: gltf::Image<'_>| -> Option<usize> {
            *image_of.entry(image.index()).or_insert_with(|| {
                let bytes = match image.source() {
                    gltf::image::Source::View { view, .. } => {
                        let data = self.buffers.get(view.buffer().index())?;
                        data.get(view.offset()..view.offset().checked_add(view.length())?)
                            .map(<[u8]>::to_vec)
                    }
                    gltf::image::Source::Uri { uri, .. } => resources::resolve(uri, files).ok(),
                };
                let Some(bytes) = bytes else {
                    warnings.push(format!(
                        "image {} could not be found; its texture is left out",
                        image.index()
                    ));
                    return None;
                };
                let Some(mime) = Image::sniff_mime_type(&bytes) else {
                    warnings.push(format!(
                        "image {} is not PNG or JPEG; its texture is left out",
                        image.index()
                    ));
                    return None;
                };
                images.push(Image {
                    mime_type: mime.into(),
                    bytes,
                });
                Some(images.len() - 1)
            })
        };
        let materials = self
            .document
            .materials()
            .map(|m| {
                let pbr = m.pbr_metallic_roughness();
                Material {
                    name: m.name().map(str::to_owned),
                    base_color: pbr.base_color_factor(),
                    base_color_image: pbr
                        .base_color_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    metallic: pbr.metallic_factor(),
                    roughness: pbr.roughness_factor(),
                    metallic_roughness_image: pbr
                        .metallic_roughness_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    normal_image: m
                        .normal_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    normal_scale: m.normal_texture().map_or(1.0, |t| t.scale()),
                    occlusion_image: m
                        .occlusion_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    occlusion_strength: m.occlusion_texture().map_or(1.0, |t| t.strength()),
                    emissive: m.emissive_factor(),
                    emissive_image: m
                        .emissive_texture()
                        .and_then(|t| load_image(t.texture().source())),
                    alpha: match m.alpha_mode() {
                        gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
                        gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                            cutoff: m.alpha_cutoff().unwrap_or(0.5),
                        },
                        gltf::material::AlphaMode::Blend => AlphaMode::Blend,
                    },
                    double_sided: m.double_sided(),
                }
            })
            .collect();
        (materials, images)
    }

    /// All JOINTS_n/WEIGHTS_n sets of a skinned primitive, as global joint ids.
    fn read_influences(
        &self,
        primitive: &Primitive<'_>,
        count: usize,
        matrices: &[(JointId, Mat4)],
        place: &str,
    ) -> Result<(Vec<Vec<Influence>>, usize), ImportError> {
        let bad = |r: String| self.bad(place, r);
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        let mut influences = vec![Vec::new(); count];
        let mut dropped = 0;
        for set in 0u32.. {
            let (Some(joints_accessor), Some(weights_accessor)) = (
                primitive.get(&gltf::Semantic::Joints(set)),
                primitive.get(&gltf::Semantic::Weights(set)),
            ) else {
                break;
            };
            for (accessor, what, types) in [
                (
                    &joints_accessor,
                    "JOINTS",
                    &[DataType::U8, DataType::U16][..],
                ),
                (
                    &weights_accessor,
                    "WEIGHTS",
                    &[DataType::F32, DataType::U8, DataType::U16][..],
                ),
            ] {
                accessor_check::check(accessor, self.buffers)
                    .and_then(|()| {
                        accessor_check::check_kind(accessor, what, types, Dimensions::Vec4)
                    })
                    .map_err(bad)?;
                if accessor.count() != count {
                    return Err(bad(format!(
                        "{what}_{set} has {} entries for {count} vertices",
                        accessor.count()
                    )));
                }
            }
            let (Some(joints), Some(weights)) = (reader.read_joints(set), reader.read_weights(set))
            else {
                break;
            };
            for ((vertex, js), ws) in influences
                .iter_mut()
                .zip(joints.into_u16())
                .zip(weights.into_f32())
            {
                for (j, w) in js.into_iter().zip(ws) {
                    if w == 0.0 {
                        continue;
                    }
                    if !(w.is_finite() && w > 0.0) {
                        dropped += 1;
                        continue;
                    }
                    let Some((joint, _)) = matrices.get(j as usize) else {
                        return Err(bad(format!(
                            "JOINTS_{set} refers to joint {j} but the skin has {}",
                            matrices.len()
                        )));
                    };
                    vertex.push(Influence {
                        joint: *joint,
                        weight: w,
                    });
                }
            }
        }
        Ok((influences, dropped))
    }
}

/// How a primitive's vertices get to world space.
enum Binding {
    /// Skinning matrices per skin joint; glTF ignores the mesh node's own transform then.
    Skinned(Vec<(JointId, Mat4)>),
    /// The node's world transform, and the joint it rides on rigidly, if any.
    Rigid { world: Mat4, joint: Option<JointId> },
}

/// Linear blend skinning of one vertex at the nodes' default pose. Weights are normalised here
/// (files in the wild do not always sum to 1); a vertex with no usable weight stays where it is.
fn rest_pose(p: Vec3, influences: &[Influence], matrices: &[(JointId, Mat4)]) -> Vec3 {
    let total: f32 = influences.iter().map(|i| i.weight).sum();
    if total <= 0.0 {
        return p;
    }
    influences
        .iter()
        .filter_map(|i| {
            let (_, m) = matrices.iter().find(|(id, _)| *id == i.joint)?;
            Some(m.transform_point3(p) * (i.weight / total))
        })
        .sum()
}

/// Triangle lists from list, strip or fan indices, keeping counter-clockwise winding.
fn triangulate(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => indices
            .windows(3)
            .enumerate()
            .map(|(k, w)| {
                if k % 2 == 0 {
                    [w[0], w[1], w[2]]
                } else {
                    [w[1], w[0], w[2]]
                }
            })
            .collect(),
        Mode::TriangleFan => match indices.split_first() {
            Some((&hub, rest)) => rest.windows(2).map(|w| [hub, w[0], w[1]]).collect(),
            None => Vec::new(),
        },
        _ => indices
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
    }
}

#[cfg(test)]
mod tests {
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

//! FBX in: binary (7.x) and ASCII (6.x, 7.x) files become a [`Character`] — meshes with UVs and
//! materials, the skeleton at its bind pose, skin weights — in glTF's frame (Y up, metres),
//! whatever axes and unit the file was saved with.

mod animation;
mod ascii;
mod binary;
mod blend_shapes;
mod geometry;
mod objects;
mod skin;
mod textures;
mod transform;
mod tree;

use std::collections::HashMap;

use glam::{DMat4, DVec3, Vec3};

pub use self::binary::{VERSION, encode};
use self::objects::{Document, Key, properties};
use self::transform::{axis_system, geometric_matrix, local_matrix};
pub use self::tree::{Node, Value};
use super::ImportError;
use super::axes::AxisSystem;
use super::mesh_builder::MeshBuilder;
use crate::character::SourceSummary;
use crate::limits::MAX_MORPH_TARGETS;
use crate::mesh::{Material, MorphTarget};
use crate::rig::{Influence, JointId, top_influences};
use crate::{Character, Limits};

/// Whether `bytes` look like an FBX file (binary header, or the ASCII files' first comment).
pub fn is_fbx(bytes: &[u8]) -> bool {
    if bytes.starts_with(binary::MAGIC_TEXT) {
        return true;
    }
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    bytes[start.unwrap_or(bytes.len())..].starts_with(b"; FBX")
}

/// Reads an FBX file.
///
/// # Errors
/// [`ImportError::Fbx`] for a file that is not well-formed FBX, and the common import errors
/// (no triangles, too many vertices or joints, non-finite positions).
pub fn import(bytes: &[u8], name: &str, limits: &Limits) -> Result<Character, ImportError> {
    let top = nodes(bytes, name, limits)?;
    Scene::new(&top, name, limits)?.character()
}

/// The top-level nodes of an FBX file (binary or ASCII), within `limits`, without reading a
/// scene from them: what a tool that edits or checks FBX records works on.
///
/// # Errors
/// [`ImportError::Fbx`] for a file that is not well-formed FBX.
pub fn nodes(bytes: &[u8], name: &str, limits: &Limits) -> Result<Vec<Node>, ImportError> {
    // A node per property: a large scene has a few dozen per object.
    let max_nodes = limits.max_nodes.saturating_mul(10);
    // zlib packs FBX's float arrays a few times smaller, never dozens: a larger claim is a
    // decompression bomb.
    let max_array_bytes = limits
        .max_file_bytes
        .min(bytes.len().saturating_mul(32).saturating_add(1 << 20));
    if bytes.starts_with(binary::MAGIC_TEXT) {
        binary::parse(bytes, max_nodes, max_array_bytes).map(|(nodes, _)| nodes)
    } else {
        ascii::parse(bytes, max_nodes, max_array_bytes)
    }
    .map_err(|reason| ImportError::Fbx {
        name: name.into(),
        reason,
    })
}

struct Scene<'a> {
    name: &'a str,
    limits: &'a Limits,
    doc: Document<'a>,
    axes: AxisSystem,
    /// Every model's world matrix as the file poses it.
    globals: HashMap<Key, DMat4>,
    /// Bind-pose world matrices the file lists (`Pose` of kind `BindPose`).
    bind_pose: HashMap<Key, DMat4>,
    warnings: Vec<String>,
}

fn matrix(node: Option<&Node>) -> Option<DMat4> {
    let v = node?.floats();
    let cols: [f64; 16] = v.get(..16)?.try_into().ok()?;
    let m = DMat4::from_cols_array(&cols);
    m.is_finite().then_some(m)
}

impl<'a> Scene<'a> {
    fn new(top: &'a [Node], name: &'a str, limits: &'a Limits) -> Result<Self, ImportError> {
        let doc = Document::new(top);
        let settings = top
            .iter()
            .find(|n| n.name == "GlobalSettings")
            .map(properties)
            .unwrap_or_default();
        let axes = axis_system(&settings);
        let models: Vec<&Key> = doc
            .order
            .iter()
            .filter(|k| doc.objects[*k].class == "Model")
            .collect();
        ImportError::at_most(name, "models", models.len(), limits.max_nodes)?;
        let locals: HashMap<&Key, DMat4> = models
            .iter()
            .map(|k| (*k, local_matrix(&properties(doc.objects[*k].node))))
            .collect();
        let parent: HashMap<&Key, &Key> = models
            .iter()
            .filter_map(|k| Some((*k, *doc.parents_of(k, "Model").first()?)))
            .collect();
        let mut globals = HashMap::new();
        for k in &models {
            // Walk up to the root (a loop in a broken file stops after every model).
            let mut chain = vec![*k];
            while let Some(p) = parent.get(chain[chain.len() - 1]) {
                if chain.len() > models.len() {
                    break;
                }
                chain.push(p);
            }
            let m = chain
                .iter()
                .rev()
                .fold(DMat4::IDENTITY, |m, k| m * locals[k]);
            globals.insert((*k).clone(), m);
        }
        let mut bind_pose = HashMap::new();
        for key in &doc.order {
            let object = &doc.objects[key];
            if object.class != "Pose" || object.kind != "BindPose" {
                continue;
            }
            for pose in object.node.children_named("PoseNode") {
                let node_key = pose
                    .find("Node")
                    .and_then(|n| n.values.first())
                    .and_then(objects::key);
                if let (Some(k), Some(m)) = (node_key, matrix(pose.find("Matrix"))) {
                    bind_pose.entry(k).or_insert(m);
                }
            }
        }
        Ok(Self {
            name,
            limits,
            doc,
            axes,
            globals,
            bind_pose,
            warnings: Vec::new(),
        })
    }

    fn objects_of(&self, class: &str, kind: Option<&str>) -> Vec<&Key> {
        self.doc
            .order
            .iter()
            .filter(|k| {
                let o = &self.doc.objects[*k];
                o.class == class && kind.is_none_or(|kind| o.kind == kind)
            })
            .collect()
    }

    fn character(mut self) -> Result<Character, ImportError> {
        let geometries: Vec<Key> = self
            .objects_of("Geometry", None)
            .into_iter()
            .filter(|k| {
                // Blend shapes' targets are geometries too, of kind `Shape`.
                let o = &self.doc.objects[*k];
                o.kind != "Shape" && o.node.find("Vertices").is_some()
            })
            .cloned()
            .collect();
        // The joints: every model a cluster binds, and every model marked as a bone.
        let mut clusters_by_geometry = HashMap::new();
        let mut bound: Vec<Key> = Vec::new();
        let mut link_matrix: HashMap<Key, DMat4> = HashMap::new();
        for g in &geometries {
            let clusters = self.clusters_of(g);
            for c in &clusters {
                if !bound.contains(&c.joint) {
                    bound.push(c.joint.clone());
                }
                if let Some(l) = c.link {
                    link_matrix.entry(c.joint.clone()).or_insert(l);
                }
            }
            clusters_by_geometry.insert(g.clone(), clusters);
        }
        let skeleton_keys: Vec<Key> = self
            .doc
            .order
            .iter()
            .filter(|k| {
                let o = &self.doc.objects[*k];
                o.class == "Model" && (o.kind == "LimbNode" || bound.contains(k))
            })
            .cloned()
            .collect();
        let skeleton = self.skeleton(&skeleton_keys, &link_matrix)?;
        let joint_index: HashMap<&Key, u32> = skeleton
            .as_ref()
            .map(|(_, keys)| {
                keys.iter()
                    .enumerate()
                    .map(|(i, k)| (k, i as u32))
                    .collect()
            })
            .unwrap_or_default();

        let mut builder = MeshBuilder::new(self.name, self.limits);
        let mut materials: Vec<Material> = Vec::new();
        let mut material_of: HashMap<Key, usize> = HashMap::new();
        let mut skins = 0;
        let mut shapes = Vec::new();
        // Each morph target's blend shape channel and rest weight, in target order.
        let mut channels: Vec<(Key, f32)> = Vec::new();
        for g in &geometries {
            let Some(model) = self.doc.parents_of(g, "Model").first().map(|&k| k.clone()) else {
                self.warnings.push(format!(
                    "skipped geometry '{}': no model places it in the scene",
                    self.doc.objects[g].name
                ));
                continue;
            };
            let room = builder.triangles_left();
            let geometry = geometry::read(self.doc.objects[g].node, room).map_err(|reason| {
                if reason.starts_with("more than") {
                    builder.too_many_triangles()
                } else {
                    ImportError::Fbx {
                        name: self.name.into(),
                        reason: format!("geometry '{}': {reason}", self.doc.objects[g].name),
                    }
                }
            })?;
            if geometry.skipped_polygons > 0 {
                self.warnings.push(format!(
                    "skipped {} polygons of '{}' with fewer than 3 corners or corners out of range",
                    geometry.skipped_polygons, self.doc.objects[g].name
                ));
            }
            let clusters = &clusters_by_geometry[g];
            let posed = self.globals.get(&model).copied().unwrap_or(DMat4::IDENTITY)
                * geometric_matrix(&properties(self.doc.objects[&model].node));
            let place = if clusters.is_empty() {
                posed
            } else {
                skins += 1;
                self.mesh_bind(clusters, posed)
            };
            // Influences per control point.
            let mut per_point: Vec<Vec<Influence>> =
                vec![Vec::new(); geometry.control_points.len()];
            for c in clusters {
                let Some(&joint) = joint_index.get(&c.joint) else {
                    continue;
                };
                for (&i, &w) in c.indexes.iter().zip(&c.weights) {
                    if let Some(list) = usize::try_from(i).ok().and_then(|i| per_point.get_mut(i)) {
                        list.push(Influence {
                            joint: JointId(joint),
                            weight: w as f32,
                        });
                    }
                }
            }
            // Material slots of this model, in connection order.
            let slots: Vec<usize> = self
                .doc
                .children_of(&model, "Material")
                .into_iter()
                .map(|k| {
                    *material_of.entry(k.clone()).or_insert_with(|| {
                        materials.push(material(&self.doc.objects[k]));
                        materials.len() - 1
                    })
                })
                .collect();
            builder.begin_geometry();
            for (corners, slot) in geometry.corners.iter().zip(&geometry.materials) {
                let material = slots.get(*slot).or(slots.first()).copied();
                builder.triangle(*corners, material, |point| {
                    let p = place.transform_point3(geometry.control_points[point as usize]);
                    (
                        self.axes.point(p),
                        top_influences(&per_point[point as usize], 8),
                    )
                });
            }
            builder.check_vertices()?;
            for shape in self.blend_shapes(g, geometry.control_points.len()) {
                ImportError::at_most(
                    self.name,
                    "morph targets",
                    shapes.len() + 1,
                    MAX_MORPH_TARGETS,
                )?;
                let mut delta = vec![DVec3::ZERO; geometry.control_points.len()];
                for (i, d) in shape.offsets {
                    delta[i] = d;
                }
                // Offsets turn and scale with the geometry but do not move with it.
                let offsets = builder
                    .points
                    .iter()
                    .map(|&p| self.axes.point(place.transform_vector3(delta[p as usize])))
                    .collect();
                channels.push((shape.channel, shape.weight));
                shapes.push((builder.first_vertex, shape.name, shape.weight, offsets));
            }
        }
        let (mut mesh, skin) = builder.finish("the FBX geometry")?;
        let (images, maps) = self.textures();
        for (key, &index) in &material_of {
            if let Some(m) = maps.get(key) {
                materials[index].base_color_image = m.base_color;
                materials[index].normal_image = m.normal;
            }
        }
        let n = mesh.positions.len();
        mesh.morph_targets = shapes
            .into_iter()
            .map(
                |(first, name, weight, part): (usize, String, f32, Vec<Vec3>)| {
                    let mut offsets = vec![Vec3::ZERO; n];
                    offsets[first..first + part.len()].copy_from_slice(&part);
                    MorphTarget {
                        name,
                        offsets,
                        weight,
                    }
                },
            )
            .collect();
        let textures = self.objects_of("Texture", None).len();
        let animations = self.objects_of("AnimationStack", None).len();
        let mut budget = self.limits.max_animation_keys;
        let clips = match &skeleton {
            Some((s, keys)) => self.clips(keys, s, &channels, &mut budget),
            None => Vec::new(),
        };
        let skeleton = skeleton.map(|(s, _)| s);
        let skin = (skeleton.is_some() && skin.influenced_vertex_count() > 0).then_some(skin);
        let source = SourceSummary {
            materials: materials.len(),
            textures,
            skins,
            animations,
        };
        Ok(Character {
            name: self.name.into(),
            mesh,
            skeleton,
            skin,
            source,
            materials,
            images,
            animations: clips,
            humanoid: Vec::new(),
            vrm: None,
            warnings: self.warnings,
        })
    }
}

/// A material's name and diffuse colour.
fn material(object: &objects::Object<'_>) -> Material {
    let props = properties(object.node);
    let mut m = Material {
        name: Some(object.name.clone()).filter(|n| !n.is_empty()),
        ..Material::default()
    };
    let colour = props.get("DiffuseColor").or_else(|| props.get("Diffuse"));
    if let Some([r, g, b, ..]) = colour.map(Vec::as_slice) {
        let factor = props
            .get("DiffuseFactor")
            .and_then(|v| v.first())
            .copied()
            .unwrap_or(1.0);
        let c = Vec3::new(*r as f32, *g as f32, *b as f32) * factor as f32;
        if c.is_finite() {
            m.base_color = [c.x, c.y, c.z, 1.0];
        }
    }
    m
}

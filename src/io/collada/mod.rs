//! COLLADA (`.dae`) in: Mixamo's other download and older engines' format. Geometry
//! (`triangles`, `polylist`, `polygons`, fans, strips) with UVs and material slots, skins
//! (`controller/skin`: bind shape, inverse binds, weights), the joint hierarchy of the visual
//! scene, and `asset/up_axis` and `unit` normalised to Y-up metres.

mod animation;
mod document;
mod geometry;
mod nodes;

use std::collections::HashMap;

use glam::DMat4;
use roxmltree::{Document, ParsingOptions};

use self::document::{Ids, Source, child, children, floats, inputs, ints, matrix};
use self::nodes::SceneNode;
use super::ImportError;
use super::axes::AxisSystem;
use super::mesh_builder::{Corner, MeshBuilder};
use crate::character::SourceSummary;
use crate::mesh::Material;
use crate::rig::{Influence, Joint, JointId, Skeleton, top_influences};
use crate::{Character, Limits};

/// Whether `bytes` look like a COLLADA document.
pub fn is_collada(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let text = String::from_utf8_lossy(head);
    text.contains("<COLLADA") || decode_utf16(head).is_some_and(|t| t.contains("<COLLADA"))
}

/// UTF-16 text (with its byte-order mark) as a string.
fn decode_utf16(bytes: &[u8]) -> Option<String> {
    let (little, body) = match bytes {
        [0xFF, 0xFE, rest @ ..] => (true, rest),
        [0xFE, 0xFF, rest @ ..] => (false, rest),
        _ => return None,
    };
    let units: Vec<u16> = body
        .chunks_exact(2)
        .map(|c| {
            if little {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        })
        .collect();
    Some(String::from_utf16_lossy(&units))
}

/// Reads a COLLADA document.
///
/// # Errors
/// [`ImportError::Collada`] for a document that is not well-formed XML or COLLADA, and the
/// common import errors (no triangles, too many vertices or joints, non-finite positions).
pub fn import(bytes: &[u8], name: &str, limits: &Limits) -> Result<Character, ImportError> {
    let fail = |reason: String| ImportError::Collada {
        name: name.into(),
        reason,
    };
    let text = match decode_utf16(bytes) {
        Some(text) => text,
        None => String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
            .into_owned(),
    };
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: u32::try_from(limits.max_nodes.saturating_mul(100)).unwrap_or(u32::MAX),
        ..ParsingOptions::default()
    };
    let xml =
        Document::parse_with_options(&text, options).map_err(|e| fail(format!("bad XML: {e}")))?;
    let root = xml.root_element();
    if !root.has_tag_name("COLLADA") {
        return Err(fail(format!(
            "its root element is <{}>, not <COLLADA>",
            root.tag_name().name()
        )));
    }
    let ids = Ids::new(root);
    let asset = child(root, "asset");
    let metres = asset
        .and_then(|a| child(a, "unit"))
        .and_then(|u| u.attribute("meter"))
        .and_then(|m| m.trim().parse().ok())
        .unwrap_or(1.0);
    let up = asset
        .and_then(|a| child(a, "up_axis"))
        .and_then(|u| u.text())
        .unwrap_or("Y_UP");
    let axes = AxisSystem::from_up_axis(up, metres);
    let scene = child(root, "scene")
        .and_then(|s| child(s, "instance_visual_scene"))
        .and_then(|i| ids.get(i.attribute("url")?))
        .or_else(|| child(root, "library_visual_scenes").and_then(|l| child(l, "visual_scene")))
        .ok_or_else(|| fail("it has no visual scene".into()))?;
    let nodes = nodes::read(scene, limits.max_nodes).map_err(fail)?;
    Builder {
        name,
        limits,
        ids: &ids,
        axes,
        nodes: &nodes,
        warnings: Vec::new(),
    }
    .character(root)
}

/// A `<skin>`: its geometry, bind shape, joints (by name) with inverse binds, and weights per
/// position.
struct Skin<'a> {
    geometry: &'a str,
    bind_shape: DMat4,
    joints: Vec<String>,
    inverse_binds: Vec<DMat4>,
    weights: Vec<Vec<(usize, f32)>>,
}

/// What a scene node draws: a geometry (by URL), skinned or not, with its bound materials.
struct Draw<'a> {
    node: usize,
    geometry: &'a str,
    skin: Option<Skin<'a>>,
    materials: HashMap<&'a str, &'a str>,
}

struct Builder<'b, 'a, 'input> {
    name: &'b str,
    limits: &'b Limits,
    ids: &'b Ids<'a, 'input>,
    axes: AxisSystem,
    nodes: &'b [SceneNode<'a>],
    warnings: Vec<String>,
}

impl<'a> Builder<'_, 'a, '_> {
    fn fail(&self, reason: String) -> ImportError {
        ImportError::Collada {
            name: self.name.into(),
            reason,
        }
    }

    fn skin(&self, controller: roxmltree::Node<'a, '_>) -> Result<Option<Skin<'a>>, ImportError> {
        let Some(skin) = child(controller, "skin") else {
            return Ok(None);
        };
        let geometry = skin.attribute("source").unwrap_or("");
        let bind_shape = child(skin, "bind_shape_matrix")
            .map(floats)
            .transpose()
            .map_err(|e| self.fail(e))?
            .and_then(|v| matrix(&v))
            .unwrap_or(DMat4::IDENTITY);
        let joints_part =
            child(skin, "joints").ok_or_else(|| self.fail("a <skin> without <joints>".into()))?;
        let mut names = Vec::new();
        let mut inverse_binds = Vec::new();
        for input in inputs(joints_part) {
            let source = self.source(input.source)?;
            match input.semantic {
                "JOINT" => names = source.names,
                "INV_BIND_MATRIX" => {
                    inverse_binds = source
                        .floats
                        .chunks_exact(16)
                        .map(|m| matrix(m).unwrap_or(DMat4::IDENTITY))
                        .collect();
                }
                _ => {}
            }
        }
        ImportError::at_most(self.name, "joints", names.len(), self.limits.max_joints)?;
        let vw = child(skin, "vertex_weights")
            .ok_or_else(|| self.fail("a <skin> without <vertex_weights>".into()))?;
        let vw_inputs = inputs(vw);
        let stride = vw_inputs.iter().map(|i| i.offset + 1).max().unwrap_or(1);
        let joint_offset = vw_inputs
            .iter()
            .find(|i| i.semantic == "JOINT")
            .map(|i| i.offset);
        let weight_input = vw_inputs.iter().find(|i| i.semantic == "WEIGHT");
        let weight_values = match weight_input {
            Some(w) => self.source(w.source)?.floats,
            None => Vec::new(),
        };
        let counts = child(vw, "vcount")
            .map(ints)
            .transpose()
            .map_err(|e| self.fail(e))?
            .unwrap_or_default();
        let v = child(vw, "v")
            .map(ints)
            .transpose()
            .map_err(|e| self.fail(e))?
            .unwrap_or_default();
        let (Some(joint_offset), Some(weight_input)) = (joint_offset, weight_input) else {
            return Err(self.fail("<vertex_weights> without JOINT and WEIGHT inputs".into()));
        };
        let mut weights = Vec::with_capacity(counts.len());
        let mut at = 0usize;
        for &n in &counts {
            let n = usize::try_from(n).unwrap_or(0);
            let Some(pairs) = v.get(at..at + n * stride) else {
                return Err(self.fail("<vertex_weights>' <vcount> runs past its <v>".into()));
            };
            at += n * stride;
            weights.push(
                pairs
                    .chunks_exact(stride)
                    .filter_map(|p| {
                        // Joint -1 is the bind shape itself: no joint moves that share.
                        let j = usize::try_from(p[joint_offset])
                            .ok()
                            .filter(|&j| j < names.len())?;
                        let w =
                            *weight_values.get(usize::try_from(p[weight_input.offset]).ok()?)?;
                        Some((j, w as f32))
                    })
                    .collect(),
            );
        }
        Ok(Some(Skin {
            geometry,
            bind_shape,
            joints: names,
            inverse_binds,
            weights,
        }))
    }

    fn source(&self, url: &str) -> Result<Source, ImportError> {
        let node = self
            .ids
            .get(url)
            .ok_or_else(|| self.fail(format!("the source '{url}' is not in the file")))?;
        Source::read(node).map_err(|e| self.fail(e))
    }

    /// The scene node a skin's joint name refers to: by `sid`, else `id`, else name.
    fn node_named(&self, joint: &str) -> Option<usize> {
        let by = |f: &dyn Fn(&SceneNode<'_>) -> bool| self.nodes.iter().position(f);
        by(&|n| n.sid == Some(joint))
            .or_else(|| by(&|n| n.id == Some(joint)))
            .or_else(|| by(&|n| n.name == joint))
    }

    fn character(mut self, root: roxmltree::Node<'a, '_>) -> Result<Character, ImportError> {
        // What each scene node draws: a geometry directly, or one skinned by a controller.
        let mut draws: Vec<Draw<'a>> = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            for (url, materials) in &node.geometries {
                draws.push(Draw {
                    node: i,
                    geometry: url,
                    skin: None,
                    materials: materials.clone(),
                });
            }
            for (url, materials) in &node.controllers {
                let Some(controller) = self.ids.get(url) else {
                    self.warnings.push(format!(
                        "skipped the controller '{url}': it is not in the file"
                    ));
                    continue;
                };
                match self.skin(controller)? {
                    Some(skin) => draws.push(Draw {
                        node: i,
                        geometry: skin.geometry,
                        skin: Some(skin),
                        materials: materials.clone(),
                    }),
                    None => self.warnings.push(format!(
                        "skipped the controller '{url}': only skins are read"
                    )),
                }
            }
        }
        // The joints: every node a skin names, and every node typed JOINT, parents first.
        let mut is_joint: Vec<bool> = self.nodes.iter().map(|n| n.is_joint).collect();
        for draw in &draws {
            for j in draw.skin.iter().flat_map(|s| &s.joints) {
                match self.node_named(j) {
                    Some(n) => is_joint[n] = true,
                    None => {
                        return Err(self.fail(format!(
                            "a skin names the joint '{j}', which is not in the scene"
                        )));
                    }
                }
            }
        }
        let joint_nodes: Vec<usize> = (0..self.nodes.len()).filter(|&i| is_joint[i]).collect();
        ImportError::at_most(
            self.name,
            "joints",
            joint_nodes.len(),
            self.limits.max_joints,
        )?;
        let joint_of_node: HashMap<usize, u32> = joint_nodes
            .iter()
            .enumerate()
            .map(|(j, &n)| (n, j as u32))
            .collect();
        // Bind pose: a skinned joint sits where its inverse bind says, relative to where the
        // skin's first joint is in the scene; other joints where the scene puts them.
        let mut bind_world: Vec<DMat4> = joint_nodes.iter().map(|&n| self.nodes[n].world).collect();
        let mut placements: Vec<Option<DMat4>> = Vec::with_capacity(draws.len());
        for draw in &draws {
            let Some(skin) = &draw.skin else {
                placements.push(None);
                continue;
            };
            let first = skin
                .joints
                .iter()
                .zip(&skin.inverse_binds)
                .find_map(|(j, ib)| Some(self.nodes[self.node_named(j)?].world * *ib));
            let frame = first.unwrap_or(DMat4::IDENTITY);
            for (j, ib) in skin.joints.iter().zip(&skin.inverse_binds) {
                if let Some(&k) = self.node_named(j).and_then(|n| joint_of_node.get(&n)) {
                    bind_world[k as usize] = frame * ib.inverse();
                }
            }
            placements.push(Some(frame * skin.bind_shape));
        }
        let skeleton = (!joint_nodes.is_empty()).then(|| Skeleton {
            joints: joint_nodes
                .iter()
                .enumerate()
                .map(|(j, &n)| {
                    let mut parent = self.nodes[n].parent;
                    while let Some(p) = parent {
                        if joint_of_node.contains_key(&p) {
                            break;
                        }
                        parent = self.nodes[p].parent;
                    }
                    Joint {
                        name: self.nodes[n].name.clone(),
                        parent: parent
                            .and_then(|p| joint_of_node.get(&p))
                            .map(|&p| JointId(p)),
                        world_bind: self.axes.frame(bind_world[j]),
                    }
                })
                .collect(),
        });

        let mut builder = MeshBuilder::new(self.name, self.limits);
        let mut materials: Vec<Material> = Vec::new();
        let mut material_of: HashMap<String, usize> = HashMap::new();
        let mut skins = 0;
        for (draw, placement) in draws.iter().zip(&placements) {
            let (url, skin, bound) = (draw.geometry, &draw.skin, &draw.materials);
            let Some(mesh_node) = self.ids.get(url).and_then(|g| child(g, "mesh")) else {
                self.warnings.push(format!("skipped the geometry '{url}': no <mesh> (splines and convex meshes are not read)"));
                continue;
            };
            let room = builder.triangles_left();
            let geometry = geometry::read(mesh_node, self.ids, room).map_err(|reason| {
                if reason.starts_with("more than") {
                    builder.too_many_triangles()
                } else {
                    self.fail(format!("geometry '{url}': {reason}"))
                }
            })?;
            if geometry.skipped > 0 {
                self.warnings.push(format!(
                    "skipped {} polygons of '{url}' with fewer than 3 corners or corners out of range",
                    geometry.skipped
                ));
            }
            let place = placement.unwrap_or(self.nodes[draw.node].world);
            if skin.is_some() {
                skins += 1;
            }
            // The skeleton's joint for each of the skin's joints, looked up once per skin.
            let skin_joint: Vec<Option<JointId>> = skin
                .iter()
                .flat_map(|s| &s.joints)
                .map(|name| {
                    let n = self.node_named(name)?;
                    joint_of_node.get(&n).map(|&j| JointId(j))
                })
                .collect();
            let influences_of = |point: usize| -> Vec<Influence> {
                let Some(skin) = skin else { return Vec::new() };
                let list: Vec<Influence> = skin
                    .weights
                    .get(point)
                    .into_iter()
                    .flatten()
                    .filter_map(|&(j, w)| {
                        Some(Influence {
                            joint: skin_joint[j]?,
                            weight: w,
                        })
                    })
                    .collect();
                top_influences(&list, 8)
            };
            builder.begin_geometry();
            for (corners, symbol) in geometry.corners.iter().zip(&geometry.materials) {
                let material = symbol.as_deref().map(|s| {
                    let target = bound.get(s).copied().unwrap_or(s);
                    *material_of.entry(target.to_owned()).or_insert_with(|| {
                        materials.push(self.material(target));
                        materials.len() - 1
                    })
                });
                builder.triangle(corners.map(Corner::from), material, |point| {
                    let p = place.transform_point3(geometry.positions[point as usize]);
                    (self.axes.point(p), influences_of(point as usize))
                });
            }
            builder.check_vertices()?;
        }
        let (mesh, skin_weights) = builder.finish("the COLLADA geometry")?;
        let mut budget = self.limits.max_animation_keys;
        let clips = match &skeleton {
            Some(s) => {
                let rig = animation::Rig {
                    nodes: self.nodes,
                    joint_nodes: &joint_nodes,
                    skeleton: s,
                    axes: self.axes,
                };
                animation::read_clips(root, self.ids, &rig, &mut budget, &mut self.warnings)
            }
            None => Vec::new(),
        };
        let animations = clips.len();
        let textures = child(root, "library_images").map_or(0, |l| children(l, "image").count());
        let skin = (skeleton.is_some() && skin_weights.influenced_vertex_count() > 0)
            .then_some(skin_weights);
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
            images: Vec::new(),
            animations: clips,
            humanoid: Vec::new(),
            vrm: None,
            warnings: self.warnings,
        })
    }

    /// A material by id: its name and, through its effect, a plain diffuse colour.
    fn material(&self, id: &str) -> Material {
        let node = self.ids.get(id);
        let mut m = Material {
            name: node
                .and_then(|n| n.attribute("name").or(n.attribute("id")))
                .map(str::to_owned),
            ..Material::default()
        };
        let colour = node
            .and_then(|n| child(n, "instance_effect"))
            .and_then(|i| self.ids.get(i.attribute("url")?))
            .and_then(|effect| effect.descendants().find(|d| d.has_tag_name("diffuse")))
            .and_then(|d| child(d, "color"))
            .and_then(|c| floats(c).ok());
        if let Some([r, g, b, a, ..]) = colour.as_deref() {
            let c = [*r as f32, *g as f32, *b as f32, *a as f32];
            if c.iter().all(|v| v.is_finite()) {
                m.base_color = c;
            }
        }
        m
    }
}

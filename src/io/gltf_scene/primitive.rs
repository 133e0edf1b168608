//! Primitives: triangles in any topology, vertices posed to world space, texture coordinates.

use std::collections::HashMap;

use glam::Vec3;
use gltf::Primitive;
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::{Binding, SceneReader};
use crate::io::{ImportError, accessor_check};
use crate::limits::MAX_MORPH_TARGETS;
use crate::mesh::{Mesh, MorphTarget};
use crate::rig::{Influence, SkinWeights};

/// Where each glTF mesh's morph targets went: `(mesh, target)` → index into
/// [`Mesh::morph_targets`].
pub(super) type TargetSlots = HashMap<(usize, usize), usize>;

impl SceneReader<'_> {
    /// Reads one primitive into `mesh` and `skin`; returns how many weights it dropped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn append_primitive(
        &self,
        primitive: &Primitive<'_>,
        place: &str,
        binding: &Binding,
        (node_index, shared): (usize, &mut HashMap<(usize, Vec<usize>), u32>),
        (gltf_mesh, slots): (&gltf::Mesh<'_>, &mut TargetSlots),
        mesh: &mut Mesh,
        skin: &mut SkinWeights,
    ) -> Result<usize, ImportError> {
        let bad = |r: String| self.bad(place, r);
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        let Some(positions_accessor) = primitive.get(&gltf::Semantic::Positions) else {
            return Err(bad("it has no POSITION attribute".into()));
        };
        accessor_check::check_kind(
            &positions_accessor,
            self.buffers,
            "POSITION",
            &[DataType::F32],
            Dimensions::Vec3,
        )
        .map_err(bad)?;
        let count = positions_accessor.count();
        let key = (
            node_index,
            primitive.attributes().map(|(_, a)| a.index()).collect(),
        );
        let shared_base = shared.get(&key).copied();
        let total = mesh.positions.len() + count;
        if shared_base.is_none() {
            ImportError::at_most(self.name, "vertices", total, self.limits.max_vertices)?;
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
                accessor_check::check_kind(
                    &accessor,
                    self.buffers,
                    "index",
                    &[DataType::U8, DataType::U16, DataType::U32],
                    Dimensions::Scalar,
                )
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
        ImportError::at_most(self.name, "triangles", total, self.limits.max_triangles)?;

        let (base, dropped) = match shared_base {
            Some(base) => (base, 0),
            None => {
                let base = mesh.positions.len() as u32;
                let dropped =
                    self.append_vertices(primitive, place, binding, &local, mesh, skin)?;
                self.append_morph_targets(
                    primitive,
                    place,
                    binding,
                    &local,
                    (gltf_mesh, slots),
                    (base as usize, skin),
                    mesh,
                )?;
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
    pub(super) fn append_vertices(
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
        let before = mesh.positions.len();
        for (set, uvs) in [(0, &mut mesh.uvs), (1, &mut mesh.second_uvs)] {
            let read = self.read_uvs(primitive, set, count).map_err(bad)?;
            if let Some(read) = read {
                // Earlier primitives without coordinates get zeros, so indices stay aligned.
                uvs.resize(before, glam::Vec2::ZERO);
                uvs.extend(read);
            } else if !uvs.is_empty() {
                uvs.resize(before + count, glam::Vec2::ZERO);
            }
        }
        let colors = self.read_colors(primitive, count).map_err(bad)?;
        if let Some(colors) = colors {
            // Earlier primitives without colours are white, which leaves their materials be.
            mesh.colors.resize(mesh.positions.len(), glam::Vec4::ONE);
            mesh.colors.extend(colors);
        } else if !mesh.colors.is_empty() {
            mesh.colors
                .resize(mesh.positions.len() + count, glam::Vec4::ONE);
        }
        let normals = self.read_directions(primitive, gltf::Semantic::Normals, count);
        let tangents = self.read_directions(primitive, gltf::Semantic::Tangents, count);
        let (normals, tangents) = (normals.map_err(bad)?, tangents.map_err(bad)?);
        // Tangents are kept only where every primitive has them (a part without would get
        // made-up ones where the viewer would have computed its own).
        let keep_tangents = tangents.is_some() && mesh.tangents.len() == before;
        if !keep_tangents {
            mesh.tangents.clear();
        }
        mesh.normals.resize(before, Vec3::ZERO);
        for (v, (p, vertex_influences)) in local.iter().zip(&influences).enumerate() {
            mesh.positions.push(binding.place(*p, vertex_influences));
            skin.push_vertex(vertex_influences.iter().copied());
            // The file's normal and tangent turned as the vertex was placed; zero (made
            // from the triangles once all are read) where it has none or it is degenerate.
            let turn = (normals.is_some() || keep_tangents)
                .then(|| binding.turn(vertex_influences))
                .flatten();
            let normal = (normals.as_ref().zip(turn))
                .map(|(n, m)| (m.inverse().transpose() * n[v].truncate()).normalize_or_zero());
            mesh.normals.push(normal.unwrap_or(Vec3::ZERO));
            if let (true, Some(t)) = (keep_tangents, tangents.as_ref().map(|t| t[v])) {
                // A mirroring transform flips the side the bitangent lies on. Zero where
                // degenerate: then no tangent is kept (`finish_normals`).
                let tangent = turn.map_or(glam::Vec4::ZERO, |m| {
                    let side = if (t.w < 0.0) != (m.determinant() < 0.0) {
                        -1.0
                    } else {
                        1.0
                    };
                    (m * t.truncate()).normalize_or_zero().extend(side)
                });
                mesh.tangents.push(tangent);
            }
        }
        Ok(dropped)
    }

    /// The primitive's `NORMAL` or `TANGENT` (as four numbers, a normal's fourth zero), when
    /// it has them as floats; quantized ones (KHR_mesh_quantization) are left to be made anew.
    fn read_directions(
        &self,
        primitive: &Primitive<'_>,
        semantic: gltf::Semantic,
        count: usize,
    ) -> Result<Option<Vec<glam::Vec4>>, String> {
        let (name, dimensions) = match semantic {
            gltf::Semantic::Tangents => ("TANGENT", Dimensions::Vec4),
            _ => ("NORMAL", Dimensions::Vec3),
        };
        let Some(accessor) = primitive.get(&semantic) else {
            return Ok(None);
        };
        if accessor.data_type() != DataType::F32 {
            return Ok(None);
        }
        self.check_attribute(&accessor, name, &[DataType::F32], dimensions, count)?;
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        let finite = |v: glam::Vec4| if v.is_finite() { v } else { glam::Vec4::ZERO };
        Ok(match semantic {
            gltf::Semantic::Tangents => reader
                .read_tangents()
                .map(|t| t.map(|t| finite(glam::Vec4::from_array(t))).collect()),
            _ => reader
                .read_normals()
                .map(|n| n.map(|n| finite(Vec3::from_array(n).extend(0.0))).collect()),
        })
    }

    /// The primitive's morph targets, as offsets in the rest pose its vertices were posed
    /// into (an offset moves with its vertex's skinning or node transform).
    #[allow(clippy::too_many_arguments)]
    fn append_morph_targets(
        &self,
        primitive: &Primitive<'_>,
        place: &str,
        binding: &Binding,
        local: &[Vec3],
        (gltf_mesh, slots): (&gltf::Mesh<'_>, &mut TargetSlots),
        (first_vertex, skin): (usize, &SkinWeights),
        mesh: &mut Mesh,
    ) -> Result<(), ImportError> {
        let bad = |r: String| self.bad(place, r);
        let names = target_names(gltf_mesh);
        let defaults = gltf_mesh.weights().unwrap_or(&[]);
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        for (t, (target, (offsets, _, _))) in primitive
            .morph_targets()
            .zip(reader.read_morph_targets())
            .enumerate()
        {
            let (Some(accessor), Some(offsets)) = (target.positions(), offsets) else {
                continue;
            };
            accessor_check::check_kind(
                &accessor,
                self.buffers,
                "morph target POSITION",
                &[DataType::F32],
                Dimensions::Vec3,
            )
            .map_err(bad)?;
            if accessor.count() != local.len() {
                return Err(bad(format!(
                    "morph target {t} moves {} vertices of {}",
                    accessor.count(),
                    local.len()
                )));
            }
            let slot = match slots.get(&(gltf_mesh.index(), t)) {
                Some(&slot) => slot,
                None => {
                    let count = mesh.morph_targets.len() + 1;
                    ImportError::at_most(self.name, "morph targets", count, MAX_MORPH_TARGETS)?;
                    mesh.morph_targets.push(MorphTarget {
                        name: names.get(t).cloned().unwrap_or_else(|| {
                            format!("{} {t}", gltf_mesh.name().unwrap_or("target"))
                        }),
                        offsets: Vec::new(),
                        weight: defaults
                            .get(t)
                            .copied()
                            .filter(|w| w.is_finite())
                            .unwrap_or(0.0),
                    });
                    slots.insert((gltf_mesh.index(), t), mesh.morph_targets.len() - 1);
                    mesh.morph_targets.len() - 1
                }
            };
            let target = &mut mesh.morph_targets[slot];
            target.offsets.resize(first_vertex, Vec3::ZERO);
            for (k, (p, d)) in local.iter().zip(offsets).enumerate() {
                let d = Vec3::from_array(d);
                let d = if d.is_finite() { d } else { Vec3::ZERO };
                let v = first_vertex + k;
                let shaped = binding.place(*p + d, skin.influences(v));
                target.offsets.push(shaped - mesh.positions[v]);
            }
        }
        Ok(())
    }

    /// `TEXCOORD_<set>` as floats, when the primitive has it.
    pub(super) fn read_uvs(
        &self,
        primitive: &Primitive<'_>,
        set: u32,
        count: usize,
    ) -> Result<Option<Vec<glam::Vec2>>, String> {
        let Some(accessor) = primitive.get(&gltf::Semantic::TexCoords(set)) else {
            return Ok(None);
        };
        let types = [DataType::F32, DataType::U8, DataType::U16];
        let name = format!("TEXCOORD_{set}");
        self.check_attribute(&accessor, &name, &types, Dimensions::Vec2, count)?;
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        Ok(reader.read_tex_coords(set).map(|t| {
            t.into_f32()
                .map(|uv| {
                    let uv = glam::Vec2::from_array(uv);
                    if uv.is_finite() { uv } else { glam::Vec2::ZERO }
                })
                .collect()
        }))
    }

    /// Checks a vertex attribute's accessor: its kind ([`accessor_check::check_kind`]) and
    /// one entry per vertex of the primitive.
    fn check_attribute(
        &self,
        accessor: &gltf::Accessor<'_>,
        what: &str,
        types: &[DataType],
        dimensions: Dimensions,
        count: usize,
    ) -> Result<(), String> {
        accessor_check::check_kind(accessor, self.buffers, what, types, dimensions)?;
        if accessor.count() != count {
            return Err(format!(
                "{what} has {} entries for {count} vertices",
                accessor.count()
            ));
        }
        Ok(())
    }

    /// COLOR_0 as linear RGBA floats (RGB gets an opaque alpha), when the primitive has it.
    pub(super) fn read_colors(
        &self,
        primitive: &Primitive<'_>,
        count: usize,
    ) -> Result<Option<Vec<glam::Vec4>>, String> {
        let Some(accessor) = primitive.get(&gltf::Semantic::Colors(0)) else {
            return Ok(None);
        };
        let types = [DataType::F32, DataType::U8, DataType::U16];
        let dimensions = match accessor.dimensions() {
            Dimensions::Vec3 => Dimensions::Vec3,
            _ => Dimensions::Vec4,
        };
        self.check_attribute(&accessor, "COLOR_0", &types, dimensions, count)?;
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        Ok(reader.read_colors(0).map(|c| {
            c.into_rgba_f32()
                .map(|rgba| {
                    let rgba = glam::Vec4::from_array(rgba);
                    if rgba.is_finite() {
                        rgba
                    } else {
                        glam::Vec4::ONE
                    }
                })
                .collect()
        }))
    }
}

/// A glTF mesh's `extras.targetNames`, the de-facto place for morph target names.
fn target_names(mesh: &gltf::Mesh<'_>) -> Vec<String> {
    mesh.extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|extras| {
            extras.get("targetNames")?.as_array().map(|names| {
                names
                    .iter()
                    .map(|n| n.as_str().unwrap_or_default().to_owned())
                    .collect()
            })
        })
        .unwrap_or_default()
}

/// Triangle lists from list, strip or fan indices, keeping counter-clockwise winding.
pub(super) fn triangulate(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
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

//! A character's mesh from a format's polygons, as the FBX and COLLADA readers build it:
//! vertices welded per (source point, UV, colour) corner so UV and colour seams split them,
//! runs of one material as parts, every vertex with its influences, and the checks every
//! reader ends with.

use std::collections::HashMap;

use glam::{Vec2, Vec3, Vec4};

use super::ImportError;
use crate::Limits;
use crate::mesh::{Mesh, MeshPart, UnitBox, vertex_normals};
use crate::rig::{Influence, SkinWeights};

/// One corner of a polygon: its source point and what the file gives it there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    pub point: u32,
    pub uv: Option<Vec2>,
    /// The second UV set's coordinates.
    pub second_uv: Option<Vec2>,
    /// Linear RGBA.
    pub color: Option<Vec4>,
}

impl From<(u32, Option<Vec2>)> for Corner {
    fn from((point, uv): (u32, Option<Vec2>)) -> Self {
        Self {
            point,
            uv,
            second_uv: None,
            color: None,
        }
    }
}

/// What welds corners into one vertex: the point, and the bits of its UVs and colour.
type WeldKey = (u32, [Option<[u32; 2]>; 2], Option<[u32; 4]>);

pub struct MeshBuilder<'a> {
    name: &'a str,
    limits: &'a Limits,
    pub mesh: Mesh,
    pub skin: SkinWeights,
    /// The current geometry's vertices by source point, UV and colour.
    welded: HashMap<WeldKey, u32>,
    /// The source point of each of the current geometry's vertices, from `first_vertex` on.
    pub points: Vec<u32>,
    pub first_vertex: usize,
}

impl<'a> MeshBuilder<'a> {
    pub fn new(name: &'a str, limits: &'a Limits) -> Self {
        Self {
            name,
            limits,
            mesh: Mesh::default(),
            skin: SkinWeights::new(),
            welded: HashMap::new(),
            points: Vec::new(),
            first_vertex: 0,
        }
    }

    /// Starts another geometry: its points weld among themselves only.
    pub fn begin_geometry(&mut self) {
        self.welded.clear();
        self.points.clear();
        self.first_vertex = self.mesh.positions.len();
    }

    /// How many more triangles the limit allows.
    pub fn triangles_left(&self) -> usize {
        self.limits
            .max_triangles
            .saturating_sub(self.mesh.triangles.len())
    }

    /// The error for a geometry with more triangles than [`MeshBuilder::triangles_left`].
    pub fn too_many_triangles(&self) -> ImportError {
        ImportError::TooMany {
            name: self.name.into(),
            what: "triangles",
            count: self.limits.max_triangles + 1,
            limit: self.limits.max_triangles,
        }
    }

    /// Adds a triangle of `corners` drawn with `material`; `vertex` gives a new vertex's
    /// position and influences from its source point.
    pub fn triangle(
        &mut self,
        corners: [Corner; 3],
        material: Option<usize>,
        mut vertex: impl FnMut(u32) -> (Vec3, Vec<Influence>),
    ) {
        let triangle = corners.map(|corner| {
            let Corner {
                point,
                uv,
                second_uv,
                color,
            } = corner;
            let bits = |uv: Option<Vec2>| uv.map(|uv| uv.to_array().map(f32::to_bits));
            let key = (
                point,
                [bits(uv), bits(second_uv)],
                color.map(|c| c.to_array().map(f32::to_bits)),
            );
            if let Some(&v) = self.welded.get(&key) {
                return v;
            }
            let (position, influences) = vertex(point);
            let mesh = &mut self.mesh;
            mesh.positions.push(position);
            for (uv, uvs) in [(uv, &mut mesh.uvs), (second_uv, &mut mesh.second_uvs)] {
                if uv.is_some() || !uvs.is_empty() {
                    // Pad earlier geometries without UVs so every vertex has one.
                    uvs.resize(mesh.positions.len() - 1, Vec2::ZERO);
                    uvs.push(uv.unwrap_or(Vec2::ZERO));
                }
            }
            if color.is_some() || !mesh.colors.is_empty() {
                // Earlier geometries without colours are white, which leaves them as they were.
                mesh.colors.resize(mesh.positions.len() - 1, Vec4::ONE);
                mesh.colors.push(color.unwrap_or(Vec4::ONE));
            }
            self.skin.push_vertex(influences);
            self.points.push(point);
            let v = (mesh.positions.len() - 1) as u32;
            self.welded.insert(key, v);
            v
        });
        let mesh = &mut self.mesh;
        match mesh.parts.last_mut() {
            Some(part)
                if part.material == material
                    && part.first_triangle + part.triangle_count == mesh.triangles.len() =>
            {
                part.triangle_count += 1;
            }
            _ => mesh.parts.push(MeshPart {
                first_triangle: mesh.triangles.len(),
                triangle_count: 1,
                material,
            }),
        }
        mesh.triangles.push(triangle);
    }

    /// Fails once the vertices exceed the limit (seams split points, so a file can hold
    /// fewer points than the vertices they become).
    pub fn check_vertices(&self) -> Result<(), ImportError> {
        let count = self.mesh.positions.len();
        ImportError::at_most(self.name, "vertices", count, self.limits.max_vertices)?;
        Ok(())
    }

    /// The finished mesh with its normals, and the influences of every vertex; `place` names
    /// the geometry in an error about a non-finite position.
    pub fn finish(mut self, place: &str) -> Result<(Mesh, SkinWeights), ImportError> {
        let mesh = &mut self.mesh;
        for uvs in [&mut mesh.uvs, &mut mesh.second_uvs] {
            if !uvs.is_empty() {
                uvs.resize(mesh.positions.len(), Vec2::ZERO);
            }
        }
        if !mesh.colors.is_empty() {
            mesh.colors.resize(mesh.positions.len(), Vec4::ONE);
        }
        if mesh.triangles.is_empty() {
            return Err(ImportError::NoTriangles {
                name: self.name.into(),
            });
        }
        if let Some(vertex) = mesh.positions.iter().position(|p| !p.is_finite()) {
            return Err(ImportError::NonFinitePosition {
                name: self.name.into(),
                place: place.into(),
                vertex,
            });
        }
        if UnitBox::of(&mesh.bounds()).is_none() {
            return Err(ImportError::Degenerate {
                name: self.name.into(),
            });
        }
        mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
        Ok((self.mesh, self.skin))
    }
}

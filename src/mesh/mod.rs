//! Triangle meshes in world space and the geometry computed on them.

mod bounds;
mod boxes;
pub mod color;
mod material;
mod normals;
mod ray;
mod subdivide;
mod unit_box;
mod winding;
mod winding_tree;

pub use bounds::Aabb;
pub use boxes::{add_box, boxes, probe_creature};
pub use material::{AlphaMode, Image, Material};
pub use normals::vertex_normals;
pub use subdivide::subdivide;
pub use unit_box::UnitBox;
pub use winding::winding_number;
pub use winding_tree::WindingTree;

use glam::{Vec2, Vec3, Vec4};

/// The parameter in [0, 1] of the point of segment `a`–`b` nearest `p` (that point is
/// `a + (b - a) * t`); 0 for a segment of no length.
pub fn segment_parameter(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Points as a flat `x, y, z, x, y, z, …` array, the layout GPUs and JS want.
pub fn flatten(points: &[Vec3]) -> Vec<f32> {
    points.iter().flat_map(|p| p.to_array()).collect()
}

/// An indexed triangle mesh. All primitives of an input are merged into one, in world space.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    pub positions: Vec<Vec3>,
    /// Unit shading normals, one per position: the file's own where it gave them (hard edges,
    /// custom normals a normal map was baked against), else smooth ones from the triangles.
    /// Shape analysis computes its own ([`vertex_normals`]) so that rigs do not depend on them.
    pub normals: Vec<Vec3>,
    /// The file's tangents (glTF `TANGENT`: a unit direction, and in `w` ±1 the side the
    /// bitangent lies on), one per position, or empty: kept so that a normal map shades as it
    /// was baked; written back, never computed.
    pub tangents: Vec<Vec4>,
    /// Texture coordinates, one per position, or empty when the input had none.
    pub uvs: Vec<Vec2>,
    /// A second set of texture coordinates (glTF's `TEXCOORD_1`: lightmaps, detail and
    /// ambient-occlusion maps), one per position, or empty: kept for the files written, not
    /// drawn.
    pub second_uvs: Vec<Vec2>,
    /// Vertex colours (linear RGBA, multiplying the material's colour as glTF's `COLOR_0`
    /// does), one per position, or empty when the input had none: many low-poly characters
    /// are coloured this way rather than by a texture.
    pub colors: Vec<Vec4>,
    /// Counter-clockwise triangles indexing `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// The input's primitives, as consecutive runs of `triangles`, each with its material.
    pub parts: Vec<MeshPart>,
    /// Blend shapes (glTF morph targets, FBX blend shapes): faces, visemes, correctives.
    pub morph_targets: Vec<MorphTarget>,
}

/// A blend shape: an offset per vertex, added to the mesh scaled by the target's weight.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MorphTarget {
    pub name: String,
    /// One offset per position, in the mesh's space.
    pub offsets: Vec<Vec3>,
    /// The weight the file gave it at rest (glTF `mesh.weights`).
    pub weight: f32,
}

/// A run of triangles drawn with one material (one glTF primitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshPart {
    pub first_triangle: usize,
    pub triangle_count: usize,
    /// Index into [`crate::Character::materials`].
    pub material: Option<usize>,
}

impl Mesh {
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// `parts`, or one part covering every triangle when none were recorded.
    pub fn parts_or_whole(&self) -> Vec<MeshPart> {
        if self.parts.is_empty() {
            vec![MeshPart {
                first_triangle: 0,
                triangle_count: self.triangles.len(),
                material: None,
            }]
        } else {
            self.parts.clone()
        }
    }

    pub fn bounds(&self) -> Aabb {
        Aabb::from_points(&self.positions)
    }

    /// Positions as a flat `x, y, z, x, y, z, …` array, the layout GPUs and JS want.
    pub fn flat_positions(&self) -> Vec<f32> {
        flatten(&self.positions)
    }
}

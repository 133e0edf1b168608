//! Splitting every triangle into four at its edge midpoints: denser copies of real characters
//! for benchmarks and for checking that the app keeps up with heavy meshes.

use std::collections::HashMap;

use super::{Mesh, MeshPart, MorphTarget, vertex_normals};

/// `mesh` with each triangle split into four (shared edges share their midpoint), parts and
/// their materials kept, UVs (both sets), vertex colours, normals and tangents interpolated.
/// Returns the new mesh and, for
/// each vertex added after the originals, the two vertices it is the midpoint of.
pub fn subdivide(mesh: &Mesh) -> (Mesh, Vec<[u32; 2]>) {
    let mut positions = mesh.positions.clone();
    let mut uvs = mesh.uvs.clone();
    let has_uvs = uvs.len() == positions.len();
    let mut second_uvs = mesh.second_uvs.clone();
    let has_second_uvs = second_uvs.len() == positions.len();
    let mut colors = mesh.colors.clone();
    let has_colors = colors.len() == positions.len();
    let mut normals = mesh.normals.clone();
    let has_normals = normals.len() == positions.len();
    let mut tangents = mesh.tangents.clone();
    let has_tangents = tangents.len() == positions.len();
    let mut parents: Vec<[u32; 2]> = Vec::new();
    let mut midpoints: HashMap<(u32, u32), u32> = HashMap::new();
    let mut midpoint = |a: u32, b: u32| -> u32 {
        *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
            let (pa, pb) = (positions[a as usize], positions[b as usize]);
            positions.push((pa + pb) * 0.5);
            if has_uvs {
                uvs.push((uvs[a as usize] + uvs[b as usize]) * 0.5);
            }
            if has_second_uvs {
                second_uvs.push((second_uvs[a as usize] + second_uvs[b as usize]) * 0.5);
            }
            if has_colors {
                colors.push((colors[a as usize] + colors[b as usize]) * 0.5);
            }
            if has_normals {
                let (na, nb) = (normals[a as usize], normals[b as usize]);
                normals.push((na + nb).normalize_or(na));
            }
            if has_tangents {
                let (ta, tb) = (tangents[a as usize], tangents[b as usize]);
                let direction = (ta.truncate() + tb.truncate()).normalize_or(ta.truncate());
                tangents.push(direction.extend(ta.w));
            }
            parents.push([a, b]);
            positions.len() as u32 - 1
        })
    };
    let mut triangles = Vec::with_capacity(mesh.triangles.len() * 4);
    for &[a, b, c] in &mesh.triangles {
        let (ab, bc, ca) = (midpoint(a, b), midpoint(b, c), midpoint(c, a));
        triangles.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
    }
    if !has_normals {
        normals = vertex_normals(&positions, &triangles);
    }
    let parts = mesh
        .parts
        .iter()
        .map(|p| MeshPart {
            first_triangle: p.first_triangle * 4,
            triangle_count: p.triangle_count * 4,
            material: p.material,
        })
        .collect();
    // A new vertex halfway along an edge moves halfway between its ends' offsets.
    let morph_targets = mesh
        .morph_targets
        .iter()
        .map(|t| {
            let mut offsets = t.offsets.clone();
            offsets.resize(mesh.positions.len(), glam::Vec3::ZERO);
            for &[a, b] in &parents {
                offsets.push(0.5 * (offsets[a as usize] + offsets[b as usize]));
            }
            MorphTarget {
                offsets,
                ..t.clone()
            }
        })
        .collect();
    let subdivided = Mesh {
        positions,
        normals,
        uvs: if has_uvs { uvs } else { Vec::new() },
        second_uvs: if has_second_uvs {
            second_uvs
        } else {
            Vec::new()
        },
        colors: if has_colors { colors } else { Vec::new() },
        tangents: if has_tangents { tangents } else { Vec::new() },
        triangles,
        parts,
        morph_targets,
    };
    (subdivided, parents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::{Influence, JointId, SkinWeights};
    use glam::Vec3;

    #[test]
    fn each_triangle_becomes_four_with_shared_midpoints_and_blended_weights() {
        // Two triangles sharing the edge 1–2: 4 + 5 edge midpoints, 8 triangles.
        let mesh = Mesh {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)],
            triangles: vec![[0, 1, 2], [1, 3, 2]],
            parts: vec![MeshPart {
                first_triangle: 0,
                triangle_count: 2,
                material: Some(0),
            }],
            ..Mesh::default()
        };
        let (dense, parents) = subdivide(&mesh);
        assert_eq!(dense.positions.len(), 9);
        assert_eq!(dense.triangles.len(), 8);
        assert_eq!(dense.parts[0].triangle_count, 8);
        assert_eq!(parents.len(), 5);
        for (k, [a, b]) in parents.iter().enumerate() {
            let want = (mesh.positions[*a as usize] + mesh.positions[*b as usize]) * 0.5;
            assert!(dense.positions[4 + k].distance(want) < 1e-6);
        }
        let mut weights = SkinWeights::new();
        for v in 0..4u32 {
            weights.push_vertex([Influence {
                joint: JointId(v % 2),
                weight: 1.0,
            }]);
        }
        let blended = weights.with_midpoints(&parents);
        assert_eq!(blended.vertex_count(), 9);
        for v in 4..9 {
            let total: f32 = blended.influences(v).iter().map(|i| i.weight).sum();
            assert!((total - 1.0).abs() < 1e-6);
        }
    }
}

//! Wavefront OBJ: `v`, `f` (with `v/vt/vn` references, negative indices and polygons). Vertices
//! keep the file's order, one per `v` line, so that faces sharing a position stay connected.
//! Texture coordinates, normals and materials are not used yet.

use glam::Vec3;

use super::ImportError;
use crate::mesh::{Mesh, UnitBox, vertex_normals};
use crate::{Character, Limits};

pub fn import(text: &str, name: &str, limits: &Limits) -> Result<Character, ImportError> {
    let bad = |line: usize, reason: String| ImportError::BadData {
        name: name.into(),
        place: format!("line {line}"),
        reason,
    };
    let mut positions: Vec<Vec3> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    let mut warnings = Vec::new();
    let mut skipped_lines = 0usize;
    let mut materials: Vec<&str> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        match keyword {
            "v" => {
                let mut xyz = [0.0f32; 3];
                for c in &mut xyz {
                    let word = words
                        .next()
                        .ok_or_else(|| bad(line_no, "a vertex needs x, y and z".into()))?;
                    *c = word
                        .parse()
                        .map_err(|_| bad(line_no, format!("'{word}' is not a number")))?;
                }
                let p = Vec3::from_array(xyz);
                if !p.is_finite() {
                    return Err(ImportError::NonFinitePosition {
                        name: name.into(),
                        place: format!("line {line_no}"),
                        vertex: positions.len(),
                    });
                }
                if positions.len() >= limits.max_vertices {
                    return Err(ImportError::TooMany {
                        name: name.into(),
                        what: "vertices",
                        count: positions.len() + 1,
                        limit: limits.max_vertices,
                    });
                }
                positions.push(p);
            }
            "f" => {
                let corners = words
                    .map(|w| corner_index(w, positions.len()))
                    .collect::<Result<Vec<u32>, String>>()
                    .map_err(|r| bad(line_no, r))?;
                if corners.len() < 3 {
                    return Err(bad(line_no, "a face needs at least 3 corners".into()));
                }
                // Polygons become fans; OBJ polygons are convex by convention.
                for k in 1..corners.len() - 1 {
                    triangles.push([corners[0], corners[k], corners[k + 1]]);
                }
                if triangles.len() > limits.max_triangles {
                    return Err(ImportError::TooMany {
                        name: name.into(),
                        what: "triangles",
                        count: triangles.len(),
                        limit: limits.max_triangles,
                    });
                }
            }
            "l" | "p" => skipped_lines += 1,
            "usemtl" => {
                if let Some(m) = words.next().filter(|m| !materials.contains(m)) {
                    materials.push(m);
                }
            }
            _ => {} // vt, vn, o, g, s, mtllib, usemtl and unknown statements.
        }
    }
    if skipped_lines > 0 {
        warnings.push(format!(
            "skipped {skipped_lines} line and point elements: they have no surface to rig"
        ));
    }
    if triangles.is_empty() {
        return Err(ImportError::NoTriangles { name: name.into() });
    }
    let mut mesh = Mesh {
        positions,
        normals: Vec::new(),
        uvs: Vec::new(),
        parts: vec![crate::mesh::MeshPart {
            first_triangle: 0,
            triangle_count: triangles.len(),
            material: None,
        }],
        triangles,
    };
    if UnitBox::of(&mesh.bounds()).is_none() {
        return Err(ImportError::Degenerate { name: name.into() });
    }
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
    Ok(Character {
        name: name.into(),
        mesh,
        skeleton: None,
        skin: None,
        materials: Vec::new(),
        images: Vec::new(),
        humanoid: Vec::new(),
        warnings,
        source: crate::character::SourceSummary {
            materials: materials.len(),
            ..Default::default()
        },
    })
}

/// The 0-based position index of one face corner (`v`, `v/vt`, `v//vn` or `v/vt/vn`), given
/// `count` vertices so far; negative indices count back from the latest vertex.
fn corner_index(word: &str, count: usize) -> Result<u32, String> {
    let v = word.split('/').next().unwrap_or("");
    let index: i64 = v
        .parse()
        .map_err(|_| format!("'{word}' is not a face corner"))?;
    let resolved = match index {
        0 => return Err("face index 0 (OBJ indices start at 1)".into()),
        i if i > 0 => i - 1,
        i => count as i64 + i,
    };
    if resolved < 0 || resolved >= count as i64 {
        return Err(format!(
            "face refers to vertex {index}, but only {count} are defined before it"
        ));
    }
    Ok(resolved as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUAD: &str = "# a unit quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1 4/1/1\n";

    #[test]
    fn polygons_become_triangle_fans() {
        let c = import(QUAD, "quad.obj", &Limits::default()).unwrap();
        assert_eq!(c.mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
        assert_eq!(c.mesh.vertex_count(), 4);
        assert!((c.mesh.normals[0] - Vec3::Z).length() < 1e-6);
    }

    #[test]
    fn negative_indices_count_back() {
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n";
        let c = import(text, "neg.obj", &Limits::default()).unwrap();
        assert_eq!(c.mesh.triangles, vec![[0, 1, 2]]);
    }

    #[test]
    fn errors_name_the_line() {
        let err = import("v 0 0 0\nv 1 0 0\nf 1 2 7\n", "bad.obj", &Limits::default()).unwrap_err();
        assert!(err.to_string().contains("line 3"), "{err}");
        let err = import("v 0 nan 0\n", "nan.obj", &Limits::default()).unwrap_err();
        assert!(
            matches!(err, ImportError::NonFinitePosition { .. }),
            "{err}"
        );
        let err = import("v 0 0 0\n", "nofaces.obj", &Limits::default()).unwrap_err();
        assert!(matches!(err, ImportError::NoTriangles { .. }), "{err}");
        let err = import("v 0 0\n", "short.obj", &Limits::default()).unwrap_err();
        assert!(err.to_string().contains("x, y and z"), "{err}");
    }
}

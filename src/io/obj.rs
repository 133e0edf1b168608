//! Wavefront OBJ with its MTL material libraries: `v`, `vt`, `f` (with `v/vt/vn` references,
//! negative indices and polygons), `usemtl`, `mtllib`. Without texture coordinates vertices keep
//! the file's order, one per `v` line; with them, one per distinct position/coordinate pair, so
//! texture seams stay sharp while faces sharing both stay connected.

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use super::{ImportError, InputFile, resources};
use crate::mesh::{Image, Material, Mesh, MeshPart, UnitBox, vertex_normals};
use crate::{Character, Limits, SourceSummary};

/// A face corner: 0-based position index and texture coordinate index, if any.
type Corner = (u32, Option<u32>);

pub fn import(
    text: &str,
    name: &str,
    files: &[InputFile<'_>],
    limits: &Limits,
) -> Result<Character, ImportError> {
    let bad = |line: usize, reason: String| ImportError::BadData {
        name: name.into(),
        place: format!("line {line}"),
        reason,
    };
    let mut positions: Vec<Vec3> = Vec::new();
    let mut coords: Vec<Vec2> = Vec::new();
    // Triangles of corners, each with the material in use when it was read.
    let mut faces: Vec<([Corner; 3], Option<usize>)> = Vec::new();
    let mut material_names: Vec<String> = Vec::new();
    let mut current: Option<usize> = None;
    let mut libraries: Vec<String> = Vec::new();
    let mut skipped_lines = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        match keyword {
            "v" => {
                let p = Vec3::from_array(numbers::<3>(&mut words).map_err(|r| bad(line_no, r))?);
                if !p.is_finite() {
                    return Err(ImportError::NonFinitePosition {
                        name: name.into(),
                        place: format!("line {line_no}"),
                        vertex: positions.len(),
                    });
                }
                ImportError::at_most(name, "vertices", positions.len() + 1, limits.max_vertices)?;
                positions.push(p);
            }
            "vt" => {
                let [u, v] = numbers::<2>(&mut words)
                    .map_err(|_| bad(line_no, "a texture coordinate needs u and v".into()))?;
                ImportError::at_most(
                    name,
                    "texture coordinates",
                    coords.len() + 1,
                    limits.max_vertices,
                )?;
                // OBJ's v runs up from the bottom of the image; glTF's runs down from the top.
                let uv = Vec2::new(u, 1.0 - v);
                coords.push(if uv.is_finite() { uv } else { Vec2::ZERO });
            }
            "f" => {
                let corners = words
                    .map(|w| corner(w, positions.len(), coords.len()))
                    .collect::<Result<Vec<Corner>, String>>()
                    .map_err(|r| bad(line_no, r))?;
                if corners.len() < 3 {
                    return Err(bad(line_no, "a face needs at least 3 corners".into()));
                }
                // Polygons become fans; OBJ polygons are convex by convention.
                for k in 1..corners.len() - 1 {
                    faces.push(([corners[0], corners[k], corners[k + 1]], current));
                }
                ImportError::at_most(name, "triangles", faces.len(), limits.max_triangles)?;
            }
            "usemtl" => {
                let wanted = words.collect::<Vec<_>>().join(" ");
                current = Some(match material_names.iter().position(|m| *m == wanted) {
                    Some(i) => i,
                    None => {
                        material_names.push(wanted);
                        material_names.len() - 1
                    }
                });
            }
            "mtllib" => libraries.extend(words.map(str::to_owned)),
            "l" | "p" => skipped_lines += 1,
            _ => {} // vn, o, g, s and unknown statements.
        }
    }
    let mut warnings = Vec::new();
    if skipped_lines > 0 {
        warnings.push(format!(
            "skipped {skipped_lines} line and point elements: they have no surface to rig"
        ));
    }
    if faces.is_empty() {
        return Err(ImportError::NoTriangles { name: name.into() });
    }
    let (materials, images) = materials(&material_names, &libraries, files, &mut warnings);
    let mut mesh = build_mesh(&positions, &coords, &faces);
    // Seams split vertices, so the count can exceed the `v` lines.
    ImportError::at_most(name, "vertices", mesh.positions.len(), limits.max_vertices)?;
    if UnitBox::of(&mesh.bounds()).is_none() {
        return Err(ImportError::Degenerate { name: name.into() });
    }
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
    Ok(Character {
        name: name.into(),
        mesh,
        skeleton: None,
        skin: None,
        source: SourceSummary {
            materials: materials.len(),
            textures: images.len(),
            ..Default::default()
        },
        materials,
        images,
        animations: Vec::new(),
        humanoid: Vec::new(),
        vrm: None,
        warnings,
    })
}

fn numbers<'a, const N: usize>(
    words: &mut impl Iterator<Item = &'a str>,
) -> Result<[f32; N], String> {
    let mut out = [0.0f32; N];
    for c in &mut out {
        let word = words.next().ok_or("a vertex needs x, y and z")?;
        *c = word
            .parse()
            .map_err(|_| format!("'{word}' is not a number"))?;
    }
    Ok(out)
}

/// Vertices, triangles and parts (runs of one material) from the faces.
fn build_mesh(positions: &[Vec3], coords: &[Vec2], faces: &[([Corner; 3], Option<usize>)]) -> Mesh {
    let textured = !coords.is_empty();
    let mut vertex_of: HashMap<Corner, u32> = HashMap::new();
    let mut mesh = Mesh::default();
    if !textured {
        mesh.positions = positions.to_vec();
    }
    for (corners, material) in faces {
        let triangle = corners.map(|c| {
            if !textured {
                return c.0;
            }
            *vertex_of.entry(c).or_insert_with(|| {
                mesh.positions.push(positions[c.0 as usize]);
                mesh.uvs.push(
                    c.1.and_then(|t| coords.get(t as usize))
                        .copied()
                        .unwrap_or(Vec2::ZERO),
                );
                (mesh.positions.len() - 1) as u32
            })
        });
        match mesh.parts.last_mut() {
            Some(part) if part.material == *material => part.triangle_count += 1,
            _ => mesh.parts.push(MeshPart {
                first_triangle: mesh.triangles.len(),
                triangle_count: 1,
                material: *material,
            }),
        }
        mesh.triangles.push(triangle);
    }
    mesh
}

/// The named materials from the given `.mtl` files (`Kd`, `d`/`Tr`, `map_Kd`); a material or
/// library that is missing is reported as a warning and left neutral.
fn materials(
    names: &[String],
    libraries: &[String],
    files: &[InputFile<'_>],
    warnings: &mut Vec<String>,
) -> (Vec<Material>, Vec<Image>) {
    let mut defined: HashMap<String, (Material, Option<String>)> = HashMap::new();
    for library in libraries {
        let Ok(bytes) = resources::resolve(library, files) else {
            warnings.push(format!(
                "the material library '{library}' was not given; its materials are left out"
            ));
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut current: Option<String> = None;
        for raw in text.lines() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let Some((keyword, rest)) = line.split_once(char::is_whitespace) else {
                continue;
            };
            let rest = rest.trim();
            if keyword == "newmtl" {
                current = Some(rest.to_owned());
                defined.insert(
                    rest.to_owned(),
                    (
                        Material {
                            name: Some(rest.to_owned()),
                            ..Material::default()
                        },
                        None,
                    ),
                );
                continue;
            }
            let Some(entry) = current.as_ref().and_then(|c| defined.get_mut(c)) else {
                continue;
            };
            let values: Vec<f32> = rest
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            match (keyword, values.as_slice()) {
                ("Kd", [r, g, b, ..]) => entry.0.base_color[..3].copy_from_slice(&[*r, *g, *b]),
                ("d", [d, ..]) => entry.0.base_color[3] = d.clamp(0.0, 1.0),
                ("Tr", [t, ..]) => entry.0.base_color[3] = (1.0 - t).clamp(0.0, 1.0),
                // The file name is the last word; options such as `-bm 1` come before it.
                ("map_Kd", _) => entry.1 = rest.split_whitespace().last().map(str::to_owned),
                _ => {}
            }
        }
    }
    let mut images: Vec<Image> = Vec::new();
    let mut image_of: HashMap<String, usize> = HashMap::new();
    let materials = names
        .iter()
        .map(|name| {
            let Some((mut material, texture)) = defined.get(name).cloned() else {
                if !libraries.is_empty() {
                    warnings.push(format!(
                        "material '{name}' is not defined; it is shown neutral"
                    ));
                }
                return Material {
                    name: Some(name.clone()),
                    ..Material::default()
                };
            };
            if material.base_color[3] < 1.0 {
                material.alpha = crate::mesh::AlphaMode::Blend;
            }
            if let Some(file) = texture {
                material.base_color_image = image_of.get(&file).copied().or_else(|| {
                    let bytes = resources::resolve(&file, files).ok()?;
                    let Some(mime) = Image::sniff_mime_type(&bytes) else {
                        warnings.push(format!(
                            "texture '{file}' is not PNG or JPEG; it is left out"
                        ));
                        return None;
                    };
                    images.push(Image {
                        mime_type: mime.into(),
                        bytes,
                    });
                    image_of.insert(file.clone(), images.len() - 1);
                    Some(images.len() - 1)
                });
                if material.base_color_image.is_none() && !image_of.contains_key(&file) {
                    warnings.push(format!("texture '{file}' was not given; it is left out"));
                }
            }
            material
        })
        .collect();
    (materials, images)
}

/// One face corner (`v`, `v/vt`, `v//vn` or `v/vt/vn`), given how many positions and
/// coordinates are defined so far; negative indices count back from the latest.
fn corner(word: &str, positions: usize, coords: usize) -> Result<Corner, String> {
    let mut parts = word.split('/');
    let v = resolve_index(parts.next().unwrap_or(""), positions, "vertex", word)?;
    let vt = match parts.next() {
        Some(t) if !t.is_empty() => Some(resolve_index(t, coords, "texture coordinate", word)?),
        _ => None,
    };
    Ok((v, vt))
}

fn resolve_index(text: &str, count: usize, what: &str, word: &str) -> Result<u32, String> {
    let index: i64 = text
        .parse()
        .map_err(|_| format!("'{word}' is not a face corner"))?;
    let resolved = match index {
        0 => return Err("face index 0 (OBJ indices start at 1)".into()),
        i if i > 0 => i - 1,
        i => count as i64 + i,
    };
    if resolved < 0 || resolved >= count as i64 {
        return Err(format!(
            "face refers to {what} {index}, but only {count} are defined before it"
        ));
    }
    Ok(resolved as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import_text(text: &str, name: &str) -> Result<Character, ImportError> {
        import(text, name, &[], &Limits::default())
    }

    const QUAD: &str =
        "# a unit quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\n";

    #[test]
    fn polygons_become_triangle_fans() {
        let c = import_text(QUAD, "quad.obj").unwrap();
        assert_eq!(c.mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
        assert_eq!(c.mesh.vertex_count(), 4);
        assert!(c.mesh.uvs.is_empty());
        assert!((c.mesh.normals[0] - Vec3::Z).length() < 1e-6);
    }

    #[test]
    fn negative_indices_count_back() {
        let c = import_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n", "neg.obj").unwrap();
        assert_eq!(c.mesh.triangles, vec![[0, 1, 2]]);
    }

    #[test]
    fn materials_textures_and_seams() {
        let obj = "mtllib looks.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n\
                   vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n\
                   usemtl skin\nf 1/1 2/2 3/3\nusemtl cloth\nf 1/5 3/3 4/4\n";
        let mtl = "newmtl skin\nKd 0.5 0.25 0.125\nmap_Kd -bm 1 skin.png\nnewmtl cloth\nKd 0 0 1\nd 0.5\n";
        let png = b"\x89PNG\r\n\x1a\nnot really".to_vec();
        let files = [
            InputFile {
                name: "looks.mtl",
                bytes: mtl.as_bytes(),
            },
            InputFile {
                name: "skin.png",
                bytes: &png,
            },
        ];
        let c = import(obj, "dressed.obj", &files, &Limits::default()).unwrap();
        // Position 1 is used with two coordinates: it becomes two vertices.
        assert_eq!(c.mesh.vertex_count(), 5);
        assert_eq!(c.mesh.uvs.len(), 5);
        assert_eq!(
            c.mesh.uvs[2],
            Vec2::new(1.0, 0.0),
            "v is flipped to glTF's convention"
        );
        assert_eq!(c.mesh.parts.len(), 2);
        assert_eq!(c.materials[0].base_color, [0.5, 0.25, 0.125, 1.0]);
        assert_eq!(c.materials[0].base_color_image, Some(0));
        assert_eq!(c.images[0].mime_type, "image/png");
        assert_eq!(c.materials[1].alpha, crate::mesh::AlphaMode::Blend);
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        let alone = import_text(obj, "dressed.obj").unwrap();
        assert!(
            alone
                .warnings
                .iter()
                .any(|w| w.contains("'looks.mtl' was not given"))
        );
        assert_eq!(alone.materials.len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let err = import_text("v 0 0 0\nv 1 0 0\nf 1 2 7\n", "bad.obj").unwrap_err();
        assert!(err.to_string().contains("line 3"), "{err}");
        let err = import_text("v 0 nan 0\n", "nan.obj").unwrap_err();
        assert!(
            matches!(err, ImportError::NonFinitePosition { .. }),
            "{err}"
        );
        let err = import_text("v 0 0 0\n", "nofaces.obj").unwrap_err();
        assert!(matches!(err, ImportError::NoTriangles { .. }), "{err}");
        let err = import_text("v 0 0\n", "short.obj").unwrap_err();
        assert!(err.to_string().contains("x, y and z"), "{err}");
        let err = import_text(
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n",
            "vt.obj",
        )
        .unwrap_err();
        assert!(err.to_string().contains("texture coordinate 2"), "{err}");
    }
}

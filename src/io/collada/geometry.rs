//! A COLLADA `<mesh>`: positions reached through `<vertices>`, and primitives (`triangles`,
//! `polylist`, `polygons`, `trifans`, `tristrips`) whose `<p>` lists interleave one index per
//! input at each corner.

use glam::{DVec3, Vec2};
use roxmltree::Node;

use super::document::{Ids, Source, child, children, inputs, ints};

/// Triangles over positions, each corner with the texture coordinate it has there.
pub struct Geometry {
    pub positions: Vec<DVec3>,
    pub corners: Vec<[(u32, Option<Vec2>); 3]>,
    /// The material symbol of each triangle's primitive.
    pub materials: Vec<Option<String>>,
    pub skipped: usize,
}

/// The triangles of `mesh`, at most `max_triangles`.
pub fn read(
    mesh: Node<'_, '_>,
    ids: &Ids<'_, '_>,
    max_triangles: usize,
) -> Result<Geometry, String> {
    let vertices = child(mesh, "vertices").ok_or("a mesh without <vertices>")?;
    let vertices_id = vertices.attribute("id").unwrap_or("");
    let position_url = inputs(vertices)
        .into_iter()
        .find(|i| i.semantic == "POSITION")
        .map(|i| i.source)
        .ok_or("<vertices> without a POSITION input")?;
    let positions = source(ids, position_url)?;
    if positions.stride < 3 {
        return Err("positions with fewer than 3 numbers each".into());
    }
    let mut geometry = Geometry {
        positions: (0..positions.len())
            .filter_map(|i| positions.element(i))
            .map(|p| DVec3::new(p[0], p[1], p[2]))
            .collect(),
        corners: Vec::new(),
        materials: Vec::new(),
        skipped: 0,
    };
    for primitive in mesh.children().filter(|c| c.is_element()) {
        let kind = primitive.tag_name().name();
        if !matches!(
            kind,
            "triangles" | "polylist" | "polygons" | "trifans" | "tristrips"
        ) {
            continue;
        }
        let inputs = inputs(primitive);
        let stride = inputs.iter().map(|i| i.offset + 1).max().unwrap_or(1);
        let Some(vertex) = inputs.iter().find(|i| i.semantic == "VERTEX") else {
            continue;
        };
        if vertex.source.strip_prefix('#') != Some(vertices_id) && vertex.source != vertices_id {
            return Err(format!(
                "a primitive's VERTEX input names '{}'",
                vertex.source
            ));
        }
        let uv_input = inputs
            .iter()
            .filter(|i| i.semantic == "TEXCOORD")
            .min_by_key(|i| i.set);
        let uvs = uv_input.map(|i| source(ids, i.source)).transpose()?;
        let material = primitive.attribute("material").map(str::to_owned);
        // Polygons as lists of corner numbers into their `<p>` data.
        let mut polygons: Vec<Vec<i64>> = Vec::new();
        let mut strips = false;
        match kind {
            "triangles" => {
                let p = child(primitive, "p")
                    .map(ints)
                    .transpose()?
                    .unwrap_or_default();
                polygons.extend(p.chunks_exact(stride * 3).map(<[i64]>::to_vec));
            }
            "polylist" => {
                let p = child(primitive, "p")
                    .map(ints)
                    .transpose()?
                    .unwrap_or_default();
                let counts = child(primitive, "vcount")
                    .map(ints)
                    .transpose()?
                    .unwrap_or_default();
                let mut at = 0usize;
                for &n in &counts {
                    let len = usize::try_from(n).unwrap_or(0).saturating_mul(stride);
                    let Some(slice) = p.get(at..at + len) else {
                        return Err("a <polylist>'s <vcount> runs past its <p>".into());
                    };
                    polygons.push(slice.to_vec());
                    at += len;
                }
            }
            _ => {
                strips = kind == "tristrips";
                for p in children(primitive, "p") {
                    polygons.push(ints(p)?);
                }
            }
        }
        for polygon in polygons {
            let corners: Vec<(i64, Option<i64>)> = polygon
                .chunks_exact(stride)
                .map(|c| (c[vertex.offset], uv_input.map(|u| c[u.offset])))
                .collect();
            if corners.len() < 3
                || corners.iter().any(|&(p, _)| {
                    usize::try_from(p).map_or(true, |p| p >= geometry.positions.len())
                })
            {
                geometry.skipped += 1;
                continue;
            }
            let at = |(p, uv): (i64, Option<i64>)| {
                let uv = uv
                    .and_then(|t| usize::try_from(t).ok())
                    .and_then(|t| uvs.as_ref()?.element(t))
                    .filter(|t| t.len() >= 2)
                    .map(|t| Vec2::new(t[0] as f32, 1.0 - t[1] as f32));
                (p as u32, uv)
            };
            let triangles: Vec<[usize; 3]> = if strips {
                (0..corners.len() - 2)
                    .map(|k| {
                        if k % 2 == 0 {
                            [k, k + 1, k + 2]
                        } else {
                            [k + 1, k, k + 2]
                        }
                    })
                    .collect()
            } else {
                // Triangles, polygons and fans alike: a fan from the first corner.
                (1..corners.len() - 1).map(|k| [0, k, k + 1]).collect()
            };
            if geometry.corners.len() + triangles.len() > max_triangles {
                return Err(format!("more than {max_triangles} triangles"));
            }
            for t in triangles {
                geometry.corners.push(t.map(|k| at(corners[k])));
                geometry.materials.push(material.clone());
            }
        }
    }
    Ok(geometry)
}

fn source(ids: &Ids<'_, '_>, url: &str) -> Result<Source, String> {
    let node = ids
        .get(url)
        .ok_or_else(|| format!("the source '{url}' is not in the file"))?;
    Source::read(node)
}

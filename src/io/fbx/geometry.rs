//! An FBX mesh geometry: control points, polygons (the last index of each is stored as
//! `-index - 1`), and per-corner layers (two UV sets, vertex colours, materials) mapped by vertex,
//! corner or polygon, directly or through an index.

use glam::{DVec3, Vec2, Vec4};

use super::tree::Node;
use crate::io::mesh_builder::Corner;
use crate::mesh::color;

/// A geometry as triangles over its corners: each corner is a control point with the UV and
/// colour it has there, so seams split vertices as they must for rendering.
pub struct Geometry {
    pub control_points: Vec<DVec3>,
    /// Every triangle corner.
    pub corners: Vec<[Corner; 3]>,
    /// The material slot of each triangle (0 when the geometry has no material layer).
    pub materials: Vec<usize>,
    /// Polygons with fewer than 3 corners or indices out of range, skipped.
    pub skipped_polygons: usize,
}

/// The geometry of `node`, or why it cannot be read.
pub fn read(node: &Node, max_triangles: usize) -> Result<Geometry, String> {
    let coords = node.find("Vertices").map(Node::floats).unwrap_or_default();
    if !coords.len().is_multiple_of(3) {
        return Err(format!(
            "{} vertex coordinates, not a multiple of 3",
            coords.len()
        ));
    }
    let control_points: Vec<DVec3> = coords
        .chunks_exact(3)
        .map(|c| DVec3::new(c[0], c[1], c[2]))
        .collect();
    let indices = node
        .find("PolygonVertexIndex")
        .map(Node::ints)
        .unwrap_or_default();
    let uv_layer = |set: usize| {
        (node.children_named("LayerElementUV").nth(set))
            .map(|layer| Layer::new(layer, "UV", "UVIndex", 2))
    };
    let (uvs, second_uvs) = (uv_layer(0), uv_layer(1));
    let colors = node
        .children_named("LayerElementColor")
        .next()
        .map(|layer| Layer::new(layer, "Colors", "ColorIndex", 4));
    let material_layer = node
        .children_named("LayerElementMaterial")
        .next()
        .map(|layer| Layer::new(layer, "Materials", "", 1));
    let mut geometry = Geometry {
        control_points,
        corners: Vec::new(),
        materials: Vec::new(),
        skipped_polygons: 0,
    };
    let n = geometry.control_points.len();
    let mut polygon: Vec<(u32, usize)> = Vec::new();
    let mut polygon_index = 0usize;
    for (corner, &raw) in indices.iter().enumerate() {
        let last = raw < 0;
        let point = if last { -raw - 1 } else { raw };
        polygon.push((point as u32, corner));
        if !last {
            continue;
        }
        let valid = polygon.len() >= 3 && polygon.iter().all(|&(p, _)| (p as usize) < n);
        if valid {
            if geometry.corners.len() + polygon.len() - 2 > max_triangles {
                return Err(format!("more than {max_triangles} triangles"));
            }
            let slot = material_layer
                .as_ref()
                .and_then(|l| l.value(polygon[0].0 as usize, polygon[0].1, polygon_index))
                .map_or(0, |m| m[0].max(0.0) as usize);
            let at = |(p, c): (u32, usize)| {
                let uv_of = |layer: &Option<Layer>| {
                    (layer.as_ref())
                        .and_then(|l| l.value(p as usize, c, polygon_index))
                        .map(|uv| Vec2::new(uv[0] as f32, 1.0 - uv[1] as f32))
                };
                let (uv, second_uv) = (uv_of(&uvs), uv_of(&second_uvs));
                // FBX colours are sRGB (as Blender, Maya and 3ds Max read and write them).
                let color = colors
                    .as_ref()
                    .and_then(|l| l.value(p as usize, c, polygon_index))
                    .map(|c| Vec4::new(c[0] as f32, c[1] as f32, c[2] as f32, c[3] as f32))
                    .filter(|c| c.is_finite())
                    .map(color::to_linear);
                Corner {
                    point: p,
                    uv,
                    second_uv,
                    color,
                }
            };
            for k in 1..polygon.len() - 1 {
                geometry
                    .corners
                    .push([at(polygon[0]), at(polygon[k]), at(polygon[k + 1])]);
                geometry.materials.push(slot);
            }
        } else {
            geometry.skipped_polygons += 1;
        }
        polygon.clear();
        polygon_index += 1;
    }
    Ok(geometry)
}

/// One per-corner layer: how its values map onto the mesh, the values, and their index.
struct Layer {
    mapping: Mapping,
    direct: bool,
    values: Vec<f64>,
    index: Vec<i64>,
    width: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Mapping {
    ControlPoint,
    Corner,
    Polygon,
    AllSame,
}

impl Layer {
    fn new(layer: &Node, values: &str, index: &str, width: usize) -> Self {
        let mapping = match layer.child_str("MappingInformationType").unwrap_or("") {
            "ByControlPoint" | "ByVertice" | "ByVertex" => Mapping::ControlPoint,
            "ByPolygon" => Mapping::Polygon,
            "AllSame" => Mapping::AllSame,
            _ => Mapping::Corner,
        };
        let reference = layer
            .child_str("ReferenceInformationType")
            .unwrap_or("Direct");
        let index_values = if index.is_empty() {
            Vec::new()
        } else {
            layer.find(index).map(Node::ints).unwrap_or_default()
        };
        Self {
            mapping,
            // Material layers list slots directly even when they say "IndexToDirect".
            direct: reference == "Direct" || index.is_empty() || index_values.is_empty(),
            values: layer.find(values).map(Node::floats).unwrap_or_default(),
            index: index_values,
            width,
        }
    }

    /// The value at a corner (control point `point`, corner number `corner`, of polygon
    /// `polygon`); `None` where the layer does not reach.
    fn value(&self, point: usize, corner: usize, polygon: usize) -> Option<&[f64]> {
        let at = match self.mapping {
            Mapping::ControlPoint => point,
            Mapping::Corner => corner,
            Mapping::Polygon => polygon,
            Mapping::AllSame => 0,
        };
        let i = if self.direct {
            at
        } else {
            usize::try_from(*self.index.get(at)?).ok()?
        };
        self.values.get(i * self.width..(i + 1) * self.width)
    }
}

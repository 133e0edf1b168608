//! The mesh as an FBX `Geometry`: control points (one per distinct point, so a UV seam does
//! not split the surface in the importing tool), triangles as polygons, normals and both UV
//! sets per corner, vertex colours per corner, a material slot per polygon, and blend shapes as `Shape`
//! geometries.

use std::collections::HashMap;

use glam::{Vec3, Vec4};

use super::node::property;
use super::{CM, Objects};
use crate::Character;
use crate::export::ExportOptions;
use crate::export::gltf_document::vertex_influences;
use crate::io::fbx::{Node, Value};
use crate::mesh::color;
use crate::rig::{Influence, SkinWeights};

/// What the skin needs to know of the written geometry.
pub struct Geometry {
    pub id: i64,
    /// The influences of each control point, normalised, strongest first.
    pub point_influences: Vec<Vec<Influence>>,
    /// Each morph target's blend shape channel (in the mesh's target order), which clips
    /// key through its `DeformPercent`; `None` for a target that was not written.
    pub channels: Vec<Option<i64>>,
}

/// Adds the mesh's geometry (and its blend shapes) under `model`.
pub fn write(
    objects: &mut Objects,
    character: &Character,
    options: &ExportOptions,
    model: i64,
) -> Geometry {
    let mesh = &character.mesh;
    let influences = match &character.skeleton {
        Some(skeleton) if !skeleton.joints.is_empty() => {
            let empty = SkinWeights::new();
            let skin = character.skin.as_ref().unwrap_or(&empty);
            vertex_influences(&mesh.positions, skeleton, skin, options.max_influences)
        }
        _ => vec![Vec::new(); mesh.positions.len()],
    };
    let written = |t: &&crate::mesh::MorphTarget| t.offsets.len() == mesh.positions.len();
    let targets: Vec<_> = mesh.morph_targets.iter().filter(written).collect();
    let mut made = Vec::with_capacity(targets.len());
    // Vertices split only for their UVs or normals are one control point; vertices at one
    // place that move differently (their weights or shape offsets differ) stay apart.
    let mut point_of: Vec<u32> = Vec::with_capacity(mesh.positions.len());
    let mut first_vertex: Vec<usize> = Vec::new();
    let mut seen: HashMap<Vec<u32>, u32> = HashMap::new();
    for (v, p) in mesh.positions.iter().enumerate() {
        let mut key: Vec<u32> = p.to_array().map(f32::to_bits).to_vec();
        for i in &influences[v] {
            key.extend([i.joint.0, i.weight.to_bits()]);
        }
        for t in &targets {
            key.extend(t.offsets[v].to_array().map(f32::to_bits));
        }
        let next = first_vertex.len() as u32;
        let point = *seen.entry(key).or_insert(next);
        if point == next {
            first_vertex.push(v);
        }
        point_of.push(point);
    }
    let vertices: Vec<f64> = first_vertex
        .iter()
        .flat_map(|&v| cm(mesh.positions[v]))
        .collect();
    let mut polygons = Vec::with_capacity(mesh.triangles.len() * 3);
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|v| point_of[v as usize] as i32);
        // The last corner of a polygon is stored as −index − 1.
        polygons.extend([a, b, -c - 1]);
    }
    let corners = || mesh.triangles.iter().flatten().map(|&v| v as usize);
    let normals: Vec<f64> = corners()
        .flat_map(|v| {
            let n = mesh.normals.get(v).copied().unwrap_or(Vec3::Y);
            n.to_array().map(f64::from)
        })
        .collect();
    let mut layers = vec![layer_element(
        0,
        "LayerElementNormal",
        "",
        "ByPolygonVertex",
        "Direct",
        [Node::of("Normals", Value::F64s(normals))],
    )];
    let mut used = vec!["LayerElementNormal"];
    // The second set only beside a first; it goes in a layer of its own, as FBX keeps sets.
    let sets = [(&mesh.uvs, "UVMap"), (&mesh.second_uvs, "UVMap.001")];
    let uv_sets = sets
        .iter()
        .take_while(|(uvs, _)| uvs.len() == mesh.positions.len());
    for (set, (uvs, name)) in uv_sets.enumerate() {
        // FBX's V runs up the image, glTF's down.
        let uvs = (uvs.iter())
            .flat_map(|uv| [f64::from(uv.x), 1.0 - f64::from(uv.y)])
            .collect();
        let index = corners().map(|v| v as i32).collect();
        layers.push(layer_element(
            set as i32,
            "LayerElementUV",
            name,
            "ByPolygonVertex",
            "IndexToDirect",
            [
                Node::of("UV", Value::F64s(uvs)),
                Node::of("UVIndex", Value::I32s(index)),
            ],
        ));
        if set == 0 {
            used.push("LayerElementUV");
        }
    }
    let second_layer = (mesh.uvs.len() == mesh.positions.len()
        && mesh.second_uvs.len() == mesh.positions.len())
    .then(|| {
        Node::of("Layer", Value::I32(1))
            .child(Node::of("Version", Value::I32(100)))
            .child(
                Node::new("LayerElement")
                    .child(Node::of("Type", Value::Str("LayerElementUV".into())))
                    .child(Node::of("TypedIndex", Value::I32(1))),
            )
    });
    if mesh.colors.len() == mesh.positions.len() && mesh.colors.iter().any(|c| *c != Vec4::ONE) {
        // FBX colours are sRGB, as Blender, Maya and 3ds Max read them.
        let colors = (mesh.colors.iter())
            .flat_map(|&c| color::to_srgb(c).to_array().map(f64::from))
            .collect();
        let index = corners().map(|v| v as i32).collect();
        layers.push(layer_element(
            0,
            "LayerElementColor",
            "Color",
            "ByPolygonVertex",
            "IndexToDirect",
            [
                Node::of("Colors", Value::F64s(colors)),
                Node::of("ColorIndex", Value::I32s(index)),
            ],
        ));
        used.push("LayerElementColor");
    }
    layers.push(layer_element(
        0,
        "LayerElementMaterial",
        "",
        "ByPolygon",
        "IndexToDirect",
        [Node::of(
            "Materials",
            Value::I32s(super::material::polygon_slots(character)),
        )],
    ));
    used.push("LayerElementMaterial");
    let layer = Node::of("Layer", Value::I32(0))
        .child(Node::of("Version", Value::I32(100)))
        .children(used.into_iter().map(|kind| {
            Node::new("LayerElement")
                .child(Node::of("Type", Value::Str(kind.into())))
                .child(Node::of("TypedIndex", Value::I32(0)))
        }));
    let mut children = vec![
        Node::new("Properties70"),
        Node::of("GeometryVersion", Value::I32(124)),
        Node::of("Vertices", Value::F64s(vertices)),
        Node::of("PolygonVertexIndex", Value::I32s(polygons)),
    ];
    children.extend(layers);
    children.push(layer);
    children.extend(second_layer);
    let name = super::display_name(&character.name);
    let id = objects.add("Geometry", "Geometry", &name, "Mesh", children);
    objects.link(id, model);
    if !targets.is_empty() {
        let blend = objects.add(
            "Deformer",
            "Deformer",
            &name,
            "BlendShape",
            vec![Node::of("Version", Value::I32(100))],
        );
        objects.link(blend, id);
        for (t, target) in targets.into_iter().enumerate() {
            let target_name = super::fbx_name(&target.name, || format!("shape {t}"));
            let mut indexes = Vec::new();
            let mut deltas = Vec::new();
            for (point, &v) in first_vertex.iter().enumerate() {
                let d = target.offsets[v];
                if d != Vec3::ZERO {
                    indexes.push(point as i32);
                    deltas.extend(cm(d));
                }
            }
            let normals = vec![0.0; deltas.len()];
            let shape = objects.add(
                "Geometry",
                "Geometry",
                &target_name,
                "Shape",
                vec![
                    Node::new("Properties70"),
                    Node::of("Version", Value::I32(100)),
                    Node::of("Indexes", Value::I32s(indexes)),
                    Node::of("Vertices", Value::F64s(deltas)),
                    Node::of("Normals", Value::F64s(normals)),
                ],
            );
            // One shape per channel, reached at 100 %; the rest weight is the channel's.
            let percent = f64::from(target.weight) * 100.0;
            let channel = objects.add(
                "Deformer",
                "SubDeformer",
                &target_name,
                "BlendShapeChannel",
                vec![
                    Node::of("Version", Value::I32(100)),
                    Node::of("DeformPercent", Value::F64(percent)),
                    Node::of("FullWeights", Value::F64s(vec![100.0])),
                    Node::new("Properties70").child(property::number("DeformPercent", percent)),
                ],
            );
            objects.link(shape, channel);
            objects.link(channel, blend);
            made.push(channel);
        }
    }
    // Channels were made for the written targets, in order: spread them over all targets.
    let mut made = made.into_iter();
    let channels = (mesh.morph_targets.iter())
        .map(|t| written(&t).then(|| made.next()).flatten())
        .collect();
    let point_influences = first_vertex
        .iter()
        .map(|&v| influences[v].clone())
        .collect();
    Geometry {
        id,
        point_influences,
        channels,
    }
}

/// A point in the file's centimetres.
pub fn cm(p: Vec3) -> [f64; 3] {
    p.to_array().map(|c| f64::from(c) * CM)
}

fn layer_element(
    index: i32,
    kind: &'static str,
    name: &str,
    mapping: &str,
    reference: &str,
    data: impl IntoIterator<Item = Node>,
) -> Node {
    Node::of(kind, Value::I32(index))
        .child(Node::of("Version", Value::I32(101)))
        .child(Node::of("Name", Value::Str(name.into())))
        .child(Node::of(
            "MappingInformationType",
            Value::Str(mapping.into()),
        ))
        .child(Node::of(
            "ReferenceInformationType",
            Value::Str(reference.into()),
        ))
        .children(data)
}

//! Materials as FBX Phong materials on the mesh model, in slot order, with their base-colour
//! and normal maps as textures whose images are embedded in the file (`Video` content), so
//! the FBX travels alone as the GLB does.

use super::node::property;
use super::{Objects, display_name, fbx_name};
use crate::Character;
use crate::io::fbx::{Node, Value};
use crate::mesh::{AlphaMode, Material};

/// The material slot of every triangle: the character's material index, or the neutral
/// material added after them for triangles that have none.
pub fn polygon_slots(character: &Character) -> Vec<i32> {
    let neutral = character.materials.len() as i32;
    let mut slots = vec![neutral; character.mesh.triangles.len()];
    for part in character.mesh.parts_or_whole() {
        let slot = part
            .material
            .filter(|&m| m < character.materials.len())
            .map_or(neutral, |m| m as i32);
        let end = (part.first_triangle + part.triangle_count).min(slots.len());
        if let Some(range) = slots.get_mut(part.first_triangle..end) {
            range.fill(slot);
        }
    }
    slots
}

/// Adds the materials (and the neutral one when a triangle needs it) to `model`.
pub fn write(objects: &mut Objects, character: &Character, model: i64) {
    let needs_neutral = polygon_slots(character)
        .iter()
        .any(|&s| s as usize == character.materials.len());
    let neutral = Material {
        name: Some("rigkit neutral".into()),
        ..Material::default()
    };
    let has_uvs = character.mesh.uvs.len() == character.mesh.positions.len();
    // One texture per image, shared by the materials that use it.
    let mut textures: Vec<Option<i64>> = vec![None; character.images.len()];
    let materials = character
        .materials
        .iter()
        .chain(needs_neutral.then_some(&neutral));
    for (i, m) in materials.enumerate() {
        let name = fbx_name(m.name.as_deref().unwrap_or(""), || format!("material {i}"));
        let id = objects.add(
            "Material",
            "Material",
            &name,
            "",
            vec![
                Node::of("Version", Value::I32(102)),
                Node::of("ShadingModel", Value::Str("Phong".into())),
                Node::of("MultiLayer", Value::I32(0)),
                Node::new("Properties70").children(material_properties(m)),
            ],
        );
        objects.link(id, model);
        if !has_uvs {
            continue;
        }
        for (image, slot) in [
            (m.base_color_image, "DiffuseColor"),
            (m.normal_image, "NormalMap"),
        ] {
            let Some(image) = image.filter(|&i| i < character.images.len()) else {
                continue;
            };
            let texture = match textures[image] {
                Some(t) => t,
                None => {
                    let t = texture(objects, character, image);
                    textures[image] = Some(t);
                    t
                }
            };
            objects.link_property(texture, id, slot);
        }
    }
}

fn material_properties(m: &Material) -> Vec<Node> {
    let [r, g, b, a] = m.base_color.map(f64::from);
    let mut props = vec![
        property::colour("DiffuseColor", [r, g, b]),
        property::number("DiffuseFactor", 1.0),
        property::colour("EmissiveColor", m.emissive.map(f64::from)),
        property::number("EmissiveFactor", 1.0),
        property::colour("SpecularColor", [0.2; 3]),
        property::number(
            "SpecularFactor",
            f64::from(1.0 - m.roughness).clamp(0.0, 1.0),
        ),
        property::number("Shininess", 20.0),
    ];
    if m.alpha != AlphaMode::Opaque && a < 1.0 {
        props.push(property::number("TransparencyFactor", 1.0 - a));
        props.push(property::number("Opacity", a));
    }
    props
}

/// A texture of image `index` and the video that embeds its bytes; returns the texture's id.
fn texture(objects: &mut Objects, character: &Character, index: usize) -> i64 {
    let image = &character.images[index];
    let extension = if image.mime_type.contains("jpeg") {
        "jpg"
    } else {
        "png"
    };
    let file = format!("{}_{index}.{extension}", display_name(&character.name));
    let name = format!("image {index}");
    let video = objects.add(
        "Video",
        "Video",
        &name,
        "Clip",
        vec![
            Node::of("Type", Value::Str("Clip".into())),
            Node::new("Properties70").child(property::string("Path", &file)),
            Node::of("UseMipMap", Value::I32(0)),
            Node::of("Filename", Value::Str(file.clone())),
            Node::of("RelativeFilename", Value::Str(file.clone())),
            Node::of("Content", Value::Raw(image.bytes.clone())),
        ],
    );
    let texture = objects.add(
        "Texture",
        "Texture",
        &name,
        "",
        vec![
            Node::of("Type", Value::Str("TextureVideoClip".into())),
            Node::of("Version", Value::I32(202)),
            Node::of("TextureName", super::node::object_name(&name, "Texture")),
            Node::of("Media", super::node::object_name(&name, "Video")),
            Node::of("FileName", Value::Str(file.clone())),
            Node::of("RelativeFilename", Value::Str(file)),
            Node::new("Properties70").child(property::boolean("UseMaterial", true)),
        ],
    );
    objects.link(video, texture);
    texture
}

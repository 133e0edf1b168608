//! FBX out: a character as binary FBX 7.4 — the mesh with normals, UVs, materials and embedded
//! textures, the skeleton as limb nodes under an `Armature`, a skin of one cluster per joint
//! with the bind pose, blend shapes, and every clip as an animation stack — that Blender,
//! Unity and Unreal import with the same skeleton, weights, clips and size.
//!
//! The file is Y up, right-handed, in centimetres (`UnitScaleFactor` 1, FBX's native unit):
//! the frame engines assume, so nothing arrives turned or a hundred times too big.

mod animation;
mod euler;
mod geometry;
mod material;
mod node;
mod skeleton;

use std::collections::BTreeMap;

use glam::DVec3;

use self::node::{CREATION_TIME, FILE_ID, object_name, property};
use super::{ExportError, ExportOptions};
use crate::Character;
use crate::io::fbx::{Node, VERSION, Value, encode};

/// File units per metre: FBX files are in centimetres.
const CM: f64 = 100.0;

/// Writes `character` as a binary FBX file.
///
/// # Errors
/// [`ExportError`] for a mesh without triangles, a bad influence count, or a character that
/// would not fit in the format (more than 4 GiB).
pub fn export_fbx(character: &Character, options: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    if character.mesh.triangles.is_empty() {
        return Err(ExportError::EmptyMesh {
            name: character.name.clone(),
        });
    }
    if !matches!(options.max_influences, 4 | 8) {
        return Err(ExportError::BadInfluenceCount(options.max_influences));
    }
    let mut objects = Objects::default();
    let name = display_name(&character.name);
    let mesh_model = objects.add(
        "Model",
        "Model",
        &name,
        "Mesh",
        skeleton::model_children(DVec3::ZERO, DVec3::ZERO, DVec3::ONE),
    );
    objects.link(mesh_model, 0);
    let geometry = geometry::write(&mut objects, character, options, mesh_model);
    material::write(&mut objects, character, mesh_model);
    if let Some(rig) = skeleton::write(&mut objects, character, mesh_model, &geometry) {
        animation::write(&mut objects, character, options, &rig, &geometry.channels);
    }
    let stacks = animation::stack_names(character, options);
    let top = [
        header(),
        Node::of("FileId", Value::Raw(FILE_ID.to_vec())),
        Node::of("CreationTime", Value::Str(CREATION_TIME.into())),
        Node::of("Creator", Value::Str(creator())),
        global_settings(character, options),
        documents(&mut objects, stacks.first().map(String::as_str)),
        Node::new("References"),
        objects.definitions(),
        Node::new("Objects").children(std::mem::take(&mut objects.nodes)),
        Node::new("Connections").children(std::mem::take(&mut objects.links)),
        animation::takes(character, options),
    ];
    encode(&top).ok_or_else(|| ExportError::TooLarge {
        name: character.name.clone(),
        format: "FBX",
    })
}

/// The objects of the scene and the links between them, in the order they are added.
#[derive(Default)]
struct Objects {
    nodes: Vec<Node>,
    links: Vec<Node>,
    last_id: i64,
    /// How many objects of each node type, for `Definitions`.
    counts: BTreeMap<&'static str, i32>,
}

impl Objects {
    /// A new id: any unique positive 64-bit number will do; 0 is the scene's root.
    fn next_id(&mut self) -> i64 {
        self.last_id += 1;
        1_000_000 + self.last_id
    }

    /// Adds an object: its node type (`Model`), the class its name carries (`Model`,
    /// `SubDeformer`, `AnimCurve`…), its name, its kind (`Mesh`, `LimbNode`, `Cluster`…) and
    /// its contents. Returns its id.
    fn add(
        &mut self,
        node: &'static str,
        class: &str,
        name: &str,
        kind: &str,
        children: Vec<Node>,
    ) -> i64 {
        let id = self.next_id();
        self.nodes.push(
            Node::new(node)
                .value(Value::I64(id))
                .value(object_name(name, class))
                .value(Value::Str(kind.into()))
                .children(children),
        );
        *self.counts.entry(node).or_default() += 1;
        id
    }

    /// `child` belongs to `parent` (a model to its parent model, a geometry to its model…).
    fn link(&mut self, child: i64, parent: i64) {
        self.links.push(
            Node::new("C")
                .value(Value::Str("OO".into()))
                .value(Value::I64(child))
                .value(Value::I64(parent)),
        );
    }

    /// `child` drives `parent`'s property `name` (a texture a material's colour, a curve a
    /// model's rotation…).
    fn link_property(&mut self, child: i64, parent: i64, name: &str) {
        self.links.push(
            Node::new("C")
                .value(Value::Str("OP".into()))
                .value(Value::I64(child))
                .value(Value::I64(parent))
                .value(Value::Str(name.into())),
        );
    }

    fn definitions(&self) -> Node {
        let total: i32 = 1 + self.counts.values().sum::<i32>();
        let types = std::iter::once(("GlobalSettings", 1))
            .chain(self.counts.iter().map(|(k, v)| (*k, *v)))
            .map(|(kind, count)| {
                Node::of("ObjectType", Value::Str(kind.into()))
                    .child(Node::of("Count", Value::I32(count)))
            });
        Node::new("Definitions")
            .child(Node::of("Version", Value::I32(100)))
            .child(Node::of("Count", Value::I32(total)))
            .children(types)
    }
}

/// A name an FBX reader keeps: FBX separates a name from its class with `\0\x01`, so control
/// characters go, and an empty name gets `fallback`'s.
fn fbx_name(name: &str, fallback: impl FnOnce() -> String) -> String {
    let name = name.replace(|c: char| c.is_control(), "");
    if name.trim().is_empty() {
        fallback()
    } else {
        name
    }
}

/// The character's name for its objects: its file name without folders or extension.
fn display_name(name: &str) -> String {
    let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    fbx_name(stem, || "character".into())
}

fn creator() -> String {
    format!("rigkit {}", env!("CARGO_PKG_VERSION"))
}

fn header() -> Node {
    // A fixed time stamp, so one character always gives the same bytes.
    let stamp = [
        ("Version", 1000),
        ("Year", 1970),
        ("Month", 1),
        ("Day", 1),
        ("Hour", 10),
        ("Minute", 0),
        ("Second", 0),
        ("Millisecond", 0),
    ]
    .map(|(name, v)| Node::of(name, Value::I32(v)));
    Node::new("FBXHeaderExtension")
        .child(Node::of("FBXHeaderVersion", Value::I32(1003)))
        .child(Node::of("FBXVersion", Value::I32(VERSION as i32)))
        .child(Node::of("EncryptionType", Value::I32(0)))
        .child(Node::new("CreationTimeStamp").children(stamp))
        .child(Node::of("Creator", Value::Str(creator())))
}

fn global_settings(character: &Character, options: &ExportOptions) -> Node {
    let (start, stop) = animation::time_span(character, options);
    let fps = animation::frame_rate(character, options);
    let props = [
        // Y up, Z front, X right: glTF's frame, which is FBX's default too.
        property::int("UpAxis", 1),
        property::int("UpAxisSign", 1),
        property::int("FrontAxis", 2),
        property::int("FrontAxisSign", 1),
        property::int("CoordAxis", 0),
        property::int("CoordAxisSign", 1),
        property::int("OriginalUpAxis", 1),
        property::int("OriginalUpAxisSign", 1),
        property::double("UnitScaleFactor", 1.0),
        property::double("OriginalUnitScaleFactor", 1.0),
        property::enumeration("TimeMode", animation::time_mode(fps)),
        property::time("TimeSpanStart", start),
        property::time("TimeSpanStop", stop),
        property::double("CustomFrameRate", fps),
    ];
    Node::new("GlobalSettings")
        .child(Node::of("Version", Value::I32(1000)))
        .child(Node::new("Properties70").children(props))
}

fn documents(objects: &mut Objects, active_stack: Option<&str>) -> Node {
    let id = objects.next_id();
    let props = [
        property::object("SourceObject"),
        property::string("ActiveAnimStackName", active_stack.unwrap_or("")),
    ];
    Node::new("Documents")
        .child(Node::of("Count", Value::I32(1)))
        .child(
            Node::new("Document")
                .value(Value::I64(id))
                .value(Value::Str("Scene".into()))
                .value(Value::Str("Scene".into()))
                .child(Node::new("Properties70").children(props))
                .child(Node::of("RootNode", Value::I64(0))),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_paths_extensions_and_control_characters() {
        assert_eq!(display_name("chars/Fox.glb"), "Fox");
        assert_eq!(display_name("a\u{0}\u{1}b.fbx"), "ab");
        assert_eq!(display_name(""), "character");
    }
}

//! A character: what one imported file becomes — a mesh in world space, and its rig if it
//! carried one.

use serde::Serialize;

use crate::mesh::{Image, Material, Mesh};
use crate::rig::Clip;
use crate::rig::{HumanoidBone, Skeleton, SkinWeights};

/// One character in its rest pose, in the input's world frame.
#[derive(Debug, Clone, Default)]
pub struct Character {
    /// The file name it came from, for messages and the status bar.
    pub name: String,
    pub mesh: Mesh,
    /// The skeleton, when the file had one.
    pub skeleton: Option<Skeleton>,
    /// Skin weights over `skeleton`'s joints, one entry per mesh vertex.
    pub skin: Option<SkinWeights>,
    /// Materials referenced by the mesh's parts.
    pub materials: Vec<Material>,
    /// Encoded images referenced by the materials.
    pub images: Vec<Image>,
    /// Animation clips that move `skeleton`, as the file carried them.
    pub animations: Vec<Clip>,
    /// The file's humanoid bone map (VRM), if it had one.
    pub humanoid: Vec<HumanoidBone>,
    /// The VRM avatar the file was (its version and meta), written back on export.
    pub vrm: Option<VrmAvatar>,
    /// Things the importer skipped or repaired, worded for the user.
    pub warnings: Vec<String>,
    /// What else the file held, for `info` (materials, textures, skins, animations).
    pub source: SourceSummary,
}

/// A VRM avatar's identity beyond its skeleton: the version of the extension it came in, its
/// `meta` (name, authors, licence and permissions), kept as the file wrote it, its
/// expressions and its spring bones.
#[derive(Debug, Clone, PartialEq)]
pub struct VrmAvatar {
    pub version: VrmVersion,
    pub meta: serde_json::Value,
    pub expressions: Vec<VrmExpression>,
    /// Its spring bones (hair, skirts, tails swinging as the body moves; 1.0's
    /// `VRMC_springBone`, 0.x's `secondaryAnimation`) as the file wrote them, but with every
    /// node named by its joint's name, so that they follow the joints through edits; written
    /// back while every joint they name is still there.
    pub springs: Option<serde_json::Value>,
}

/// One of a VRM avatar's expressions — an emotion, a blink, a viseme, a custom one — as the
/// morph targets it sets: what VTuber and avatar apps drive the face with.
#[derive(Debug, Clone, PartialEq)]
pub struct VrmExpression {
    /// VRM 1.0: its key under `preset` or `custom`; VRM 0.x: the blend shape group's `name`.
    pub name: String,
    /// VRM 1.0: one of the spec's presets (`happy`, `blink`, `aa`, …) rather than custom.
    /// VRM 0.x keeps its `presetName` among [`Self::fields`].
    pub preset: bool,
    /// The character's morph targets it sets (indices into
    /// [`crate::mesh::Mesh::morph_targets`]) and the weight each gets, 0–1.
    pub binds: Vec<(usize, f32)>,
    /// Its other fields as the file wrote them (`isBinary`, the overrides, `presetName`);
    /// material and texture binds are not kept (they name the file's materials).
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// Maps every node a VRM's spring bone settings name — 1.0's `node` (colliders, joints) and
/// `center`, 0.x's `bones`, `node` and `center` (−1 there is none) — through `map`: file node
/// indices to joint names on import, joint names to the nodes written on export. Returns
/// false, leaving `springs` half mapped, when `map` has no answer for one of them.
pub fn spring_nodes(
    springs: &mut serde_json::Value,
    mut map: impl FnMut(&serde_json::Value) -> Option<serde_json::Value>,
) -> bool {
    fn walk(
        value: &mut serde_json::Value,
        map: &mut dyn FnMut(&serde_json::Value) -> Option<serde_json::Value>,
    ) -> bool {
        use serde_json::Value;
        fn one(v: &mut Value, map: &mut dyn FnMut(&Value) -> Option<Value>) -> bool {
            match v.as_i64() {
                Some(n) if n < 0 => true,
                _ => map(v).map(|m| *v = m).is_some(),
            }
        }
        match value {
            Value::Object(fields) => fields.iter_mut().all(|(key, v)| match key.as_str() {
                "node" | "center" => one(v, map),
                "bones" => {
                    (v.as_array_mut()).is_none_or(|list| list.iter_mut().all(|b| one(b, map)))
                }
                _ => walk(v, map),
            }),
            Value::Array(list) => list.iter_mut().all(|v| walk(v, map)),
            _ => true,
        }
    }
    walk(springs, &mut map)
}

/// The two VRM versions: 0.x (`extensions.VRM`) and 1.0 (`extensions.VRMC_vrm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VrmVersion {
    V0,
    V1,
}

/// Counts of what an input file held beyond the mesh and skeleton.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SourceSummary {
    pub materials: usize,
    pub textures: usize,
    pub skins: usize,
    pub animations: usize,
}

/// A summary of a character for the CLI's `info` and the page's status bar.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterInfo {
    pub name: String,
    pub vertices: usize,
    pub triangles: usize,
    pub primitives: usize,
    pub joints: usize,
    pub skinned_vertices: usize,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    pub materials: usize,
    pub textures: usize,
    pub skins: usize,
    pub animations: usize,
    /// The animation clips kept for the skeleton.
    pub clips: Vec<ClipInfo>,
    pub humanoid_bones: usize,
    /// The blend shapes' names, in order.
    pub morph_targets: Vec<String>,
    pub warnings: Vec<String>,
}

/// One animation clip, as `info` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClipInfo {
    pub name: String,
    /// Key frames sampled per joint.
    pub keys: usize,
    /// Seconds.
    pub duration: f32,
}

impl Character {
    pub fn info(&self) -> CharacterInfo {
        let bounds = self.mesh.bounds();
        CharacterInfo {
            name: self.name.clone(),
            vertices: self.mesh.vertex_count(),
            triangles: self.mesh.triangles.len(),
            primitives: self.mesh.parts.len(),
            joints: self.skeleton.as_ref().map_or(0, |s| s.joints.len()),
            skinned_vertices: self
                .skin
                .as_ref()
                .map_or(0, |s| s.influenced_vertex_count()),
            bounds_min: bounds.min.to_array(),
            bounds_max: bounds.max.to_array(),
            materials: self.source.materials,
            textures: self.source.textures,
            skins: self.source.skins,
            animations: self.source.animations,
            clips: self
                .animations
                .iter()
                .map(|c| ClipInfo {
                    name: c.name.clone(),
                    keys: c.frame_count(),
                    duration: c.duration(),
                })
                .collect(),
            humanoid_bones: self.humanoid.len(),
            morph_targets: self
                .mesh
                .morph_targets
                .iter()
                .map(|t| t.name.clone())
                .collect(),
            warnings: self.warnings.clone(),
        }
    }
}

//! 0 A.D.'s skinned meshes (Debian's `0ad-data`, art CC-BY-SA 3.0 by Wildfire Games): many
//! low-poly animals, birds and people rigged by hand, a training source that looks like what
//! game artists bring. Read for training and validation only, never bundled.
//!
//! A mesh is a `.pmd` file (the game's own binary format: vertices with normals, UVs and four
//! bone influences, triangles, and the bind pose of each bone in world space); its bones'
//! names and hierarchy are in one of the `art/skeletons/*.xml` standard skeletons, listed depth
//! first in the order of the mesh's bone indices. The mesh does not say which skeleton: the one
//! with the same number of bones whose bones lie closest to their parents is taken.

use glam::{Mat4, Quat, Vec2, Vec3};

use crate::Character;
use crate::mesh::Mesh;
use crate::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};
use crate::skin::BoneSegment;

/// Most vertices, triangles or bones a mesh may declare (0 A.D.'s largest have a few
/// thousand vertices; the cap refuses garbage counts before allocating for them).
const MAX_COUNT: usize = 1 << 20;

/// A `.pmd` mesh as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct PmdMesh {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub uvs: Vec<Vec2>,
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex: up to four `(bone, weight)` pairs.
    pub influences: Vec<Vec<(u8, f32)>>,
    /// Per bone: its bind pose in world space.
    pub bind: Vec<Mat4>,
}

/// A standard skeleton: its id and, depth first, each bone's name and parent.
#[derive(Debug, Clone, PartialEq)]
pub struct StandardSkeleton {
    pub id: String,
    pub bones: Vec<(String, Option<usize>)>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file ends early (at byte {})", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }

    fn count(&mut self, what: &str) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n > MAX_COUNT {
            return Err(format!("{n} {what} is more than the {MAX_COUNT} allowed"));
        }
        Ok(n)
    }

    fn f32(&mut self) -> Result<f32, String> {
        let v = f32::from_le_bytes(self.take(4)?.try_into().unwrap_or_default());
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!(
                "a number that is not finite at byte {}",
                self.at - 4
            ))
        }
    }

    fn vec3(&mut self) -> Result<Vec3, String> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }
}

/// Reads a `.pmd` mesh (versions 3 and 4: vertices in world space).
///
/// # Errors
/// A message naming what is wrong: not a PMD, an unsupported version, a count over the cap, a
/// triangle or influence naming a vertex or bone that does not exist, a truncated file.
pub fn read_pmd(bytes: &[u8]) -> Result<PmdMesh, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != b"PSMD" {
        return Err("not a 0 A.D. mesh (no PSMD header)".into());
    }
    let version = r.u32()?;
    if !(3..=4).contains(&version) {
        return Err(format!(
            "PMD version {version} is not supported (3 and 4 are)"
        ));
    }
    let _size = r.u32()?;
    let vertices = r.count("vertices")?;
    let uv_sets = if version >= 4 { r.count("UV sets")? } else { 1 };
    let mut mesh = PmdMesh {
        positions: Vec::with_capacity(vertices),
        normals: Vec::with_capacity(vertices),
        uvs: Vec::with_capacity(vertices),
        triangles: Vec::new(),
        influences: Vec::with_capacity(vertices),
        bind: Vec::new(),
    };
    for _ in 0..vertices {
        mesh.positions.push(r.vec3()?);
        mesh.normals.push(r.vec3()?.normalize_or_zero());
        for set in 0..uv_sets {
            let uv = Vec2::new(r.f32()?, r.f32()?);
            if set == 0 {
                mesh.uvs.push(uv);
            }
        }
        let bones: [u8; 4] = r.take(4)?.try_into().unwrap_or([0xFF; 4]);
        let mut influences = Vec::with_capacity(4);
        for bone in bones {
            let weight = r.f32()?;
            if bone != 0xFF && weight > 0.0 {
                influences.push((bone, weight));
            }
        }
        mesh.influences.push(influences);
    }
    let faces = r.count("triangles")?;
    mesh.triangles.reserve(faces);
    for _ in 0..faces {
        let corner = r.take(6)?;
        let t = [0, 2, 4].map(|i| u32::from(u16::from_le_bytes([corner[i], corner[i + 1]])));
        if t.iter().any(|&v| v as usize >= vertices) {
            return Err(format!("a triangle names vertex {t:?} of {vertices}"));
        }
        mesh.triangles.push(t);
    }
    let bones = r.count("bones")?;
    for _ in 0..bones {
        let translation = r.vec3()?;
        let rotation = Quat::from_xyzw(r.f32()?, r.f32()?, r.f32()?, r.f32()?);
        let rotation = if rotation.length_squared() > 1e-12 {
            rotation.normalize()
        } else {
            Quat::IDENTITY
        };
        mesh.bind
            .push(Mat4::from_rotation_translation(rotation, translation));
    }
    if let Some(bad) = mesh
        .influences
        .iter()
        .flatten()
        .find(|(b, _)| *b as usize >= bones)
    {
        return Err(format!("a vertex is bound to bone {} of {bones}", bad.0));
    }
    Ok(mesh)
}

/// The standard skeletons of a 0 A.D. skeleton file (`<standard_skeleton id=…>` with nested
/// `<bone name=…>`); the mapping `<skeleton>` elements beside them are skipped.
pub fn read_skeletons(xml: &str) -> Vec<StandardSkeleton> {
    let mut out = Vec::new();
    let mut current: Option<StandardSkeleton> = None;
    let mut open: Vec<usize> = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let closing = tag.starts_with('/');
        let empty = tag.ends_with('/');
        let body = tag.trim_start_matches('/').trim_end_matches('/');
        let name = body.split_whitespace().next().unwrap_or("");
        match (name, closing) {
            ("standard_skeleton", false) => {
                current = Some(StandardSkeleton {
                    id: attribute(body, "id").unwrap_or_default(),
                    bones: Vec::new(),
                });
                open.clear();
            }
            ("standard_skeleton", true) => out.extend(current.take()),
            ("bone", false) => {
                if let Some(skeleton) = current.as_mut() {
                    let bone = attribute(body, "name").unwrap_or_default();
                    skeleton.bones.push((bone, open.last().copied()));
                    if !empty {
                        open.push(skeleton.bones.len() - 1);
                    }
                }
            }
            ("bone", true) => {
                open.pop();
            }
            _ => {}
        }
    }
    out
}

/// The value of `key="…"` in a tag's text.
fn attribute(tag: &str, key: &str) -> Option<String> {
    let mut rest = tag;
    while let Some(i) = rest.find(key) {
        let after = rest[i + key.len()..].trim_start();
        let before_ok = i == 0 || rest[..i].ends_with(char::is_whitespace);
        if before_ok && let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start();
            let quote = value.chars().next()?;
            if quote == '"' || quote == '\'' {
                let value = &value[1..];
                return value.find(quote).map(|e| value[..e].to_owned());
            }
        }
        rest = &rest[i + key.len()..];
    }
    None
}

/// The mesh as a rigged character on the standard skeleton that fits it: as many bones, and
/// of those the one its artist's weights bind nearest ([`binding_distance`]).
///
/// # Errors
/// A message when no skeleton has the mesh's number of bones, or the mesh has no triangles.
pub fn character(
    name: &str,
    pmd: &PmdMesh,
    skeletons: &[StandardSkeleton],
) -> Result<Character, String> {
    if pmd.triangles.is_empty() {
        return Err(format!("{name}: no triangles"));
    }
    let skeleton = skeletons
        .iter()
        .filter(|s| s.bones.len() == pmd.bind.len())
        .map(|s| (s, binding_distance(pmd, s)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or_else(|| {
            format!(
                "{name}: no standard skeleton has its {} bones",
                pmd.bind.len()
            )
        })?;
    let size = crate::mesh::Aabb::from_points(&pmd.positions)
        .size()
        .max_element();
    if skeleton.1 > MAX_BINDING * size {
        return Err(format!(
            "{name}: its weights are {:.0} % of its size from their bones on every skeleton that fits",
            100.0 * skeleton.1 / size.max(f32::MIN_POSITIVE)
        ));
    }
    let skeleton = skeleton.0;
    let joints = skeleton
        .bones
        .iter()
        .zip(&pmd.bind)
        .map(|((bone, parent), bind)| Joint {
            name: bone.clone(),
            parent: parent.map(|p| JointId(p as u32)),
            world_bind: *bind,
        })
        .collect();
    let mut skin = SkinWeights::new();
    for influences in &pmd.influences {
        skin.push_vertex(influences.iter().map(|&(bone, weight)| Influence {
            joint: JointId(u32::from(bone)),
            weight,
        }));
    }
    Ok(Character {
        name: name.to_owned(),
        mesh: Mesh {
            positions: pmd.positions.clone(),
            normals: pmd.normals.clone(),
            uvs: pmd.uvs.clone(),
            second_uvs: Vec::new(),
            tangents: Vec::new(),
            triangles: pmd.triangles.clone(),
            parts: Vec::new(),
            colors: Vec::new(),
            morph_targets: Vec::new(),
        },
        skeleton: Some(Skeleton { joints }),
        skin: Some(skin),
        ..Character::default()
    })
}

/// Fewer vertices than this is a marker or a placeholder (0 A.D. skins flat quads for shoals
/// and circling birds), not a character to learn from.
pub const MIN_VERTICES: usize = 50;

/// A mesh whose weighted vertices lie farther than this share of its size from their bones,
/// on average, is taken as not bound to the skeleton found. In 0ad-data 0.0.26, 100 meshes are
/// within it and 11 are not (12–27 %: the aurochs, the chicken, a goat, two fish, the
/// peacock, an Asian elephant, carts and a marker); whether those are mis-matched or only
/// loosely weighted was not checked one by one.
const MAX_BINDING: f32 = 0.12;

/// How far, on average over the artist's weights, each vertex is from the bones of the joint
/// it is bound to (a joint's bones run to its children; a leaf is a point) when `skeleton`
/// names the mesh's bones: small for the skeleton the artist rigged with.
fn binding_distance(pmd: &PmdMesh, skeleton: &StandardSkeleton) -> f32 {
    let at = |i: usize| pmd.bind[i].w_axis.truncate();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); skeleton.bones.len()];
    for (i, (_, parent)) in skeleton.bones.iter().enumerate() {
        if let Some(p) = parent.filter(|&p| p < children.len()) {
            children[p].push(i);
        }
    }
    let to_bone = |p: Vec3, b: usize| -> f32 {
        let bone = |c: usize| BoneSegment {
            joint: JointId(b as u32),
            from_root: false,
            start: at(b),
            end: at(c),
        };
        children[b]
            .iter()
            .map(|&c| bone(c).distance(p))
            .fold(p.distance(at(b)), f32::min)
    };
    let (mut sum, mut weight) = (0.0f64, 0.0f64);
    for (p, influences) in pmd.positions.iter().zip(&pmd.influences) {
        for &(bone, w) in influences {
            sum += f64::from(w * to_bone(*p, bone as usize));
            weight += f64::from(w);
        }
    }
    (sum / weight.max(1e-12)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version-4 PMD of one triangle bound to two bones.
    fn tiny_pmd() -> Vec<u8> {
        let mut b = b"PSMD".to_vec();
        let u32s = |b: &mut Vec<u8>, v: &[u32]| v.iter().for_each(|x| b.extend(x.to_le_bytes()));
        let f32s = |b: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| b.extend(x.to_le_bytes()));
        u32s(&mut b, &[4, 0, 3, 1]);
        for (i, p) in [[0.0, 0.0, 0.0], [0.2, 0.0, 0.0], [0.0, 2.0, 0.0]]
            .iter()
            .enumerate()
        {
            f32s(&mut b, p);
            f32s(&mut b, &[0.0, 0.0, 1.0, 0.5, 0.5]);
            b.extend([0, if i == 2 { 1 } else { 0xFF }, 0xFF, 0xFF]);
            f32s(&mut b, &[if i == 2 { 0.25 } else { 1.0 }, 0.75, 0.0, 0.0]);
        }
        u32s(&mut b, &[1]);
        for v in [0u16, 1, 2] {
            b.extend(v.to_le_bytes());
        }
        u32s(&mut b, &[2]);
        f32s(&mut b, &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        f32s(&mut b, &[0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        u32s(&mut b, &[0]);
        b
    }

    #[test]
    fn a_mesh_and_its_skeleton_become_a_rigged_character() {
        let pmd = read_pmd(&tiny_pmd()).unwrap();
        assert_eq!((pmd.positions.len(), pmd.triangles.len()), (3, 1));
        assert_eq!(pmd.influences[2], vec![(0, 0.25), (1, 0.75)]);
        let xml = r#"<skeletons>
            <!-- <bone name="ignored"> -->
            <standard_skeleton title="Stick" id="Stick">
                <bone name="Root"><bone name="Top"/></bone>
            </standard_skeleton>
            <standard_skeleton id="Far"><bone name="A"><bone name="B"></bone></bone></standard_skeleton>
            <skeleton title="x" target="Stick"><bone name="Other"/></skeleton>
        </skeletons>"#;
        let skeletons = read_skeletons(xml);
        assert_eq!(skeletons.len(), 2);
        assert_eq!(
            skeletons[0].bones,
            vec![("Root".to_owned(), None), ("Top".to_owned(), Some(0))]
        );
        let c = character("stick", &pmd, &skeletons).unwrap();
        let skeleton = c.skeleton.as_ref().unwrap();
        assert_eq!(skeleton.joints[1].name, "Top");
        assert_eq!(skeleton.joints[1].position(), Vec3::new(0.0, 2.0, 0.0));
        assert_eq!(c.skin.as_ref().unwrap().influences(2).len(), 2);
    }

    #[test]
    fn broken_meshes_are_refused_by_name() {
        let good = tiny_pmd();
        assert!(read_pmd(b"GLTF").unwrap_err().contains("PSMD"));
        assert!(
            read_pmd(&good[..good.len() / 2])
                .unwrap_err()
                .contains("ends early")
        );
        let mut huge = good.clone();
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_pmd(&huge).unwrap_err().contains("allowed"));
        let mut bad_bone = good.clone();
        // The first vertex's first bone index (after the header, UV count and 8 floats).
        bad_bone[20 + 32] = 7;
        assert!(read_pmd(&bad_bone).unwrap_err().contains("bone 7"));
        let pmd = read_pmd(&good).unwrap();
        assert!(character("x", &pmd, &[]).unwrap_err().contains("2 bones"));
    }
}

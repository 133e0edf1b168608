//! The skinning head's inputs, in plain Rust: per vertex its position and normal, per joint a
//! bone token's raw features (where the bone lies, how deep in the hierarchy), and per vertex
//! its [`CANDIDATES`] nearest bones with what relates the two — the distance, where along the
//! bone the vertex projects, and the weight the geometric rigger gave the pair (the network
//! learns to correct it, as RigNet fed geodesic distances to its skinning network).

use std::collections::HashMap;

use glam::Vec3;

use super::NeuralError;
use super::shape::ShapeInput;
use crate::mesh::{Mesh, vertex_normals};
use crate::parallel;
use crate::rig::{JointId, Skeleton, SkinWeights};
use crate::skin::bone_segments;

/// Bones considered per vertex; the softmax runs over these.
pub const CANDIDATES: usize = 8;
/// Values per vertex: unit-box position and normal.
pub const VERTEX_FEATURES: usize = 6;
/// Values per joint for its bone token.
pub const BONE_FEATURES: usize = 10;
/// Values per (vertex, candidate bone) pair.
pub const PAIR_FEATURES: usize = 14;
/// Where in a pair's features the geometric rigger's weight for it is.
pub const GEOMETRIC_WEIGHT: usize = 2;

/// Everything the skinning network reads for one mesh and skeleton, flat and ready for tensors.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinInputs {
    pub shape: ShapeInput,
    pub vertex_count: usize,
    pub joint_count: usize,
    /// `[vertex_count * VERTEX_FEATURES]`.
    pub vertices: Vec<f32>,
    /// `[joint_count * BONE_FEATURES]`.
    pub bones: Vec<f32>,
    /// `[vertex_count * CANDIDATES]` joint indices; unused slots repeat joint 0 with `valid` 0.
    pub candidates: Vec<u32>,
    /// `[vertex_count * CANDIDATES * PAIR_FEATURES]`.
    pub pairs: Vec<f32>,
    /// `[vertex_count * CANDIDATES]`: 1 for a real candidate, 0 for padding.
    pub valid: Vec<f32>,
}

impl SkinInputs {
    /// Gathers the inputs; `geometric` are the geometric rigger's weights for the same
    /// skeleton.
    ///
    /// # Errors
    /// [`NeuralError`] when the mesh has no surface, the skeleton no joints, or the weights do
    /// not belong to the mesh.
    pub fn new(
        mesh: &Mesh,
        skeleton: &Skeleton,
        geometric: &SkinWeights,
    ) -> Result<Self, NeuralError> {
        let shape = ShapeInput::of(mesh)?;
        let (n, joint_count) = (mesh.vertex_count(), skeleton.joints.len());
        if joint_count == 0 {
            return Err(NeuralError::NoJoints);
        }
        if geometric.vertex_count() != n {
            return Err(NeuralError::Mismatch(format!(
                "{} weighted vertices for {n} mesh vertices",
                geometric.vertex_count()
            )));
        }
        let unit = shape.unit_box;
        // The surface's own normals, not the file's shading ones (hard edges, normals a map
        // was baked against): the same body gets the same weights however it is shaded.
        let normals = vertex_normals(&mesh.positions, &mesh.triangles);
        let segments: Vec<_> = bone_segments(skeleton)
            .into_iter()
            .map(|s| (s.joint, unit.apply(s.start), unit.apply(s.end)))
            .collect();
        let bones = bone_tokens(skeleton, &segments, &unit);
        let islands = Islands::of(mesh);
        let island_weight = islands.mean_weights(geometric);
        let vertex = Vertex {
            unit: &unit,
            segments: &segments,
            geometric,
            islands: &islands,
            island_weight: &island_weight,
        };
        // Each vertex's inputs stand alone: gathered side by side a block at a time, then laid
        // end to end in order.
        let blocks: Vec<std::ops::Range<usize>> = (0..n)
            .step_by(BLOCK)
            .map(|v| v..(v + BLOCK).min(n))
            .collect();
        let gathered = parallel::map(&blocks, |block| {
            let mut part = Gathered::with_capacity(block.len());
            let mut nearest = Vec::new();
            for v in block.clone() {
                vertex.gather(v, mesh.positions[v], normals[v], &mut nearest, &mut part);
            }
            part
        });
        let mut out = Self {
            shape,
            vertex_count: n,
            joint_count,
            vertices: Vec::with_capacity(n * VERTEX_FEATURES),
            bones,
            candidates: Vec::with_capacity(n * CANDIDATES),
            pairs: Vec::with_capacity(n * CANDIDATES * PAIR_FEATURES),
            valid: Vec::with_capacity(n * CANDIDATES),
        };
        for part in gathered {
            out.vertices.extend(part.vertices);
            out.candidates.extend(part.candidates);
            out.pairs.extend(part.pairs);
            out.valid.extend(part.valid);
        }
        Ok(out)
    }
}

/// Vertices gathered per block by one thread.
const BLOCK: usize = 1024;

/// What every vertex's inputs are gathered from.
struct Vertex<'a> {
    unit: &'a crate::mesh::UnitBox,
    segments: &'a [(JointId, Vec3, Vec3)],
    geometric: &'a SkinWeights,
    islands: &'a Islands,
    island_weight: &'a HashMap<(u32, u32), f32>,
}

/// Some vertices' inputs, in the layout of [`SkinInputs`].
struct Gathered {
    vertices: Vec<f32>,
    candidates: Vec<u32>,
    pairs: Vec<f32>,
    valid: Vec<f32>,
}

impl Gathered {
    fn with_capacity(n: usize) -> Self {
        Self {
            vertices: Vec::with_capacity(n * VERTEX_FEATURES),
            candidates: Vec::with_capacity(n * CANDIDATES),
            pairs: Vec::with_capacity(n * CANDIDATES * PAIR_FEATURES),
            valid: Vec::with_capacity(n * CANDIDATES),
        }
    }
}

impl Vertex<'_> {
    /// Vertex `v`'s inputs (at `position`, with the surface's `normal`), added to `out`;
    /// `nearest` is room for the nearest point of each joint's bones, kept between vertices.
    fn gather(
        &self,
        v: usize,
        position: Vec3,
        normal: Vec3,
        nearest: &mut Vec<(f32, JointId, Vec3, Vec3, f32)>,
        out: &mut Gathered,
    ) {
        let Self {
            unit,
            segments,
            geometric,
            islands,
            island_weight,
        } = *self;
        let p = unit.apply(position);
        let normal = normal.normalize_or_zero();
        out.vertices
            .extend([p.x, p.y, p.z, normal.x, normal.y, normal.z]);
        // Nearest point of each joint's bones to the vertex, per joint.
        nearest.clear();
        for &(joint, start, end) in segments {
            let (distance, t) = segment_distance(p, start, end);
            match nearest.iter_mut().find(|e| e.1 == joint) {
                Some(e) if e.0 <= distance => {}
                Some(e) => *e = (distance, joint, start, end, t),
                None => nearest.push((distance, joint, start, end, t)),
            }
        }
        nearest.sort_by(|a, b| a.0.total_cmp(&b.0));
        let closest = nearest.first().map_or(1.0, |e| e.0).max(1e-4);
        for k in 0..CANDIDATES {
            let Some(&(distance, joint, start, end, t)) = nearest.get(k) else {
                out.candidates.push(0);
                out.valid.push(0.0);
                out.pairs.extend([0.0; PAIR_FEATURES]);
                continue;
            };
            let w = geometric
                .influences(v)
                .iter()
                .find(|i| i.joint == joint)
                .map_or(0.0, |i| i.weight);
            let on_bone = start + (end - start) * t;
            let facing = (on_bone - p).normalize_or_zero().dot(normal);
            let (a, b) = (start - p, end - p);
            out.candidates.push(joint.0);
            out.valid.push(1.0);
            out.pairs.extend([
                distance * 10.0,
                (distance / closest).min(10.0),
                w, // GEOMETRIC_WEIGHT
                a.x * 10.0,
                a.y * 10.0,
                a.z * 10.0,
                b.x * 10.0,
                b.y * 10.0,
                b.z * 10.0,
                t,
                facing,
                k as f32 / CANDIDATES as f32,
                island_weight
                    .get(&(islands.of_vertex[v], joint.0))
                    .copied()
                    .unwrap_or(0.0),
                islands.share[islands.of_vertex[v] as usize],
            ]);
        }
    }
}

/// The connected pieces of a mesh, with vertices at the same position welded (files split
/// vertices along UV seams, which would cut one piece into many).
struct Islands {
    of_vertex: Vec<u32>,
    /// Per island, its share of the mesh's vertices (log-scaled to 0..1).
    share: Vec<f32>,
}

impl Islands {
    fn of(mesh: &Mesh) -> Self {
        let n = mesh.vertex_count();
        let side = mesh.bounds().longest_side().max(f32::MIN_POSITIVE);
        let mut welded: HashMap<[i64; 3], u32> = HashMap::new();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        for (v, p) in mesh.positions.iter().enumerate() {
            let key = (*p / side * 1e5).round().as_i64vec3().to_array();
            let first = *welded.entry(key).or_insert(v as u32);
            union(&mut parent, first, v as u32);
        }
        for t in &mesh.triangles {
            union(&mut parent, t[0], t[1]);
            union(&mut parent, t[1], t[2]);
        }
        let mut ids: HashMap<u32, u32> = HashMap::new();
        let mut counts: Vec<usize> = Vec::new();
        let of_vertex: Vec<u32> = (0..n as u32)
            .map(|v| {
                let root = find(&mut parent, v);
                let next = ids.len() as u32;
                let id = *ids.entry(root).or_insert(next);
                if id as usize == counts.len() {
                    counts.push(0);
                }
                counts[id as usize] += 1;
                id
            })
            .collect();
        let scale = (n.max(2) as f32).ln();
        let share = counts.iter().map(|&c| (c as f32).ln() / scale).collect();
        Self { of_vertex, share }
    }

    /// Mean geometric weight of each (island, joint) over the island's vertices.
    fn mean_weights(&self, geometric: &SkinWeights) -> HashMap<(u32, u32), f32> {
        let mut sums: HashMap<(u32, u32), f32> = HashMap::new();
        let mut counts: HashMap<u32, f32> = HashMap::new();
        for (v, &island) in self.of_vertex.iter().enumerate() {
            *counts.entry(island).or_default() += 1.0;
            for i in geometric.influences(v) {
                *sums.entry((island, i.joint.0)).or_default() += i.weight;
            }
        }
        for ((island, _), sum) in sums.iter_mut() {
            *sum /= counts.get(island).copied().unwrap_or(1.0);
        }
        sums
    }
}

fn find(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        parent[v as usize] = parent[parent[v as usize] as usize];
        v = parent[v as usize];
    }
    v
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// Per joint: its position, the mean end of its bones, their length, its depth in the
/// hierarchy (relative to the deepest joint), its child count and whether it deforms.
fn bone_tokens(
    skeleton: &Skeleton,
    segments: &[(JointId, Vec3, Vec3)],
    unit: &crate::mesh::UnitBox,
) -> Vec<f32> {
    let (depth, children) = (skeleton.depths(), skeleton.child_counts());
    let deepest = depth.iter().copied().max().unwrap_or(0).max(1) as f32;
    let mut tokens = Vec::with_capacity(skeleton.joints.len() * BONE_FEATURES);
    for (i, joint) in skeleton.joints.iter().enumerate() {
        let head = unit.apply(joint.position());
        let ends: Vec<Vec3> = segments
            .iter()
            .filter(|s| s.0.index() == i)
            .map(|s| s.2)
            .collect();
        let tail = if ends.is_empty() {
            head
        } else {
            ends.iter().copied().sum::<Vec3>() / ends.len() as f32
        };
        tokens.extend([
            head.x,
            head.y,
            head.z,
            tail.x,
            tail.y,
            tail.z,
            (tail - head).length() * 10.0,
            depth[i] as f32 / deepest,
            (children[i] as f32).min(5.0) / 5.0,
            if ends.is_empty() { 0.0 } else { 1.0 },
        ]);
    }
    tokens
}

/// Distance from `p` to the segment and the segment parameter of the nearest point.
fn segment_distance(p: Vec3, start: Vec3, end: Vec3) -> (f32, f32) {
    let t = crate::mesh::segment_parameter(p, start, end);
    (p.distance(start + (end - start) * t), t)
}

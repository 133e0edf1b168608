//! The shell graph → a joint hierarchy: short side branches pruned, chains between branch
//! points and tips subdivided into bones of similar length, joints kept inside the body.

use std::sync::OnceLock;

use glam::{Mat4, Vec3};

use super::curves::{Path, evenly_spaced, length};
use super::level_sets::ShellGraph;
use crate::mesh::{Mesh, WindingTree};
use crate::rig::{Joint, JointId, Skeleton};
use crate::volume::Solid;

/// Lengths in units of the mesh's longest side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainOptions {
    /// Side branches shorter than this are bumps, not limbs.
    pub min_branch: f32,
    /// Target length of one bone along a chain.
    pub bone_length: f32,
    /// Parts of the body smaller than this share of the largest part's voxels get no bones of
    /// their own (they follow the nearest bone).
    pub min_part: f32,
}

impl Default for ChainOptions {
    fn default() -> Self {
        Self {
            min_branch: 0.08,
            bone_length: 0.1,
            min_part: 0.02,
        }
    }
}

/// Joints along the kept branches of `graph`, parents first. Chains are named `chain<i>_<k>`
/// and their tips `chain<i>_end`; the root is `root`.
pub fn joints_from_graph(
    graph: &ShellGraph,
    interior: &Interior<'_>,
    longest_side: f32,
    options: &ChainOptions,
) -> Skeleton {
    let pieces = &graph.pieces;
    if pieces.is_empty() {
        return Skeleton::default();
    }
    let children = graph.children();
    // Farthest reach below each piece (pieces are parents first, so go backwards).
    let mut reach = vec![0.0f32; pieces.len()];
    for i in (0..pieces.len()).rev() {
        for &c in &children[i] {
            let r = reach[c] + (pieces[c].depth - pieces[i].depth);
            reach[i] = reach[i].max(r);
        }
    }
    // Keep each piece's longest continuation and any side branch long enough to be a limb.
    let min_branch = options.min_branch * longest_side;
    let mut kept_children: Vec<Vec<usize>> = vec![Vec::new(); pieces.len()];
    for (i, kids) in children.iter().enumerate() {
        let longest = kids
            .iter()
            .copied()
            .max_by(|a, b| reach[*a].total_cmp(&reach[*b]).then(b.cmp(a)));
        for &c in kids {
            let length = reach[c] + (pieces[c].depth - pieces[i].depth);
            if Some(c) == longest || length >= min_branch {
                kept_children[i].push(c);
            }
        }
    }
    let roots: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].parent.is_none())
        .collect();
    let biggest = roots
        .iter()
        .map(|&r| subtree_voxels(r, &kept_children, graph))
        .max()
        .unwrap_or(0);
    let mut builder = Builder {
        graph,
        interior,
        kept_children: &kept_children,
        bone_length: options.bone_length * longest_side,
        joints: Vec::new(),
        chains: 0,
    };
    for &r in &roots {
        let size = subtree_voxels(r, &kept_children, graph);
        if (size as f32) < options.min_part * biggest as f32 {
            continue;
        }
        // A separate part (a hat, a held prop) hangs off the nearest joint found so far.
        let position = builder.interior.inside(pieces[r].centroid);
        let parent = builder
            .joints
            .iter()
            .enumerate()
            .min_by(|a, b| {
                a.1.position()
                    .distance(position)
                    .total_cmp(&b.1.position().distance(position))
            })
            .map(|(i, _)| JointId(i as u32));
        let name = if builder.joints.is_empty() {
            "root".to_owned()
        } else {
            format!("part{}", builder.joints.len())
        };
        let root = builder.push(name, parent, position);
        builder.grow(r, root);
    }
    Skeleton {
        joints: builder.joints,
    }
}

fn subtree_voxels(root: usize, kept: &[Vec<usize>], graph: &ShellGraph) -> usize {
    let mut total = 0;
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        total += graph.pieces[i].voxels;
        stack.extend(&kept[i]);
    }
    total
}

struct Builder<'a> {
    graph: &'a ShellGraph,
    interior: &'a Interior<'a>,
    kept_children: &'a [Vec<usize>],
    bone_length: f32,
    joints: Vec<Joint>,
    chains: usize,
}

impl Builder<'_> {
    fn push(&mut self, name: String, parent: Option<JointId>, position: Vec3) -> JointId {
        self.joints.push(Joint {
            name,
            parent,
            world_bind: Mat4::from_translation(position),
        });
        JointId(self.joints.len() as u32 - 1)
    }

    /// Follows each kept branch below `piece` (whose joint is `joint`) to its next branch
    /// point or tip, placing joints along the way, and recurses.
    fn grow(&mut self, piece: usize, joint: JointId) {
        let kids = self.kept_children[piece].clone();
        for first in kids {
            let mut path = vec![self.graph.pieces[piece].centroid];
            let mut at = first;
            loop {
                path.push(self.graph.pieces[at].centroid);
                match self.kept_children[at].as_slice() {
                    [only] => at = *only,
                    _ => break,
                }
            }
            let tip = self.kept_children[at].is_empty();
            let chain = self.chains;
            self.chains += 1;
            let end = self.place_chain(&path, joint, chain, tip);
            if !tip {
                self.grow(at, end);
            }
        }
    }

    /// Joints along `path` (which starts at `parent`'s position), evenly spaced by arc length;
    /// returns the last.
    fn place_chain(&mut self, path: &Path, parent: JointId, chain: usize, tip: bool) -> JointId {
        let total = length(path);
        // Two branch points this close are one: branch from the parent joint itself.
        if !tip && total < 0.5 * self.bone_length {
            return parent;
        }
        let bones = ((total / self.bone_length).round() as usize).max(1);
        let mut last = parent;
        for (k, &p) in evenly_spaced(path, bones).iter().enumerate().skip(1) {
            let position = self.interior.inside(p);
            let name = if tip && k == bones {
                format!("chain{chain}_end")
            } else {
                format!("chain{chain}_{k}")
            };
            last = self.push(name, Some(last), position);
        }
        last
    }
}

/// Where joints may go: the voxelised body, each voxel's depth under the surface, and the
/// surface itself for thin parts.
pub struct Interior<'a> {
    pub solid: &'a Solid,
    pub depth: &'a [f32],
    pub mesh: &'a Mesh,
    /// The mesh's winding numbers, arranged at the first question only the surface answers
    /// and kept for every later fit in the same body.
    winding: &'a OnceLock<WindingTree>,
}

impl<'a> Interior<'a> {
    pub fn new(
        solid: &'a Solid,
        depth: &'a [f32],
        mesh: &'a Mesh,
        winding: &'a OnceLock<WindingTree>,
    ) -> Self {
        Self {
            solid,
            depth,
            mesh,
            winding,
        }
    }

    /// Whether `p` lies inside the mesh's surface (its winding number above a half): what a
    /// voxel too coarse for a thin part cannot say.
    pub fn encloses(&self, p: Vec3) -> bool {
        let tree = self
            .winding
            .get_or_init(|| WindingTree::new(&self.mesh.positions, &self.mesh.triangles));
        tree.inside(p)
    }
    /// How many voxels under the surface voxel `c` lies (0 outside the body).
    fn depth_of(&self, c: glam::IVec3) -> f32 {
        if self.solid.is_solid(c) {
            self.depth[self.solid.grid.index(c)]
        } else {
            0.0
        }
    }

    /// How many voxels under the surface `p` lies (0 outside).
    pub fn depth_at(&self, p: Vec3) -> f32 {
        self.depth_of(self.solid.grid.cell(p))
    }

    /// `p` when it lies under the surface, else the centre of the nearest voxel that does
    /// (the centroid of a curved piece can fall outside, and a tip's piece lies on the
    /// surface); in parts too thin for that, the nearest solid voxel.
    pub fn inside(&self, p: Vec3) -> Vec3 {
        const UNDER_SURFACE: f32 = 2.0;
        let grid = &self.solid.grid;
        let c = grid.cell(p);
        let depth = |n: glam::IVec3| self.depth_of(n);
        if depth(c) >= UNDER_SURFACE {
            return p;
        }
        // Deep voxels first; in parts too thin to have any, the nearest voxel centres that the
        // surface itself says are inside.
        if let Some(q) = self.nearest_deep(c, p, UNDER_SURFACE) {
            return q;
        }
        let mut candidates: Vec<Vec3> = Vec::new();
        for z in -2..=2 {
            for y in -2..=2 {
                for x in -2..=2 {
                    let n = c + glam::IVec3::new(x, y, z);
                    if self.solid.is_solid(n) {
                        candidates.push(grid.center(n));
                    }
                }
            }
        }
        candidates.sort_by(|a, b| a.distance_squared(p).total_cmp(&b.distance_squared(p)));
        let surface = |q: Vec3| self.encloses(q);
        if surface(p) {
            return p;
        }
        candidates
            .iter()
            .take(12)
            .copied()
            .find(|q| surface(*q))
            .or_else(|| candidates.first().copied())
            .unwrap_or_else(|| self.nearest_in_body(p))
    }

    /// The centre of the deepest-enough voxel nearest to `p` anywhere in the body, for points
    /// far outside it (a stretched template's ear tip); `p` itself if the body is empty.
    fn nearest_in_body(&self, p: Vec3) -> Vec3 {
        let grid = &self.solid.grid;
        let mut best: Option<(f32, Vec3)> = None;
        for (i, &d) in self.depth.iter().enumerate() {
            if d >= 2.0 {
                let q = grid.center(grid.cell_of_index(i));
                let dist = q.distance_squared(p);
                if best.is_none_or(|(b, _)| dist < b) {
                    best = Some((dist, q));
                }
            }
        }
        best.map_or(p, |(_, q)| q)
    }

    /// The centre of the voxel nearest to `p` (within 4 voxels of `c`) at least `min_depth`
    /// under the surface.
    fn nearest_deep(&self, c: glam::IVec3, p: Vec3, min_depth: f32) -> Option<Vec3> {
        let grid = &self.solid.grid;
        let depth = |n: glam::IVec3| self.depth_of(n);
        for radius in 1..=4 {
            let mut best: Option<(f32, Vec3)> = None;
            for z in -radius..=radius {
                for y in -radius..=radius {
                    for x in -radius..=radius {
                        let n = c + glam::IVec3::new(x, y, z);
                        if depth(n) >= min_depth {
                            let q = grid.center(n);
                            let d = q.distance_squared(p);
                            if best.is_none_or(|(bd, _)| d < bd) {
                                best = Some((d, q));
                            }
                        }
                    }
                }
            }
            if let Some((_, q)) = best {
                return Some(q);
            }
        }
        None
    }
}

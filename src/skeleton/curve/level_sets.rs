//! A curve skeleton from the level sets of geodesic distance through the solid (a discrete
//! Reeb graph): grow distance from a root voxel deep in the body, cut the solid into shells
//! of equal distance, and split each shell into connected pieces. A piece's centroid lies on
//! the limb it cuts across; pieces of neighbouring shells that touch are linked. Where a shell
//! falls apart into several pieces the body branches (a torso into neck, arms and legs), and
//! every tail, wing, horn or tentacle ends in its own chain.

use std::collections::VecDeque;

use glam::{IVec3, Vec3};

use crate::volume::{BucketQueue, Solid};

/// One piece of one shell.
#[derive(Debug, Clone)]
pub struct Piece {
    /// Mean position of its voxels.
    pub centroid: Vec3,
    /// Its voxels' count.
    pub voxels: usize,
    /// The piece of the previous shell it grows from (`None` for the root's).
    pub parent: Option<usize>,
    /// Geodesic distance from the root to the start of its shell.
    pub depth: f32,
}

/// The pieces of every shell, parents before children, forming a forest (one tree per
/// connected part of the solid).
#[derive(Debug, Clone, Default)]
pub struct ShellGraph {
    pub pieces: Vec<Piece>,
}

impl ShellGraph {
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut children = vec![Vec::new(); self.pieces.len()];
        for (i, p) in self.pieces.iter().enumerate() {
            if let Some(parent) = p.parent {
                children[parent].push(i);
            }
        }
        children
    }
}

/// Offsets of the 26 neighbours with their lengths in voxels.
fn neighbourhood() -> Vec<(IVec3, f32)> {
    let mut out = Vec::with_capacity(26);
    for z in -1..=1 {
        for y in -1..=1 {
            for x in -1..=1 {
                let o = IVec3::new(x, y, z);
                let n = o.abs().element_sum();
                if n > 0 {
                    out.push((o, (n as f32).sqrt()));
                }
            }
        }
    }
    out
}

/// Per solid voxel, its distance (in voxels) to the nearest empty voxel: how deep inside the
/// body it lies. Empty voxels get 0.
pub fn depth_inside(solid: &Solid) -> Vec<f32> {
    let grid = &solid.grid;
    let mut depth = vec![f32::INFINITY; grid.len()];
    // Unit-wide bins: steps are at least one voxel long.
    let mut queue = BucketQueue::new(1.0);
    for (i, s) in solid.solid.iter().enumerate() {
        if !s {
            depth[i] = 0.0;
        }
    }
    // Seed with solid voxels that touch the outside.
    let steps = neighbourhood();
    for (i, s) in solid.solid.iter().enumerate() {
        if !*s {
            continue;
        }
        let c = grid.cell_of_index(i);
        let touches = steps.iter().take(26).any(|(o, _)| !solid.is_solid(c + *o));
        if touches {
            depth[i] = 1.0;
            queue.push(1.0, i as u32);
        }
    }
    relax(solid, &steps, &mut depth, &mut queue);
    depth
}

/// Geodesic distance (in voxels) from `sources` through the solid; unreachable voxels stay
/// infinite.
pub fn distance_from(solid: &Solid, sources: &[usize]) -> Vec<f32> {
    let mut distance = vec![f32::INFINITY; solid.grid.len()];
    // Unit-wide bins: steps are at least one voxel long.
    let mut queue = BucketQueue::new(1.0);
    for &s in sources {
        distance[s] = 0.0;
        queue.push(0.0, s as u32);
    }
    relax(solid, &neighbourhood(), &mut distance, &mut queue);
    distance
}

fn relax(
    solid: &Solid,
    steps: &[(IVec3, f32)],
    distance: &mut [f32],
    queue: &mut BucketQueue<u32>,
) {
    let grid = &solid.grid;
    while let Some((d, v)) = queue.pop() {
        if d > distance[v as usize] {
            continue;
        }
        let c = grid.cell_of_index(v as usize);
        for &(o, len) in steps {
            let n = c + o;
            if !solid.is_solid(n) {
                continue;
            }
            let ni = grid.index(n);
            let nd = d + len;
            if nd < distance[ni] {
                distance[ni] = nd;
                queue.push(nd, ni as u32);
            }
        }
    }
}

/// The shell graph of `solid` with shells `width` voxels thick, given each voxel's `depth`
/// inside the body ([`depth_inside`]). Each connected part of the solid is rooted at its
/// deepest voxel (the thickest place: a torso, not a hand).
pub fn shell_graph(solid: &Solid, depth: &[f32], width: f32) -> ShellGraph {
    let grid = &solid.grid;
    // One root per connected part, the biggest part first.
    let mut distance = vec![f32::INFINITY; grid.len()];
    let mut roots = Vec::new();
    for (part, members) in parts(solid).into_iter().enumerate() {
        let Some(root) = deepest_centre(solid, depth, &members) else {
            continue;
        };
        let d = distance_from(solid, &[root]);
        for &v in &members {
            distance[v] = d[v];
        }
        roots.push((part, root));
    }
    // Shell index of every reached voxel.
    let shell = |v: usize| (distance[v] / width) as u32;
    // Pieces: connected voxels of one shell (26-connected), found by flood fill in distance
    // order so that parents come first.
    let mut order: Vec<usize> = (0..grid.len())
        .filter(|&v| distance[v].is_finite())
        .collect();
    order.sort_by(|a, b| distance[*a].total_cmp(&distance[*b]).then(a.cmp(b)));
    let mut piece_of = vec![u32::MAX; grid.len()];
    let steps = neighbourhood();
    let mut graph = ShellGraph::default();
    for &start in &order {
        if piece_of[start] != u32::MAX {
            continue;
        }
        let id = graph.pieces.len() as u32;
        let s = shell(start);
        let mut sum = Vec3::ZERO;
        let mut count = 0usize;
        // Votes for the parent: pieces of the previous shell this one touches.
        let mut touching: Vec<(u32, usize)> = Vec::new();
        let mut queue = VecDeque::from([start]);
        piece_of[start] = id;
        while let Some(v) = queue.pop_front() {
            let c = grid.cell_of_index(v);
            sum += grid.center(c);
            count += 1;
            for &(o, _) in &steps {
                let n = c + o;
                if !solid.is_solid(n) {
                    continue;
                }
                let ni = grid.index(n);
                if !distance[ni].is_finite() {
                    continue;
                }
                let ns = shell(ni);
                if ns == s && piece_of[ni] == u32::MAX {
                    piece_of[ni] = id;
                    queue.push_back(ni);
                } else if ns + 1 == s && piece_of[ni] != u32::MAX {
                    match touching.iter_mut().find(|(p, _)| *p == piece_of[ni]) {
                        Some(t) => t.1 += 1,
                        None => touching.push((piece_of[ni], 1)),
                    }
                }
            }
        }
        let parent = touching
            .iter()
            .max_by_key(|(p, n)| (*n, std::cmp::Reverse(*p)))
            .map(|(p, _)| *p as usize);
        graph.pieces.push(Piece {
            centroid: sum / count as f32,
            voxels: count,
            parent,
            depth: s as f32 * width * grid.voxel,
        });
    }
    graph
}

/// The voxel of `members` nearest to the centre of its deepest voxels (within 90 % of the
/// maximum depth): the middle of the thickest region, whichever way the grid is laid over it.
fn deepest_centre(solid: &Solid, depth: &[f32], members: &[usize]) -> Option<usize> {
    let grid = &solid.grid;
    let max = members.iter().map(|&v| depth[v]).fold(0.0f32, f32::max);
    let deep: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&v| depth[v] >= 0.9 * max)
        .collect();
    let centre = deep
        .iter()
        .map(|&v| grid.center(grid.cell_of_index(v)))
        .sum::<Vec3>()
        / deep.len().max(1) as f32;
    deep.into_iter().min_by(|a, b| {
        let da = grid.center(grid.cell_of_index(*a)).distance_squared(centre);
        let db = grid.center(grid.cell_of_index(*b)).distance_squared(centre);
        da.total_cmp(&db).then(a.cmp(b))
    })
}

/// The solid's connected parts (26-connected), largest first, as lists of voxel indices.
fn parts(solid: &Solid) -> Vec<Vec<usize>> {
    let grid = &solid.grid;
    let steps = neighbourhood();
    let mut seen = vec![false; grid.len()];
    let mut parts = Vec::new();
    for start in 0..grid.len() {
        if !solid.solid[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let c = grid.cell_of_index(members[next]);
            next += 1;
            for &(o, _) in &steps {
                let n = c + o;
                if solid.is_solid(n) {
                    let ni = grid.index(n);
                    if !seen[ni] {
                        seen[ni] = true;
                        members.push(ni);
                    }
                }
            }
        }
        parts.push(members);
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
    parts
}

//! Distances → skin weights: an inverse-power falloff, a few passes of smoothing over the
//! surface (welded across UV seams so that split vertices never tear apart), then the
//! strongest influences normalised to sum to 1.

use std::collections::HashMap;

use glam::Vec3;

use crate::rig::top_influences;
use crate::rig::{Influence, SkinWeights};

/// Each vertex's raw weights from its joints' distances: `1 / d^power`, where distances below
/// `floor` count as `floor` (a vertex on a bone is not infinitely bound to it). Computed as
/// `(d_nearest / d)^power` so that high powers neither overflow nor underflow.
pub fn falloff(distances: &[(u32, f32)], power: f32, floor: f32) -> Vec<Influence> {
    let nearest = distances
        .iter()
        .map(|&(_, d)| d.max(floor))
        .fold(f32::INFINITY, f32::min);
    let mut out: Vec<Influence> = distances
        .iter()
        .map(|&(joint, d)| Influence {
            joint: crate::rig::JointId(joint),
            weight: (nearest / d.max(floor)).powf(power),
        })
        .collect();
    normalise(&mut out);
    out
}

fn normalise(influences: &mut [Influence]) {
    let sum: f32 = influences.iter().map(|i| i.weight).sum();
    if sum > 0.0 && sum.is_finite() {
        for i in influences.iter_mut() {
            i.weight /= sum;
        }
    }
}

/// The surface as smoothing sees it: vertices at the same position are one (a UV seam or hard
/// edge must not tear the skin apart), each with its neighbours along triangle edges.
pub struct WeldedSurface {
    /// Per vertex: the first vertex at its position.
    canonical: Vec<u32>,
    /// Per canonical vertex: its canonical neighbours.
    neighbours: Vec<Vec<u32>>,
    /// Per vertex: the connected piece of the welded surface it belongs to (0, 1, …).
    island: Vec<u32>,
}

impl WeldedSurface {
    pub fn new(positions: &[Vec3], triangles: &[[u32; 3]]) -> Self {
        let mut weld: HashMap<[u32; 3], u32> = HashMap::new();
        let canonical: Vec<u32> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                *weld
                    .entry(p.to_array().map(f32::to_bits))
                    .or_insert(i as u32)
            })
            .collect();
        let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); positions.len()];
        for t in triangles {
            for e in 0..3 {
                let (a, b) = (t[e] as usize, t[(e + 1) % 3] as usize);
                let (Some(&ca), Some(&cb)) = (canonical.get(a), canonical.get(b)) else {
                    continue;
                };
                if ca != cb {
                    neighbours[ca as usize].push(cb);
                    neighbours[cb as usize].push(ca);
                }
            }
        }
        for n in &mut neighbours {
            n.sort_unstable();
            n.dedup();
        }
        let island = islands(&canonical, &neighbours);
        Self {
            canonical,
            neighbours,
            island,
        }
    }
}

/// Per vertex, the connected piece of the welded surface it belongs to (vertices that are not
/// canonical get their canonical vertex's piece).
fn islands(canonical: &[u32], neighbours: &[Vec<u32>]) -> Vec<u32> {
    let n = canonical.len();
    let mut island = vec![u32::MAX; n];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for start in 0..n {
        if canonical[start] as usize != start || island[start] != u32::MAX {
            continue;
        }
        island[start] = next;
        stack.push(start);
        while let Some(v) = stack.pop() {
            for &w in &neighbours[v] {
                if island[w as usize] == u32::MAX {
                    island[w as usize] = next;
                    stack.push(w as usize);
                }
            }
        }
        next += 1;
    }
    for v in 0..n {
        island[v] = island[canonical[v] as usize];
    }
    island
}

impl WeldedSurface {
    /// The canonical vertices in order, and each vertex's index among them.
    pub fn compact(&self) -> (Vec<usize>, Vec<u32>) {
        let mut index = vec![u32::MAX; self.canonical.len()];
        let mut compact = Vec::new();
        for (v, &c) in self.canonical.iter().enumerate() {
            if c as usize == v {
                index[v] = compact.len() as u32;
                compact.push(v);
            }
        }
        let of_vertex = self.canonical.iter().map(|&c| index[c as usize]).collect();
        (compact, of_vertex)
    }
}

/// Merges the weights of vertices at one position, binds separate pieces rigidly where one
/// joint already holds at least `rigid_share` of them (see [`stiffen_separate_pieces`]; above
/// 1, never), runs `iterations` passes of `w ← (1 − λ) w + λ · mean(neighbours' w)` over the
/// welded surface, then keeps the strongest `k` influences of each vertex, normalised.
pub fn smooth_and_limit(
    weights: Vec<Vec<Influence>>,
    surface: &WeldedSurface,
    positions: &[Vec3],
    rigid_share: f32,
    iterations: usize,
    lambda: f32,
    k: usize,
) -> SkinWeights {
    let n = weights.len();
    let mut merged: Vec<Vec<Influence>> = vec![Vec::new(); n];
    for (v, w) in weights.into_iter().enumerate() {
        let c = surface.canonical[v] as usize;
        merged[c].extend(w);
    }
    let mut weights: Vec<Vec<Influence>> = merged
        .iter()
        .map(|w| top_influences(w, usize::MAX))
        .collect();
    if rigid_share <= 1.0 {
        stiffen_separate_pieces(&mut weights, surface, positions, rigid_share);
    }
    for _ in 0..iterations {
        let next: Vec<Vec<Influence>> = weights
            .iter()
            .enumerate()
            .map(|(v, own)| {
                let around = &surface.neighbours[v];
                if around.is_empty() || own.is_empty() {
                    return own.clone();
                }
                let share = lambda / around.len() as f32;
                let mut mixed: Vec<Influence> = own
                    .iter()
                    .map(|i| Influence {
                        joint: i.joint,
                        weight: i.weight * (1.0 - lambda),
                    })
                    .collect();
                for &n in around {
                    for i in &weights[n as usize] {
                        match mixed.iter_mut().find(|m| m.joint == i.joint) {
                            Some(m) => m.weight += i.weight * share,
                            None => mixed.push(Influence {
                                joint: i.joint,
                                weight: i.weight * share,
                            }),
                        }
                    }
                }
                // Keep the vectors short between passes.
                top_influences(&mixed, 2 * k)
            })
            .collect();
        weights = next;
    }
    let mut skin = SkinWeights::new();
    for v in 0..n {
        skin.push_vertex(top_influences(&weights[surface.canonical[v] as usize], k));
    }
    skin
}

/// Artists bind a separate piece of a model (an armour plate, a mech's limb, an eye) to one
/// joint: it is rigid, and blending it between two joints bends what should not bend. A piece
/// of the welded surface less than half the size of the whole mesh (by the diagonal of its
/// bounds), whose vertices' weights give one joint at least `share` of their total, moves with
/// that joint alone. (Measured on the training characters' pieces: most are weighted to a
/// single joint by their artists.) Pieces of fewer than [`MIN_PIECE_VERTICES`] vertices — a
/// lone card, or triangles an exporter left unwelded by a rounding error — are not pieces
/// and keep their blend.
fn stiffen_separate_pieces(
    weights: &mut [Vec<Influence>],
    surface: &WeldedSurface,
    positions: &[Vec3],
    share: f32,
) {
    let island = &surface.island;
    let count = island.iter().map(|&i| i as usize + 1).max().unwrap_or(0);
    if count < 2 || positions.len() != weights.len() {
        return;
    }
    let canonical = |v: usize| surface.canonical[v] as usize == v;
    let mut bounds = vec![(Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)); count];
    let mut totals: Vec<HashMap<crate::rig::JointId, f32>> = vec![HashMap::new(); count];
    let mut sizes = vec![0usize; count];
    for (v, w) in weights.iter().enumerate() {
        if !canonical(v) {
            continue;
        }
        let i = island[v] as usize;
        sizes[i] += 1;
        bounds[i] = (bounds[i].0.min(positions[v]), bounds[i].1.max(positions[v]));
        for influence in w {
            *totals[i].entry(influence.joint).or_default() += influence.weight;
        }
    }
    let all = bounds
        .iter()
        .fold(bounds[0], |a, b| (a.0.min(b.0), a.1.max(b.1)));
    let whole = all.0.distance(all.1);
    let rigid: Vec<Option<crate::rig::JointId>> = (0..count)
        .map(|i| {
            let total: f32 = totals[i].values().sum();
            let small =
                bounds[i].0.distance(bounds[i].1) < 0.5 * whole && sizes[i] >= MIN_PIECE_VERTICES;
            let (&joint, &top) = totals[i]
                .iter()
                .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.0.cmp(&a.0.0)))?;
            (small && total > 0.0 && top >= share * total).then_some(joint)
        })
        .collect();
    for (v, w) in weights.iter_mut().enumerate() {
        if let Some(joint) = rigid[island[v] as usize]
            && canonical(v)
        {
            *w = vec![Influence { joint, weight: 1.0 }];
        }
    }
}

/// The fewest vertices of a separate piece that [`stiffen_separate_pieces`] binds rigidly: a
/// box has 8.
const MIN_PIECE_VERTICES: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::JointId;

    #[test]
    fn nearer_joints_weigh_more_and_weights_sum_to_one() {
        let w = falloff(&[(0, 1.0), (1, 2.0)], 2.0, 0.1);
        assert!((w[0].weight - 0.8).abs() < 1e-6 && (w[1].weight - 0.2).abs() < 1e-6);
    }

    #[test]
    fn smoothing_blends_across_a_seam_as_if_it_were_welded() {
        // A strip of two triangles whose middle vertex is split in two (a UV seam).
        let positions = vec![
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::X,
            Vec3::new(1.0, 1.0, 0.0),
        ];
        let triangles = vec![[0, 1, 2], [3, 4, 2]];
        let surface = WeldedSurface::new(&positions, &triangles);
        assert_eq!(surface.canonical[3], 1);
        let one = |j| {
            vec![Influence {
                joint: JointId(j),
                weight: 1.0,
            }]
        };
        let weights = vec![one(0), one(0), one(0), one(1), one(1)];
        let skin = smooth_and_limit(weights, &surface, &positions, 2.0, 2, 0.5, 4);
        for v in 0..5 {
            let sum: f32 = skin.influences(v).iter().map(|i| i.weight).sum();
            assert!((sum - 1.0).abs() < 1e-5);
        }
        assert_eq!(skin.influences(1), skin.influences(3));
    }
}

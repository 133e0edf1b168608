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
        Self {
            canonical,
            neighbours,
        }
    }
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

/// Merges the weights of vertices at one position, runs `iterations` passes of
/// `w ← (1 − λ) w + λ · mean(neighbours' w)` over the welded surface, then keeps the strongest
/// `k` influences of each vertex, normalised.
pub fn smooth_and_limit(
    weights: Vec<Vec<Influence>>,
    surface: &WeldedSurface,
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
        let skin = smooth_and_limit(weights, &surface, 2, 0.5, 4);
        for v in 0..5 {
            let sum: f32 = skin.influences(v).iter().map(|i| i.weight).sum();
            assert!((sum - 1.0).abs() < 1e-5);
        }
        assert_eq!(skin.influences(1), skin.influences(3));
    }
}

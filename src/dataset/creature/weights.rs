//! Ground-truth skin weights from the construction: a vertex belongs to the primitives it lies
//! on, and blends into a neighbouring bone's primitive as smoothly as the surfaces blend.

use glam::Vec3;

use super::shape::Shape;
use crate::rig::{Influence, JointId};

/// Influences kept per vertex, as engines read them.
pub const MAX_INFLUENCES: usize = 4;
/// Weights below this (after normalising) are dropped: they only add noise.
const SMALLEST: f32 = 0.01;

/// Weights of a point on a blended surface over the joints owning `shapes`: each owner's pull
/// falls off with how much farther its nearest primitive is than the nearest of all, over a
/// length proportional to that primitive's thickness (thick limbs blend over longer spans).
pub fn blended_weights(p: Vec3, shapes: &[Shape], min_softness: f32) -> Vec<Influence> {
    let mut nearest: Vec<(usize, f32, f32)> = Vec::new();
    for shape in shapes {
        let d = shape.distance(p);
        let softness = (0.35 * shape.thickness()).max(min_softness);
        match nearest.iter_mut().find(|(owner, ..)| *owner == shape.owner) {
            Some(entry) if d < entry.1 => *entry = (shape.owner, d, softness),
            Some(_) => {}
            None => nearest.push((shape.owner, d, softness)),
        }
    }
    let Some(closest) = nearest.iter().map(|e| e.1).reduce(f32::min) else {
        return Vec::new();
    };
    let mut pulls: Vec<(usize, f32)> = nearest
        .iter()
        .map(|&(owner, d, softness)| (owner, (-(d - closest) / softness).exp()))
        .collect();
    normalized_top(&mut pulls)
}

/// A rigid part: all weight on its one joint.
pub fn rigid_weights(owner: usize) -> Vec<Influence> {
    vec![Influence {
        joint: JointId(owner as u32),
        weight: 1.0,
    }]
}

/// The strongest [`MAX_INFLUENCES`] pulls, the faint ones dropped, summing to 1; ties broken by
/// joint index so the result never depends on input order.
fn normalized_top(pulls: &mut Vec<(usize, f32)>) -> Vec<Influence> {
    pulls.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    pulls.truncate(MAX_INFLUENCES);
    let total: f32 = pulls.iter().map(|p| p.1).sum();
    pulls.retain(|p| p.1 / total >= SMALLEST);
    let total: f32 = pulls.iter().map(|p| p.1).sum();
    pulls
        .iter()
        .map(|&(owner, w)| Influence {
            joint: JointId(owner as u32),
            weight: w / total,
        })
        .collect()
}

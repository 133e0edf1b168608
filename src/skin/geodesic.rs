//! Distances through the body: for every solid voxel, its `k` nearest joints measured along
//! paths that stay inside the volume (so an arm resting on the hip is far from the hip
//! bones). One multi-source Dijkstra over the voxels carries up to `k` labels per voxel, which
//! costs about `k` single-source passes whatever the number of bones.

use glam::IVec3;

use super::bone_segments::BoneSegment;
use crate::rig::JointId;
use crate::volume::{BucketQueue, Solid};

/// A joint and its geodesic distance from a voxel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    pub joint: JointId,
    pub distance: f32,
}

const EMPTY: Label = Label {
    joint: JointId(u32::MAX),
    distance: f32::INFINITY,
};

/// The `k` nearest joints of every solid voxel.
pub struct NearestJoints {
    k: usize,
    prune_margin: f32,
    /// Per grid voxel: its slot in `labels`, or `u32::MAX` outside the solid.
    slot: Vec<u32>,
    labels: Vec<Label>,
}

impl NearestJoints {
    /// The labels of the voxel at grid index `voxel`, nearest first; empty outside the solid
    /// or where no bone could be reached.
    pub fn of(&self, voxel: usize) -> Vec<Label> {
        let Some(&slot) = self.slot.get(voxel).filter(|s| **s != u32::MAX) else {
            return Vec::new();
        };
        let s = slot as usize * self.k;
        let mut found: Vec<Label> = self.labels[s..s + self.k]
            .iter()
            .copied()
            .filter(|l| l.distance.is_finite())
            .collect();
        found.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        found
    }

    /// Offers `label` to slot `s`; true when it became one of the slot's `k` best. A label much
    /// farther than the slot's nearest joint is refused: its weight would be negligible, and
    /// not spreading it keeps the search near-linear in thick bodies.
    fn offer(&mut self, s: usize, label: Label) -> bool {
        let labels = &mut self.labels[s * self.k..(s + 1) * self.k];
        let mut worst = 0;
        let mut nearest = f32::INFINITY;
        for i in 0..labels.len() {
            if labels[i].joint == label.joint {
                if label.distance < labels[i].distance {
                    labels[i].distance = label.distance;
                    return true;
                }
                return false;
            }
            nearest = nearest.min(labels[i].distance);
            if labels[i].distance > labels[worst].distance {
                worst = i;
            }
        }
        if label.distance > PRUNE_RATIO * nearest + self.prune_margin {
            return false;
        }
        if label.distance < labels[worst].distance {
            labels[worst] = label;
            return true;
        }
        false
    }

    /// The current distance of `joint` at slot `s`, if it is one of the slot's labels.
    fn distance(&self, s: usize, joint: u32) -> Option<f32> {
        self.labels[s * self.k..(s + 1) * self.k]
            .iter()
            .find(|l| l.joint.0 == joint)
            .map(|l| l.distance)
    }
}

/// Labels farther than this many times the nearest joint's distance (plus a margin of
/// [`PRUNE_MARGIN_VOXELS`]) are not kept: at the skinner's falloff their weight is far below
/// one percent.
const PRUNE_RATIO: f32 = 2.0;
/// Share of a bone's length that must lie inside the body for it to claim flesh.
const MIN_INSIDE: f32 = 0.6;
const PRUNE_MARGIN_VOXELS: f32 = 2.0;

/// Geodesic distances from every segment to every solid voxel, `k` nearest joints kept.
/// Segments that pass through no solid voxel (an IK pole target floating beside the leg)
/// claim nothing.
pub fn nearest_joints(solid: &Solid, segments: &[BoneSegment], k: usize) -> NearestJoints {
    let grid = &solid.grid;
    let mut slot = vec![u32::MAX; grid.len()];
    let mut count = 0u32;
    for (i, s) in solid.solid.iter().enumerate() {
        if *s {
            slot[i] = count;
            count += 1;
        }
    }
    let k = k.max(1);
    let mut nearest = NearestJoints {
        k,
        prune_margin: PRUNE_MARGIN_VOXELS * grid.voxel,
        slot,
        labels: vec![EMPTY; count as usize * k],
    };
    let h = grid.voxel;
    let mut queue = BucketQueue::new(0.5 * h);
    for segment in segments {
        let length = segment.start.distance(segment.end);
        let samples = ((length / (0.5 * h)).ceil() as usize).clamp(1, 1 << 16);
        // A root's spoke that runs mostly through the air (a root linked straight to a mouth
        // across a coiled body) is not a bone of this body: it seeds nothing.
        let inside = (0..=samples)
            .filter(|&i| {
                solid
                    .is_solid(grid.cell(segment.start.lerp(segment.end, i as f32 / samples as f32)))
            })
            .count();
        if segment.from_root
            && length > 2.0 * h
            && (inside as f32) < MIN_INSIDE * (samples + 1) as f32
        {
            continue;
        }
        for i in 0..=samples {
            let p = segment.start.lerp(segment.end, i as f32 / samples as f32);
            let c = grid.cell(p);
            for n in neighbourhood().map(|(o, _)| c + o).chain([c]) {
                if !solid.is_solid(n) {
                    continue;
                }
                let voxel = grid.index(n);
                let label = Label {
                    joint: segment.joint,
                    distance: segment.distance(grid.center(n)),
                };
                let s = nearest.slot[voxel] as usize;
                if nearest.offer(s, label) {
                    queue.push(label.distance, (voxel as u32, label.joint.0));
                }
            }
        }
    }
    // Solid voxels never touch the grid's empty border, so a neighbour's linear index is the
    // voxel's plus a fixed offset, always inside the grid.
    let dims = grid.dims;
    let steps: Vec<(isize, f32)> = neighbourhood()
        .map(|(o, len)| ((o.x + dims.x * (o.y + dims.y * o.z)) as isize, len * h))
        .collect();
    while let Some((distance, (voxel, joint))) = queue.pop() {
        let s = nearest.slot[voxel as usize] as usize;
        if nearest.distance(s, joint) != Some(distance) {
            continue; // superseded by a shorter path, or pushed out by nearer joints
        }
        for &(offset, step) in &steps {
            let nv = (voxel as isize + offset) as usize;
            let Some(&ns) = nearest.slot.get(nv).filter(|s| **s != u32::MAX) else {
                continue;
            };
            let label = Label {
                joint: JointId(joint),
                distance: distance + step,
            };
            if nearest.offer(ns as usize, label) {
                queue.push(label.distance, (nv as u32, joint));
            }
        }
    }
    nearest
}

/// The 26 neighbour offsets with their lengths in voxels.
fn neighbourhood() -> impl Iterator<Item = (IVec3, f32)> {
    (-1..=1).flat_map(|z| {
        (-1..=1).flat_map(move |y| {
            (-1..=1).filter_map(move |x| {
                let o = IVec3::new(x, y, z);
                let n = o.abs().element_sum();
                (n > 0).then(|| (o, (n as f32).sqrt()))
            })
        })
    })
}

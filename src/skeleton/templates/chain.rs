//! The chain template: one line of joints from end to end of a long body — a snake, a fish, a
//! worm, a tentacle — rooted at the end nearer its thickest part (a head, a tentacle's base),
//! named `Chain_00` … `Chain_End`.

use glam::Vec3;

use super::Fit;
use super::joint_list::JointList;
use crate::rig::Skeleton;
use crate::skeleton::RigError;
use crate::skeleton::curve::curves::{
    Path, arc_of_nearest, evenly_spaced, length, route, tip_paths_and_root,
};

/// Bone length along the chain, as a share of the mesh's longest side.
const BONE: f32 = 0.06;

/// Fits the chain along the longest route through the curve skeleton `auto` (rooted at the
/// body's thickest point); `inside` moves a point into the body.
pub fn fit_chain(fit: &Fit) -> Result<Skeleton, RigError> {
    let Fit { auto, size, inside } = *fit;
    let tips = tip_paths_and_root(auto);
    // The longest route between two tips: up one's path to where they part, down the other's.
    let mut best: Option<(f32, Path)> = None;
    for (i, a) in tips.iter().enumerate() {
        for b in &tips[i + 1..] {
            let route = route(a, b);
            let l = length(&route);
            if best.as_ref().is_none_or(|(bl, _)| l > *bl) {
                best = Some((l, route));
            }
        }
    }
    let Some((total, mut route)) = best.filter(|(l, _)| *l > 0.0) else {
        return Err(RigError::NoVolume);
    };
    // Start at the end nearer the body's thickest point (the curve skeleton's root): a
    // snake's or fish's head, a tentacle's base.
    let thickest = auto.joints.first().map_or(route[0], |j| j.position());
    if arc_of_nearest(&route, thickest) > 0.5 * total {
        route.reverse();
    }
    let bones = ((total / (BONE * size)).round() as usize).clamp(3, 48);
    let points: Vec<Vec3> = evenly_spaced(&route, bones)
        .into_iter()
        .map(inside)
        .collect();
    let mut joints = JointList::default();
    let root = joints.add("Chain_00", None, points[0]);
    let last = joints.add_chain(|k| format!("Chain_{k:02}"), Some(root), &points[1..bones]);
    joints.add("Chain_End", last, points[bones]);
    Ok(joints.finish())
}

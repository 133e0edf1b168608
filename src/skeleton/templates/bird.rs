//! The bird template: two wings, two legs, a spine from hips to chest, neck, head and tail.
//!
//! Of the curve skeleton's tips, the wings are the two farthest apart; of the rest, head and
//! tail are the two farthest apart along the body (the head the thicker: tail feathers are
//! flat), and the legs the two farthest from the line between them. Up runs from the legs to
//! the body, left is where the character's left wing is when it faces its head. Names:
//! `hips`, `spine_1`, `spine_2`, `chest`, `neck`, `head`, `head_end`, `tail_1`…`tail_end`,
//! `wing_1_L` (shoulder), `wing_2_L` (elbow), `wing_3_L` (wrist), `wing_end_L`,
//! `upper_leg_L`, `lower_leg_L`, `foot_L`, `toes_end_L`, and the same for `_R`.

use glam::Vec3;

use super::Fit;
use super::joint_list::JointList;
use crate::rig::Skeleton;
use crate::skeleton::RigError;
use crate::skeleton::curve::curves::{
    bend_between, common_prefix, evenly_spaced, left_first, length, limb_from, point_at_fraction,
    reject, route, up_to,
};

/// Bone length along the tail, as a share of the mesh's longest side.
const TAIL_BONE: f32 = 0.08;

/// Fits the bird template using the curve skeleton `auto`; `inside` moves a point into the
/// body and `thickness` says how deep inside a point lies.
pub fn fit_bird(fit: &Fit, thickness: &dyn Fn(Vec3) -> f32) -> Result<Skeleton, RigError> {
    let Fit { auto, size, inside } = *fit;
    let not_bird = |reason: String| RigError::NotBird { reason };
    let tips = (fit.limbs("a bird needs two wings, two legs and a head")).map_err(not_bird)?;
    let root = auto.joints.first().map_or(Vec3::ZERO, |j| j.position());
    let end = |i: usize| tips[i][tips[i].len() - 1];
    let farthest_pair = |candidates: &[usize], measure: &dyn Fn(usize, usize) -> f32| {
        let mut best: Option<(f32, [usize; 2])> = None;
        for (k, &a) in candidates.iter().enumerate() {
            for &b in &candidates[k + 1..] {
                let d = measure(a, b);
                if best.is_none_or(|(bd, _)| d > bd) {
                    best = Some((d, [a, b]));
                }
            }
        }
        best.map(|(_, pair)| pair)
    };
    let all: Vec<usize> = (0..tips.len()).collect();
    let wings = farthest_pair(&all, &|a, b| end(a).distance(end(b)))
        .ok_or_else(|| not_bird("no wings could be found".into()))?;
    let side = (end(wings[0]) - end(wings[1])).normalize_or_zero();
    let rest: Vec<usize> = all.iter().copied().filter(|i| !wings.contains(i)).collect();
    // Head and tail: far apart across the wings' line, along the body.
    let [a, b] = farthest_pair(&rest, &|a, b| reject(end(a) - end(b), side).length())
        .ok_or_else(|| not_bird("no head and tail could be found".into()))?;
    let bulk = |i: usize| thickness(point_at_fraction(&tips[i], 0.8));
    let (head, tail) = if bulk(a) >= bulk(b) { (a, b) } else { (b, a) };
    let axis = (end(head) - end(tail)).normalize_or_zero();
    let legs_from: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|i| ![head, tail].contains(i))
        .collect();
    let off_axis = |i: usize| {
        let p = end(i) - end(tail);
        (p - axis * p.dot(axis)).length()
    };
    let mut legs = legs_from;
    legs.sort_by(|x, y| off_axis(*y).total_cmp(&off_axis(*x)));
    let legs: Vec<usize> = legs.into_iter().take(2).collect();
    if legs.is_empty() {
        return Err(not_bird("no legs could be found".into()));
    }
    let legs_mid = legs.iter().map(|&i| end(i)).sum::<Vec3>() / legs.len() as f32;
    let up = reject(root - legs_mid, side).normalize_or_zero();
    if up == Vec3::ZERO || side == Vec3::ZERO || off_axis(legs[0]) < 0.05 * size {
        return Err(not_bird(
            "its wings, legs and head do not span a body".into(),
        ));
    }
    let forward = reject(reject(axis, up), side).normalize_or_zero();
    let left = up.cross(forward);
    let sided = |pair: [usize; 2]| left_first(&tips, pair, left);
    let wings = sided(wings);
    let legs: Vec<usize> = match legs.as_slice() {
        [a, b] => sided([*a, *b]).to_vec(),
        other => other.to_vec(),
    };

    let hips_at = match legs.as_slice() {
        [a, b] => common_prefix(&tips[*a], &tips[*b]),
        _ => root,
    };
    let chest_at = common_prefix(&tips[wings[0]], &tips[wings[1]]);
    let spine = route(
        &up_to(&tips[legs[0]], hips_at),
        &up_to(&tips[wings[0]], chest_at),
    );
    let mut b = JointList::default();
    let names = ["hips", "spine_1", "spine_2", "chest"];
    let (hips, chest) = b.add_spine(names, &spine, [hips_at, chest_at], inside);
    let head_limb = limb_from(&tips[head], &tips[wings[0]]);
    let neck = b.add(
        "neck",
        Some(chest),
        inside(point_at_fraction(&head_limb, 0.4)),
    );
    let head_joint = b.add(
        "head",
        Some(neck),
        inside(point_at_fraction(&head_limb, 0.75)),
    );
    b.add("head_end", Some(head_joint), inside(end(head)));
    let tail_limb = limb_from(&tips[tail], &tips[legs[0]]);
    let total = length(&tail_limb);
    let bones = ((total / (TAIL_BONE * size)).round() as usize).clamp(1, 8);
    let points: Vec<Vec3> = evenly_spaced(&tail_limb, bones)[1..bones]
        .iter()
        .map(|&p| inside(p))
        .collect();
    let last = b.add_chain(|k| format!("tail_{k}"), Some(hips), &points);
    b.add("tail_end", last.or(Some(hips)), inside(end(tail)));
    for (i, suffix) in [(0, "L"), (1, "R")] {
        let limb = limb_from(&tips[wings[i]], &tips[wings[1 - i]]);
        let elbow =
            bend_between(&limb, 0.3, 0.55).unwrap_or_else(|| point_at_fraction(&limb, 0.42));
        b.add_limb(
            chest,
            &[
                (format!("wing_1_{suffix}"), point_at_fraction(&limb, 0.1)),
                (format!("wing_2_{suffix}"), elbow),
                (format!("wing_3_{suffix}"), point_at_fraction(&limb, 0.7)),
                (format!("wing_end_{suffix}"), end(wings[i])),
            ],
            inside,
        );
    }
    for (k, &leg) in legs.iter().enumerate() {
        let suffix = if k == 0 { "L" } else { "R" };
        let other = legs.get(1 - k).copied().unwrap_or(head);
        let limb = limb_from(&tips[leg], &tips[other]);
        b.add_limb(
            hips,
            &[
                (
                    format!("upper_leg_{suffix}"),
                    point_at_fraction(&limb, 0.15),
                ),
                (
                    format!("lower_leg_{suffix}"),
                    point_at_fraction(&limb, 0.45),
                ),
                (format!("foot_{suffix}"), point_at_fraction(&limb, 0.8)),
                (format!("toes_end_{suffix}"), end(leg)),
            ],
            inside,
        );
    }
    Ok(b.finish())
}

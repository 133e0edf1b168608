//! The quadruped template: four legs, a spine from hips to chest, neck and head, and a tail
//! when there is one — for dogs, horses, cats, lizards, rats — in any frame.
//!
//! Of the curve skeleton's tips, the four feet are the four that lie nearest to one plane with
//! the body above it, in two pairs across the body; the head is the highest remaining tip
//! beyond one pair (a tail may be thicker, as a fox's is, but hangs lower), which makes that
//! pair the front legs; the tail, if any, lies beyond the other. Names follow the common convention: `Hips`, `Spine_1`…`Spine_3`, `Neck`, `Head`,
//! `Tail_1`…, `Front_Leg_Upper_L`, `Front_Leg_Lower_L`, `Front_Leg_Ankle_L`,
//! `Front_Leg_Foot_L`, `Back_Leg_…_R`, each limb ending in an `…_End` tip.

use glam::Vec3;

use super::Fit;
use super::joint_list::JointList;
use crate::rig::{JointId, Skeleton};
use crate::skeleton::RigError;
use crate::skeleton::curve::curves::{
    Path, bend_between, common_prefix, evenly_spaced, left_first, length, limb_from,
    point_at_fraction, route, up_to,
};

/// Bone length along the tail, as a share of the mesh's longest side.
const TAIL_BONE: f32 = 0.08;

#[derive(Debug, Clone, Copy)]
struct Roles {
    /// Front pair, then back pair, each `[left, right]` once orientation is known.
    front: [usize; 2],
    back: [usize; 2],
    head: usize,
    tail: Option<usize>,
    up: Vec3,
    score: f32,
}

/// Fits the quadruped template using the curve skeleton `auto`.
pub fn fit_quadruped(fit: &Fit) -> Result<Skeleton, RigError> {
    let Fit { auto, size, inside } = *fit;
    let not_quadruped = |reason: String| RigError::NotQuadruped { reason };
    let tips = (fit.limbs("a quadruped needs four legs and a head")).map_err(not_quadruped)?;
    let root = auto.joints[0].position();
    let roles = choose_roles(&tips, root, size).ok_or_else(|| {
        not_quadruped("no four feet, a head and a body above them could be told apart".into())
    })?;
    let end = |i: usize| tips[i][tips[i].len() - 1];
    let forward = {
        let front = (end(roles.front[0]) + end(roles.front[1])) * 0.5;
        let back = (end(roles.back[0]) + end(roles.back[1])) * 0.5;
        let f = front - back;
        (f - roles.up * f.dot(roles.up)).normalize_or_zero()
    };
    let left = roles.up.cross(forward);
    let sided = |pair: [usize; 2]| left_first(&tips, pair, left);
    let (front, back) = (sided(roles.front), sided(roles.back));

    let back_fork = common_prefix(&tips[back[0]], &tips[back[1]]);
    let front_fork = common_prefix(&tips[front[0]], &tips[front[1]]);
    let spine = route(
        &up_to(&tips[back[0]], back_fork),
        &up_to(&tips[front[0]], front_fork),
    );

    let mut b = JointList::default();
    let names = ["Hips", "Spine_1", "Spine_2", "Spine_3"];
    let (hips, chest) = b.add_spine(names, &spine, [back_fork, front_fork], inside);
    let head_limb = limb_from(&tips[roles.head], &tips[front[0]]);
    let neck = b.add(
        "Neck",
        Some(chest),
        inside(point_at_fraction(&head_limb, 0.35)),
    );
    let head = b.add(
        "Head",
        Some(neck),
        inside(point_at_fraction(&head_limb, 0.65)),
    );
    b.add("Head_End", Some(head), inside(end(roles.head)));
    if let Some(tail) = roles.tail {
        let limb = limb_from(&tips[tail], &tips[back[0]]);
        let total = length(&limb);
        let bones = ((total / (TAIL_BONE * size)).round() as usize).clamp(2, 12);
        let points: Vec<Vec3> = evenly_spaced(&limb, bones)[1..bones]
            .iter()
            .map(|&p| inside(p))
            .collect();
        let last = b.add_chain(|k| format!("Tail_{k}"), Some(hips), &points);
        b.add("Tail_End", last, inside(end(tail)));
    }
    for (pair, parent, label) in [(front, chest, "Front"), (back, hips, "Back")] {
        for (i, side) in [(0, "L"), (1, "R")] {
            let limb = limb_from(&tips[pair[i]], &tips[pair[1 - i]]);
            add_leg(&mut b, &limb, parent, &format!("{label}_Leg"), side, inside);
        }
    }
    Ok(b.finish())
}

/// A leg from its root on the body to the toe tip: upper, lower (knee or elbow, at the bend if
/// the leg has one), ankle, foot and the tip.
fn add_leg(
    b: &mut JointList,
    limb: &Path,
    parent: JointId,
    prefix: &str,
    side: &str,
    inside: &dyn Fn(Vec3) -> Vec3,
) {
    let knee = bend_between(limb, 0.35, 0.6).unwrap_or_else(|| point_at_fraction(limb, 0.45));
    let joints = [
        ("Upper", point_at_fraction(limb, 0.12)),
        ("Lower", knee),
        ("Ankle", point_at_fraction(limb, 0.75)),
        ("Foot", point_at_fraction(limb, 0.9)),
        ("End", limb[limb.len() - 1]),
    ]
    .map(|(part, p)| (format!("{prefix}_{part}_{side}"), p));
    b.add_limb(parent, &joints, inside);
}

/// The best feet, head and tail among the tips, or `None` when nothing is remotely a
/// quadruped.
fn choose_roles(tips: &[Path], root: Vec3, size: f32) -> Option<Roles> {
    let n = tips.len();
    let mut best: Option<Roles> = None;
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for (p, q) in [([a, b], [c, d]), ([a, c], [b, d]), ([a, d], [b, c])] {
                        if let Some(roles) = score_feet(tips, p, q, root, size)
                            && best.is_none_or(|b| roles.score < b.score)
                        {
                            best = Some(roles);
                        }
                    }
                }
            }
        }
    }
    best.filter(|b| b.score < 1.0)
}

/// Scores `p` and `q` as the two pairs of feet (across the body), and finds the head and tail
/// that go with them.
fn score_feet(tips: &[Path], p: [usize; 2], q: [usize; 2], root: Vec3, size: f32) -> Option<Roles> {
    let end = |i: usize| tips[i][tips[i].len() - 1];
    let (mp, mq) = ((end(p[0]) + end(p[1])) * 0.5, (end(q[0]) + end(q[1])) * 0.5);
    let along = mq - mp;
    let (across_p, across_q) = (end(p[0]) - end(p[1]), end(q[0]) - end(q[1]));
    let across = if across_p.dot(across_q) >= 0.0 {
        across_p + across_q
    } else {
        across_p - across_q
    };
    let mut up = along.cross(across).normalize_or_zero();
    if up == Vec3::ZERO || along.length() < 1e-6 * size {
        return None;
    }
    let centre = (mp + mq) * 0.5;
    if (root - centre).dot(up) < 0.0 {
        up = -up;
    }
    // The body stands above its feet.
    if (root - centre).dot(up) < 0.1 * size {
        return None;
    }
    let flat = [p[0], p[1], q[0], q[1]]
        .iter()
        .map(|&i| (end(i) - centre).dot(up).abs())
        .fold(0.0f32, f32::max)
        / size;
    let axis = along.normalize();
    let square = (across_p.normalize_or_zero().dot(axis)).abs()
        + (across_q.normalize_or_zero().dot(axis)).abs();
    // Head and tail: the other tips beyond either pair, the thickest one the head.
    let half = 0.5 * along.length();
    let beyond: Vec<(usize, f32)> = (0..tips.len())
        .filter(|i| ![p[0], p[1], q[0], q[1]].contains(i))
        .map(|i| (i, (end(i) - centre).dot(axis)))
        .filter(|(_, s)| s.abs() > 0.6 * half)
        .collect();
    let height = |i: usize| (end(i) - centre).dot(up);
    let head = beyond
        .iter()
        .max_by(|a, b| height(a.0).total_cmp(&height(b.0)))
        .copied()?;
    let tail = beyond
        .iter()
        .filter(|(_, s)| s.signum() != head.1.signum())
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .map(|(i, _)| *i);
    let (front, back) = if head.1 > 0.0 { (q, p) } else { (p, q) };
    Some(Roles {
        front,
        back,
        head: head.0,
        tail,
        up,
        score: flat + 0.5 * square,
    })
}

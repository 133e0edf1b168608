//! Polylines through the curve skeleton — a tip's path from the root, arc lengths, bends —
//! which the templates measure limbs and place joints along.

use glam::Vec3;

use crate::rig::{JointId, Skeleton};

/// A polyline from the root of the curve skeleton towards a tip.
pub type Path = Vec<Vec3>;

/// Each tip's path from the root: the joint positions along its ancestry.
pub fn tip_paths(skeleton: &Skeleton) -> Vec<Path> {
    let mut has_child = vec![false; skeleton.joints.len()];
    for b in skeleton.bones() {
        has_child[b.parent.index()] = true;
    }
    (0..skeleton.joints.len())
        .filter(|&i| !has_child[i])
        .map(|tip| {
            let mut path = Vec::new();
            let mut at = Some(JointId(tip as u32));
            while let Some(j) = at.and_then(|j| skeleton.joint(j)) {
                path.push(j.position());
                at = j.parent;
            }
            path.reverse();
            path
        })
        .filter(|p| p.len() >= 2)
        .collect()
}

/// Every tip's path, and the root itself as a path of one point (a big-headed character or a
/// snake is thickest at its head, where the curve skeleton is rooted, so the root can be an
/// end of the body too).
pub fn tip_paths_and_root(skeleton: &Skeleton) -> Vec<Path> {
    let mut tips = tip_paths(skeleton);
    if let Some(root) = skeleton.joints.first() {
        tips.push(vec![root.position()]);
    }
    tips
}

/// `bones + 1` points evenly spaced by arc length along `path`, from its start to its end.
pub fn evenly_spaced(path: &Path, bones: usize) -> Vec<Vec3> {
    let total = length(path);
    (0..=bones)
        .map(|k| point_at_length(path, total * k as f32 / bones.max(1) as f32))
        .collect()
}

/// The pair of tips ordered left first: the one whose end lies farther along `left`.
pub fn left_first(tips: &[Path], pair: [usize; 2], left: Vec3) -> [usize; 2] {
    let side = |i: usize| tips[i][tips[i].len() - 1].dot(left);
    if side(pair[0]) >= side(pair[1]) {
        pair
    } else {
        [pair[1], pair[0]]
    }
}

/// `v` without its component along the unit vector `axis`.
pub fn reject(v: Vec3, axis: Vec3) -> Vec3 {
    v - axis * v.dot(axis)
}

/// The last point two root-to-tip paths share.
pub fn common_prefix(a: &Path, b: &Path) -> Vec3 {
    let mut last = a[0];
    for (p, q) in a.iter().zip(b) {
        if p != q {
            break;
        }
        last = *p;
    }
    last
}

/// Where `path` leaves `trunk`: its last point that lies on it.
pub fn departure(path: &Path, trunk: &Path) -> Vec3 {
    path[leaving_index(path, trunk)]
}

/// The part of `path` from where it leaves `trunk` to its tip.
pub fn limb_from(path: &Path, trunk: &Path) -> Path {
    path[leaving_index(path, trunk)..].to_vec()
}

pub fn leaving_index(path: &Path, trunk: &Path) -> usize {
    path.iter().rposition(|p| trunk.contains(p)).unwrap_or(0)
}

pub fn length(path: &Path) -> f32 {
    path.windows(2).map(|w| w[0].distance(w[1])).sum()
}

pub fn point_at_length(path: &Path, mut s: f32) -> Vec3 {
    for w in path.windows(2) {
        let l = w[0].distance(w[1]);
        if s <= l {
            return w[0].lerp(w[1], if l > 0.0 { s / l } else { 0.0 });
        }
        s -= l;
    }
    path[path.len() - 1]
}

pub fn point_at_fraction(path: &Path, f: f32) -> Vec3 {
    point_at_length(path, f * length(path))
}

/// Arc length along `path` of its point nearest to `p`.
pub fn arc_of_nearest(path: &Path, p: Vec3) -> f32 {
    let mut best = (f32::INFINITY, 0.0);
    let mut s = 0.0;
    for w in path.windows(2) {
        let d = w[1] - w[0];
        let l = d.length();
        let t = if l > 0.0 {
            ((p - w[0]).dot(d) / (l * l)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let dist = p.distance(w[0] + d * t);
        if dist < best.0 {
            best = (dist, s + t * l);
        }
        s += l;
    }
    best.1
}

/// The first arc length (sampled finely) where `pred` holds.
pub fn arc_where(path: &Path, pred: impl Fn(Vec3) -> bool) -> Option<f32> {
    let total = length(path);
    (0..=200)
        .map(|i| total * i as f32 / 200.0)
        .find(|&s| pred(point_at_length(path, s)))
}

/// The sharpest bend of `path` between fractions `from` and `to` of its length, if it bends
/// by more than 15° there.
pub fn bend_between(path: &Path, from: f32, to: f32) -> Option<Vec3> {
    let total = length(path);
    let step = 0.08 * total;
    let mut best: Option<(f32, Vec3)> = None;
    for i in 0..=20 {
        let s = total * (from + (to - from) * i as f32 / 20.0);
        let p = point_at_length(path, s);
        let before = (p - point_at_length(path, (s - step).max(0.0))).normalize_or_zero();
        let after = (point_at_length(path, (s + step).min(total)) - p).normalize_or_zero();
        let turn = before.dot(after).clamp(-1.0, 1.0).acos();
        if turn > 15f32.to_radians() && best.is_none_or(|(t, _)| turn > t) {
            best = Some((turn, p));
        }
    }
    best.map(|(_, p)| p)
}

/// The route from `a`'s tip up to where `a` and `b` part and down to `b`'s tip.
pub fn route(a: &Path, b: &Path) -> Path {
    let fork = common_prefix(a, b);
    let mut route: Path = a
        .iter()
        .rev()
        .take_while(|p| **p != fork)
        .copied()
        .collect();
    route.push(fork);
    route.extend(b.iter().skip_while(|p| **p != fork).skip(1));
    route
}

/// `path` up to and including its point `at` (the whole path when `at` is not on it).
pub fn up_to(path: &Path, at: Vec3) -> Path {
    match path.iter().position(|p| *p == at) {
        Some(i) => path[..=i].to_vec(),
        None => path.clone(),
    }
}

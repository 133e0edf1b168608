//! What a skeleton's parts are for, read from its shape: legs reach the ground, wings spread
//! sideways, the spine runs from the root to the head, and other chains (tails, tentacles,
//! necks, ears) hang free. Procedural motions animate these parts. Up is +Y, or the axis the
//! legs stand along ([`BodyPlan::standing`]). Artists' rigs are read as they come: several
//! roots (a leg per root), IK foot targets beside the leg they end or controls carrying the
//! foot, a control root on the floor below a flying creature.

use glam::{Quat, Vec3};

use crate::rig::{JointId, Skeleton, name_words};

/// A run of joints without branches, from the joint after a branch point to a tip.
pub type Chain = Vec<JointId>;

/// The axes a rig may stand along, glTF's +Y first.
const UPS: [Vec3; 6] = [
    Vec3::Y,
    Vec3::Z,
    Vec3::NEG_Z,
    Vec3::X,
    Vec3::NEG_X,
    Vec3::NEG_Y,
];

/// Words naming chains that hang or spread but never stand.
const NOT_LEGS: [&str; 5] = ["tail", "wing", "hair", "ear", "ears"];

/// Words naming the joints of a leg.
const LEGS: [&str; 11] = [
    "leg", "thigh", "knee", "shin", "calf", "ankle", "foot", "feet", "toe", "paw", "hoof",
];

/// Whether a joint of `chain` has one of `words` in its name.
fn named(skeleton: &Skeleton, chain: &Chain, words: &[&str]) -> bool {
    chain
        .iter()
        .any(|j| is_named(&skeleton.joints[j.index()].name, words))
}

fn is_named(name: &str, words: &[&str]) -> bool {
    name_words(name).iter().any(|w| words.contains(&w.as_str()))
}

#[derive(Debug, Clone, PartialEq)]
pub struct BodyPlan {
    /// Where the creature faces (horizontal, unit).
    pub forward: Vec3,
    /// Its left: up × forward.
    pub lateral: Vec3,
    /// Height of the skeleton (its largest extent when it lies flat).
    pub size: f32,
    pub legs: Vec<Chain>,
    /// Per leg, the IK target standing in for its foot when the chain stops above the ground
    /// (a joint parented to a root, not to the leg): motions carry it along with the leg.
    pub feet: Vec<Option<JointId>>,
    pub wings: Vec<Chain>,
    /// Chains that are neither legs nor wings, with at least two joints.
    pub appendages: Vec<Chain>,
    /// Root to the head, root excluded; the last joint is the head (tips excluded).
    pub spine: Vec<JointId>,
    /// The root of the largest hierarchy.
    pub root: JointId,
    /// Every joint without a parent (the root first): what moves the whole body.
    pub roots: Vec<JointId>,
}

impl BodyPlan {
    pub fn of(skeleton: &Skeleton) -> Option<Self> {
        let n = skeleton.joints.len();
        let pos = |j: usize| skeleton.joints[j].position();
        let mut children = vec![Vec::new(); n];
        for (j, joint) in skeleton.joints.iter().enumerate() {
            if let Some(p) = joint.parent {
                children[p.index()].push(j);
            }
        }
        let mut descendants = vec![0usize; n];
        for j in (0..n).rev() {
            if let Some(p) = skeleton.joints[j].parent {
                descendants[p.index()] += descendants[j] + 1;
            }
        }
        let is_root = |j: usize| skeleton.joints[j].parent.is_none();
        let root = (0..n)
            .filter(|&j| is_root(j))
            .max_by_key(|&j| (descendants[j], std::cmp::Reverse(j)))?;
        // Joints hanging off a root, not off the body: a root's own floor pivot and its IK
        // targets do not say where the body is.
        let off_body = |j: usize| {
            is_root(j)
                || skeleton.joints[j]
                    .parent
                    .is_some_and(|p| is_root(p.index()) && children[j].is_empty())
        };
        let body: Vec<usize> = (0..n).filter(|&j| !is_root(j)).collect();
        let body = if body.is_empty() {
            (0..n).collect()
        } else {
            body
        };
        let (lo, hi) = body.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &j| {
            (lo.min(pos(j)), hi.max(pos(j)))
        });
        let size = (hi - lo).max_element().max(1e-6);
        // The lowest point of each joint's sub-tree.
        let mut lowest: Vec<f32> = (0..n).map(|j| pos(j).y).collect();
        for j in (0..n).rev() {
            if let Some(p) = skeleton.joints[j].parent {
                lowest[p.index()] = lowest[p.index()].min(lowest[j]);
            }
        }
        // Segments: start at every child of a branch point or of the main root, and at every
        // other root that starts a single chain (a leg per root); follow single children down
        // to a tip or the next branch.
        let mut segments: Vec<Chain> = Vec::new();
        for j in 0..n {
            let starts = match skeleton.joints[j].parent {
                Some(p) => children[p.index()].len() >= 2 || p.index() == root,
                None => j != root && children[j].len() == 1,
            };
            if !starts {
                continue;
            }
            let mut chain = vec![JointId(j as u32)];
            let mut at = j;
            while children[at].len() == 1 {
                at = children[at][0];
                chain.push(JointId(at as u32));
            }
            segments.push(chain);
        }
        // A chain that stops above the ground may end at an IK target standing below its tip:
        // a leaf off a root, below and near the tip, or a control there carrying the foot, and
        // nearer the tip than any other chain's tip.
        let tips: Vec<usize> = segments.iter().map(|c| c[c.len() - 1].index()).collect();
        let stands_in = |f: usize, tip: usize| {
            let (at, t) = (pos(f), pos(tip));
            if children[f].is_empty() {
                let drop = t.y - at.y;
                let apart = Vec3::new(at.x - t.x, 0.0, at.z - t.z).length();
                drop > 0.0 && apart < drop.max(0.1 * size)
            } else {
                // A control carrying the foot starts where the leg ends and reaches below it,
                // no farther than a foot: not another limb.
                let reach = (0..n)
                    .filter(|&j| skeleton.is_at_or_below(j, f))
                    .map(|j| pos(j).distance(at))
                    .fold(0.0, f32::max);
                at.distance(t) < 0.05 * size && reach < 0.3 * size && lowest[f] < t.y
            }
        };
        // A control may carry the foot itself (an IK control off the root with the foot and
        // toes below it): a single chain hanging off a root, not the body.
        let single_chain = |j: usize| {
            let mut at = j;
            while let [only] = children[at][..] {
                at = only;
            }
            children[at].is_empty()
        };
        let control = |f: usize| {
            f != root
                && (off_body(f)
                    || skeleton.joints[f]
                        .parent
                        .is_some_and(|p| is_root(p.index()))
                        && single_chain(f))
        };
        // Per tip, its foot: the nearest target for which it is the nearest tip.
        let mut foot: Vec<Option<usize>> = vec![None; n];
        for f in (0..n).filter(|&f| control(f)) {
            let nearest = tips
                .iter()
                .copied()
                .filter(|&t| !skeleton.is_at_or_below(t, f))
                .min_by(|&a, &b| pos(a).distance(pos(f)).total_cmp(&pos(b).distance(pos(f))));
            let Some(t) = nearest.filter(|&t| stands_in(f, t)) else {
                continue;
            };
            if foot[t].is_none_or(|g| pos(f).distance(pos(t)) < pos(g).distance(pos(t))) {
                foot[t] = Some(f);
            }
        }
        let foot_of = |c: &Chain| foot[c[c.len() - 1].index()].map(|f| JointId(f as u32));
        let reach = |c: &Chain| {
            let start = c[0].index();
            foot_of(c).map_or(lowest[start], |f| lowest[start].min(lowest[f.index()]))
        };
        // The chains a control carries (its own foot and toes) are no legs of their own.
        let is_foot = |c: &Chain| {
            foot.iter()
                .flatten()
                .any(|&f| skeleton.is_at_or_below(c[0].index(), f))
        };
        // The ground is where the lowest tip stands (a foot, a hoof, an IK target), not a
        // pivot the rig keeps on the floor below a flying body, nor a tail dragging below the
        // feet (a tip whose chain is named as no leg is, where any other tip is left).
        let dangles = |j: usize| {
            let mut at = Some(j);
            while let Some(k) = at.filter(|&k| !is_root(k)) {
                let words = name_words(&skeleton.joints[k].name);
                if words.iter().any(|w| NOT_LEGS.contains(&w.as_str())) {
                    return true;
                }
                at = skeleton.joints[k].parent.map(|p| p.index());
            }
            false
        };
        let tips: Vec<usize> = (0..n).filter(|&j| children[j].is_empty()).collect();
        let standing: Vec<usize> = tips.iter().copied().filter(|&j| !dangles(j)).collect();
        let standing = if standing.is_empty() { tips } else { standing };
        let lo_y = standing
            .iter()
            .map(|&j| pos(j).y)
            .fold(f32::INFINITY, f32::min)
            .min(hi.y);
        let height = hi.y - lo_y;
        let ground = lo_y + 0.1 * height;
        // Names, where the rig has them, say what a drooping chain is.
        let is_leg = |c: &Chain| {
            let start = c[0].index();
            let low = reach(c);
            low <= ground
                && pos(start).y - low > 0.1 * height
                && height > 0.05 * size
                && !named(skeleton, c, &NOT_LEGS)
                && !is_foot(c)
        };
        let mut legs: Vec<Chain> = segments.iter().filter(|c| is_leg(c)).cloned().collect();
        // A leg's first segment may end at a branch (toes, claws): keep it as the leg. But a
        // segment with legs below it is the body they hang from (a spine carrying the
        // forelegs).
        let below = |c: &Chain, other: &Chain| {
            let end = c[c.len() - 1];
            let mut at = skeleton.joints[other[0].index()].parent;
            while let Some(j) = at {
                if j == end {
                    return true;
                }
                at = skeleton.joints[j.index()].parent;
            }
            false
        };
        let candidates = legs.clone();
        legs.retain(|c| c.len() >= 2 && !candidates.iter().any(|o| o != c && below(c, o)));
        let feet: Vec<Option<JointId>> = legs
            .iter()
            .map(|c| foot_of(c).filter(|f| lowest[f.index()] < lowest[c[0].index()]))
            .collect();
        let forward = facing(skeleton, &legs, root);
        let lateral = Vec3::Y.cross(forward).normalize_or_zero();
        let is_wing = |c: &Chain| {
            let (a, b) = (pos(c[0].index()), pos(c[c.len() - 1].index()));
            let reach = (b - a).dot(lateral).abs();
            let along = (b - a).dot(forward).abs();
            c.len() >= 3
                && reach > 0.25 * size
                && reach > (b - a).y.abs()
                && reach > along
                && !is_leg(c)
        };
        let wings: Vec<Chain> = segments.iter().filter(|c| is_wing(c)).cloned().collect();
        // The spine: from the root towards the highest tip that is not on a leg or wing.
        let on_limb = |j: usize| {
            legs.iter()
                .chain(&wings)
                .any(|c| c.contains(&JointId(j as u32)))
        };
        let top = (0..n)
            .filter(|&j| children[j].is_empty() && !on_limb(j))
            .max_by(|&a, &b| pos(a).y.total_cmp(&pos(b).y));
        let mut spine = Vec::new();
        if let Some(top) = top {
            let mut at = skeleton.joints[top].parent;
            while let Some(j) = at.filter(|j| j.index() != root) {
                spine.push(j);
                at = skeleton.joints[j.index()].parent;
            }
            spine.reverse();
        }
        let appendages = segments
            .into_iter()
            .filter(|c| c.len() >= 2 && !legs.contains(c) && !wings.contains(c) && !is_foot(c))
            .collect();
        let roots = std::iter::once(root)
            .chain((0..n).filter(|&j| is_root(j) && j != root))
            .map(|j| JointId(j as u32))
            .collect();
        Some(Self {
            forward,
            lateral,
            size,
            legs,
            feet,
            wings,
            appendages,
            spine,
            root: JointId(root as u32),
            roots,
        })
    }

    /// How `skeleton` stands: the turn that stands it along +Y, and its plan standing so.
    /// +Y (glTF's up) unless fewer than two of the joint chains named as legs reach the ground
    /// that way and more do along another axis (a file authored Z-up); ties in the order of
    /// [`UPS`]. Names decide because shape alone does not: a fish on its side has fins
    /// reaching the ground, a slime upside down its eyes, a fox on its side some chain.
    pub fn standing(skeleton: &Skeleton) -> Option<(Quat, Self)> {
        let named_legs = |plan: &Self| {
            (plan.legs.iter())
                .filter(|c| named(skeleton, c, &LEGS))
                .count()
        };
        let plan = Self::of(skeleton)?;
        if named_legs(&plan) >= 2 || !skeleton.joints.iter().any(|j| is_named(&j.name, &LEGS)) {
            return Some((Quat::IDENTITY, plan));
        }
        let most = UPS[1..]
            .iter()
            .filter_map(|&up| {
                let turn = Quat::from_rotation_arc(up, Vec3::Y);
                let plan = Self::of(&skeleton.turned(turn))?;
                Some((named_legs(&plan), turn, plan))
            })
            .fold((named_legs(&plan), Quat::IDENTITY, plan), |best, next| {
                if next.0 > best.0.max(1) { next } else { best }
            });
        Some((most.1, most.2))
    }

    /// The head: the last joint of the spine, or the root when the head is the root (snakes).
    pub fn head(&self) -> JointId {
        self.spine.last().copied().unwrap_or(self.root)
    }
}

/// Where toes point (foot → toe of every leg), else from the root towards the highest
/// joint's horizontal offset, else +Z.
fn facing(skeleton: &Skeleton, legs: &[Chain], root: usize) -> Vec3 {
    let pos = |j: JointId| skeleton.joints[j.index()].position();
    let horizontal = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let toes: Vec3 = legs
        .iter()
        .filter(|c| c.len() >= 2)
        .map(|c| horizontal(pos(c[c.len() - 1]) - pos(c[c.len() - 2])).normalize_or_zero())
        .sum();
    if toes.length() > 0.5 {
        return toes.normalize();
    }
    let root_at = skeleton.joints[root].position();
    let ahead: Vec3 = skeleton
        .joints
        .iter()
        .map(|j| horizontal(j.position() - root_at) * (j.position().y - root_at.y).max(0.0))
        .sum();
    ahead.try_normalize().unwrap_or(Vec3::Z)
}

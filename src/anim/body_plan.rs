//! What a skeleton's parts are for, read from its shape alone: legs reach the ground, wings
//! spread sideways, the spine runs from the root to the head, and other chains (tails,
//! tentacles, necks, ears) hang free. Procedural motions animate these parts. Up is +Y.

use glam::Vec3;

use crate::rig::{JointId, Skeleton};

/// A run of joints without branches, from the joint after a branch point to a tip.
pub type Chain = Vec<JointId>;

#[derive(Debug, Clone, PartialEq)]
pub struct BodyPlan {
    /// Where the creature faces (horizontal, unit).
    pub forward: Vec3,
    /// Its left: up × forward.
    pub lateral: Vec3,
    /// Height of the skeleton (its largest extent when it lies flat).
    pub size: f32,
    pub legs: Vec<Chain>,
    pub wings: Vec<Chain>,
    /// Chains that are neither legs nor wings, with at least two joints.
    pub appendages: Vec<Chain>,
    /// Root to the head, root excluded; the last joint is the head (tips excluded).
    pub spine: Vec<JointId>,
    pub root: JointId,
}

impl BodyPlan {
    pub fn of(skeleton: &Skeleton) -> Option<Self> {
        let n = skeleton.joints.len();
        let root = skeleton.joints.iter().position(|j| j.parent.is_none())?;
        let pos = |j: usize| skeleton.joints[j].position();
        let mut children = vec![Vec::new(); n];
        for (j, joint) in skeleton.joints.iter().enumerate() {
            if let Some(p) = joint.parent {
                children[p.index()].push(j);
            }
        }
        let (lo, hi) = skeleton
            .joints
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), j| {
                (lo.min(j.position()), hi.max(j.position()))
            });
        let height = hi.y - lo.y;
        let size = (hi - lo).max_element().max(1e-6);
        // The lowest point of each joint's sub-tree.
        let mut lowest: Vec<f32> = (0..n).map(|j| pos(j).y).collect();
        for j in (0..n).rev() {
            if let Some(p) = skeleton.joints[j].parent {
                lowest[p.index()] = lowest[p.index()].min(lowest[j]);
            }
        }
        // Segments: start at every child of a branch point (or of the root), follow single
        // children down to a tip or the next branch.
        let mut segments: Vec<Chain> = Vec::new();
        for j in 0..n {
            let Some(p) = skeleton.joints[j].parent else {
                continue;
            };
            if children[p.index()].len() < 2 && p.index() != root {
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
        let ground = lo.y + 0.1 * height;
        let is_leg = |c: &Chain| {
            let start = c[0].index();
            lowest[start] <= ground
                && pos(start).y - lowest[start] > 0.2 * height
                && height > 0.05 * size
        };
        let mut legs: Vec<Chain> = segments.iter().filter(|c| is_leg(c)).cloned().collect();
        // A leg's first segment may end at a branch (toes, claws): keep it as the leg.
        legs.retain(|c| c.len() >= 2);
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
            .filter(|c| c.len() >= 2 && !legs.contains(c) && !wings.contains(c))
            .collect();
        Some(Self {
            forward,
            lateral,
            size,
            legs,
            wings,
            appendages,
            spine,
            root: JointId(root as u32),
        })
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

//! Which joint of a motion's skeleton drives which joint of a character's: by name across the
//! common conventions, humanoid spines by proportion, and by the shape of the hierarchy when
//! names say nothing.

use glam::Vec3;

use crate::rig::{HumanoidRole, JointId, Skeleton, humanoid_roles};

/// For every target joint, the source joint that drives it, if any.
pub fn joint_map(source: &Skeleton, target: &Skeleton) -> Vec<Option<JointId>> {
    let mut map = vec![None; target.joints.len()];
    // Identical names, ignoring namespaces, case and separators (`mixamorig:LeftArm` = `LeftArm`).
    for (t, joint) in target.joints.iter().enumerate() {
        let key = plain_name(&joint.name);
        map[t] = source
            .joints
            .iter()
            .position(|s| plain_name(&s.name) == key)
            .map(|s| JointId(s as u32));
    }
    // Humanoid parts under their different names (CMU `LeftUpLeg` ↔ Mixamo `mixamorig:LeftUpLeg`
    // ↔ Unreal `thigh_l`).
    let source_roles = humanoid_roles(source);
    let target_roles = humanoid_roles(target);
    for &(role, t) in &target_roles {
        if map[t.index()].is_none()
            && let Some(&(_, s)) = source_roles.iter().find(|(r, _)| *r == role)
        {
            map[t.index()] = Some(s);
        }
    }
    let role_of = |roles: &[(HumanoidRole, JointId)], wanted: HumanoidRole| {
        roles.iter().find(|(r, _)| *r == wanted).map(|(_, j)| *j)
    };
    // Spines and necks of different lengths: joints between two mapped ends, by proportion.
    for (from, to) in [
        (HumanoidRole::Hips, HumanoidRole::Neck),
        (HumanoidRole::Neck, HumanoidRole::Head),
    ] {
        if let (Some(ts), Some(te), Some(ss), Some(se)) = (
            role_of(&target_roles, from),
            role_of(&target_roles, to),
            role_of(&source_roles, from),
            role_of(&source_roles, to),
        ) {
            let target_chain = between(target, ts, te);
            let source_chain = between(source, ss, se);
            if source_chain.is_empty() {
                continue;
            }
            for (i, t) in target_chain.iter().enumerate() {
                if map[t.index()].is_none() {
                    let at = (i + 1) as f32 / (target_chain.len() + 1) as f32;
                    let k = (at * (source_chain.len() + 1) as f32).round() as usize;
                    map[t.index()] = Some(source_chain[k.clamp(1, source_chain.len()) - 1]);
                }
            }
        }
    }
    if map.iter().flatten().count() < 3 {
        map = by_hierarchy(source, target);
    }
    map
}

/// The joints strictly between `top` and its descendant `bottom`, top first; empty when
/// `bottom` is not below `top`.
fn between(skeleton: &Skeleton, top: JointId, bottom: JointId) -> Vec<JointId> {
    let mut chain = Vec::new();
    let mut at = skeleton.joints[bottom.index()].parent;
    while let Some(j) = at {
        if j == top {
            chain.reverse();
            return chain;
        }
        chain.push(j);
        at = skeleton.joints[j.index()].parent;
    }
    Vec::new()
}

fn plain_name(name: &str) -> String {
    let base = name.rsplit([':', '|']).next().unwrap_or(name);
    base.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Roots to roots, then children to the children whose sub-trees point the same way (relative
/// to each skeleton's size), greedily, as long as they agree (cosine above 0.5).
fn by_hierarchy(source: &Skeleton, target: &Skeleton) -> Vec<Option<JointId>> {
    let mut map = vec![None; target.joints.len()];
    let (Some(sr), Some(tr)) = (
        source.joints.iter().position(|j| j.parent.is_none()),
        target.joints.iter().position(|j| j.parent.is_none()),
    ) else {
        return map;
    };
    let source_dirs = subtree_directions(source);
    let target_dirs = subtree_directions(target);
    let mut pending = vec![(sr, tr)];
    while let Some((s, t)) = pending.pop() {
        map[t] = Some(JointId(s as u32));
        let children = |sk: &Skeleton, j: usize| -> Vec<usize> {
            (0..sk.joints.len())
                .filter(|&c| sk.joints[c].parent == Some(JointId(j as u32)))
                .collect()
        };
        let mut free = children(source, s);
        for tc in children(target, t) {
            let best = free
                .iter()
                .enumerate()
                .map(|(k, &sc)| (k, source_dirs[sc].dot(target_dirs[tc])))
                .filter(|(_, cos)| *cos > 0.5)
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((k, _)) = best {
                pending.push((free.swap_remove(k), tc));
            }
        }
    }
    map
}

/// For each joint, the unit direction from it to the mean of its sub-tree (zero for leaves).
fn subtree_directions(skeleton: &Skeleton) -> Vec<Vec3> {
    let n = skeleton.joints.len();
    let mut sum = vec![Vec3::ZERO; n];
    let mut count = vec![0.0f32; n];
    for k in (0..n).rev() {
        let p = skeleton.joints[k].position();
        let mut at = skeleton.joints[k].parent;
        while let Some(a) = at {
            sum[a.index()] += p;
            count[a.index()] += 1.0;
            at = skeleton.joints[a.index()].parent;
        }
    }
    (0..n)
        .map(|k| {
            if count[k] == 0.0 {
                Vec3::ZERO
            } else {
                (sum[k] / count[k] - skeleton.joints[k].position()).normalize_or_zero()
            }
        })
        .collect()
}

//! Changes a user makes to a skeleton by hand: move, add, delete, rename and re-parent joints.
//! Each keeps the skeleton's invariant (parents before children) and carries the skin weights
//! along, so the rig stays valid between re-skins.

use glam::{Mat4, Vec3};

use crate::rig::top_influences;
use crate::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};

/// Why an edit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("there is no joint {0}")]
    NoSuchJoint(u32),
    #[error("the root joint cannot be deleted")]
    DeleteRoot,
    #[error("'{joint}' cannot be parented to '{parent}', which is below it")]
    Cycle { joint: String, parent: String },
    #[error("a joint name cannot be empty")]
    EmptyName,
    #[error("the character has no skeleton to edit")]
    NoSkeleton,
    #[error("the position is not a finite point")]
    NotFinite,
    #[error("cannot paint weights: {0}")]
    Brush(String),
    #[error("the character has no skin weights to paint")]
    NoSkin,
}

fn check(skeleton: &Skeleton, joint: JointId) -> Result<(), EditError> {
    if joint.index() < skeleton.joints.len() {
        Ok(())
    } else {
        Err(EditError::NoSuchJoint(joint.0))
    }
}

/// Moves `joint` to `to`, as an edit-mode move: its children stay where they are.
pub fn move_joint(skeleton: &mut Skeleton, joint: JointId, to: Vec3) -> Result<(), EditError> {
    check(skeleton, joint)?;
    if !to.is_finite() {
        return Err(EditError::NotFinite);
    }
    skeleton.joints[joint.index()].world_bind.w_axis = to.extend(1.0);
    Ok(())
}

/// Adds a joint named `name` under `parent` at `at`; returns it. It owns no weights until
/// the next re-skin.
pub fn add_joint(
    skeleton: &mut Skeleton,
    parent: JointId,
    at: Vec3,
    name: &str,
) -> Result<JointId, EditError> {
    check(skeleton, parent)?;
    if !at.is_finite() {
        return Err(EditError::NotFinite);
    }
    if name.trim().is_empty() {
        return Err(EditError::EmptyName);
    }
    // Appending keeps parents first: the parent is already in the list.
    skeleton.joints.push(Joint {
        name: name.trim().to_owned(),
        parent: Some(parent),
        world_bind: Mat4::from_translation(at),
    });
    Ok(JointId(skeleton.joints.len() as u32 - 1))
}

pub fn rename_joint(skeleton: &mut Skeleton, joint: JointId, name: &str) -> Result<(), EditError> {
    check(skeleton, joint)?;
    if name.trim().is_empty() {
        return Err(EditError::EmptyName);
    }
    skeleton.joints[joint.index()].name = name.trim().to_owned();
    Ok(())
}

/// Removes the marked joints (roots are kept): their children and their weights go to the
/// nearest kept ancestor, so every vertex keeps weights summing as before.
pub fn remove_joints(skeleton: &mut Skeleton, skin: Option<&mut SkinWeights>, remove: &[bool]) {
    let count = skeleton.joints.len();
    let mut heir: Vec<usize> = (0..count).collect();
    for j in 0..count {
        if remove.get(j).copied().unwrap_or(false)
            && let Some(p) = skeleton.joints[j].parent
        {
            heir[j] = heir[p.index()];
        }
    }
    let mut new_index = vec![u32::MAX; count];
    let mut kept = Vec::new();
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if heir[j] == j {
            new_index[j] = kept.len() as u32;
            let mut joint = joint.clone();
            joint.parent = joint.parent.map(|p| JointId(new_index[heir[p.index()]]));
            kept.push(joint);
        }
    }
    if kept.len() == count {
        return;
    }
    skeleton.joints = kept;
    if let Some(skin) = skin {
        let remap = |i: &Influence| Influence {
            joint: JointId(new_index[heir[i.joint.index()]]),
            weight: i.weight,
        };
        *skin = remap_skin(skin, remap);
    }
}

/// Deletes `joint` (not a root): its children move up to its parent, its weights too.
pub fn delete_joint(
    skeleton: &mut Skeleton,
    skin: Option<&mut SkinWeights>,
    joint: JointId,
) -> Result<(), EditError> {
    check(skeleton, joint)?;
    if skeleton.joints[joint.index()].parent.is_none() {
        return Err(EditError::DeleteRoot);
    }
    let mut remove = vec![false; skeleton.joints.len()];
    remove[joint.index()] = true;
    remove_joints(skeleton, skin, &remove);
    Ok(())
}

/// Makes `parent` the parent of `joint`, then re-orders the joints so parents come first
/// again (weights follow their joints). Returns where `joint` ended up.
pub fn reparent_joint(
    skeleton: &mut Skeleton,
    skin: Option<&mut SkinWeights>,
    joint: JointId,
    parent: JointId,
) -> Result<JointId, EditError> {
    check(skeleton, joint)?;
    check(skeleton, parent)?;
    let mut at = Some(parent);
    while let Some(a) = at {
        if a == joint {
            return Err(EditError::Cycle {
                joint: skeleton.joints[joint.index()].name.clone(),
                parent: skeleton.joints[parent.index()].name.clone(),
            });
        }
        at = skeleton.joints[a.index()].parent;
    }
    skeleton.joints[joint.index()].parent = Some(parent);
    // Depth-first from the roots, children in their old order.
    let n = skeleton.joints.len();
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = (0..n)
        .filter(|&j| skeleton.joints[j].parent.is_none())
        .rev()
        .collect();
    while let Some(j) = stack.pop() {
        order.push(j);
        stack.extend(
            (0..n)
                .filter(|&c| skeleton.joints[c].parent == Some(JointId(j as u32)))
                .rev(),
        );
    }
    let mut new_index = vec![0u32; n];
    for (k, &j) in order.iter().enumerate() {
        new_index[j] = k as u32;
    }
    skeleton.joints = order
        .iter()
        .map(|&j| {
            let mut joint = skeleton.joints[j].clone();
            joint.parent = joint.parent.map(|p| JointId(new_index[p.index()]));
            joint
        })
        .collect();
    if let Some(skin) = skin {
        let remap = |i: &Influence| Influence {
            joint: JointId(new_index[i.joint.index()]),
            weight: i.weight,
        };
        *skin = remap_skin(skin, remap);
    }
    Ok(JointId(new_index[joint.index()]))
}

/// The same weights on renumbered joints, duplicates merged.
fn remap_skin(skin: &SkinWeights, remap: impl Fn(&Influence) -> Influence) -> SkinWeights {
    let mut out = SkinWeights::new();
    for v in 0..skin.vertex_count() {
        let moved: Vec<Influence> = skin.influences(v).iter().map(&remap).collect();
        out.push_vertex(top_influences(&moved, moved.len().max(1)));
    }
    out
}

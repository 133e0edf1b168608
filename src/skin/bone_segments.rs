//! Which part of space each joint claims: the segments from a joint to its children, since
//! a vertex near the bone from elbow to wrist is moved by the elbow joint.

use glam::Vec3;

use crate::rig::{JointId, Skeleton};

/// A segment whose nearby vertices follow `joint`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneSegment {
    pub joint: JointId,
    /// Whether `joint` is a root: a root's spokes to its children are often not bones at all
    /// (Blender's root bone points elsewhere; glTF keeps only the joints).
    pub from_root: bool,
    pub start: Vec3,
    pub end: Vec3,
}

impl BoneSegment {
    /// Distance from `p` to the nearest point of the segment.
    pub fn distance(&self, p: Vec3) -> f32 {
        let t = crate::mesh::segment_parameter(p, self.start, self.end);
        p.distance(self.start + (self.end - self.start) * t)
    }
}

/// Name endings that mark a leaf joint as the tip of its parent's bone (Mixamo's `_End`, 3ds
/// Max's `Nub`, BVH end sites), which deforms nothing.
const TIP_SUFFIXES: &[&str] = &["end", "nub"];

/// Name parts of rig controls that deform nothing: IK targets and pole vectors.
const CONTROL_WORDS: &[&str] = &["pole", "target", "ik", "pt", "ctrl", "control"];

/// True for a leaf joint whose name says it only marks where its parent's bone ends
/// (`HeadTop_End`, `LeftToe_End`, BVH end sites, `Spine_nub`). Other leaves (`head_leaf`,
/// `Ear_Tip_L`) own flesh in the training rigs, so they keep a stub.
pub fn is_end_tip(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let base = without_side(&lower);
    // The suffix must start a word: `Head_end`, `HeadEnd`, `end`, but not `Bend`.
    let original = &name[..base.len()];
    TIP_SUFFIXES.iter().any(|suffix| {
        let Some(start) = base.len().checked_sub(suffix.len()) else {
            return false;
        };
        base.ends_with(suffix)
            && (start == 0
                || original[start..].starts_with(|c: char| c.is_ascii_uppercase())
                || !original[..start].ends_with(|c: char| c.is_ascii_alphabetic()))
    })
}

/// `name` without a trailing side marker (`_l`, `.R`, `Left`, …).
fn without_side(lower: &str) -> &str {
    for side in ["left", "right", "l", "r"] {
        if let Some(rest) = lower.strip_suffix(side)
            && let Some(rest) = rest.strip_suffix(['_', '.', '-', ' '])
        {
            return rest;
        }
    }
    lower
        .strip_suffix("left")
        .or_else(|| lower.strip_suffix("right"))
        .unwrap_or(lower)
}

/// Which joints deform the mesh. Rigs carry controls that move other joints but own no flesh:
/// named IK targets and pole vectors, and leaves hanging straight off a root beside the real
/// hierarchy (an IK foot target parented to the root sits at the foot, but its bone from the
/// root would run down through the leg).
pub fn deforming_joints(skeleton: &Skeleton) -> Vec<bool> {
    let n = skeleton.joints.len();
    let mut children = vec![0usize; n];
    for bone in skeleton.bones() {
        children[bone.parent.index()] += 1;
    }
    let is_leaf = |i: usize| children[i] == 0;
    // A root with a real hierarchy under it: some child of it has children.
    let mut rooted_hierarchy = vec![false; n];
    for bone in skeleton.bones() {
        if !is_leaf(bone.child.index()) {
            rooted_hierarchy[bone.parent.index()] = true;
        }
    }
    let main_root_exists = skeleton
        .joints
        .iter()
        .enumerate()
        .any(|(i, j)| j.parent.is_none() && !is_leaf(i));
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(i, joint)| {
            let lower = joint.name.to_ascii_lowercase();
            let words: Vec<&str> = lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let named_control = CONTROL_WORDS
                .iter()
                .any(|c| words.iter().any(|w| w == c) || (c.len() > 2 && lower.contains(c)));
            let beside_root = match joint.parent {
                None => main_root_exists,
                Some(p) => {
                    skeleton.joints[p.index()].parent.is_none() && rooted_hierarchy[p.index()]
                }
            };
            let stray_leaf = is_leaf(i) && beside_root && shadows_another_joint(skeleton, i);
            !(named_control || stray_leaf)
        })
        .collect()
}

/// True when joint `i` sits on top of some other joint of the hierarchy (nearer to it than a
/// quarter of its distance from its parent): what an IK target placed on the foot it drives
/// looks like, and what a short tail off the hips does not.
fn shadows_another_joint(skeleton: &Skeleton, i: usize) -> bool {
    let joint = &skeleton.joints[i];
    let p = joint.position();
    let from_parent = joint
        .parent
        .and_then(|q| skeleton.joint(q))
        .map_or(f32::INFINITY, |q| q.position().distance(p));
    skeleton.joints.iter().enumerate().any(|(k, other)| {
        k != i
            && Some(JointId(k as u32)) != joint.parent
            && other.position().distance(p) < 0.25 * from_parent
    })
}

/// The segments of every deforming joint. Where the rig's joints point along their bones
/// ([`bone_axis`]), a joint's bone is the one its axis shows: to the children on that line, or
/// as far along it as its nearest child (the other children only hang off it — arms parented
/// to the hips own the chest, not the hips); a leaf's bone follows its own axis for its
/// parent's length. Without such an axis: one segment to each child, and for a leaf a stub
/// continuing its parent's direction for half the parent's length (a head or a hand without
/// fingers still owns the flesh beyond it). End tips own nothing; bones to and from controls
/// are left out. (Measured on the training groups and validation packs: the axis lowered L1
/// from 0.84 to 0.70 on robots of separate parts and from 0.47 to 0.39 on humans.)
pub fn bone_segments(skeleton: &Skeleton) -> Vec<BoneSegment> {
    let deforms = deforming_joints(skeleton);
    let n = skeleton.joints.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for bone in skeleton.bones() {
        if deforms[bone.child.index()] {
            children[bone.parent.index()].push(bone.child.index());
        }
    }
    let axis = bone_axis(skeleton, &children);
    let mut segments = Vec::new();
    for (i, kids) in children.iter().enumerate() {
        if kids.is_empty() || !deforms[i] {
            continue;
        }
        let joint = &skeleton.joints[i];
        let start = joint.position();
        let ends = match axis.map(|a| world_axis(joint, a)) {
            Some(along) => tails_along(skeleton, start, along, kids),
            None => kids
                .iter()
                .map(|&c| skeleton.joints[c].position())
                .collect(),
        };
        for end in ends {
            segments.push(BoneSegment {
                joint: JointId(i as u32),
                from_root: joint.parent.is_none(),
                start,
                end,
            });
        }
    }
    for (i, joint) in skeleton.joints.iter().enumerate() {
        let tip = is_end_tip(&joint.name) && joint.parent.is_some();
        if !children[i].is_empty() || tip || !deforms[i] {
            continue;
        }
        let start = joint.position();
        let mut stub = leaf_direction(skeleton, i).map_or(Vec3::ZERO, |d| d * 0.5);
        if let Some(a) = axis {
            // The rig says where the leaf points, unless that folds it back onto its parent
            // (a prop or attachment point, not a bone); as long as its parent's bone.
            let along = world_axis(joint, a);
            if stub.normalize_or_zero().dot(along) > FOLDED_BACK {
                stub = along * 2.0 * stub.length();
            }
        }
        segments.push(BoneSegment {
            joint: JointId(i as u32),
            from_root: false,
            start,
            end: start + stub,
        });
    }
    if segments.is_empty() {
        // Nothing looked like a deforming bone: bind to every joint rather than to none.
        segments = skeleton
            .joints
            .iter()
            .enumerate()
            .map(|(i, j)| BoneSegment {
                joint: JointId(i as u32),
                from_root: false,
                start: j.position(),
                end: j.position(),
            })
            .collect();
    }
    segments
}

/// A child lies along its parent's bone axis when their directions' cosine exceeds this.
const ALIGNED: f32 = 0.98;

/// A leaf whose axis makes a cosine below this with its parent's bone points back along it.
const FOLDED_BACK: f32 = -0.5;

/// Share of the one-child joints that must point at their child along one local axis for the
/// rig to count as having a bone axis.
const AXIS_AGREEMENT: f32 = 0.8;

/// The joint-local axis this rig's bones point along, if it has one: Blender's joints point
/// +Y at their tails (so do most rigs exported from it), other tools ±X. Found from the
/// joints with one child: most must point at it along the same axis. Generated skeletons,
/// whose joints are not turned, have none. `children` holds each joint's deforming children.
fn bone_axis(skeleton: &Skeleton, children: &[Vec<usize>]) -> Option<Vec3> {
    let axes = [
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        Vec3::NEG_X,
        Vec3::NEG_Y,
        Vec3::NEG_Z,
    ];
    let mut votes = [0usize; 6];
    let mut total = 0usize;
    for (joint, kids) in skeleton.joints.iter().zip(children) {
        let &[c] = kids.as_slice() else {
            continue;
        };
        let d = skeleton.joints[c].position() - joint.position();
        if d.length_squared() <= COINCIDENT * COINCIDENT {
            continue;
        }
        total += 1;
        let d = d.normalize();
        for (vote, axis) in votes.iter_mut().zip(axes) {
            if world_axis(joint, axis).dot(d) > ALIGNED {
                *vote += 1;
            }
        }
    }
    let (best, &most) = votes.iter().enumerate().max_by_key(|(_, v)| **v)?;
    (total >= 3 && most as f32 >= AXIS_AGREEMENT * total as f32).then(|| axes[best])
}

/// `axis` of `joint`'s bind frame in world space, unit length.
fn world_axis(joint: &crate::rig::Joint, axis: Vec3) -> Vec3 {
    joint.world_bind.transform_vector3(axis).normalize_or_zero()
}

/// Where the bone of a joint at `start` pointing `along` ends: at the children on that line
/// (Blender's connected child), else — the tail is not a joint, and the other children hang
/// off elsewhere (arms parented to the hips) — as far along it as the nearest child is.
fn tails_along(skeleton: &Skeleton, start: Vec3, along: Vec3, children: &[usize]) -> Vec<Vec3> {
    let offsets = children
        .iter()
        .map(|&c| skeleton.joints[c].position() - start)
        .filter(|d| d.length_squared() > COINCIDENT * COINCIDENT);
    let aligned: Vec<Vec3> = offsets
        .clone()
        .filter(|d| d.normalize().dot(along) > ALIGNED)
        .map(|d| start + d)
        .collect();
    if !aligned.is_empty() {
        return aligned;
    }
    let nearest = offsets.map(Vec3::length).fold(f32::INFINITY, f32::min);
    vec![start + along * if nearest.is_finite() { nearest } else { 0.0 }]
}

/// Where a leaf's bone would point: on from its parent, or, for a leaf exactly on top of its
/// parent (a Head placed at the Body's pivot), on along the parent's own bone. `None` for a
/// root or a chain of coincident joints. (Continuing the parent's bone for every short leaf
/// was measured too: a jaw joint under a head reached from a far root then claimed the head.)
fn leaf_direction(skeleton: &Skeleton, leaf: usize) -> Option<Vec3> {
    let start = skeleton.joints[leaf].position();
    let parent = skeleton.joint(skeleton.joints[leaf].parent?)?;
    let own = start - parent.position();
    if own.length_squared() > COINCIDENT * COINCIDENT {
        return Some(own);
    }
    let grandparent = skeleton.joint(parent.parent?)?;
    Some(parent.position() - grandparent.position())
        .filter(|up| up.length_squared() > COINCIDENT * COINCIDENT)
}

/// Joints nearer than this (in the rig's units; rigs are metres or centimetres) are at one
/// place.
const COINCIDENT: f32 = 1e-5;

#[cfg(test)]
mod tests {
    use glam::Mat4;

    use super::*;
    use crate::rig::Joint;

    /// A joint at height `y` on the vertical axis.
    fn joint(name: &str, parent: Option<u32>, y: f32) -> Joint {
        Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::new(0.0, y, 0.0)),
        }
    }

    #[test]
    fn joints_own_the_bones_to_their_children_and_tips_own_nothing() {
        let skeleton = Skeleton {
            joints: vec![
                joint("hips", None, 1.0),
                joint("spine", Some(0), 1.4),
                joint("head", Some(1), 1.6),
                joint("head_end", Some(2), 1.8),
                joint("tail", Some(0), 0.8),
            ],
        };
        let segments = bone_segments(&skeleton);
        let owned = |j: u32| segments.iter().filter(|s| s.joint == JointId(j)).count();
        assert_eq!(
            (owned(0), owned(1), owned(2), owned(3), owned(4)),
            (2, 1, 1, 0, 1)
        );
        let tail = segments.iter().find(|s| s.joint == JointId(4)).unwrap();
        assert!(tail.end.abs_diff_eq(Vec3::new(0.0, 0.7, 0.0), 1e-6));
        assert!((tail.distance(Vec3::new(1.0, 0.75, 0.0)) - 1.0).abs() < 1e-6);
    }

    /// A Blender-style rig: every joint's +Y points along its bone (`along`).
    fn turned(name: &str, parent: Option<u32>, at: [f32; 3], along: Vec3) -> Joint {
        Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_rotation_translation(
                glam::Quat::from_rotation_arc(Vec3::Y, along.normalize()),
                Vec3::from(at),
            ),
        }
    }

    /// Hips pointing up at the spine, with an arm and a leg hung straight off them (as low-poly
    /// packs rig them); the hand points on along the arm, the foot forward.
    fn hung_limbs(turn: bool) -> Skeleton {
        let j = |name, parent, at, along: Vec3| {
            let joint = turned(name, parent, at, along);
            if turn {
                joint
            } else {
                Joint {
                    world_bind: Mat4::from_translation(Vec3::from(at)),
                    ..joint
                }
            }
        };
        Skeleton {
            joints: vec![
                j("hips", None, [0.0, 1.0, 0.0], Vec3::Y),
                j("spine", Some(0), [0.0, 1.5, 0.0], Vec3::Y),
                j("head", Some(1), [0.0, 2.0, 0.0], Vec3::Y),
                j("arm.L", Some(0), [0.4, 1.8, 0.0], Vec3::X),
                j("hand.L", Some(3), [0.8, 1.8, 0.0], Vec3::X),
                j("leg.L", Some(0), [0.1, 0.9, 0.0], Vec3::NEG_Y),
                j("foot.L", Some(5), [0.1, 0.1, 0.0], Vec3::Z),
            ],
        }
    }

    #[test]
    fn turned_joints_own_the_bone_their_axis_shows() {
        let segments = bone_segments(&hung_limbs(true));
        let of = |j: u32| -> Vec<&BoneSegment> {
            segments.iter().filter(|s| s.joint == JointId(j)).collect()
        };
        // The hips' bone runs up to the spine only: the arm's spoke crosses the chest.
        let hips = of(0);
        assert_eq!(hips.len(), 1, "{hips:?}");
        assert!(hips[0].end.abs_diff_eq(Vec3::new(0.0, 1.5, 0.0), 1e-5));
        // Leaves follow their own axis for their parent's length.
        let hand = of(4);
        assert!(
            hand[0].end.abs_diff_eq(Vec3::new(1.2, 1.8, 0.0), 1e-5),
            "{hand:?}"
        );
        let foot = of(6);
        assert!(
            foot[0].end.abs_diff_eq(Vec3::new(0.1, 0.1, 0.8), 1e-5),
            "{foot:?}"
        );
        // The same joints unturned: no axis to read, so a segment to every child.
        let plain = bone_segments(&hung_limbs(false));
        assert_eq!(plain.iter().filter(|s| s.joint == JointId(0)).count(), 3);
    }

    #[test]
    fn a_turned_joint_whose_axis_misses_its_children_owns_a_bone_along_it() {
        // Hips lying flat, pointing forward (a Blender root bone): none of their children is
        // on that line, so their bone runs forward as far as the nearest child (the leg) is.
        let mut skeleton = hung_limbs(true);
        skeleton.joints[0] = turned("hips", None, [0.0, 1.0, 0.0], Vec3::Z);
        // A hand turned back onto its arm is an attachment point: it continues the arm.
        skeleton.joints[4] = turned("hand.L", Some(3), [0.8, 1.8, 0.0], Vec3::NEG_X);
        let segments = bone_segments(&skeleton);
        let hand = segments.iter().find(|s| s.joint == JointId(4)).unwrap();
        assert!(
            hand.end.abs_diff_eq(Vec3::new(1.0, 1.8, 0.0), 1e-5),
            "{hand:?}"
        );
        let hips: Vec<_> = segments.iter().filter(|s| s.joint == JointId(0)).collect();
        assert_eq!(hips.len(), 1, "{hips:?}");
        let nearest = 0.1f32.hypot(0.1);
        assert!(
            hips[0].end.abs_diff_eq(Vec3::new(0.0, 1.0, nearest), 1e-5),
            "{hips:?}"
        );
    }

    #[test]
    fn a_leaf_on_top_of_its_parent_continues_the_chain() {
        // Root on the floor, the body at 0.4 and its head bone at the body's own pivot.
        let skeleton = Skeleton {
            joints: vec![
                joint("Root", None, 0.0),
                joint("Body", Some(0), 0.4),
                joint("Head", Some(1), 0.4),
            ],
        };
        let segments = bone_segments(&skeleton);
        let head = segments.iter().find(|s| s.joint == JointId(2)).unwrap();
        assert!(
            head.end.abs_diff_eq(Vec3::new(0.0, 0.6, 0.0), 1e-6),
            "{head:?}"
        );
    }

    #[test]
    fn controls_and_tips_are_recognised() {
        for tip in ["HeadTop_End", "Tail_End.L", "LeftToe_End", "Spine_nub"] {
            assert!(is_end_tip(tip), "{tip}");
        }
        for not_tip in [
            "Head",
            "LeftHand",
            "Spine2",
            "Bend.L",
            "Ear_Tip_L",
            "head_leaf",
        ] {
            assert!(!is_end_tip(not_tip), "{not_tip}");
        }
        let joint = |name: &str, parent: Option<u32>, at: [f32; 3]| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::from(at)),
        };
        // root → body → leg → ankle; an IK foot target off the root sits on the ankle, a
        // pole target floats; a tail and an eye are real leaves.
        let skeleton = Skeleton {
            joints: vec![
                joint("Root", None, [0.0, 0.0, 0.0]),
                joint("Body", Some(0), [0.0, 1.0, 0.0]),
                joint("Leg.L", Some(1), [0.2, 0.9, 0.0]),
                joint("Ankle.L", Some(2), [0.2, 0.1, 0.0]),
                joint("Foot.L", Some(0), [0.2, 0.12, 0.0]),
                joint("PT.L", Some(0), [0.2, 0.5, 1.0]),
                joint("Eye", Some(1), [0.0, 1.6, 0.1]),
                joint("PoleTarget.R", Some(1), [-0.2, 0.5, 1.0]),
                joint("Tail", Some(0), [0.0, 0.0, -0.3]),
                joint("FootIK.R", None, [-0.2, 0.1, 0.0]),
            ],
        };
        assert_eq!(
            deforming_joints(&skeleton),
            vec![
                true, true, true, true, false, false, true, false, true, false
            ]
        );
    }
}

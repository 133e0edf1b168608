//! Retargeting: a motion recorded on one skeleton (a BVH file, another character's glTF clip)
//! played on a character's own skeleton.
//!
//! Each driven joint copies its source joint's world rotation *change* since the source's rest
//! pose, after a rest-pose alignment that turns the character's bone onto the source's rest
//! direction — so a T-pose capture drives an A-pose character and both end up in the same
//! pose. Bone lengths stay the character's; the root travels as far as the source's, scaled by
//! the ratio of hip heights (leg length), and feet can be kept above the ground.

use glam::{Mat4, Quat, Vec3};

use super::joint_map::joint_map;
use crate::Character;
use crate::io::ImportError;
use crate::io::bvh::Bvh;
use crate::rig::{Clip, Transform, rest_locals};
use crate::rig::{HumanoidRole, JointId, Skeleton, humanoid_roles};

/// Frames per second of retargeted clips: smooth to the eye, small to export.
pub const RETARGET_FPS: f32 = 30.0;
/// Most frames a retargeted clip keeps (10 minutes at 30 fps).
const MAX_FRAMES: usize = 18_000;

/// A motion to retarget: its skeleton at rest and every joint's world transform per frame.
#[derive(Debug, Clone)]
pub struct SourceMotion {
    pub name: String,
    pub skeleton: Skeleton,
    pub times: Vec<f32>,
    /// Per frame, one world matrix per joint of `skeleton`.
    pub world: Vec<Vec<Mat4>>,
}

/// Why a motion cannot drive a skeleton.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RetargetError {
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error("'{name}' has no animation clip to retarget")]
    NoClip { name: String },
    #[error("'{name}' has {clips} clips; there is no clip {index}")]
    NoSuchClip {
        name: String,
        clips: usize,
        index: usize,
    },
    #[error("'{0}' has no frames to play")]
    NoFrames(String),
    #[error("no joint of '{0}' could be matched to the character's skeleton")]
    NothingMatched(String),
    #[error("the character has no skeleton to move")]
    NoSkeleton,
}

impl SourceMotion {
    /// Clip `clip` of `other`, a rigged character read from the file `name` (the BVH captures
    /// and the files read by [`crate::read::motion`]).
    ///
    /// # Errors
    /// [`RetargetError::NoClip`] or [`RetargetError::NoSuchClip`] when it holds no such clip.
    pub fn from_character(
        other: &Character,
        name: &str,
        clip: usize,
    ) -> Result<Self, RetargetError> {
        let (Some(skeleton), false) = (&other.skeleton, other.animations.is_empty()) else {
            return Err(RetargetError::NoClip { name: name.into() });
        };
        let found = other
            .animations
            .get(clip)
            .ok_or_else(|| RetargetError::NoSuchClip {
                name: name.into(),
                clips: other.animations.len(),
                index: clip,
            })?;
        Self::from_clip(skeleton, found)
    }

    /// This motion seen in a world turned by `turn` (its skeleton and every frame).
    fn turned(&self, turn: Quat) -> Self {
        let m = Mat4::from_quat(turn);
        let mut out = self.clone();
        for joint in &mut out.skeleton.joints {
            joint.world_bind = m * joint.world_bind;
        }
        for w in out.world.iter_mut().flatten() {
            *w = m * *w;
        }
        out
    }

    /// A BVH capture, resampled at [`RETARGET_FPS`]. End sites become tip joints.
    pub fn from_bvh(bvh: &Bvh, name: &str) -> Result<Self, RetargetError> {
        let skeleton = bvh.to_skeleton();
        let frames = bvh.frame_count();
        if frames == 0 || bvh.frame_time.is_nan() || bvh.frame_time <= 0.0 {
            return Err(RetargetError::NoFrames(name.to_owned()));
        }
        let duration = bvh.frame_time * (frames - 1) as f32;
        let mut times = Vec::new();
        let mut world = Vec::new();
        for k in 0..MAX_FRAMES {
            let t = k as f32 / RETARGET_FPS;
            if t > duration + 1e-6 {
                break;
            }
            let frame = ((t / bvh.frame_time).round() as usize).min(frames - 1);
            let Some(joints) = bvh.world_transforms(frame) else {
                break;
            };
            // End sites follow their joint rigidly, in the order `to_skeleton` put them.
            let mut all = Vec::with_capacity(skeleton.joints.len());
            for (j, m) in bvh.joints.iter().zip(joints) {
                all.push(m);
                if let Some(tip) = j.end_site {
                    all.push(m * Mat4::from_translation(tip));
                }
            }
            times.push(t);
            world.push(all);
        }
        Ok(Self {
            name: name.to_owned(),
            skeleton,
            times,
            world,
        })
    }

    /// A clip of another character, on that character's skeleton.
    pub fn from_clip(skeleton: &Skeleton, clip: &Clip) -> Result<Self, RetargetError> {
        if clip.frame_count() == 0 || !clip.fits(skeleton) {
            return Err(RetargetError::NoFrames(clip.name.clone()));
        }
        let start = clip.times[0];
        let frames = clip.frame_count().min(MAX_FRAMES);
        Ok(Self {
            name: clip.name.clone(),
            skeleton: skeleton.clone(),
            times: clip.times[..frames].iter().map(|t| t - start).collect(),
            world: (0..frames)
                .map(|f| clip.world_matrices(skeleton, f))
                .collect(),
        })
    }
}

/// Choices when retargeting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetargetOptions {
    /// Lift the character in frames where a foot would sink below its rest height.
    pub keep_feet_above_ground: bool,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        Self {
            keep_feet_above_ground: true,
        }
    }
}

/// `source` played on `target`: a clip of `target`'s joints. Each skeleton's up axis is found
/// from its body ([`up_axis`]); a source whose up differs (a Z-up capture on a Y-up
/// character) is first turned into the target's frame, so axes and units never matter.
pub fn retarget(
    source: &SourceMotion,
    target: &Skeleton,
    options: &RetargetOptions,
) -> Result<Clip, RetargetError> {
    if target.joints.is_empty() {
        return Err(RetargetError::NoSkeleton);
    }
    if source.world.is_empty() {
        return Err(RetargetError::NoFrames(source.name.clone()));
    }
    let up = up_axis(target);
    let turn = Quat::from_rotation_arc(up_axis(&source.skeleton), up);
    let turned;
    let source = if turn.angle_between(Quat::IDENTITY) > 1e-6 {
        turned = source.turned(turn);
        &turned
    } else {
        source
    };
    let map = joint_map(&source.skeleton, target);
    if map.iter().all(Option::is_none) {
        return Err(RetargetError::NothingMatched(source.name.clone()));
    }
    let alignment = alignments(&source.skeleton, target, &map);
    let rest = rest_locals(target);
    let source_rest: Vec<(Vec3, Quat, Vec3)> = source
        .skeleton
        .joints
        .iter()
        .map(|j| j.world_bind.to_scale_rotation_translation())
        .collect();
    let target_rest: Vec<(Vec3, Quat, Vec3)> = target
        .joints
        .iter()
        .map(|j| j.world_bind.to_scale_rotation_translation())
        .collect();
    let mover = root_motion_joint(source, &map, up);
    let stride = hip_height(target, up) / hip_height(&source.skeleton, up).max(1e-9);
    let feet = feet(target, up);
    let mut posed: Vec<Vec<Mat4>> = Vec::with_capacity(source.world.len());
    for frame in &source.world {
        let world = target.world_with(|t, parent| {
            let (scale, rest_rotation, rest_position) = target_rest[t];
            let inherited = parent * rest[t].to_mat4();
            let (_, inherited_rotation, inherited_position) =
                inherited.to_scale_rotation_translation();
            let rotation = match map[t] {
                Some(s) => {
                    let (_, now, _) = frame[s.index()].to_scale_rotation_translation();
                    let change = now * source_rest[s.index()].1.inverse();
                    (change * alignment[t] * rest_rotation).normalize()
                }
                None => inherited_rotation,
            };
            let position = match (mover, map[t]) {
                (Some(m), Some(s)) if m == t => {
                    let moved = frame[s.index()].w_axis.truncate() - source_rest[s.index()].2;
                    rest_position + moved * stride
                }
                _ => inherited_position,
            };
            Mat4::from_scale_rotation_translation(scale, rotation, position)
        });
        posed.push(world);
    }
    if options.keep_feet_above_ground
        && let Some(m) = mover
        && !feet.is_empty()
    {
        put_feet_on_ground(target, &mut posed, &feet, m, up);
    }
    let mut locals = Vec::with_capacity(posed.len() * target.joints.len());
    for world in &posed {
        let frame = target.locals_from_world(world);
        locals.extend(frame.into_iter().map(Transform::from_mat4));
    }
    Ok(Clip {
        name: source.name.clone(),
        times: source.times.clone(),
        joint_count: target.joints.len(),
        locals,
        morph_weights: Vec::new(),
    })
}

/// Per target joint, the rotation that turns its rest bone onto the source's rest bone: from
/// the joint towards its nearest driven descendant, in both skeletons. Joints without one
/// (hands, heads, tips) take their parent's, so they stay in line with the limb.
fn alignments(source: &Skeleton, target: &Skeleton, map: &[Option<JointId>]) -> Vec<Quat> {
    let mut out = vec![Quat::IDENTITY; target.joints.len()];
    for t in 0..target.joints.len() {
        let inherited = target.joints[t]
            .parent
            .map_or(Quat::IDENTITY, |p| out[p.index()]);
        out[t] = match map[t] {
            Some(s) => nearest_driven_descendant(target, map, t)
                .and_then(|(tc, sc)| {
                    let dt = (target.joints[tc].position() - target.joints[t].position())
                        .try_normalize()?;
                    let ds = (source.joints[sc.index()].position()
                        - source.joints[s.index()].position())
                    .try_normalize()?;
                    Some(Quat::from_rotation_arc(dt, ds))
                })
                .unwrap_or(inherited),
            None => inherited,
        };
    }
    out
}

/// The first driven joint below `t` (breadth first) and the source joint driving it.
fn nearest_driven_descendant(
    target: &Skeleton,
    map: &[Option<JointId>],
    t: usize,
) -> Option<(usize, JointId)> {
    let mut frontier = vec![t];
    while !frontier.is_empty() {
        let next: Vec<usize> = (0..target.joints.len())
            .filter(|&c| {
                target.joints[c]
                    .parent
                    .is_some_and(|p| frontier.contains(&p.index()))
            })
            .collect();
        if let Some(&c) = next.iter().find(|&&c| map[c].is_some()) {
            return map[c].map(|s| (c, s));
        }
        frontier = next;
    }
    None
}

/// The driven joint that carries the root motion: the one nearest the source's root whose own
/// translation moves during the clip (hips under a static root), else the nearest driven one.
fn root_motion_joint(source: &SourceMotion, map: &[Option<JointId>], up: Vec3) -> Option<usize> {
    let sk = &source.skeleton;
    let depth = |j: usize| {
        std::iter::successors(Some(j), |&k| sk.joints[k].parent.map(|p| p.index())).count()
    };
    let rest = rest_locals(sk);
    let still = 1e-4 * hip_height(sk, up);
    let translates = |s: usize| {
        source.world.iter().any(|frame| {
            let parent = sk.joints[s]
                .parent
                .map_or(Mat4::IDENTITY, |p| frame[p.index()]);
            let local = (parent.inverse() * frame[s]).w_axis.truncate();
            local.distance(rest[s].translation) > still
        })
    };
    let driven: Vec<usize> = (0..map.len()).filter(|&t| map[t].is_some()).collect();
    let source_of = |t: usize| map[t].map_or(0, |s| s.index());
    driven
        .iter()
        .copied()
        .filter(|&t| translates(source_of(t)))
        .min_by_key(|&t| depth(source_of(t)))
        .or_else(|| driven.iter().copied().min_by_key(|&t| depth(source_of(t))))
}

/// Which world axis is up for `skeleton`: the principal axis nearest the direction from its
/// feet to its hips when the legs are named (bipeds and quadrupeds alike stand on them); +Y,
/// glTF's up, otherwise.
fn up_axis(skeleton: &Skeleton) -> Vec3 {
    let roles = humanoid_roles(skeleton);
    let position = |j: JointId| skeleton.joints[j.index()].position();
    let hips = roles.iter().find(|(r, _)| *r == HumanoidRole::Hips);
    let feet: Vec<Vec3> = (roles.iter())
        .filter(|(r, _)| matches!(r, HumanoidRole::Foot(_)))
        .map(|&(_, j)| position(j))
        .collect();
    let (Some(&(_, hips)), false) = (hips, feet.is_empty()) else {
        return Vec3::Y;
    };
    let d = position(hips) - feet.iter().sum::<Vec3>() / feet.len() as f32;
    let a = d.abs();
    if !d.is_finite() || a.max_element() <= 0.0 {
        Vec3::Y
    } else if a.x >= a.y && a.x >= a.z {
        Vec3::X * d.x.signum()
    } else if a.y >= a.z {
        Vec3::Y * d.y.signum()
    } else {
        Vec3::Z * d.z.signum()
    }
}

/// How high the hips stand above the lowest joint along `up`: the leg length that scales
/// root motion.
fn hip_height(skeleton: &Skeleton, up: Vec3) -> f32 {
    let lowest = skeleton
        .joints
        .iter()
        .map(|j| j.position().dot(up))
        .fold(f32::INFINITY, f32::min);
    let hips = humanoid_roles(skeleton)
        .into_iter()
        .find(|(r, _)| *r == HumanoidRole::Hips)
        .map(|(_, j)| j.index())
        .or_else(|| skeleton.joints.iter().position(|j| j.parent.is_none()));
    hips.map_or(1.0, |h| {
        (skeleton.joints[h].position().dot(up) - lowest).max(1e-6)
    })
}

/// The joints that touch the ground: feet and toes when named, else the lowest tips along
/// `up`.
fn feet(skeleton: &Skeleton, up: Vec3) -> Vec<JointId> {
    let named: Vec<JointId> = humanoid_roles(skeleton)
        .into_iter()
        .filter(|(r, _)| matches!(r, HumanoidRole::Foot(_) | HumanoidRole::Toes(_)))
        .map(|(_, j)| j)
        .collect();
    if !named.is_empty() {
        return named;
    }
    let lowest = skeleton
        .joints
        .iter()
        .map(|j| j.position().dot(up))
        .fold(f32::INFINITY, f32::min);
    let highest = skeleton
        .joints
        .iter()
        .map(|j| j.position().dot(up))
        .fold(f32::NEG_INFINITY, f32::max);
    let reach = lowest + 0.05 * (highest - lowest);
    (0..skeleton.joints.len())
        .filter(|&j| skeleton.joints[j].position().dot(up) <= reach)
        .map(|j| JointId(j as u32))
        .collect()
}

/// Foot-contact cleanup: moves the character (joint `mover` and below) up or down so that its
/// feet stand on their rest height in the frames where they are lowest (the motion's floor,
/// taken robustly as the fifth-lowest percentile of each frame's lowest foot), then lifts any
/// frame where a foot would still sink below it.
fn put_feet_on_ground(
    target: &Skeleton,
    posed: &mut [Vec<Mat4>],
    feet: &[JointId],
    mover: usize,
    up: Vec3,
) {
    let ground = feet
        .iter()
        .map(|f| target.joints[f.index()].position().dot(up))
        .fold(f32::INFINITY, f32::min);
    let lowest = |world: &[Mat4]| {
        feet.iter()
            .map(|f| world[f.index()].w_axis.truncate().dot(up))
            .fold(f32::INFINITY, f32::min)
    };
    let mut floors: Vec<f32> = posed.iter().map(|w| lowest(w)).collect();
    floors.sort_by(f32::total_cmp);
    let floor = floors[floors.len() / 20];
    for world in posed.iter_mut() {
        let shift = ground - floor;
        let sink = (ground - (lowest(world) + shift)).max(0.0);
        lift_subtree(target, world, mover, up * (shift + sink));
    }
}

/// Moves joint `top` and everything below it by `by`.
fn lift_subtree(skeleton: &Skeleton, world: &mut [Mat4], top: usize, by: Vec3) {
    let mut inside = vec![false; skeleton.joints.len()];
    inside[top] = true;
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if joint.parent.is_some_and(|p| inside[p.index()]) {
            inside[j] = true;
        }
        if inside[j] {
            world[j].w_axis += by.extend(0.0);
        }
    }
}

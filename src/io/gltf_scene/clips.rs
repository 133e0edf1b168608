//! glTF animations → [`Clip`]s over the merged skeleton.
//!
//! glTF animates nodes, each channel with its own key times and interpolation; a clip here is
//! every joint's transform relative to its parent *joint* at the union of those key times. Nodes
//! between joints that were dropped from the skeleton (an armature object, a scaled root) are
//! folded into the joint below them, animated or not, so the clip moves the joints exactly as
//! the file did. Morph target weight channels of the character's meshes become the clip's
//! morph weights, in the merged mesh's target order.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3, Vec4};
use gltf::Document;
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation, Property, util::ReadOutputs};
use gltf::json::validation::Checked;

use super::hierarchy::Hierarchy;
use super::primitive::TargetSlots;
use crate::Limits;
use crate::io::accessor_check;
use crate::rig::{Clip, Transform};
use crate::rig::{JointId, Skeleton, forward_kinematics};

/// Key times closer than this (seconds) are one frame.
const SAME_TIME: f32 = 1e-5;

/// The character's morph targets as glTF animates them.
pub struct Morphs<'a> {
    /// Where each glTF mesh's targets went in the merged mesh.
    pub slots: &'a TargetSlots,
    /// Each merged target's rest weight: what a clip that does not key it holds.
    pub rest: Vec<f32>,
}

/// Every animation of `document` that moves at least one joint of `skeleton` or weight of the
/// character's morph targets; animations and channels that cannot be used are skipped with a
/// warning.
pub fn read_clips(
    document: &Document,
    buffers: &[Vec<u8>],
    hierarchy: &Hierarchy,
    (skeleton, joint_of_node): (&Skeleton, &HashMap<usize, JointId>),
    morphs: &Morphs<'_>,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Vec<Clip> {
    if skeleton.joints.is_empty() {
        return Vec::new();
    }
    let rig = RigNodes::new(document, hierarchy, skeleton, joint_of_node);
    let mut budget = limits.max_animation_keys;
    let mut clips = Vec::new();
    for animation in document.animations() {
        let name = animation
            .name()
            .map_or_else(|| format!("animation {}", animation.index()), str::to_owned);
        let mut skipped = Vec::new();
        let mut outside = 0usize;
        let mut tracks = Vec::new();
        for channel in animation.channels() {
            let Some((node, property)) = target(document, &channel) else {
                skipped.push(format!(
                    "channel {}: its target is not a node property glTF animates",
                    channel.index()
                ));
                continue;
            };
            if property == Property::MorphTargetWeights {
                match Track::read_weights(document, &channel, node, morphs.slots, buffers) {
                    Ok(weights) => tracks.extend(weights),
                    Err(reason) => skipped.push(format!("channel {}: {reason}", channel.index())),
                }
                continue;
            }
            if !rig.moves_skeleton[node] {
                outside += 1;
                continue;
            }
            match Track::read(&channel, node, property, buffers) {
                Ok(track) => tracks.push(track),
                Err(reason) => skipped.push(format!("channel {}: {reason}", channel.index())),
            }
        }
        if outside > 0 {
            warnings.push(format!(
                "animation '{name}': {outside} channels move nodes outside the skeleton and are not kept"
            ));
        }
        if let Some(reason) = skipped.first() {
            warnings.push(format!(
                "animation '{name}': skipped {} channels ({reason})",
                skipped.len()
            ));
        }
        if tracks.is_empty() {
            continue;
        }
        let max_frames = budget / skeleton.joints.len();
        let Some((times, resampled)) = frame_times(&tracks, max_frames) else {
            warnings.push(format!(
                "animation '{name}' was dropped: the animation limit of {} joint keys is used up",
                limits.max_animation_keys
            ));
            continue;
        };
        if resampled {
            warnings.push(format!(
                "animation '{name}' was resampled to {} frames to stay within {} joint keys",
                times.len(),
                limits.max_animation_keys
            ));
        }
        budget -= times.len() * skeleton.joints.len();
        clips.push(rig.sample(name, &tracks, times, &morphs.rest));
    }
    clips
}

/// The nodes that matter to the skeleton and how to get from node transforms to joint-local
/// ones.
struct RigNodes<'h> {
    hierarchy: &'h Hierarchy,
    /// Per node: it is a joint or an ancestor of one, so animating it moves the skeleton.
    moves_skeleton: Vec<bool>,
    /// Nodes that move the skeleton, parents first.
    order: Vec<usize>,
    /// Per node: its default local transform, as the matrix and as the parts it animates.
    rest_matrix: Vec<Mat4>,
    rest: Vec<Transform>,
    /// Per joint: its node, its parent joint's node, and whether that is also its glTF parent
    /// (then the joint's local transform is the node's own, exactly).
    joint_nodes: Vec<(usize, Option<usize>, bool)>,
}

impl<'h> RigNodes<'h> {
    fn new(
        document: &Document,
        hierarchy: &'h Hierarchy,
        skeleton: &Skeleton,
        joint_of_node: &HashMap<usize, JointId>,
    ) -> Self {
        let count = hierarchy.parent.len();
        let mut moves_skeleton = vec![false; count];
        let mut node_of_joint = vec![0usize; skeleton.joints.len()];
        for (&node, joint) in joint_of_node {
            node_of_joint[joint.index()] = node;
            let mut n = Some(node);
            while let Some(i) = n.filter(|&i| !moves_skeleton[i]) {
                moves_skeleton[i] = true;
                n = hierarchy.parent[i];
            }
        }
        let order = hierarchy
            .order
            .iter()
            .copied()
            .filter(|&n| moves_skeleton[n])
            .collect();
        let mut rest_matrix = vec![Mat4::IDENTITY; count];
        let mut rest = vec![Transform::IDENTITY; count];
        for node in document.nodes() {
            let (t, r, s) = node.transform().decomposed();
            rest_matrix[node.index()] = Mat4::from_cols_array_2d(&node.transform().matrix());
            rest[node.index()] = Transform {
                translation: Vec3::from(t),
                rotation: Quat::from_array(r),
                scale: Vec3::from(s),
            };
        }
        let joint_nodes = skeleton
            .joints
            .iter()
            .zip(&node_of_joint)
            .map(|(joint, &node)| {
                let parent = joint.parent.map(|p| node_of_joint[p.index()]);
                (node, parent, hierarchy.parent[node] == parent)
            })
            .collect();
        Self {
            hierarchy,
            moves_skeleton,
            order,
            rest_matrix,
            rest,
            joint_nodes,
        }
    }

    /// The clip of `tracks` sampled at `times`; morph targets no track keys hold `rest`.
    fn sample(&self, name: String, tracks: &[Track], times: Vec<f32>, rest: &[f32]) -> Clip {
        let joint_count = self.joint_nodes.len();
        let mut locals = Vec::with_capacity(times.len() * joint_count);
        let (weights, tracks): (Vec<&Track>, Vec<&Track>) =
            (tracks.iter()).partition(|t| t.property == Property::MorphTargetWeights);
        let mut morph_weights = Vec::new();
        let mut node_local: Vec<Option<Transform>> = vec![None; self.rest.len()];
        for &t in &times {
            if !weights.is_empty() {
                let first = morph_weights.len();
                morph_weights.extend_from_slice(rest);
                for track in &weights {
                    morph_weights[first + track.slot] = track.value_at(t).x;
                }
            }
            node_local.fill(None);
            for track in &tracks {
                let local = node_local[track.node].get_or_insert(self.rest[track.node]);
                track.apply(t, local);
            }
            let world = forward_kinematics(
                self.rest.len(),
                self.order.iter().copied(),
                |n| self.hierarchy.parent[n],
                |n, parent| parent * node_local[n].map_or(self.rest_matrix[n], Transform::to_mat4),
            );
            let first = locals.len();
            for &(node, parent, direct) in &self.joint_nodes {
                let local = if direct {
                    node_local[node].unwrap_or(self.rest[node])
                } else {
                    let parent = parent.map_or(Mat4::IDENTITY, |p| world[p]);
                    Transform::from_mat4(parent.inverse() * world[node])
                };
                locals.push(local);
            }
            // Keep each joint's rotation on the same hemisphere as its previous key, so that
            // interpolating between keys never takes the long way round.
            if first >= joint_count {
                for j in 0..joint_count {
                    let previous = locals[first - joint_count + j].rotation;
                    let current = &mut locals[first + j].rotation;
                    if previous.dot(*current) < 0.0 {
                        *current = -*current;
                    }
                }
            }
        }
        Clip {
            name,
            times,
            joint_count,
            locals,
            morph_weights,
        }
    }
}

/// A channel's target node and property, if the file names a node it has and a property
/// glTF animates: the `gltf` crate validates neither, and panics reading them otherwise (an
/// extension's path such as `pointer` among them).
fn target(
    document: &Document,
    channel: &gltf::animation::Channel<'_>,
) -> Option<(usize, Property)> {
    let json = document.as_json();
    let animation = json.animations.get(channel.animation().index())?;
    let target = &animation.channels.get(channel.index())?.target;
    let node = target.node.value();
    match target.path {
        Checked::Valid(property) if node < json.nodes.len() => Some((node, property)),
        _ => None,
    }
}

/// One channel's keys: times and values (for cubic splines, in-tangent, value, out-tangent per
/// key), as 4-vectors whatever the property; a morph weight channel is one track per target.
struct Track {
    node: usize,
    property: Property,
    /// For a morph weight track, the merged mesh's target it keys (else 0).
    slot: usize,
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<Vec4>,
}

impl Track {
    fn read(
        channel: &gltf::animation::Channel<'_>,
        node: usize,
        property: Property,
        buffers: &[Vec<u8>],
    ) -> Result<Self, String> {
        let sampler = channel.sampler();
        let output = sampler.output();
        let rotation_types = [
            DataType::F32,
            DataType::I8,
            DataType::U8,
            DataType::I16,
            DataType::U16,
        ];
        match property {
            Property::Rotation => accessor_check::check_kind(
                &output,
                buffers,
                "rotation",
                &rotation_types,
                Dimensions::Vec4,
            )?,
            _ => accessor_check::check_kind(
                &output,
                buffers,
                "animation output",
                &[DataType::F32],
                Dimensions::Vec3,
            )?,
        }
        let times = key_times(channel, buffers)?;
        let reader = channel.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
        let values: Vec<Vec4> = match reader.read_outputs() {
            Some(ReadOutputs::Translations(v) | ReadOutputs::Scales(v)) => {
                v.map(|[x, y, z]| Vec4::new(x, y, z, 0.0)).collect()
            }
            Some(ReadOutputs::Rotations(r)) => r.into_f32().map(Vec4::from_array).collect(),
            _ => return Err("its values cannot be read".into()),
        };
        if values.iter().any(|v| !v.is_finite()) {
            return Err("its values are not finite".into());
        }
        let interpolation = sampler.interpolation();
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != times.len() * per_key {
            return Err(format!("{} keys but {} values", times.len(), values.len()));
        }
        Ok(Self {
            node,
            property,
            slot: 0,
            interpolation,
            times,
            values,
        })
    }

    /// A morph weight channel on `node` as one track per target of the node's mesh that the
    /// character kept ([`TargetSlots`]); an error for a node without such targets.
    fn read_weights(
        document: &Document,
        channel: &gltf::animation::Channel<'_>,
        node: usize,
        slots: &TargetSlots,
        buffers: &[Vec<u8>],
    ) -> Result<Vec<Self>, String> {
        let mesh = (document.nodes().nth(node))
            .and_then(|n| n.mesh())
            .ok_or("it keys morph weights of a node without a mesh")?;
        let targets = mesh
            .primitives()
            .next()
            .map_or(0, |p| p.morph_targets().len());
        let kept: Vec<(usize, usize)> = (0..targets)
            .filter_map(|t| slots.get(&(mesh.index(), t)).map(|&slot| (t, slot)))
            .collect();
        if kept.is_empty() {
            return Err("it keys morph weights of a mesh that is not the character's".into());
        }
        let output = channel.sampler().output();
        let weight_types = [
            DataType::F32,
            DataType::I8,
            DataType::U8,
            DataType::I16,
            DataType::U16,
        ];
        let kind = "morph weights";
        accessor_check::check_kind(&output, buffers, kind, &weight_types, Dimensions::Scalar)?;
        let times = key_times(channel, buffers)?;
        let reader = channel.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
        let Some(ReadOutputs::MorphTargetWeights(values)) = reader.read_outputs() else {
            return Err("its values cannot be read".into());
        };
        let values: Vec<f32> = values.into_f32().collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err("its values are not finite".into());
        }
        let interpolation = channel.sampler().interpolation();
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != times.len() * per_key * targets {
            return Err(format!(
                "{} keys of {targets} weights but {} values",
                times.len(),
                values.len()
            ));
        }
        // Key k's part p (in-tangent, value, out-tangent) of target t is value (per_key·k + p)·targets + t.
        Ok((kept.into_iter())
            .map(|(t, slot)| Self {
                node,
                property: Property::MorphTargetWeights,
                slot,
                interpolation,
                times: times.clone(),
                values: (0..times.len() * per_key)
                    .map(|part| Vec4::new(values[part * targets + t], 0.0, 0.0, 0.0))
                    .collect(),
            })
            .collect())
    }

    /// The value of key `k` (skipping cubic-spline tangents).
    fn key(&self, k: usize) -> Vec4 {
        match self.interpolation {
            Interpolation::CubicSpline => self.values[3 * k + 1],
            _ => self.values[k],
        }
    }

    /// The channel's value at time `t`, held constant outside its keys.
    fn value_at(&self, t: f32) -> Vec4 {
        let next = self.times.partition_point(|&k| k <= t);
        if next == 0 {
            return self.key(0);
        }
        if next == self.times.len() {
            return self.key(next - 1);
        }
        let k = next - 1;
        let span = self.times[next] - self.times[k];
        let s = if span > 0.0 {
            (t - self.times[k]) / span
        } else {
            0.0
        };
        let (a, b) = (self.key(k), self.key(next));
        match self.interpolation {
            Interpolation::Step => a,
            Interpolation::Linear if self.property == Property::Rotation => {
                Vec4::from(Quat::from_vec4(a).slerp(Quat::from_vec4(b), s))
            }
            Interpolation::Linear => a.lerp(b, s),
            Interpolation::CubicSpline => {
                // Hermite spline with tangents scaled by the key spacing (glTF appendix C).
                let out_tangent = self.values[3 * k + 2] * span;
                let in_tangent = self.values[3 * next] * span;
                let (s2, s3) = (s * s, s * s * s);
                a * (2.0 * s3 - 3.0 * s2 + 1.0)
                    + out_tangent * (s3 - 2.0 * s2 + s)
                    + b * (-2.0 * s3 + 3.0 * s2)
                    + in_tangent * (s3 - s2)
            }
        }
    }

    /// Overwrites the animated part of `local` with this channel's value at `t`.
    fn apply(&self, t: f32, local: &mut Transform) {
        let v = self.value_at(t);
        match self.property {
            Property::Translation => local.translation = v.truncate(),
            Property::Scale => local.scale = v.truncate(),
            Property::Rotation => {
                let q = Quat::from_vec4(v);
                if q.length_squared() > 0.0 {
                    local.rotation = q.normalize();
                }
            }
            Property::MorphTargetWeights => {}
        }
    }
}

/// A channel's key times, checked finite and increasing.
fn key_times(
    channel: &gltf::animation::Channel<'_>,
    buffers: &[Vec<u8>],
) -> Result<Vec<f32>, String> {
    accessor_check::check_kind(
        &channel.sampler().input(),
        buffers,
        "animation input",
        &[DataType::F32],
        Dimensions::Scalar,
    )?;
    let reader = channel.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let times: Vec<f32> = reader
        .read_inputs()
        .ok_or("its key times cannot be read")?
        .collect();
    if times.is_empty() {
        return Err("it has no keys".into());
    }
    if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] < w[0]) {
        return Err("its key times are not finite and increasing".into());
    }
    Ok(times)
}

/// The union of the tracks' key times, or `max_frames` evenly spaced times over the same span
/// when the union is longer (then `true`); `None` when not even one frame fits.
fn frame_times(tracks: &[Track], max_frames: usize) -> Option<(Vec<f32>, bool)> {
    let mut times: Vec<f32> = tracks
        .iter()
        .flat_map(|t| t.times.iter().copied())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|b, a| *b - *a < SAME_TIME);
    if max_frames == 0 {
        return None;
    }
    if times.len() <= max_frames {
        return Some((times, false));
    }
    let (first, last) = (times[0], times[times.len() - 1]);
    let frames = max_frames.max(2);
    let step = (last - first) / (frames - 1) as f32;
    Some(((0..frames).map(|i| first + step * i as f32).collect(), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(interpolation: Interpolation, property: Property, values: Vec<Vec4>) -> Track {
        Track {
            node: 0,
            property,
            slot: 0,
            interpolation,
            times: vec![1.0, 2.0],
            values,
        }
    }

    #[test]
    fn linear_step_and_cubic_keys_interpolate_as_gltf_says() {
        let (a, b) = (Vec4::ZERO, Vec4::new(2.0, 0.0, 0.0, 0.0));
        let linear = track(Interpolation::Linear, Property::Translation, vec![a, b]);
        assert_eq!(linear.value_at(0.0), a);
        assert_eq!(linear.value_at(1.5), Vec4::new(1.0, 0.0, 0.0, 0.0));
        assert_eq!(linear.value_at(9.0), b);
        let step = track(Interpolation::Step, Property::Translation, vec![a, b]);
        assert_eq!(step.value_at(1.99), a);
        // Zero tangents: a smoothstep between the keys, halfway at the middle.
        let cubic = track(
            Interpolation::CubicSpline,
            Property::Translation,
            vec![Vec4::ZERO, a, Vec4::ZERO, Vec4::ZERO, b, Vec4::ZERO],
        );
        assert!((cubic.value_at(1.5).x - 1.0).abs() < 1e-6);
        assert!(cubic.value_at(1.25).x < 0.5);
        let q = Quat::from_rotation_x(1.0);
        let rotation = track(
            Interpolation::Linear,
            Property::Rotation,
            vec![Vec4::from(Quat::IDENTITY), Vec4::from(q)],
        );
        let half = Quat::from_vec4(rotation.value_at(1.5));
        assert!(half.abs_diff_eq(Quat::from_rotation_x(0.5), 1e-6));
    }

    #[test]
    fn long_clips_are_resampled_to_the_budget() {
        let mut t = track(
            Interpolation::Linear,
            Property::Translation,
            vec![Vec4::ZERO; 2],
        );
        t.times = (0..100).map(|i| i as f32 * 0.1).collect();
        t.values = vec![Vec4::ZERO; 100];
        let (times, resampled) = frame_times(&[t], 10).unwrap();
        assert!(resampled);
        assert_eq!(times.len(), 10);
        assert!((times[9] - 9.9).abs() < 1e-4);
    }
}

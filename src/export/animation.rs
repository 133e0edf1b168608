//! Clips as glTF animations: one linear sampler per animated joint property, and one for the
//! mesh's morph weights where the clip keys them, keyed at the clip's frame times.

use glam::{Quat, Vec3};
use gltf::json::accessor::Type;
use gltf::json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf::json::validation::Checked::Valid;
use gltf::json::{Animation, Index};

use super::gltf_buffers::Buffers;
use crate::rig::Skeleton;
use crate::rig::{Clip, Transform};

/// A property that stays within this of its bind value over the whole clip is not written.
const STILL: f32 = 1e-6;

/// The written mesh's morph targets, for clips that key their weights.
pub struct MorphChannel<'a> {
    /// The node holding the mesh.
    pub node: usize,
    /// The character's target count (what a clip's weights are laid out by).
    pub targets: usize,
    /// The targets written, in the written order, as indices into the character's.
    pub written: &'a [usize],
}

/// glTF animations for the clips that fit `skeleton`; joint `j` is node `j`. `rest` holds each
/// joint node's bind transform, or `None` for a node written as a matrix (which glTF forbids
/// animating). A clip's morph weights key `morphs`' node.
pub fn animation_documents(
    clips: &[Clip],
    skeleton: &Skeleton,
    rest: &[Option<Transform>],
    morphs: &MorphChannel<'_>,
    buffers: &mut Buffers,
) -> Vec<Animation> {
    clips
        .iter()
        .filter(|clip| clip.fits(skeleton) && clip.frame_count() > 0)
        .map(|clip| animation(clip, rest, morphs, buffers))
        .collect()
}

fn animation(
    clip: &Clip,
    rest: &[Option<Transform>],
    morphs: &MorphChannel<'_>,
    buffers: &mut Buffers,
) -> Animation {
    // glTF key times are non-negative.
    let shift = clip.times.first().map_or(0.0, |&t| t.min(0.0));
    let times: Vec<f32> = clip.times.iter().map(|t| t - shift).collect();
    let bounds = ([times[0]], [times[times.len() - 1]]);
    let input = buffers.push_floats(
        times.iter().copied(),
        Type::Scalar,
        None,
        Some((&bounds.0, &bounds.1)),
    );
    let frames = |j: usize| (0..clip.frame_count()).map(move |f| clip.frame(f)[j]);
    let rotations = |j: usize| frames(j).flat_map(|l| l.rotation.normalize().to_array());
    // (node, property, values, accessor type) per animated joint property.
    let mut keyed: Vec<(usize, Property, Vec<f32>, Type)> = Vec::new();
    for (j, rest) in rest.iter().enumerate() {
        let Some(rest) = rest else { continue };
        if frames(j).any(|l| moved(l.translation, rest.translation)) {
            let values = vec3s(frames(j).map(|l| l.translation));
            keyed.push((j, Property::Translation, values, Type::Vec3));
        }
        if frames(j).any(|l| turned(l.rotation, rest.rotation)) {
            keyed.push((j, Property::Rotation, rotations(j).collect(), Type::Vec4));
        }
        if frames(j).any(|l| moved(l.scale, rest.scale)) {
            let values = vec3s(frames(j).map(|l| l.scale));
            keyed.push((j, Property::Scale, values, Type::Vec3));
        }
    }
    if !morphs.written.is_empty() && clip.morph_frame(0, morphs.targets).is_some() {
        let values = (0..clip.frame_count())
            .filter_map(|f| clip.morph_frame(f, morphs.targets))
            .flat_map(|weights| morphs.written.iter().map(|&t| weights[t]))
            .collect();
        let property = Property::MorphTargetWeights;
        keyed.push((morphs.node, property, values, Type::Scalar));
    }
    // An animation needs a channel; a clip that holds the bind pose keys the first joint.
    if keyed.is_empty()
        && let Some(j) = rest.iter().position(Option::is_some)
    {
        keyed.push((j, Property::Rotation, rotations(j).collect(), Type::Vec4));
    }
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for (node, property, values, kind) in keyed {
        let output = buffers.push_floats(values, kind, None, None);
        let sampler = Index::push(
            &mut samplers,
            Sampler {
                input,
                output,
                interpolation: Valid(Interpolation::Linear),
                extensions: None,
                extras: Default::default(),
            },
        );
        let target = Target {
            node: Index::new(node as u32),
            path: Valid(property),
            extensions: None,
            extras: Default::default(),
        };
        channels.push(Channel {
            sampler,
            target,
            extensions: None,
            extras: Default::default(),
        });
    }
    Animation {
        name: Some(clip.name.clone()),
        samplers,
        channels,
        extensions: None,
        extras: Default::default(),
    }
}

fn vec3s(values: impl Iterator<Item = Vec3>) -> Vec<f32> {
    values.flat_map(|v| v.to_array()).collect()
}

fn moved(a: Vec3, b: Vec3) -> bool {
    !a.abs_diff_eq(b, STILL * (1.0 + b.abs().max_element()))
}

fn turned(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() < 1.0 - STILL
}

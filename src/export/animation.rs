//! Clips as glTF animations: one linear sampler per animated joint property, keyed at the
//! clip's frame times.

use glam::{Quat, Vec3};
use serde_json::{Value, json};

use super::gltf_buffers::{Buffers, FLOAT};
use crate::rig::Skeleton;
use crate::rig::{Clip, Transform};

/// A property that stays within this of its bind value over the whole clip is not written.
const STILL: f32 = 1e-6;

/// glTF animations for the clips that fit `skeleton`; joint `j` is node `j`. `rest` holds each
/// joint node's bind transform, or `None` for a node written as a matrix (which glTF forbids
/// animating).
pub fn animation_documents(
    clips: &[Clip],
    skeleton: &Skeleton,
    rest: &[Option<Transform>],
    buffers: &mut Buffers,
) -> Vec<Value> {
    clips
        .iter()
        .filter(|clip| clip.fits(skeleton) && clip.frame_count() > 0)
        .map(|clip| animation(clip, rest, buffers))
        .collect()
}

fn animation(clip: &Clip, rest: &[Option<Transform>], buffers: &mut Buffers) -> Value {
    // glTF key times are non-negative.
    let shift = clip.times.first().map_or(0.0, |&t| t.min(0.0));
    let times: Vec<f32> = clip.times.iter().map(|t| t - shift).collect();
    let bytes: Vec<u8> = times.iter().flat_map(|t| t.to_le_bytes()).collect();
    let input = buffers.push(
        &bytes,
        None,
        json!({
            "componentType": FLOAT, "count": times.len(), "type": "SCALAR",
            "min": [times[0]], "max": [times[times.len() - 1]],
        }),
    );
    let frames = |j: usize| (0..clip.frame_count()).map(move |f| clip.frame(f)[j]);
    let rotations = |j: usize| frames(j).flat_map(|l| l.rotation.normalize().to_array());
    // (node, path, values, accessor type) per animated joint property.
    let mut keyed: Vec<(usize, &str, Vec<f32>, &str)> = Vec::new();
    for (j, rest) in rest.iter().enumerate() {
        let Some(rest) = rest else { continue };
        if frames(j).any(|l| moved(l.translation, rest.translation)) {
            keyed.push((
                j,
                "translation",
                vec3s(frames(j).map(|l| l.translation)),
                "VEC3",
            ));
        }
        if frames(j).any(|l| turned(l.rotation, rest.rotation)) {
            keyed.push((j, "rotation", rotations(j).collect(), "VEC4"));
        }
        if frames(j).any(|l| moved(l.scale, rest.scale)) {
            keyed.push((j, "scale", vec3s(frames(j).map(|l| l.scale)), "VEC3"));
        }
    }
    // An animation needs a channel; a clip that holds the bind pose keys the first joint.
    if keyed.is_empty()
        && let Some(j) = rest.iter().position(Option::is_some)
    {
        keyed.push((j, "rotation", rotations(j).collect(), "VEC4"));
    }
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for (node, path, values, kind) in keyed {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let output = buffers.push(
            &bytes,
            None,
            json!({ "componentType": FLOAT, "count": times.len(), "type": kind }),
        );
        channels
            .push(json!({ "sampler": samplers.len(), "target": { "node": node, "path": path } }));
        samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
    }
    json!({ "name": clip.name, "samplers": samplers, "channels": channels })
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

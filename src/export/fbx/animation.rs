//! Clips as FBX animation stacks: per clip a stack and its base layer; per joint property that
//! moves, a curve node (`T`, `R` or `S`) driving the joint's `Lcl` property, with one linear
//! curve per axis keyed at the clip's frame times; per morph target whose weight moves, a
//! curve node driving its blend shape channel's `DeformPercent` (correctives, a face's
//! expressions). `Takes` lists the stacks as well, for the readers that look there.

use glam::{DQuat, DVec3};

use super::node::property;
use super::skeleton::{Rig, locals, rigid_frames};
use super::{Objects, euler, fbx_name};
use crate::Character;
use crate::export::ExportOptions;
use crate::io::fbx::{Node, Value};
use crate::rig::Clip;

/// FBX time: ticks per second.
const TICKS: f64 = 46_186_158_000.0;
/// A property that stays within this of its bind value over the whole clip is not keyed.
const STILL: f32 = 1e-6;
/// Linear interpolation (`0x4`) with the tangent bits FBX SDK files carry on linear keys.
const LINEAR_KEYS: i32 = 0x6104;

fn ticks(seconds: f32) -> i64 {
    (f64::from(seconds) * TICKS).round() as i64
}

/// The clips that are written: those that fit the skeleton and have keys.
fn clips<'a>(character: &'a Character, options: &ExportOptions) -> Vec<&'a Clip> {
    let Some(skeleton) = character.skeleton.as_ref().filter(|s| !s.joints.is_empty()) else {
        return Vec::new();
    };
    if !options.animations {
        return Vec::new();
    }
    (character.animations.iter())
        .filter(|c| c.fits(skeleton) && c.frame_count() > 0)
        .collect()
}

/// The names of the stacks, in order.
pub fn stack_names(character: &Character, options: &ExportOptions) -> Vec<String> {
    clips(character, options)
        .iter()
        .enumerate()
        .map(|(i, c)| stack_name(c, i))
        .collect()
}

fn stack_name(clip: &Clip, index: usize) -> String {
    fbx_name(&clip.name, || format!("clip {index}"))
}

/// The first key to the last over every clip, in ticks; one second when there is none.
pub fn time_span(character: &Character, options: &ExportOptions) -> (i64, i64) {
    let clips = clips(character, options);
    let start = clips.iter().map(|c| c.times[0]).reduce(f32::min);
    let stop = (clips.iter())
        .map(|c| c.times[c.times.len() - 1])
        .reduce(f32::max);
    match (start, stop) {
        (Some(a), Some(b)) if b > a => (ticks(a), ticks(b)),
        (Some(a), _) => (ticks(a), ticks(a + 1.0)),
        _ => (0, ticks(1.0)),
    }
}

/// Frames per second of the first clip (its median key spacing), rounded when it is within
/// a hundredth of a whole rate; 30 without clips.
pub fn frame_rate(character: &Character, options: &ExportOptions) -> f64 {
    let Some(clip) = clips(character, options)
        .into_iter()
        .find(|c| c.times.len() > 1)
    else {
        return 30.0;
    };
    let mut steps: Vec<f32> = clip.times.windows(2).map(|w| w[1] - w[0]).collect();
    steps.sort_by(f32::total_cmp);
    let step = f64::from(steps[steps.len() / 2]);
    if step.is_nan() || step <= 0.0 {
        return 30.0;
    }
    let fps = (1.0 / step).clamp(1.0, 1000.0);
    if (fps - fps.round()).abs() < 0.01 {
        fps.round()
    } else {
        fps
    }
}

/// FBX's `TimeMode` for a frame rate: its named rates, else custom (14, with
/// `CustomFrameRate`).
pub fn time_mode(fps: f64) -> i32 {
    match fps {
        120.0 => 1,
        100.0 => 2,
        60.0 => 3,
        50.0 => 4,
        48.0 => 5,
        30.0 => 6,
        24.0 => 11,
        1000.0 => 12,
        96.0 => 15,
        72.0 => 16,
        _ => 14,
    }
}

/// Adds a stack per clip, driving the joint models of `rig` and the blend shape `channels`
/// (one per morph target, `None` where none was written). Keys are the joints' rigid frames
/// relative to their parents' (as the skeleton is written), from the clip's poses, and the
/// targets' weights in percent.
pub fn write(
    objects: &mut Objects,
    character: &Character,
    options: &ExportOptions,
    rig: &Rig,
    channels: &[Option<i64>],
) {
    let Some(skeleton) = &character.skeleton else {
        return;
    };
    let bind = rigid_frames(skeleton.joints.iter().map(|j| j.world_bind));
    let rest = locals(skeleton, &bind);
    for (index, clip) in clips(character, options).into_iter().enumerate() {
        let name = stack_name(clip, index);
        let (start, stop) = (
            ticks(clip.times[0]),
            ticks(clip.times[clip.times.len() - 1]),
        );
        let stack = objects.add(
            "AnimationStack",
            "AnimStack",
            &name,
            "",
            vec![Node::new("Properties70").children([
                property::time("LocalStart", start),
                property::time("LocalStop", stop),
                property::time("ReferenceStart", start),
                property::time("ReferenceStop", stop),
            ])],
        );
        let layer = objects.add("AnimationLayer", "AnimLayer", "BaseLayer", "", Vec::new());
        objects.link(layer, stack);
        let times: Vec<i64> = clip.times.iter().map(|&t| ticks(t)).collect();
        let poses: Vec<Vec<(DVec3, DQuat, DVec3)>> = (0..clip.frame_count())
            .map(|f| locals(skeleton, &rigid_frames(clip.world_matrices(skeleton, f))))
            .collect();
        for (j, &model) in rig.models.iter().enumerate() {
            let frames: Vec<&(DVec3, DQuat, DVec3)> = poses.iter().map(|p| &p[j]).collect();
            let (rest_t, rest_r, rest_s) = rest[j];
            if frames.iter().any(|(t, _, _)| moved(*t, rest_t)) {
                let keys = frames.iter().map(|(t, _, _)| t.to_array()).collect();
                curve_node(objects, layer, model, "T", "Lcl Translation", &times, keys);
            }
            if (frames.iter()).any(|(_, r, _)| r.angle_between(rest_r) > f64::from(STILL)) {
                let mut previous: Option<DVec3> = None;
                let keys = frames
                    .iter()
                    .map(|(_, r, _)| {
                        let d = euler::degrees(*r, previous);
                        previous = Some(d);
                        d.to_array()
                    })
                    .collect();
                curve_node(objects, layer, model, "R", "Lcl Rotation", &times, keys);
            }
            if frames.iter().any(|(_, _, s)| moved(*s, rest_s)) {
                let keys = frames.iter().map(|(_, _, s)| s.to_array()).collect();
                curve_node(objects, layer, model, "S", "Lcl Scaling", &times, keys);
            }
        }
        let targets = &character.mesh.morph_targets;
        for (t, (target, channel)) in targets.iter().zip(channels).enumerate() {
            let Some(channel) = *channel else {
                continue;
            };
            let Some(weights) = (0..clip.frame_count())
                .map(|f| clip.morph_frame(f, targets.len()).map(|w| w[t]))
                .collect::<Option<Vec<f32>>>()
            else {
                break;
            };
            if weights.iter().all(|w| (w - target.weight).abs() <= STILL) {
                continue;
            }
            let percent: Vec<f64> = weights.iter().map(|&w| f64::from(w) * 100.0).collect();
            let node = objects.add(
                "AnimationCurveNode",
                "AnimCurveNode",
                "DeformPercent",
                "",
                vec![
                    Node::new("Properties70")
                        .child(property::number("d|DeformPercent", percent[0])),
                ],
            );
            objects.link(node, layer);
            objects.link_property(node, channel, "DeformPercent");
            let curve = curve(objects, &times, &percent);
            objects.link_property(curve, node, "d|DeformPercent");
        }
    }
}

fn moved(a: DVec3, b: DVec3) -> bool {
    (a - b).abs().max_element() > f64::from(STILL) * (1.0 + b.abs().max_element())
}

/// A curve node for `property` of `model` and its three curves.
fn curve_node(
    objects: &mut Objects,
    layer: i64,
    model: i64,
    kind: &str,
    property_name: &str,
    times: &[i64],
    keys: Vec<[f64; 3]>,
) {
    let axes = ["d|X", "d|Y", "d|Z"];
    let node = objects.add(
        "AnimationCurveNode",
        "AnimCurveNode",
        kind,
        "",
        vec![
            Node::new("Properties70")
                .children((0..3).map(|a| property::number(axes[a], keys[0][a]))),
        ],
    );
    objects.link(node, layer);
    objects.link_property(node, model, property_name);
    for (a, axis) in axes.iter().enumerate() {
        let values: Vec<f64> = keys.iter().map(|k| k[a]).collect();
        let curve = curve(objects, times, &values);
        objects.link_property(curve, node, axis);
    }
}

/// A linear curve of `values` keyed at `times`; its id.
fn curve(objects: &mut Objects, times: &[i64], values: &[f64]) -> i64 {
    objects.add(
        "AnimationCurve",
        "AnimCurve",
        "",
        "",
        vec![
            Node::of("Default", Value::F64(values[0])),
            Node::of("KeyVer", Value::I32(4008)),
            Node::of("KeyTime", Value::I64s(times.to_vec())),
            Node::of(
                "KeyValueFloat",
                Value::F32s(values.iter().map(|&v| v as f32).collect()),
            ),
            // One attribute set shared by every key.
            Node::of("KeyAttrFlags", Value::I32s(vec![LINEAR_KEYS])),
            Node::of(
                "KeyAttrDataFloat",
                Value::F32s(vec![0.0, 0.0, f32::from_bits(0x0F3F_0F3F), 0.0]),
            ),
            Node::of("KeyAttrRefCount", Value::I32s(vec![times.len() as i32])),
        ],
    )
}

/// The `Takes` section: one take per stack, with its time span.
pub fn takes(character: &Character, options: &ExportOptions) -> Node {
    let clips = clips(character, options);
    let current = clips.first().map(|c| stack_name(c, 0)).unwrap_or_default();
    let takes = clips.iter().enumerate().map(|(i, clip)| {
        let name = stack_name(clip, i);
        let span = |n: &'static str| {
            Node::new(n)
                .value(Value::I64(ticks(clip.times[0])))
                .value(Value::I64(ticks(clip.times[clip.times.len() - 1])))
        };
        Node::of("Take", Value::Str(name.clone()))
            .child(Node::of("FileName", Value::Str(format!("{name}.tak"))))
            .child(span("LocalTime"))
            .child(span("ReferenceTime"))
    });
    Node::new("Takes")
        .child(Node::of("Current", Value::Str(current)))
        .children(takes)
}

//! FBX animation stacks as clips. A stack's first layer holds curve nodes, each animating one
//! model's `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling` through up to three curves of
//! keys, or a blend shape channel's `DeformPercent` through one. Every model is evaluated
//! through the full transform stack at each key time, so pivots and pre-rotations move with
//! the keys, and each joint's pose is read off relative to its parent joint in glTF's frame.

use std::collections::HashMap;

use glam::{DMat4, Mat4};

use super::Scene;
use super::objects::{Key, properties};
use super::transform::local_matrix;
use super::tree::Node;
use crate::rig::Skeleton;
use crate::rig::{Clip, Transform};

/// FBX time: ticks per second.
const TICKS_PER_SECOND: f64 = 46_186_158_000.0;

/// The three animated properties, in the order curve nodes name them.
const CHANNELS: [&str; 3] = ["Lcl Translation", "Lcl Rotation", "Lcl Scaling"];

/// A model's properties and its parent model.
type ModelAtRest<'a> = (HashMap<&'a str, Vec<f64>>, Option<Key>);

/// One animation curve: key times in ticks and values.
struct Curve {
    times: Vec<i64>,
    values: Vec<f64>,
}

impl Curve {
    /// The value at `t`, linear between keys and held beyond them.
    fn at(&self, t: i64) -> Option<f64> {
        let n = self.times.len().min(self.values.len());
        if n == 0 {
            return None;
        }
        let next = self.times[..n].partition_point(|&k| k <= t);
        if next == 0 {
            return Some(self.values[0]);
        }
        if next >= n {
            return Some(self.values[n - 1]);
        }
        let (a, b) = (self.times[next - 1], self.times[next]);
        let s = if b > a {
            (t - a) as f64 / (b - a) as f64
        } else {
            0.0
        };
        Some(self.values[next - 1] * (1.0 - s) + self.values[next] * s)
    }
}

fn read_curve(curve: &Node) -> Curve {
    Curve {
        times: curve.find("KeyTime").map(|n| n.ints()).unwrap_or_default(),
        values: (curve.find("KeyValueFloat"))
            .map(|n| n.floats())
            .unwrap_or_default(),
    }
}

/// A model property animated by up to three curves, with the curve node's defaults.
struct Channel {
    defaults: [f64; 3],
    curves: [Option<Curve>; 3],
}

impl Channel {
    fn at(&self, t: i64) -> Vec<f64> {
        (0..3)
            .map(|i| {
                self.curves[i]
                    .as_ref()
                    .and_then(|c| c.at(t))
                    .filter(|v| v.is_finite())
                    .unwrap_or(self.defaults[i])
            })
            .collect()
    }
}

impl Scene<'_> {
    /// Every animation stack that moves a joint or a morph target, as a clip over `skeleton`
    /// (whose joints are the models `joints`), within `budget` joint transforms over all
    /// clips. `targets` are the mesh's morph targets' blend shape channels and rest weights,
    /// in target order: a clip animating any of them keys every target's weight.
    pub(super) fn clips(
        &mut self,
        joints: &[Key],
        skeleton: &Skeleton,
        targets: &[(Key, f32)],
        budget: &mut usize,
    ) -> Vec<Clip> {
        let mut clips = Vec::new();
        let mut warnings = Vec::new();
        if joints.is_empty() {
            return clips;
        }
        for stack in self.objects_of("AnimationStack", None) {
            let stack_name = self.doc.objects[stack].name.clone();
            let layers = self.doc.children_of(stack, "AnimationLayer");
            let Some(layer) = layers.first() else {
                continue;
            };
            if layers.len() > 1 {
                warnings.push(format!(
                    "animation '{stack_name}': only the first of its {} layers is read",
                    layers.len()
                ));
            }
            let channels = self.channels(layer);
            let shapes = self.deform_curves(layer);
            let shaped = targets.iter().any(|(k, _)| shapes.contains_key(k));
            if !shaped && !joints.iter().any(|j| channels.contains_key(j)) {
                continue;
            }
            let mut times: Vec<i64> = channels
                .values()
                .flat_map(|c| c.iter().flatten())
                .flat_map(|c| c.curves.iter().flatten())
                .chain(shapes.values())
                .flat_map(|c| c.times.iter().copied())
                .collect();
            times.sort_unstable();
            times.dedup();
            let frames_left = *budget / joints.len();
            if frames_left == 0 || times.is_empty() {
                if frames_left == 0 {
                    warnings.push(format!(
                        "animation '{stack_name}' skipped: the clips already hold the most keys allowed"
                    ));
                }
                continue;
            }
            if times.len() > frames_left {
                // Too many keys: resample evenly, which keeps the motion's span.
                let (a, b) = (times[0], times[times.len() - 1]);
                let n = frames_left.max(2);
                times = (0..n)
                    .map(|i| a + ((b - a) as f64 * i as f64 / (n - 1) as f64) as i64)
                    .collect();
                warnings.push(format!(
                    "animation '{stack_name}' resampled to {n} keys to stay within the limit"
                ));
            }
            *budget -= times.len() * joints.len();
            let models = self.model_props();
            let mut locals = Vec::with_capacity(times.len() * joints.len());
            for &t in &times {
                let mut memo = HashMap::new();
                let worlds: Vec<Mat4> = joints
                    .iter()
                    .map(|j| {
                        let g = self.animated_global(j, &models, &channels, t, &mut memo, 0);
                        self.axes.frame(g)
                    })
                    .collect();
                for (i, joint) in skeleton.joints.iter().enumerate() {
                    let local = match joint.parent {
                        Some(p) => worlds[p.index()].inverse() * worlds[i],
                        None => worlds[i],
                    };
                    locals.push(Transform::from_mat4(local));
                }
            }
            let morph_weights = if shaped {
                (times.iter())
                    .flat_map(|&t| {
                        let shapes = &shapes;
                        targets.iter().map(move |(channel, rest)| {
                            (shapes.get(channel).and_then(|c| c.at(t)))
                                .filter(|p| p.is_finite())
                                .map_or(*rest, |percent| (percent / 100.0) as f32)
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            clips.push(Clip {
                name: stack_name,
                times: times
                    .iter()
                    .map(|&t| (t as f64 / TICKS_PER_SECOND) as f32)
                    .collect(),
                joint_count: joints.len(),
                locals,
                morph_weights,
            });
        }
        self.warnings.extend(warnings);
        clips
    }

    /// The layer's animated properties by model: `[translation, rotation, scaling]`.
    fn channels(&self, layer: &str) -> HashMap<Key, [Option<Channel>; 3]> {
        let mut out: HashMap<Key, [Option<Channel>; 3]> = HashMap::new();
        for node in self.doc.children_of(layer, "AnimationCurveNode") {
            let Some((model, slot)) = self
                .doc
                .property_parents_of(node, "Model")
                .into_iter()
                .find_map(|(model, property)| {
                    Some((model.clone(), CHANNELS.iter().position(|c| *c == property)?))
                })
            else {
                continue;
            };
            let props = properties(self.doc.objects[node].node);
            let default = |axis: &str| {
                props
                    .get(axis)
                    .and_then(|v| v.first())
                    .copied()
                    .unwrap_or(if slot == 2 { 1.0 } else { 0.0 })
            };
            let mut channel = Channel {
                defaults: [default("d|X"), default("d|Y"), default("d|Z")],
                curves: [None, None, None],
            };
            for (curve, property) in self.doc.property_children_of(node, "AnimationCurve") {
                let Some(axis) = ["d|X", "d|Y", "d|Z"].iter().position(|a| *a == property) else {
                    continue;
                };
                channel.curves[axis] = Some(read_curve(self.doc.objects[curve].node));
            }
            out.entry(model).or_default()[slot] = Some(channel);
        }
        out
    }

    /// The layer's animated blend shape channels: each channel's `DeformPercent` curve (0–100).
    fn deform_curves(&self, layer: &str) -> HashMap<Key, Curve> {
        let mut out = HashMap::new();
        for node in self.doc.children_of(layer, "AnimationCurveNode") {
            let Some(channel) = (self.doc.property_parents_of(node, "Deformer").into_iter())
                .find_map(|(channel, property)| (property == "DeformPercent").then_some(channel))
            else {
                continue;
            };
            let curve = (self
                .doc
                .property_children_of(node, "AnimationCurve")
                .into_iter())
            .find_map(|(curve, property)| (property == "d|DeformPercent").then_some(curve));
            if let Some(curve) = curve {
                out.insert(channel.clone(), read_curve(self.doc.objects[curve].node));
            }
        }
        out
    }

    /// Every model's properties and parent model, read once for all frames.
    fn model_props(&self) -> HashMap<Key, ModelAtRest<'_>> {
        self.doc
            .objects
            .iter()
            .filter(|(_, o)| o.class == "Model")
            .map(|(k, o)| {
                let parent = self
                    .doc
                    .parents_of(k, "Model")
                    .first()
                    .map(|p| (*p).clone());
                (k.clone(), (properties(o.node), parent))
            })
            .collect()
    }

    /// A model's world matrix at time `t`, its ancestors animated too (`memo` holds this
    /// frame's matrices; `depth` stops a parent loop in a broken file).
    fn animated_global(
        &self,
        model: &Key,
        models: &HashMap<Key, ModelAtRest<'_>>,
        channels: &HashMap<Key, [Option<Channel>; 3]>,
        t: i64,
        memo: &mut HashMap<Key, DMat4>,
        depth: usize,
    ) -> DMat4 {
        if let Some(m) = memo.get(model) {
            return *m;
        }
        let Some((props, parent)) = models.get(model) else {
            return DMat4::IDENTITY;
        };
        let mut props = props.clone();
        if let Some(animated) = channels.get(model) {
            for (slot, channel) in animated.iter().enumerate() {
                if let Some(c) = channel {
                    props.insert(CHANNELS[slot], c.at(t));
                }
            }
        }
        let local = local_matrix(&props);
        let m = match parent {
            Some(p) if depth < models.len() => {
                self.animated_global(p, models, channels, t, memo, depth + 1) * local
            }
            _ => local,
        };
        memo.insert(model.clone(), m);
        m
    }
}

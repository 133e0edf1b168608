//! COLLADA animations as clips. Each `<channel>` drives one transform element of one node
//! (`Hips/transform`, `Arm/rotateZ.ANGLE`, `Root/location.X`) through a sampler's key times
//! and values; clips are the `<animation_clip>`s when the file lists them, else everything in
//! `library_animations`. The whole node hierarchy is evaluated at each key time and each
//! joint's pose read off relative to its parent joint, in glTF's frame.

use roxmltree::Node;

use super::document::{Ids, Source, child, children, inputs};
use super::nodes::{SceneNode, compose};
use crate::io::axes::AxisSystem;
use crate::rig::Skeleton;
use crate::rig::{Clip, Transform};

/// One animated transform element (or one number of it).
struct Channel {
    node: usize,
    element: usize,
    /// The one value it drives, or `None` for the whole element.
    component: Option<usize>,
    times: Vec<f64>,
    values: Vec<f64>,
    stride: usize,
}

impl Channel {
    /// The channel's values at `t`, linear between keys and held beyond them.
    fn at(&self, t: f64) -> Option<Vec<f64>> {
        let n = self.times.len().min(self.values.len() / self.stride.max(1));
        if n == 0 {
            return None;
        }
        let key = |i: usize| &self.values[i * self.stride..(i + 1) * self.stride];
        let next = self.times[..n].partition_point(|&k| k <= t);
        if next == 0 {
            return Some(key(0).to_vec());
        }
        if next >= n {
            return Some(key(n - 1).to_vec());
        }
        let (a, b) = (self.times[next - 1], self.times[next]);
        let s = if b > a { (t - a) / (b - a) } else { 0.0 };
        Some(
            key(next - 1)
                .iter()
                .zip(key(next))
                .map(|(x, y)| x * (1.0 - s) + y * s)
                .collect(),
        )
    }
}

/// Everything [`read_clips`] needs to know about the scene.
pub struct Rig<'s, 'a> {
    pub nodes: &'s [SceneNode<'a>],
    /// The scene node of each joint, in joint order.
    pub joint_nodes: &'s [usize],
    pub skeleton: &'s Skeleton,
    pub axes: AxisSystem,
}

/// The file's clips over `rig`, within `budget` joint transforms over all clips.
pub fn read_clips(
    root: Node<'_, '_>,
    ids: &Ids<'_, '_>,
    rig: &Rig<'_, '_>,
    budget: &mut usize,
    warnings: &mut Vec<String>,
) -> Vec<Clip> {
    let Some(library) = child(root, "library_animations") else {
        return Vec::new();
    };
    if rig.joint_nodes.is_empty() {
        return Vec::new();
    }
    // Clips: the listed ones, else one of everything.
    let mut groups: Vec<(String, Vec<Node<'_, '_>>)> = Vec::new();
    if let Some(clips) = child(root, "library_animation_clips") {
        for clip in children(clips, "animation_clip") {
            let name = clip
                .attribute("name")
                .or(clip.attribute("id"))
                .unwrap_or("clip")
                .to_owned();
            let parts = children(clip, "instance_animation")
                .filter_map(|i| ids.get(i.attribute("url")?))
                .collect();
            groups.push((name, parts));
        }
    }
    if groups.is_empty() {
        groups.push(("animation".to_owned(), vec![library]));
    }
    let mut clips = Vec::new();
    let mut unread = 0usize;
    for (name, parts) in groups {
        let mut channels = Vec::new();
        for part in parts {
            for c in part.descendants().filter(|d| d.has_tag_name("channel")) {
                match channel(c, ids, rig.nodes) {
                    Some(ch) => channels.push(ch),
                    None => unread += 1,
                }
            }
        }
        if channels.is_empty() {
            continue;
        }
        let mut times: Vec<f64> = channels
            .iter()
            .flat_map(|c| c.times.iter().copied())
            .filter(|t| t.is_finite())
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let joints = rig.joint_nodes.len();
        let frames_left = *budget / joints;
        if frames_left == 0 || times.is_empty() {
            continue;
        }
        if times.len() > frames_left {
            let (a, b) = (times[0], times[times.len() - 1]);
            let n = frames_left.max(2);
            times = (0..n)
                .map(|i| a + (b - a) * i as f64 / (n - 1) as f64)
                .collect();
            warnings.push(format!(
                "animation '{name}' resampled to {n} keys to stay within the limit"
            ));
        }
        *budget -= times.len() * joints;
        let mut locals = Vec::with_capacity(times.len() * joints);
        for &t in &times {
            let mut elements: Vec<_> = rig.nodes.iter().map(|n| n.transforms.clone()).collect();
            for c in &channels {
                let (Some(values), Some(element)) = (c.at(t), elements[c.node].get_mut(c.element))
                else {
                    continue;
                };
                match c.component {
                    Some(k) => {
                        if let (Some(slot), Some(v)) = (element.values.get_mut(k), values.first()) {
                            *slot = *v;
                        }
                    }
                    None if values.len() >= element.values.len() => {
                        let n = element.values.len();
                        element.values.copy_from_slice(&values[..n]);
                    }
                    None => {}
                }
            }
            let mut world = Vec::with_capacity(rig.nodes.len());
            for (i, node) in rig.nodes.iter().enumerate() {
                let local = compose(&elements[i]);
                world.push(node.parent.map_or(local, |p| world[p] * local));
            }
            let joint_world: Vec<_> = rig
                .joint_nodes
                .iter()
                .map(|&n| rig.axes.frame(world[n]))
                .collect();
            for (j, joint) in rig.skeleton.joints.iter().enumerate() {
                let local = match joint.parent {
                    Some(p) => joint_world[p.index()].inverse() * joint_world[j],
                    None => joint_world[j],
                };
                locals.push(Transform::from_mat4(local));
            }
        }
        clips.push(Clip {
            name,
            times: times.iter().map(|&t| t as f32).collect(),
            joint_count: joints,
            locals,
            morph_weights: Vec::new(),
        });
    }
    if unread > 0 {
        warnings.push(format!(
            "{unread} COLLADA animation channels skipped: their target or sampler could not be read"
        ));
    }
    clips
}

/// A `<channel>`'s target and keys, when they can be read.
fn channel(c: Node<'_, '_>, ids: &Ids<'_, '_>, nodes: &[SceneNode<'_>]) -> Option<Channel> {
    let target = c.attribute("target")?;
    let sampler = ids.get(c.attribute("source")?)?;
    let mut times = Vec::new();
    let mut output: Option<Source> = None;
    for input in inputs(sampler) {
        match input.semantic {
            "INPUT" => times = Source::read(ids.get(input.source)?).ok()?.floats,
            "OUTPUT" => output = Source::read(ids.get(input.source)?).ok(),
            _ => {}
        }
    }
    let output = output?;
    let (node_ref, path) = target.split_once('/')?;
    let node = nodes
        .iter()
        .position(|n| n.id == Some(node_ref))
        .or_else(|| nodes.iter().position(|n| n.sid == Some(node_ref)))?;
    // `sid`, `sid.ANGLE`, `sid.X`, `sid(3)` or `sid(1)(2)`.
    let (sid, member) = match path.find(['.', '(']) {
        Some(i) => (&path[..i], &path[i..]),
        None => (path, ""),
    };
    let element = nodes[node]
        .transforms
        .iter()
        .position(|t| t.sid == Some(sid))?;
    let component = match member {
        "" => None,
        ".X" => Some(0),
        ".Y" => Some(1),
        ".Z" => Some(2),
        ".ANGLE" | ".W" => Some(3),
        m => {
            let numbers: Vec<usize> = m
                .split(['(', ')'])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().ok())
                .collect::<Option<_>>()?;
            match numbers.as_slice() {
                [i] => Some(*i),
                [row, col] => Some(row * 4 + col),
                _ => return None,
            }
        }
    };
    Some(Channel {
        node,
        element,
        component,
        times,
        stride: output.stride,
        values: output.floats,
    })
}

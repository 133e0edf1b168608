//! FBX blend shapes: a `BlendShape` deformer on a geometry holds channels, each driving a
//! `Shape` geometry of offsets for some control points; a channel's `DeformPercent` is its
//! weight at rest (0–100).

use glam::DVec3;

use super::Scene;
use super::objects::{Key, properties};
use super::tree::Node;

/// One channel: its object, name, rest weight (0–1) and an offset per control point it
/// moves.
pub struct BlendShape {
    /// The `BlendShapeChannel` deformer, which clips animate through its `DeformPercent`.
    pub channel: Key,
    pub name: String,
    pub weight: f32,
    pub offsets: Vec<(usize, DVec3)>,
}

impl Scene<'_> {
    /// The blend shapes deforming `geometry`, whose control points number `points`.
    pub(super) fn blend_shapes(&self, geometry: &str, points: usize) -> Vec<BlendShape> {
        let mut out = Vec::new();
        for channel in self
            .doc
            .deformer_parts(geometry, "BlendShape", "BlendShapeChannel")
        {
            let object = &self.doc.objects[channel];
            // The first shape is the channel's full target; in-between shapes are not kept.
            let Some(shape) = self.doc.children_of(channel, "Geometry").first().copied() else {
                continue;
            };
            let node = self.doc.objects[shape].node;
            let indexes = node.find("Indexes").map(Node::ints).unwrap_or_default();
            let deltas = node.find("Vertices").map(Node::floats).unwrap_or_default();
            let offsets = indexes
                .iter()
                .zip(deltas.chunks_exact(3))
                .filter_map(|(&i, d)| {
                    let i = usize::try_from(i).ok().filter(|&i| i < points)?;
                    let d = DVec3::new(d[0], d[1], d[2]);
                    d.is_finite().then_some((i, d))
                })
                .collect();
            // A node of its own in Blender's files, a property in the FBX SDK's.
            let percent = object
                .node
                .find("DeformPercent")
                .and_then(|n| n.floats().first().copied())
                .or_else(|| {
                    properties(object.node)
                        .get("DeformPercent")
                        .and_then(|v| v.first())
                        .copied()
                })
                .filter(|p| p.is_finite())
                .unwrap_or(0.0);
            let name = if object.name.is_empty() {
                self.doc.objects[shape].name.clone()
            } else {
                object.name.clone()
            };
            out.push(BlendShape {
                channel: channel.clone(),
                name,
                weight: (percent / 100.0) as f32,
                offsets,
            });
        }
        out
    }
}

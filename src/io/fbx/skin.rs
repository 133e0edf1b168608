//! FBX skins: the clusters that bind a geometry's control points to joints, where the geometry
//! sat when it was bound, and the skeleton at that bind pose.

use std::collections::{HashMap, HashSet};

use glam::DMat4;

use super::objects::Key;
use super::tree::Node;
use super::{Scene, matrix};
use crate::io::ImportError;
use crate::rig::{Joint, JointId, Skeleton};

/// One cluster: the joint it binds, its control points and weights, and its bind matrices.
pub struct Cluster {
    pub joint: Key,
    pub indexes: Vec<i64>,
    pub weights: Vec<f64>,
    pub transform: Option<DMat4>,
    pub link: Option<DMat4>,
}

impl Scene<'_> {
    pub(super) fn clusters_of(&self, geometry: &str) -> Vec<Cluster> {
        let mut out = Vec::new();
        for c in self.doc.deformer_parts(geometry, "Skin", "Cluster") {
            let object = &self.doc.objects[c];
            let Some(&joint) = self.doc.children_of(c, "Model").first() else {
                continue;
            };
            let node = object.node;
            out.push(Cluster {
                joint: joint.clone(),
                indexes: node.find("Indexes").map(Node::ints).unwrap_or_default(),
                weights: node.find("Weights").map(Node::floats).unwrap_or_default(),
                transform: matrix(node.find("Transform")),
                link: matrix(node.find("TransformLink")),
            });
        }
        out
    }

    /// Where a skinned geometry sat when it was bound. Files store each cluster's `Transform`
    /// either as that matrix itself or relative to the joint (`TransformLink⁻¹ · mesh`, as
    /// Blender writes it); the reading that agrees over all clusters is the file's.
    pub(super) fn mesh_bind(&self, clusters: &[Cluster], posed: DMat4) -> DMat4 {
        let pairs: Vec<(DMat4, DMat4)> = clusters
            .iter()
            .filter_map(|c| Some((c.transform?, c.link?)))
            .collect();
        let Some(&(t0, l0)) = pairs.first() else {
            return posed;
        };
        let close = |a: DMat4, b: DMat4| {
            let scale = a
                .abs()
                .to_cols_array()
                .iter()
                .fold(1.0f64, |m, v| m.max(*v));
            a.abs_diff_eq(b, 1e-4 * scale)
        };
        let relative = l0 * t0;
        let agree_relative = pairs.iter().all(|&(t, l)| close(l * t, relative));
        let agree_absolute = pairs.iter().all(|&(t, _)| close(t, t0));
        let distance = |m: DMat4| {
            (m - posed)
                .to_cols_array()
                .iter()
                .map(|v| v.abs())
                .sum::<f64>()
        };
        match (agree_relative, agree_absolute) {
            (true, true) if distance(t0) < distance(relative) => t0,
            (true, _) => relative,
            (false, true) => t0,
            (false, false) => posed,
        }
    }

    /// The joints among `keys`, parents first, each hanging from its nearest ancestor that is
    /// a joint too, at its bind pose: the cluster's `TransformLink`, else the file's bind pose,
    /// else where the file poses it.
    pub(super) fn skeleton(
        &self,
        keys: &[Key],
        link_matrix: &HashMap<Key, DMat4>,
    ) -> Result<Option<(Skeleton, Vec<Key>)>, ImportError> {
        if keys.is_empty() {
            return Ok(None);
        }
        ImportError::at_most(self.name, "joints", keys.len(), self.limits.max_joints)?;
        let set: HashSet<&Key> = keys.iter().collect();
        let joint_parent = |k: &Key| -> Option<Key> {
            let mut at = k.clone();
            for _ in 0..=keys.len() {
                let p = self
                    .doc
                    .parents_of(&at, "Model")
                    .first()
                    .map(|p| (*p).clone())?;
                if set.contains(&p) {
                    return Some(p);
                }
                at = p;
            }
            None
        };
        let parents: Vec<Option<Key>> = keys.iter().map(joint_parent).collect();
        let position: HashMap<&Key, usize> = keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
        let depth = |i: usize| {
            let mut d = 0;
            let mut at = parents[i].clone();
            while let Some(p) = at {
                d += 1;
                if d > keys.len() {
                    break;
                }
                at = position.get(&p).and_then(|&j| parents[j].clone());
            }
            d
        };
        // The file's order when it lists parents first (rigkit's and most exporters' files,
        // so joint indices survive a round trip), else parents sorted before children.
        let mut order: Vec<usize> = (0..keys.len()).collect();
        let parents_first = (0..keys.len()).all(|i| {
            parents[i]
                .as_ref()
                .is_none_or(|p| position.get(p).is_some_and(|&j| j < i))
        });
        if !parents_first {
            let depths: Vec<usize> = (0..keys.len()).map(depth).collect();
            order.sort_by_key(|&i| (depths[i], i));
        }
        let sorted: Vec<Key> = order.iter().map(|&i| keys[i].clone()).collect();
        let index: HashMap<&Key, u32> = sorted
            .iter()
            .enumerate()
            .map(|(i, k)| (k, i as u32))
            .collect();
        let joints = order
            .iter()
            .map(|&i| {
                let k = &keys[i];
                let world = link_matrix
                    .get(k)
                    .or_else(|| self.bind_pose.get(k))
                    .or_else(|| self.globals.get(k))
                    .copied()
                    .unwrap_or(DMat4::IDENTITY);
                Joint {
                    name: self.doc.objects[k].name.clone(),
                    parent: parents[i]
                        .as_ref()
                        .and_then(|p| index.get(p))
                        .map(|&p| JointId(p)),
                    world_bind: self.axes.frame(world),
                }
            })
            .collect();
        Ok(Some((Skeleton { joints }, sorted)))
    }
}

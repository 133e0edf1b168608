//! The glTF node tree: parents, world matrices at rest and a parents-first order.

use glam::Mat4;
use gltf::{Document, Node};

use crate::rig::forward_kinematics;

/// The node hierarchy resolved once: parents, world matrices and a parents-first order.
pub(in crate::io) struct Hierarchy {
    pub(in crate::io) parent: Vec<Option<usize>>,
    pub(in crate::io) world: Vec<Mat4>,
    /// Every node reachable from a root, parents before children.
    pub(in crate::io) order: Vec<usize>,
}

impl Hierarchy {
    pub(super) fn new(document: &Document) -> Result<Self, String> {
        let count = document.nodes().len();
        let mut parent = vec![None; count];
        for node in document.nodes() {
            for child in node.children() {
                if parent[child.index()].is_some() {
                    return Err(format!("node {} has more than one parent", child.index()));
                }
                parent[child.index()] = Some(node.index());
            }
        }
        let nodes: Vec<Node> = document.nodes().collect();
        let mut order = Vec::with_capacity(count);
        let mut stack: Vec<usize> = (0..count).rev().filter(|&i| parent[i].is_none()).collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(
                nodes[i]
                    .children()
                    .map(|c| c.index())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            );
        }
        if order.len() != count {
            return Err("the node hierarchy contains a cycle".into());
        }
        let world = forward_kinematics(
            count,
            order.iter().copied(),
            |n| parent[n],
            |n, parent_world| {
                parent_world * Mat4::from_cols_array_2d(&nodes[n].transform().matrix())
            },
        );
        Ok(Self {
            parent,
            world,
            order,
        })
    }

    /// `node` itself or its nearest ancestor that satisfies `pred`.
    pub(super) fn nearest(&self, mut node: usize, pred: impl Fn(usize) -> bool) -> Option<usize> {
        loop {
            if pred(node) {
                return Some(node);
            }
            node = self.parent[node]?;
        }
    }
}

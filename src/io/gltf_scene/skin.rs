//! Skins: the union of a file's skins as one skeleton, skinning matrices, and each vertex's
//! joint influences.

use std::collections::HashMap;

use glam::{Mat3, Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::{Node, Primitive};

use super::{Hierarchy, SceneReader};
use crate::io::{ImportError, accessor_check};
use crate::rig::{Influence, Joint, JointId, Skeleton};

impl SceneReader<'_> {
    /// The union of all skins' joints, parents first, and the map from node to joint.
    pub(super) fn skeleton(
        &self,
        hierarchy: &Hierarchy,
    ) -> Result<(Skeleton, HashMap<usize, JointId>), ImportError> {
        let mut is_joint = vec![false; hierarchy.world.len()];
        for skin in self.document.skins() {
            for joint in skin.joints() {
                is_joint[joint.index()] = true;
            }
        }
        let count = is_joint.iter().filter(|j| **j).count();
        ImportError::at_most(self.name, "joints", count, self.limits.max_joints)?;
        let nodes: Vec<Node> = self.document.nodes().collect();
        let mut joint_of_node = HashMap::new();
        let mut joints = Vec::with_capacity(count);
        for &n in &hierarchy.order {
            if !is_joint[n] {
                continue;
            }
            let parent = hierarchy.parent[n]
                .and_then(|p| hierarchy.nearest(p, |a| is_joint[a]))
                .and_then(|p| joint_of_node.get(&p).copied());
            let id = JointId(joints.len() as u32);
            joint_of_node.insert(n, id);
            joints.push(Joint {
                name: nodes[n]
                    .name()
                    .map_or_else(|| format!("joint{n}"), str::to_owned),
                parent,
                world_bind: hierarchy.world[n],
            });
        }
        Ok((Skeleton { joints }, joint_of_node))
    }

    /// Per skin joint: its global id and its skinning matrix (world × inverse bind).
    pub(super) fn skin_matrices(
        &self,
        skin: &gltf::Skin<'_>,
        hierarchy: &Hierarchy,
        joint_of_node: &HashMap<usize, JointId>,
    ) -> Result<Vec<(JointId, Mat4)>, ImportError> {
        let place = format!("skin {}", skin.index());
        let joint_count = skin.joints().count();
        let inverse_binds: Vec<Mat4> = match skin.inverse_bind_matrices() {
            Some(accessor) => {
                accessor_check::check_kind(
                    &accessor,
                    self.buffers,
                    "inverse bind matrix",
                    &[DataType::F32],
                    Dimensions::Mat4,
                )
                .map_err(|r| self.bad(&place, r))?;
                skin.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]))
                    .read_inverse_bind_matrices()
                    .map(|m| m.map(|c| Mat4::from_cols_array_2d(&c)).collect())
                    .unwrap_or_default()
            }
            None => vec![Mat4::IDENTITY; joint_count],
        };
        if inverse_binds.len() < joint_count {
            return Err(self.bad(
                place,
                format!(
                    "{} inverse bind matrices for {joint_count} joints",
                    inverse_binds.len()
                ),
            ));
        }
        Ok(skin
            .joints()
            .zip(inverse_binds)
            .filter_map(|(node, ibm)| {
                let id = joint_of_node.get(&node.index())?;
                Some((*id, hierarchy.world[node.index()] * ibm))
            })
            .collect())
    }

    /// All JOINTS_n/WEIGHTS_n sets of a skinned primitive, as global joint ids.
    pub(super) fn read_influences(
        &self,
        primitive: &Primitive<'_>,
        count: usize,
        matrices: &[(JointId, Mat4)],
        place: &str,
    ) -> Result<(Vec<Vec<Influence>>, usize), ImportError> {
        let bad = |r: String| self.bad(place, r);
        let reader = primitive.reader(|b| self.buffers.get(b.index()).map(|d| &d[..]));
        let mut influences = vec![Vec::new(); count];
        let mut dropped = 0;
        for set in 0u32.. {
            let (Some(joints_accessor), Some(weights_accessor)) = (
                primitive.get(&gltf::Semantic::Joints(set)),
                primitive.get(&gltf::Semantic::Weights(set)),
            ) else {
                break;
            };
            for (accessor, what, types) in [
                (
                    &joints_accessor,
                    "JOINTS",
                    &[DataType::U8, DataType::U16][..],
                ),
                (
                    &weights_accessor,
                    "WEIGHTS",
                    &[DataType::F32, DataType::U8, DataType::U16][..],
                ),
            ] {
                accessor_check::check_kind(accessor, self.buffers, what, types, Dimensions::Vec4)
                    .map_err(bad)?;
                if accessor.count() != count {
                    return Err(bad(format!(
                        "{what}_{set} has {} entries for {count} vertices",
                        accessor.count()
                    )));
                }
            }
            let (Some(joints), Some(weights)) = (reader.read_joints(set), reader.read_weights(set))
            else {
                break;
            };
            for ((vertex, js), ws) in influences
                .iter_mut()
                .zip(joints.into_u16())
                .zip(weights.into_f32())
            {
                for (j, w) in js.into_iter().zip(ws) {
                    if w == 0.0 {
                        continue;
                    }
                    if !(w.is_finite() && w > 0.0) {
                        dropped += 1;
                        continue;
                    }
                    let Some((joint, _)) = matrices.get(j as usize) else {
                        return Err(bad(format!(
                            "JOINTS_{set} refers to joint {j} but the skin has {}",
                            matrices.len()
                        )));
                    };
                    vertex.push(Influence {
                        joint: *joint,
                        weight: w,
                    });
                }
            }
        }
        Ok((influences, dropped))
    }
}

/// How a primitive's vertices get to world space.
pub(super) enum Binding {
    /// Skinning matrices per skin joint; glTF ignores the mesh node's own transform then.
    Skinned(Vec<(JointId, Mat4)>),
    /// The node's world transform, and the joint it rides on rigidly, if any.
    Rigid { world: Mat4, joint: Option<JointId> },
}

impl Binding {
    /// Where a vertex at `p` in the primitive's space, moved by `influences`, is in world space:
    /// by the node's transform, or by linear blend skinning at the nodes' default pose (a
    /// vertex with no usable weight stays where it is).
    pub(super) fn place(&self, p: Vec3, influences: &[Influence]) -> Vec3 {
        match self {
            Binding::Rigid { world, .. } => world.transform_point3(p),
            Binding::Skinned(matrices) => shares(influences, matrices).map_or(p, |shares| {
                shares.map(|(m, w)| m.transform_point3(p) * w).sum()
            }),
        }
    }

    /// How directions at a vertex moved by `influences` turn into world space: the linear part
    /// of its transform ([`Binding::place`]'s), `None` where it is degenerate or nothing
    /// moves it.
    pub(super) fn turn(&self, influences: &[Influence]) -> Option<Mat3> {
        let m = match self {
            Binding::Rigid { world, .. } => Mat3::from_mat4(*world),
            Binding::Skinned(matrices) => {
                shares(influences, matrices).map_or(Mat3::IDENTITY, |shares| {
                    (shares.map(|(m, w)| Mat3::from_mat4(*m) * w)).fold(Mat3::ZERO, |a, b| a + b)
                })
            }
        };
        (m.determinant().abs() > 1e-12 && m.is_finite()).then_some(m)
    }
}

/// Each influence's skinning matrix and its share of the vertex, the weights normalised here
/// (files in the wild do not always sum to 1); `None` where no weight is usable.
fn shares<'a>(
    influences: &'a [Influence],
    matrices: &'a [(JointId, Mat4)],
) -> Option<impl Iterator<Item = (&'a Mat4, f32)> + 'a> {
    let total: f32 = influences.iter().map(|i| i.weight).sum();
    (total > 0.0).then(|| {
        influences.iter().filter_map(move |i| {
            let (_, m) = matrices.iter().find(|(id, _)| *id == i.joint)?;
            Some((m, i.weight / total))
        })
    })
}

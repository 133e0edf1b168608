//! Skinning in the layout a GPU skins from: every vertex gets the same number of (joint,
//! weight) slots, so that a vertex shader can read them as attributes, and the joints'
//! skinning matrices are rows of texels.

use glam::Mat4;

use crate::rig::{Influence, JointId, SkinWeights};

/// Influence slots per vertex: the export's largest choice (glTF `JOINTS_0` + `JOINTS_1`).
pub const PACKED_INFLUENCES: usize = 8;

/// One row of [`PACKED_INFLUENCES`] slots per vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedInfluences {
    /// Joint indices, as floats (exact below 2^24; joints are capped far lower).
    pub joints: Vec<[f32; PACKED_INFLUENCES]>,
    /// Weights summing to 1, strongest first; all 0 for a vertex that nothing moves.
    pub weights: Vec<[f32; PACKED_INFLUENCES]>,
}

impl PackedInfluences {
    /// `skin` for `vertex_count` vertices and a skeleton of `joint_count` joints: influences on
    /// joints that do not exist are dropped (as [`super::skin_positions`] ignores them), a
    /// vertex with more than [`PACKED_INFLUENCES`] keeps its strongest, and the kept weights are
    /// renormalised. Without a skin every vertex stays where it is.
    pub fn new(skin: Option<&SkinWeights>, vertex_count: usize, joint_count: usize) -> Self {
        let mut joints = Vec::with_capacity(vertex_count);
        let mut weights = Vec::with_capacity(vertex_count);
        let mut kept: Vec<Influence> = Vec::with_capacity(PACKED_INFLUENCES);
        for v in 0..vertex_count {
            kept.clear();
            if let Some(skin) = skin {
                kept.extend(
                    skin.influences(v)
                        .iter()
                        .filter(|i| i.joint.index() < joint_count && i.weight > 0.0),
                );
            }
            kept.sort_by(|a, b| b.weight.total_cmp(&a.weight));
            kept.truncate(PACKED_INFLUENCES);
            let total: f32 = kept.iter().map(|i| i.weight).sum();
            let (mut row_joints, mut row_weights) =
                ([0.0; PACKED_INFLUENCES], [0.0; PACKED_INFLUENCES]);
            if total > 0.0 && total.is_finite() {
                for (slot, i) in kept.iter().enumerate() {
                    row_joints[slot] = i.joint.index() as f32;
                    row_weights[slot] = i.weight / total;
                }
            }
            joints.push(row_joints);
            weights.push(row_weights);
        }
        Self { joints, weights }
    }

    /// The same influences as sparse skin weights: what skinning on the CPU must use to move
    /// vertices exactly as the GPU draws them.
    pub fn skin_weights(&self) -> SkinWeights {
        let mut skin = SkinWeights::new();
        for (joints, weights) in self.joints.iter().zip(&self.weights) {
            skin.push_vertex(joints.iter().zip(weights).filter(|(_, w)| **w > 0.0).map(
                |(j, w)| Influence {
                    joint: JointId(*j as u32),
                    weight: *w,
                },
            ));
        }
        skin
    }
}

/// `skinning` (one matrix per joint) as `joints` rows of four RGBA texels, the matrix's
/// columns; joints without a matrix stay at bind (identity).
pub fn skinning_texels(skinning: &[Mat4], joints: usize) -> Vec<[f32; 4]> {
    (0..joints)
        .flat_map(|j| {
            let m = skinning.get(j).copied().unwrap_or(Mat4::IDENTITY);
            [m.x_axis, m.y_axis, m.z_axis, m.w_axis].map(|c| c.to_array())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn influence(joint: u32, weight: f32) -> Influence {
        Influence {
            joint: JointId(joint),
            weight,
        }
    }

    #[test]
    fn keeps_the_strongest_existing_joints_normalised() {
        let mut skin = SkinWeights::new();
        skin.push_vertex([influence(1, 1.0), influence(0, 3.0)]);
        skin.push_vertex((0..10).map(|j| influence(j % 3, 1.0 + j as f32)));
        skin.push_vertex([influence(7, 1.0)]);
        let packed = PackedInfluences::new(Some(&skin), 4, 3);
        assert_eq!(packed.joints[0][..2], [0.0, 1.0]);
        assert_eq!(packed.weights[0][..3], [0.75, 0.25, 0.0]);
        // Ten influences: the eight strongest (weights 10 down to 3) survive, summing to 1.
        let kept: f32 = (3..=10).map(|w| w as f32).sum();
        assert!((packed.weights[1][0] - 10.0 / kept).abs() < 1e-6);
        assert!((packed.weights[1].iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(packed.joints[1][0], 0.0); // joint 9 % 3
        // A joint the skeleton lacks moves nothing; neither does a vertex past the skin.
        assert_eq!(packed.weights[2], [0.0; PACKED_INFLUENCES]);
        assert_eq!(packed.weights[3], [0.0; PACKED_INFLUENCES]);
    }

    #[test]
    fn sparse_again_keeps_the_packed_influences() {
        let mut skin = SkinWeights::new();
        skin.push_vertex((0..10).map(|j| influence(j, 1.0 + j as f32)));
        skin.push_vertex([]);
        let sparse = PackedInfluences::new(Some(&skin), 2, 10).skin_weights();
        let kept: Vec<u32> = sparse.influences(0).iter().map(|i| i.joint.0).collect();
        assert_eq!(kept, [9, 8, 7, 6, 5, 4, 3, 2]);
        assert!(sparse.influences(1).is_empty());
    }

    #[test]
    fn skinning_matrices_are_rows_of_columns_padded_with_identity() {
        let moved = Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0));
        let texels = skinning_texels(&[moved], 2);
        assert_eq!(texels.len(), 8);
        assert_eq!(texels[3], [1.0, 2.0, 3.0, 1.0]);
        assert_eq!(
            texels[4..],
            [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0]
            ]
        );
    }

    #[test]
    fn no_skin_means_no_motion() {
        let packed = PackedInfluences::new(None, 2, 5);
        assert!(packed.weights.iter().all(|w| w.iter().all(|&x| x == 0.0)));
        assert_eq!(packed.joints.len(), 2);
    }
}

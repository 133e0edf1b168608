//! Linear blend skinning: where a skinned mesh's vertices go when its joints move. Used to
//! bake poses into training data, to play motions in the viewport and to measure deformation.

use glam::{Mat4, Vec3};

use crate::rig::{Skeleton, SkinWeights};

/// Each joint's skinning matrix: its posed world transform times its inverse bind matrix.
pub fn skinning_matrices(skeleton: &Skeleton, posed_world: &[Mat4]) -> Vec<Mat4> {
    skeleton
        .joints
        .iter()
        .zip(posed_world)
        .map(|(joint, world)| *world * joint.world_bind.inverse())
        .collect()
}

/// The vertices of `rest` moved by `skinning` matrices with `skin`'s weights (normalised per
/// vertex, so files whose weights do not sum to 1 still pose sensibly). Unweighted vertices,
/// and influences on joints that do not exist, leave a vertex where it was.
pub fn skin_positions(rest: &[Vec3], skin: &SkinWeights, skinning: &[Mat4]) -> Vec<Vec3> {
    rest.iter()
        .enumerate()
        .map(|(v, p)| blended_matrix(skin, v, skinning).map_or(*p, |m| m.transform_point3(*p)))
        .collect()
}

/// The normals of `rest` turned the way [`skin_positions`] moves their vertices: by the
/// rotation part of the blended matrix, renormalised — what the viewport's shader does.
pub fn skin_normals(rest: &[Vec3], skin: &SkinWeights, skinning: &[Mat4]) -> Vec<Vec3> {
    rest.iter()
        .enumerate()
        .map(|(v, n)| {
            blended_matrix(skin, v, skinning)
                .map_or(*n, |m| m.transform_vector3(*n).normalize_or(*n))
        })
        .collect()
}

/// Vertex `v`'s skinning matrices averaged by its weights; `None` when nothing moves it.
/// Blending is linear, so this moves a point exactly as the weighted sum of its moves.
pub fn blended_matrix(skin: &SkinWeights, v: usize, skinning: &[Mat4]) -> Option<Mat4> {
    let (mut sum, mut total) = (Mat4::ZERO, 0.0);
    for i in skin.influences(v) {
        if let Some(m) = skinning.get(i.joint.index()) {
            sum += *m * i.weight;
            total += i.weight;
        }
    }
    (total > 0.0).then(|| sum * (1.0 / total))
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::rig::{Influence, Joint, JointId};

    #[test]
    fn a_vertex_follows_its_joints_in_proportion() {
        let skeleton = Skeleton {
            joints: vec![
                Joint {
                    name: "a".into(),
                    parent: None,
                    world_bind: Mat4::IDENTITY,
                },
                Joint {
                    name: "b".into(),
                    parent: Some(JointId(0)),
                    world_bind: Mat4::from_translation(Vec3::Y),
                },
            ],
        };
        let posed = [
            Mat4::IDENTITY,
            Mat4::from_rotation_translation(
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
                Vec3::Y,
            ),
        ];
        let mut skin = SkinWeights::new();
        skin.push_vertex([Influence {
            joint: JointId(1),
            weight: 2.0,
        }]);
        skin.push_vertex([
            Influence {
                joint: JointId(0),
                weight: 0.5,
            },
            Influence {
                joint: JointId(1),
                weight: 0.5,
            },
        ]);
        skin.push_vertex([]);
        let rest = [Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 2.0, 0.0), Vec3::X];
        let moved = skin_positions(&rest, &skin, &skinning_matrices(&skeleton, &posed));
        assert!(moved[0].abs_diff_eq(Vec3::new(-1.0, 1.0, 0.0), 1e-5));
        assert!(moved[1].abs_diff_eq(Vec3::new(-0.5, 1.5, 0.0), 1e-5));
        assert_eq!(moved[2], Vec3::X);
    }
}

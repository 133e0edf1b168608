//! Dual-quaternion skinning (Kavan et al. 2007): joints' rigid motions blended as unit dual
//! quaternions instead of matrices, so a twisted forearm or a bent elbow keeps its volume
//! where linear blending collapses it. The reference pose-space correctives are fitted to.

use glam::{Mat4, Quat, Vec3};

use crate::rig::SkinWeights;

/// A rigid motion as a unit dual quaternion: `real` turns, `dual` carries the translation.
#[derive(Debug, Clone, Copy)]
struct DualQuat {
    real: Quat,
    dual: Quat,
}

impl DualQuat {
    fn from_rotation_translation(rotation: Quat, translation: Vec3) -> Self {
        let t = Quat::from_xyzw(translation.x, translation.y, translation.z, 0.0);
        Self {
            real: rotation,
            dual: (t * rotation) * 0.5,
        }
    }

    /// Where the motion takes `p`, once the blend is normalised.
    fn transform_point(self, p: Vec3) -> Vec3 {
        let norm = self.real.length();
        let (real, dual) = (self.real / norm, self.dual / norm);
        let t = (dual * real.conjugate()) * 2.0;
        real * p + Vec3::new(t.x, t.y, t.z)
    }
}

/// Joints' skinning matrices as dual quaternions, ready to move vertices.
pub struct DualQuaternionSkinning {
    /// Per joint: the matrix's scale (which a dual quaternion cannot hold) and its motion.
    motions: Vec<(Vec3, DualQuat)>,
}

impl DualQuaternionSkinning {
    pub fn new(skinning: &[Mat4]) -> Self {
        let motions = skinning
            .iter()
            .map(|m| {
                let (scale, rotation, translation) = m.to_scale_rotation_translation();
                (
                    scale,
                    DualQuat::from_rotation_translation(rotation.normalize(), translation),
                )
            })
            .collect();
        Self { motions }
    }

    /// Vertex `v`, at `p` at rest, moved by the blend of its joints' motions with `skin`'s
    /// weights (normalised); the scale is blended linearly and applied first. `None` when
    /// nothing moves it.
    pub fn position(&self, skin: &SkinWeights, v: usize, p: Vec3) -> Option<Vec3> {
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        let (mut scale, mut real, mut dual, mut total) = (Vec3::ZERO, zero, zero, 0.0);
        let mut pivot: Option<Quat> = None;
        for i in skin.influences(v) {
            let Some(&(s, m)) = self.motions.get(i.joint.index()) else {
                continue;
            };
            // q and -q are the same turn: blend every one on the side of the first, or two
            // joints turned nearly half a circle apart would cancel.
            let pivot = *pivot.get_or_insert(m.real);
            let w = if pivot.dot(m.real) < 0.0 {
                -i.weight
            } else {
                i.weight
            };
            real += m.real * w;
            dual += m.dual * w;
            scale += s * i.weight;
            total += i.weight;
        }
        if total <= 0.0 || total.is_nan() || real.length_squared() < 1e-12 {
            return None;
        }
        Some(DualQuat { real, dual }.transform_point(p * (scale / total)))
    }
}

/// The vertices of `rest` moved by `skinning` matrices, blended as dual quaternions with
/// `skin`'s weights ([`DualQuaternionSkinning::position`]). Unweighted vertices stay where
/// they were.
pub fn dual_quaternion_positions(
    rest: &[Vec3],
    skin: &SkinWeights,
    skinning: &[Mat4],
) -> Vec<Vec3> {
    let motions = DualQuaternionSkinning::new(skinning);
    rest.iter()
        .enumerate()
        .map(|(v, &p)| motions.position(skin, v, p).unwrap_or(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::skin_positions;
    use crate::rig::{Influence, JointId};

    fn two_joint_skin(weights: &[f32]) -> SkinWeights {
        let mut skin = SkinWeights::new();
        for &w in weights {
            skin.push_vertex([
                Influence {
                    joint: JointId(0),
                    weight: 1.0 - w,
                },
                Influence {
                    joint: JointId(1),
                    weight: w,
                },
            ]);
        }
        skin
    }

    #[test]
    fn rigid_motions_match_linear_blending() {
        let m =
            Mat4::from_rotation_translation(Quat::from_rotation_y(0.7), Vec3::new(1.0, 2.0, 3.0));
        let skin = two_joint_skin(&[0.0, 0.3, 1.0]);
        let rest = [Vec3::X, Vec3::new(0.2, 1.0, -0.5), Vec3::Z * 2.0];
        let dq = dual_quaternion_positions(&rest, &skin, &[m, m]);
        let lbs = skin_positions(&rest, &skin, &[m, m]);
        for (a, b) in dq.iter().zip(&lbs) {
            assert!(a.distance(*b) < 1e-5, "{a} {b}");
        }
    }

    #[test]
    fn a_half_twist_keeps_the_radius_where_linear_blending_collapses() {
        // A vertex on a unit-radius forearm, half on the elbow and half on a wrist twisted by
        // 180° about the arm: linear blending pulls it onto the bone, dual quaternions keep
        // it on the surface.
        let twist = Mat4::from_quat(Quat::from_rotation_x(std::f32::consts::PI * 0.999));
        let skin = two_joint_skin(&[0.5]);
        let rest = [Vec3::new(0.5, 1.0, 0.0)];
        let dq = dual_quaternion_positions(&rest, &skin, &[Mat4::IDENTITY, twist]);
        let lbs = skin_positions(&rest, &skin, &[Mat4::IDENTITY, twist]);
        let radius = |p: Vec3| Vec3::new(0.0, p.y, p.z).length();
        assert!((radius(dq[0]) - 1.0).abs() < 1e-4, "{}", radius(dq[0]));
        assert!(radius(lbs[0]) < 0.01, "{}", radius(lbs[0]));
    }
}

//! Files come Z-up, X-up, in centimetres or inches; everything inside rigkit is glTF's frame.

use glam::{DMat3, DMat4, DVec3, Mat4, Quat, Vec3};

/// A file's axes and unit, as the change to glTF's frame: X right, Y up, Z front, metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisSystem {
    /// Rotation (or reflection-free axis swap) onto X right, Y up, Z front.
    pub rotation: DMat3,
    /// Metres per file unit.
    pub metres: f64,
}

impl AxisSystem {
    /// COLLADA's `up_axis` (`X_UP`, `Y_UP`, `Z_UP`; the spec fixes the other two axes for
    /// each) and its `unit meter`.
    pub fn from_up_axis(up: &str, metres: f64) -> Self {
        let rows = |a: [f64; 3], b: [f64; 3], c: [f64; 3]| {
            DMat3::from_cols(a.into(), b.into(), c.into()).transpose()
        };
        let rotation = match up.trim() {
            "Z_UP" => rows([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]),
            "X_UP" => rows([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
            _ => DMat3::IDENTITY,
        };
        let metres = if metres.is_finite() && metres > 0.0 {
            metres
        } else {
            1.0
        };
        Self { rotation, metres }
    }

    /// A point of the file's world in glTF's.
    pub fn point(&self, p: DVec3) -> Vec3 {
        (self.rotation * p * self.metres).as_vec3()
    }

    /// A joint's world frame in glTF's: its rotation turned with the axes, its position moved
    /// and scaled; any scale in the frame itself is dropped (joints are rigid frames here).
    pub fn frame(&self, m: DMat4) -> Mat4 {
        let basis = DMat3::from_mat4(m);
        let turned = self.rotation * basis;
        let (_, rotation, _) = DMat4::from_mat3(turned).to_scale_rotation_translation();
        let rotation = Quat::from_xyzw(
            rotation.x as f32,
            rotation.y as f32,
            rotation.z as f32,
            rotation.w as f32,
        )
        .normalize();
        let position = self.point(m.w_axis.truncate());
        if !rotation.is_finite() {
            return Mat4::from_translation(position);
        }
        Mat4::from_rotation_translation(rotation, position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collada_up_axes_become_y_up_without_mirroring() {
        for (up, file_up) in [("Z_UP", DVec3::Z), ("X_UP", DVec3::X), ("Y_UP", DVec3::Y)] {
            // A file in centimetres: 180 units up is 1.8 m up here.
            let axes = AxisSystem::from_up_axis(up, 0.01);
            let head = axes.point(file_up * 180.0);
            assert!(
                head.distance(Vec3::new(0.0, 1.8, 0.0)) < 1e-5,
                "{up}: {head}"
            );
            assert!((axes.rotation.determinant() - 1.0).abs() < 1e-9, "{up}");
        }
    }
}

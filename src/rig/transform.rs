use glam::{Mat4, Quat, Vec3};

/// A joint's local transform relative to its parent joint (or the world, for a root), as
/// glTF animates it: translation, rotation and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// Splits an affine matrix into translation, rotation and scale; a shear, which glTF cannot
    /// animate, is lost.
    pub fn from_mat4(m: Mat4) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Self {
            translation,
            rotation: rotation.normalize(),
            scale,
        }
    }

    pub fn to_mat4(self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// The transform a fraction `s` of the way from `self` to `other` (rotation along the
    /// shorter arc).
    pub fn interpolate(self, other: Self, s: f32) -> Self {
        Self {
            translation: self.translation.lerp(other.translation, s),
            rotation: self.rotation.slerp(other.rotation, s).normalize(),
            scale: self.scale.lerp(other.scale, s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_round_trip_and_halfway() {
        let t = Transform {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: Quat::from_rotation_y(1.0),
            scale: Vec3::splat(2.0),
        };
        let back = Transform::from_mat4(t.to_mat4());
        assert!(back.translation.abs_diff_eq(t.translation, 1e-6));
        assert!(back.rotation.abs_diff_eq(t.rotation, 1e-6));
        assert!(back.scale.abs_diff_eq(t.scale, 1e-6));
        let half = Transform::IDENTITY.interpolate(t, 0.5);
        assert!(half.rotation.abs_diff_eq(Quat::from_rotation_y(0.5), 1e-6));
        assert!(half.translation.abs_diff_eq(Vec3::new(0.5, 1.0, 1.5), 1e-6));
    }
}

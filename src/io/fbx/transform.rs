//! FBX's transform stack and axis systems. A model's local matrix is not just translation ×
//! rotation × scale: Maya and 3ds Max add offsets, pivots, and pre- and post-rotations, and
//! a file may be Z-up in centimetres. Everything is brought to glTF's frame: Y up, metres.

use std::collections::HashMap;

use glam::{DMat3, DMat4, DVec3, Mat4, Quat, Vec3};

fn vec3(props: &HashMap<&str, Vec<f64>>, name: &str, default: f64) -> DVec3 {
    match props.get(name).map(Vec::as_slice) {
        Some([x, y, z, ..]) if x.is_finite() && y.is_finite() && z.is_finite() => {
            DVec3::new(*x, *y, *z)
        }
        _ => DVec3::splat(default),
    }
}

/// Euler angles in degrees applied in `order` (FBX's `RotationOrder`: 0 = XYZ, X first).
pub fn euler(degrees: DVec3, order: i64) -> DMat4 {
    let r = degrees * (std::f64::consts::PI / 180.0);
    let (x, y, z) = (
        DMat4::from_rotation_x(r.x),
        DMat4::from_rotation_y(r.y),
        DMat4::from_rotation_z(r.z),
    );
    match order {
        1 => y * z * x,
        2 => x * z * y,
        3 => z * x * y,
        4 => y * x * z,
        5 => x * y * z,
        _ => z * y * x,
    }
}

/// A model's matrix relative to its parent, from its `Properties70`:
/// `T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹`.
pub fn local_matrix(props: &HashMap<&str, Vec<f64>>) -> DMat4 {
    let t = DMat4::from_translation(vec3(props, "Lcl Translation", 0.0));
    let order = props
        .get("RotationOrder")
        .and_then(|v| v.first())
        .map_or(0, |&o| o as i64);
    let r = euler(vec3(props, "Lcl Rotation", 0.0), order);
    let pre = euler(vec3(props, "PreRotation", 0.0), 0);
    let post = euler(vec3(props, "PostRotation", 0.0), 0);
    let s = DMat4::from_scale(vec3(props, "Lcl Scaling", 1.0));
    let roff = DMat4::from_translation(vec3(props, "RotationOffset", 0.0));
    let rp = DMat4::from_translation(vec3(props, "RotationPivot", 0.0));
    let soff = DMat4::from_translation(vec3(props, "ScalingOffset", 0.0));
    let sp = DMat4::from_translation(vec3(props, "ScalingPivot", 0.0));
    t * roff * rp * pre * r * post.inverse() * rp.inverse() * soff * sp * s * sp.inverse()
}

/// The geometric transform: it moves a model's geometry but not its children.
pub fn geometric_matrix(props: &HashMap<&str, Vec<f64>>) -> DMat4 {
    DMat4::from_translation(vec3(props, "GeometricTranslation", 0.0))
        * euler(vec3(props, "GeometricRotation", 0.0), 0)
        * DMat4::from_scale(vec3(props, "GeometricScaling", 1.0))
}

/// The file's axes and unit, from `GlobalSettings`, as the change to Y-up metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisSystem {
    /// Rotation (or reflection-free axis swap) onto X right, Y up, Z front.
    pub rotation: DMat3,
    /// Metres per file unit.
    pub metres: f64,
}

impl AxisSystem {
    pub fn from_settings(props: &HashMap<&str, Vec<f64>>) -> Self {
        let int = |name: &str, default: i64| {
            props
                .get(name)
                .and_then(|v| v.first())
                .map_or(default, |&v| v as i64)
        };
        let axis = |index: i64, sign: i64| {
            let mut v = DVec3::ZERO;
            v[index.clamp(0, 2) as usize] = if sign < 0 { -1.0 } else { 1.0 };
            v
        };
        let right = axis(int("CoordAxis", 0), int("CoordAxisSign", 1));
        let up = axis(int("UpAxis", 1), int("UpAxisSign", 1));
        let front = axis(int("FrontAxis", 2), int("FrontAxisSign", 1));
        // Rows: the file's right, up and front become X, Y and Z.
        let mut rotation = DMat3::from_cols(right, up, front).transpose();
        if rotation.determinant().abs() < 0.5 {
            // Two settings name one axis: the file is inconsistent; keep its own frame.
            rotation = DMat3::IDENTITY;
        } else if rotation.determinant() < 0.0 {
            // A left-handed description of a right-handed scene: trust the up axis and the
            // right axis, and derive front from them.
            rotation = DMat3::from_cols(right, up, right.cross(up)).transpose();
        }
        let unit = props
            .get("UnitScaleFactor")
            .and_then(|v| v.first())
            .copied()
            .filter(|u| u.is_finite() && *u > 0.0)
            .unwrap_or(1.0);
        Self {
            rotation,
            metres: unit / 100.0,
        }
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
    fn a_z_up_centimetre_file_becomes_y_up_metres() {
        let props: HashMap<&str, Vec<f64>> = [
            ("UpAxis", vec![2.0]),
            ("FrontAxis", vec![1.0]),
            ("FrontAxisSign", vec![-1.0]),
            ("CoordAxis", vec![0.0]),
            ("UnitScaleFactor", vec![1.0]),
        ]
        .into_iter()
        .collect();
        let axes = AxisSystem::from_settings(&props);
        // 180 cm up in the file is 1.8 m up (Y) here.
        let head = axes.point(DVec3::new(0.0, 0.0, 180.0));
        assert!(head.distance(Vec3::new(0.0, 1.8, 0.0)) < 1e-5, "{head}");
        assert!((axes.rotation.determinant() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn pre_rotation_and_pivots_compose_as_fbx_defines_them() {
        let props: HashMap<&str, Vec<f64>> = [
            ("Lcl Translation", vec![1.0, 0.0, 0.0]),
            ("PreRotation", vec![0.0, 0.0, 90.0]),
            ("RotationPivot", vec![0.0, 1.0, 0.0]),
        ]
        .into_iter()
        .collect();
        let m = local_matrix(&props);
        // The pivot (0, 1, 0) stays put under the rotation, then moves by the translation.
        let pivot = m.transform_point3(DVec3::new(0.0, 1.0, 0.0));
        assert!(pivot.distance(DVec3::new(1.0, 1.0, 0.0)) < 1e-9, "{pivot}");
        // X turns onto Y about the pivot.
        let x = m.transform_point3(DVec3::new(1.0, 1.0, 0.0));
        assert!(x.distance(DVec3::new(1.0, 2.0, 0.0)) < 1e-9, "{x}");
    }
}

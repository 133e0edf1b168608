//! FBX's transform stack and axis systems. A model's local matrix is not just translation ×
//! rotation × scale: Maya and 3ds Max add offsets, pivots, and pre- and post-rotations, and
//! a file may be Z-up in centimetres. Everything is brought to glTF's frame: Y up, metres.

use std::collections::HashMap;

use glam::{DMat3, DMat4, DVec3};

use crate::io::axes::AxisSystem;

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

/// The axes and unit `GlobalSettings` states.
pub fn axis_system(props: &HashMap<&str, Vec<f64>>) -> AxisSystem {
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
    AxisSystem {
        rotation,
        metres: unit / 100.0,
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

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
        let axes = axis_system(&props);
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

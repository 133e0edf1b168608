//! Vertex colours between the linear values meshes hold (as glTF's `COLOR_0`) and the sRGB
//! values formats such as FBX store and screens show.

use glam::Vec4;

/// An sRGB colour (alpha as it is) in linear RGBA, clamped to 0–1.
pub fn to_linear(srgb: Vec4) -> Vec4 {
    let decode = |c: f32| {
        let c = c.clamp(0.0, 1.0);
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    Vec4::new(
        decode(srgb.x),
        decode(srgb.y),
        decode(srgb.z),
        srgb.w.clamp(0.0, 1.0),
    )
}

/// A linear colour (alpha as it is) in sRGB, clamped to 0–1: [`to_linear`]'s inverse.
pub fn to_srgb(linear: Vec4) -> Vec4 {
    let encode = |c: f32| {
        let c = c.clamp(0.0, 1.0);
        if c <= 0.003_130_8 {
            12.92 * c
        } else {
            1.055 * c.powf(1.0 / 2.4) - 0.055
        }
    };
    Vec4::new(
        encode(linear.x),
        encode(linear.y),
        encode(linear.z),
        linear.w.clamp(0.0, 1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_and_linear_are_each_others_inverse_and_clamp() {
        for v in [0.0, 0.002, 0.04, 0.2, 0.5, 0.73, 1.0] {
            let c = Vec4::new(v, v * 0.5, 1.0 - v, 0.25);
            assert!(to_linear(to_srgb(c)).abs_diff_eq(c, 1e-5), "{c}");
        }
        // Mid-grey on screen is about a fifth of the light.
        assert!((to_linear(Vec4::splat(0.5)).x - 0.214).abs() < 1e-3);
        let clamped = to_srgb(Vec4::new(2.0, -1.0, 0.0, 7.0));
        assert!(
            clamped.abs_diff_eq(Vec4::new(1.0, 0.0, 0.0, 1.0), 1e-6),
            "{clamped}"
        );
    }
}

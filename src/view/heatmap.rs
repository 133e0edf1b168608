//! Skin weights as colours: one joint's weight on every vertex, from dark blue (0) through
//! green and yellow to red (1), as the weight-paint views of DCC tools show it; and on the
//! same ramp, how far correctives move each vertex; and a mesh's own vertex colours as the
//! viewer uploads them.

use three_d::Srgba;

use crate::rig::{JointId, SkinWeights};

/// The colour of `weight` (clamped to 0..1).
pub fn weight_color(weight: f32) -> Srgba {
    // Piecewise-linear ramp through blue, cyan, green, yellow, red.
    const STOPS: [[f32; 3]; 5] = [
        [0.05, 0.07, 0.45],
        [0.0, 0.6, 0.9],
        [0.1, 0.8, 0.2],
        [0.95, 0.85, 0.1],
        [0.9, 0.1, 0.05],
    ];
    let t = weight.clamp(0.0, 1.0) * (STOPS.len() - 1) as f32;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f32;
    let channel = |c: usize| {
        let v = STOPS[i][c] + (STOPS[i + 1][c] - STOPS[i][c]) * f;
        (v * 255.0).round() as u8
    };
    Srgba::new(channel(0), channel(1), channel(2), 255)
}

/// A linear RGBA colour (as meshes hold vertex colours) in sRGB, as the viewer uploads them.
pub fn srgba(linear: glam::Vec4) -> Srgba {
    let [r, g, b, a] = crate::mesh::color::to_srgb(linear)
        .to_array()
        .map(|c| (c * 255.0).round() as u8);
    Srgba::new(r, g, b, a)
}

/// Per-vertex colours of `joint`'s weights.
pub fn joint_weight_colors(skin: &SkinWeights, joint: JointId, vertices: usize) -> Vec<Srgba> {
    (0..vertices)
        .map(|v| {
            let w = skin
                .influences(v)
                .iter()
                .filter(|i| i.joint == joint)
                .map(|i| i.weight)
                .sum();
            weight_color(w)
        })
        .collect()
}

/// Per-vertex colours of how far `offsets` move each of `vertices` (none where empty): red
/// at `full` or more.
pub fn offset_colors(offsets: &[glam::Vec3], full: f32, vertices: usize) -> Vec<Srgba> {
    (0..vertices)
        .map(|v| {
            let moved = offsets.get(v).map_or(0.0, |o| o.length());
            weight_color(moved / full.max(f32::MIN_POSITIVE))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_runs_from_blue_to_red() {
        let cold = weight_color(0.0);
        let hot = weight_color(1.0);
        assert!(cold.b > cold.r && hot.r > hot.b);
        assert_eq!(weight_color(-3.0), cold);
        assert_eq!(weight_color(7.0), hot);
    }

    #[test]
    fn vertex_colours_come_back_from_srgb_as_they_were() {
        for linear in [
            glam::Vec4::ZERO,
            glam::Vec4::ONE,
            glam::Vec4::new(0.2, 0.5, 0.01, 1.0),
        ] {
            let back = srgba(linear).to_linear_srgb();
            let back = glam::Vec4::new(back.x, back.y, back.z, back.w);
            assert!(back.abs_diff_eq(linear, 0.01), "{linear} -> {back}");
        }
    }

    #[test]
    fn corrective_offsets_paint_red_at_full_and_blue_where_nothing_moves() {
        let offsets = [glam::Vec3::ZERO, glam::Vec3::X * 0.02, glam::Vec3::Y * 0.5];
        let colors = offset_colors(&offsets, 0.02, 4);
        assert_eq!(colors[0], weight_color(0.0));
        assert_eq!(colors[1], weight_color(1.0));
        assert_eq!(colors[2], weight_color(1.0));
        // A vertex without an offset (none given for it) has not moved.
        assert_eq!(colors[3], weight_color(0.0));
    }
}

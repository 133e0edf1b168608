//! Rotations as FBX stores them: Euler angles in degrees, X applied first, then Y, then Z
//! (`RotationOrder` 0). Animation curves interpolate each angle on its own, so successive keys
//! pick, of the equivalent angle triples, the one nearest the previous key.

use std::f64::consts::{PI, TAU};

use glam::{DQuat, DVec3, EulerRot};

/// `rotation` as X-then-Y-then-Z angles in degrees; with `near`, the equivalent triple
/// closest to it (no jumps of 360° in one angle, no flips through the other solution).
pub fn degrees(rotation: DQuat, near: Option<DVec3>) -> DVec3 {
    // glam's ZYX is Rz · Ry · Rx: X turns first.
    let (z, y, x) = rotation.normalize().to_euler(EulerRot::ZYX);
    let first = DVec3::new(x, y, z);
    let Some(near) = near.map(|d| d * (PI / 180.0)) else {
        return first * (180.0 / PI);
    };
    // The other triple that gives the same rotation.
    let second = DVec3::new(x + PI, PI - y, z + PI);
    let unwrap = |a: DVec3| {
        let turns = ((near - a) / TAU).round();
        a + turns * TAU
    };
    let (a, b) = (unwrap(first), unwrap(second));
    let best = if a.distance_squared(near) <= b.distance_squared(near) {
        a
    } else {
        b
    };
    best * (180.0 / PI)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotation(d: DVec3) -> DQuat {
        let r = d * (PI / 180.0);
        DQuat::from_rotation_z(r.z) * DQuat::from_rotation_y(r.y) * DQuat::from_rotation_x(r.x)
    }

    #[test]
    fn angles_rebuild_the_rotation_with_x_turning_first() {
        let q = rotation(DVec3::new(30.0, -40.0, 110.0));
        let d = degrees(q, None);
        assert!(d.distance(DVec3::new(30.0, -40.0, 110.0)) < 1e-9, "{d}");
    }

    #[test]
    fn keys_follow_the_previous_key_across_the_wrap() {
        // A joint turning on past 180° about Z keeps counting instead of jumping to −179°.
        let d = degrees(
            rotation(DVec3::new(0.0, 0.0, 181.0)),
            Some(DVec3::new(0.0, 0.0, 179.0)),
        );
        assert!(d.distance(DVec3::new(0.0, 0.0, 181.0)) < 1e-9, "{d}");
        // Past Y = 90° the direct solution flips X and Z by 180°; the other triple does not.
        let near = DVec3::new(10.0, 89.0, 20.0);
        let d = degrees(rotation(DVec3::new(10.0, 91.0, 20.0)), Some(near));
        assert!(rotation(d).angle_between(rotation(DVec3::new(10.0, 91.0, 20.0))) < 1e-9);
        assert!(d.distance(near) < 5.0, "{d}");
    }
}

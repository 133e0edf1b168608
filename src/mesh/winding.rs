use glam::Vec3;

/// The generalized winding number of `p` with respect to the triangles (Jacobson et al.
/// 2013): 1 inside a closed, outward-wound surface, 0 outside, and a graceful fraction near
/// holes. Used to check that joints lie inside a character.
pub fn winding_number(positions: &[Vec3], triangles: &[[u32; 3]], p: Vec3) -> f32 {
    let mut total = 0.0f64;
    for t in triangles {
        let [Some(a), Some(b), Some(c)] = t.map(|i| positions.get(i as usize)) else {
            continue;
        };
        total += f64::from(triangle_solid_angle(*a - p, *b - p, *c - p));
    }
    (total / (4.0 * std::f64::consts::PI)) as f32
}

/// The signed solid angle of the triangle `a, b, c` (corners relative to the viewer) seen
/// from the origin, by Van Oosterom & Strackee: positive when its front faces away.
pub(super) fn triangle_solid_angle(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    let (la, lb, lc) = (a.length(), b.length(), c.length());
    let numerator = a.dot(b.cross(c));
    let denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    2.0 * numerator.atan2(denominator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tetrahedron_contains_its_centroid_and_not_a_far_point() {
        let positions = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        // Outward-facing triangles.
        let triangles = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let inside = winding_number(&positions, &triangles, Vec3::splat(0.2));
        let outside = winding_number(&positions, &triangles, Vec3::splat(2.0));
        assert!((inside - 1.0).abs() < 1e-4, "{inside}");
        assert!(outside.abs() < 1e-4, "{outside}");
    }
}

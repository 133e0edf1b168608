//! Where a ray first meets a mesh's surface: what the pointer touches when painting weights.

use glam::Vec3;

use super::Mesh;

impl Mesh {
    /// The nearest point where the ray from `origin` along `direction` crosses a triangle
    /// (either side facing), or `None` when it misses the mesh.
    pub fn ray_hit(&self, origin: Vec3, direction: Vec3) -> Option<Vec3> {
        let direction = direction.try_normalize()?;
        let mut nearest: Option<f32> = None;
        for t in &self.triangles {
            let [a, b, c] = t.map(|v| self.positions[v as usize]);
            if let Some(distance) = crossing(origin, direction, a, b, c)
                && nearest.is_none_or(|n| distance < n)
            {
                nearest = Some(distance);
            }
        }
        nearest.map(|d| origin + direction * d)
    }
}

/// How far along the ray the triangle `a b c` is crossed (Möller and Trumbore's test).
fn crossing(origin: Vec3, direction: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (ab, ac) = (b - a, c - a);
    let p = direction.cross(ac);
    let det = ab.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inverse = 1.0 / det;
    let s = origin - a;
    let u = s.dot(p) * inverse;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(ab);
    let v = direction.dot(q) * inverse;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let distance = ac.dot(q) * inverse;
    (distance > 0.0).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::add_box;

    #[test]
    fn a_ray_meets_the_near_face_of_a_box_and_misses_beside_it() {
        let mut mesh = Mesh::default();
        add_box(&mut mesh, Vec3::splat(-1.0), Vec3::splat(1.0));
        let hit = mesh.ray_hit(Vec3::new(0.2, 0.3, 5.0), Vec3::NEG_Z).unwrap();
        assert!(hit.abs_diff_eq(Vec3::new(0.2, 0.3, 1.0), 1e-5), "{hit}");
        assert_eq!(mesh.ray_hit(Vec3::new(3.0, 0.0, 5.0), Vec3::NEG_Z), None);
        assert_eq!(mesh.ray_hit(Vec3::new(0.0, 0.0, 5.0), Vec3::Z), None);
        assert_eq!(mesh.ray_hit(Vec3::ZERO, Vec3::ZERO), None);
    }
}

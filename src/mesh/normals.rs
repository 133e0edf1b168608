use glam::Vec3;

/// Area-weighted vertex normals.
///
/// Computed rather than read from the file so that every primitive, skinned or not, gets normals
/// consistent with its world-space rest pose. Vertices split along hard edges keep hard edges,
/// since each copy only sees the faces on its own side. A vertex on no face gets +Z.
pub fn vertex_normals(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for tri in triangles {
        let [a, b, c] = tri.map(|i| i as usize);
        let (Some(pa), Some(pb), Some(pc)) = (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        // The cross product's length is twice the area: larger faces weigh more.
        let n = (*pb - *pa).cross(*pc - *pa);
        for i in [a, b, c] {
            normals[i] += n;
        }
    }
    normals
        .into_iter()
        .map(|n| n.try_normalize().unwrap_or(Vec3::Z))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_clockwise_triangle_faces_viewer() {
        let pos = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(5.0, 5.0, 5.0)];
        let n = vertex_normals(&pos, &[[0, 1, 2]]);
        for v in &n[..3] {
            assert!((*v - Vec3::Z).length() < 1e-6);
        }
        assert_eq!(n[3], Vec3::Z, "an unused vertex still gets a unit normal");
    }
}

//! Meshes made of axis-aligned boxes: small, closed test bodies that need no file (the
//! browser's backend check runs the networks on one).

use glam::Vec3;

use super::{Mesh, subdivide, vertex_normals};

/// The corners' triangles of a box, counter-clockwise seen from outside; corner `i` has
/// x from bit 0, y from bit 1 and z from bit 2.
const FACES: [[u32; 3]; 12] = [
    [0, 2, 1],
    [1, 2, 3],
    [4, 5, 6],
    [5, 7, 6],
    [0, 1, 4],
    [1, 5, 4],
    [2, 6, 3],
    [3, 6, 7],
    [0, 4, 2],
    [2, 4, 6],
    [1, 3, 5],
    [3, 7, 5],
];

/// Appends a closed axis-aligned box from `lo` to `hi` (12 outward-facing triangles) to
/// `mesh`; normals are left to the caller.
pub fn add_box(mesh: &mut Mesh, lo: Vec3, hi: Vec3) {
    let base = mesh.positions.len() as u32;
    mesh.positions.extend((0..8u32).map(|i| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    }));
    mesh.triangles
        .extend(FACES.iter().map(|t| t.map(|i| i + base)));
}

/// A mesh of the boxes `(lo, hi)`, each closed, with every triangle split in four
/// `subdivisions` times so the surface has vertices away from the corners.
pub fn boxes(extents: &[(Vec3, Vec3)], subdivisions: usize) -> Mesh {
    let mut mesh = Mesh::default();
    for &(lo, hi) in extents {
        add_box(&mut mesh, lo, hi);
    }
    for _ in 0..subdivisions {
        mesh = subdivide(&mesh).0;
    }
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
    mesh
}

/// A small four-legged body with a head and a tail, in metres: the probe the backend check
/// rigs on every device.
pub fn probe_creature() -> Mesh {
    let b = |lo: [f32; 3], hi: [f32; 3]| (Vec3::from(lo), Vec3::from(hi));
    boxes(
        &[
            b([-0.4, 0.4, -0.15], [0.4, 0.7, 0.15]),
            b([0.4, 0.55, -0.12], [0.65, 0.8, 0.12]),
            b([-0.9, 0.55, -0.05], [-0.4, 0.62, 0.05]),
            b([-0.35, 0.0, -0.14], [-0.25, 0.45, -0.04]),
            b([-0.35, 0.0, 0.04], [-0.25, 0.45, 0.14]),
            b([0.25, 0.0, -0.14], [0.35, 0.45, -0.04]),
            b([0.25, 0.0, 0.04], [0.35, 0.45, 0.14]),
        ],
        2,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_is_closed_and_has_a_skeleton_with_limbs() {
        let mesh = probe_creature();
        assert!(mesh.vertex_count() > 500);
        assert_eq!(mesh.normals.len(), mesh.vertex_count());
        let inside = crate::mesh::winding_number(
            &mesh.positions,
            &mesh.triangles,
            Vec3::new(0.0, 0.55, 0.0),
        );
        assert!(inside > 0.5, "winding number {inside} inside the torso");
        let skeleton =
            crate::skeleton::auto_skeleton(&mesh, &crate::skeleton::AutoOptions::default())
                .unwrap();
        assert!(
            skeleton.joints.len() >= 8,
            "{} joints",
            skeleton.joints.len()
        );
    }
}

//! The mesh's edges as thin dark cylinders over the surface, to judge topology and density.

use three_d::{ColorMaterial, Context, CpuMesh, Gm, InstancedMesh, Instances, Srgba, vec3};

use super::skeleton_overlay::cylinder_between;

const EDGE_COLOR: Srgba = Srgba::new(20, 22, 26, 255);
/// Most edges drawn; a denser mesh shows only its first edges rather than stalling the page.
pub const MAX_EDGES: usize = 400_000;

/// Every distinct edge of `triangles` over `positions`, `scale` the model's size.
pub fn wireframe(
    context: &Context,
    positions: &[glam::Vec3],
    triangles: &[[u32; 3]],
    scale: f32,
) -> Option<Gm<InstancedMesh, ColorMaterial>> {
    let mut edges: Vec<(u32, u32)> = triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges.truncate(MAX_EDGES);
    let radius = scale * 0.0007;
    let at = |i: u32| positions.get(i as usize).map(|p| vec3(p.x, p.y, p.z));
    let transformations: Vec<_> = edges
        .iter()
        .filter_map(|&(a, b)| cylinder_between(at(a)?, at(b)?, radius))
        .collect();
    if transformations.is_empty() {
        return None;
    }
    Some(Gm::new(
        InstancedMesh::new(
            context,
            &Instances {
                transformations,
                ..Default::default()
            },
            &CpuMesh::cylinder(3),
        ),
        ColorMaterial {
            color: EDGE_COLOR,
            ..Default::default()
        },
    ))
}

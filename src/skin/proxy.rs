//! Large meshes are skinned on a stand-in: their vertices clustered on a grid into a mesh of
//! at most [`PROXY_VERTICES`], skinned as any mesh is, and every vertex given the weights of
//! its cluster. Skinning's time and memory then grow with the proxy, not with the input (a
//! million-vertex sculpt would otherwise hold gigabytes of network activations).

use std::collections::HashMap;

use glam::{IVec3, Vec3};

use crate::mesh::{Mesh, MeshPart};
use crate::rig::SkinWeights;

/// Meshes with more vertices than this are skinned on a proxy of at most this many.
pub const PROXY_VERTICES: usize = 60_000;

/// A smaller mesh standing in for a large one, and which of its vertices each input vertex
/// merged into.
pub struct Proxy {
    pub mesh: Mesh,
    /// Per input vertex, its proxy vertex.
    owner: Vec<u32>,
}

impl Proxy {
    /// `mesh` clustered into at most `max` vertices (each the mean of the input vertices in
    /// one grid cell, joined as their triangles join them); `None` when it has no more than
    /// `max` already, or no extent to cluster.
    pub fn of(mesh: &Mesh, max: usize) -> Option<Self> {
        if mesh.positions.len() <= max || max == 0 {
            return None;
        }
        let bounds = mesh.bounds();
        let side = bounds.longest_side();
        if !(side.is_finite() && side > 0.0) {
            return None;
        }
        // A surface of area A holds about A / cell² cells: start there and coarsen until the
        // clusters fit.
        let area: f32 = (mesh.triangles.iter())
            .filter_map(|t| {
                let [a, b, c] = t.map(|i| mesh.positions.get(i as usize).copied());
                Some(0.5 * (b? - a?).cross(c? - a?).length())
            })
            .filter(|a| a.is_finite())
            .sum();
        let mut cell = (area / max as f32).sqrt().max(side * 1e-4);
        loop {
            let (owner, count) = cluster(&mesh.positions, bounds.min, cell);
            if count <= max {
                return Some(Self::build(mesh, owner, count));
            }
            cell *= 1.25;
        }
    }

    fn build(mesh: &Mesh, owner: Vec<u32>, count: usize) -> Self {
        let mut sums = vec![(Vec3::ZERO, Vec3::ZERO, 0u32); count];
        for (v, &o) in owner.iter().enumerate() {
            let sum = &mut sums[o as usize];
            sum.0 += mesh.positions[v];
            sum.1 += mesh.normals.get(v).copied().unwrap_or(Vec3::ZERO);
            sum.2 += 1;
        }
        let positions = sums.iter().map(|s| s.0 / s.2.max(1) as f32).collect();
        let normals = (sums.iter())
            .map(|s| s.1.try_normalize().unwrap_or(Vec3::Y))
            .collect();
        // A triangle whose corners merged into fewer than three clusters is gone.
        let triangles: Vec<[u32; 3]> = (mesh.triangles.iter())
            .filter_map(|t| {
                let [a, b, c] = t.map(|i| owner.get(i as usize).copied());
                let (a, b, c) = (a?, b?, c?);
                (a != b && b != c && a != c).then_some([a, b, c])
            })
            .collect();
        let parts = vec![MeshPart {
            first_triangle: 0,
            triangle_count: triangles.len(),
            material: None,
        }];
        let mesh = Mesh {
            positions,
            normals,
            triangles,
            parts,
            ..Mesh::default()
        };
        Self { mesh, owner }
    }

    /// Weights of the proxy's vertices carried to every input vertex: each takes its
    /// cluster's.
    pub fn carry(&self, weights: &SkinWeights) -> SkinWeights {
        let mut carried = SkinWeights::new();
        for &o in &self.owner {
            carried.push_vertex(weights.influences(o as usize).iter().copied());
        }
        carried
    }
}

/// Each position's grid cell (of side `cell`, from `origin`) numbered in order of first
/// appearance, and how many cells are occupied.
fn cluster(positions: &[Vec3], origin: Vec3, cell: f32) -> (Vec<u32>, usize) {
    let mut cells: HashMap<IVec3, u32> = HashMap::new();
    let owner = (positions.iter())
        .map(|p| {
            let key = ((*p - origin) / cell).floor().as_ivec3();
            let next = cells.len() as u32;
            *cells.entry(key).or_insert(next)
        })
        .collect();
    (owner, cells.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::{probe_creature, subdivide};
    use crate::rig::{Influence, JointId};

    #[test]
    fn a_large_mesh_is_clustered_under_the_limit_and_its_weights_carried_back() {
        let (mesh, _) = subdivide(&subdivide(&probe_creature()).0);
        let max = mesh.vertex_count() / 5;
        let proxy = Proxy::of(&mesh, max).expect("a proxy");
        assert!(proxy.mesh.vertex_count() <= max);
        assert!(
            proxy.mesh.vertex_count() > max / 3,
            "{}",
            proxy.mesh.vertex_count()
        );
        assert!(!proxy.mesh.triangles.is_empty());
        // Each proxy vertex lies near the input vertices it stands for.
        let cell = mesh.bounds().longest_side() * 0.1;
        for (v, &o) in proxy.owner.iter().enumerate() {
            assert!(mesh.positions[v].distance(proxy.mesh.positions[o as usize]) < cell);
        }
        // Weights by height on the proxy come back by height on the input.
        let mut weights = SkinWeights::new();
        for p in &proxy.mesh.positions {
            let w = (p.y - mesh.bounds().min.y) / mesh.bounds().size().y;
            weights.push_vertex([
                Influence {
                    joint: JointId(0),
                    weight: 1.0 - w.clamp(0.0, 1.0),
                },
                Influence {
                    joint: JointId(1),
                    weight: w.clamp(0.0, 1.0),
                },
            ]);
        }
        let carried = proxy.carry(&weights);
        assert_eq!(carried.vertex_count(), mesh.vertex_count());
        for (v, p) in mesh.positions.iter().enumerate() {
            let w = (p.y - mesh.bounds().min.y) / mesh.bounds().size().y;
            let got = carried.influences(v)[1].weight;
            assert!((got - w).abs() < 0.1, "vertex {v}: {got} against {w}");
        }
    }

    #[test]
    fn a_small_mesh_needs_no_proxy() {
        let mesh = probe_creature();
        assert!(Proxy::of(&mesh, mesh.vertex_count()).is_none());
        assert!(Proxy::of(&Mesh::default(), 0).is_none());
    }
}

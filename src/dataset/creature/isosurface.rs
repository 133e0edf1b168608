//! The surface around a group of blended primitives: their smooth-union distance field sampled
//! on a grid, then surface nets (the dual form of marching cubes: one vertex per cell the surface
//! crosses, one quad per crossed grid edge), which gives watertight, evenly sized triangles.

use glam::{IVec3, Vec3};

use super::shape::{Shape, smooth_min};

/// A closed triangle surface.
#[derive(Debug, Clone, Default)]
pub struct Surface {
    pub positions: Vec<Vec3>,
    /// Counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

/// The zero set of the smooth union of `shapes`, blended over `blend`, sampled every `voxel`.
pub fn isosurface(shapes: &[Shape], blend: f32, voxel: f32) -> Surface {
    let Some(first) = shapes.first() else {
        return Surface::default();
    };
    let (mut lo, mut hi) = first.bounds();
    for shape in shapes {
        let (a, b) = shape.bounds();
        lo = lo.min(a);
        hi = hi.max(b);
    }
    // Two empty cells all round keep every crossing inside the grid.
    let origin = lo - Vec3::splat(2.0 * voxel);
    let dims = ((hi - lo) / voxel).ceil().as_ivec3() + IVec3::splat(5);
    let field = Field::sample(shapes, blend, voxel, origin, dims);
    field.surface_nets()
}

/// Distances at the grid's corners.
struct Field {
    origin: Vec3,
    voxel: f32,
    dims: IVec3,
    values: Vec<f32>,
}

impl Field {
    fn sample(shapes: &[Shape], blend: f32, voxel: f32, origin: Vec3, dims: IVec3) -> Self {
        let far = 4.0 * voxel + blend;
        let mut values = vec![far; (dims.x * dims.y * dims.z) as usize];
        for shape in shapes {
            let (a, b) = shape.bounds();
            let reach = Vec3::splat(blend + 2.0 * voxel);
            let from = (((a - reach) - origin) / voxel)
                .floor()
                .as_ivec3()
                .max(IVec3::ZERO);
            let to = (((b + reach) - origin) / voxel)
                .ceil()
                .as_ivec3()
                .min(dims - IVec3::ONE);
            for z in from.z..=to.z {
                for y in from.y..=to.y {
                    for x in from.x..=to.x {
                        let i = ((z * dims.y + y) * dims.x + x) as usize;
                        let p = origin + IVec3::new(x, y, z).as_vec3() * voxel;
                        let d = shape.distance(p).min(far);
                        values[i] = smooth_min(values[i], d, blend);
                    }
                }
            }
        }
        Self {
            origin,
            voxel,
            dims,
            values,
        }
    }

    fn value(&self, c: IVec3) -> f32 {
        self.values[((c.z * self.dims.y + c.y) * self.dims.x + c.x) as usize]
    }

    fn point(&self, c: IVec3) -> Vec3 {
        self.origin + c.as_vec3() * self.voxel
    }

    fn surface_nets(&self) -> Surface {
        let cells = self.dims - IVec3::ONE;
        let cell_index = |c: IVec3| ((c.z * cells.y + c.y) * cells.x + c.x) as usize;
        let mut vertex_of_cell = vec![u32::MAX; (cells.x * cells.y * cells.z).max(0) as usize];
        let mut positions = Vec::new();
        let corners: [IVec3; 8] = std::array::from_fn(|i| {
            IVec3::new((i & 1) as i32, ((i >> 1) & 1) as i32, ((i >> 2) & 1) as i32)
        });
        // The 12 cube edges as corner pairs: corners differing in exactly one bit.
        let edges: Vec<(usize, usize)> = (0..8)
            .flat_map(|a| [1, 2, 4].map(move |bit| (a, a | bit)))
            .filter(|(a, b)| a != b)
            .collect();
        for z in 0..cells.z {
            for y in 0..cells.y {
                for x in 0..cells.x {
                    let c = IVec3::new(x, y, z);
                    let values = corners.map(|o| self.value(c + o));
                    let inside = values.iter().filter(|v| **v < 0.0).count();
                    if inside == 0 || inside == 8 {
                        continue;
                    }
                    let (mut sum, mut crossings) = (Vec3::ZERO, 0.0);
                    for &(a, b) in &edges {
                        let (va, vb) = (values[a], values[b]);
                        if (va < 0.0) != (vb < 0.0) {
                            let t = va / (va - vb);
                            let pa = self.point(c + corners[a]);
                            let pb = self.point(c + corners[b]);
                            sum += pa + (pb - pa) * t;
                            crossings += 1.0;
                        }
                    }
                    vertex_of_cell[cell_index(c)] = positions.len() as u32;
                    positions.push(sum / crossings);
                }
            }
        }
        let mut triangles = Vec::new();
        let axes = [IVec3::X, IVec3::Y, IVec3::Z];
        for z in 1..cells.z {
            for y in 1..cells.y {
                for x in 1..cells.x {
                    let c = IVec3::new(x, y, z);
                    let here = self.value(c) < 0.0;
                    for (k, axis) in axes.iter().enumerate() {
                        if (self.value(c + *axis) < 0.0) == here {
                            continue;
                        }
                        // The four cells around the edge from `c` along `axis`, in turn.
                        let (u, v) = (axes[(k + 1) % 3], axes[(k + 2) % 3]);
                        let quad =
                            [c - u - v, c - v, c, c - u].map(|q| vertex_of_cell[cell_index(q)]);
                        if quad.contains(&u32::MAX) {
                            continue;
                        }
                        let [a, b, cc, d] = if here {
                            quad
                        } else {
                            [quad[0], quad[3], quad[2], quad[1]]
                        };
                        triangles.push([a, b, cc]);
                        triangles.push([a, cc, d]);
                    }
                }
            }
        }
        Surface {
            positions,
            triangles,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::shape::ShapeKind;
    use super::*;
    use crate::mesh::winding_number;

    fn sphere(center: Vec3, r: f32) -> Shape {
        Shape {
            owner: 0,
            group: 0,
            kind: ShapeKind::Cone {
                a: center,
                b: center,
                ra: r,
                rb: r,
            },
        }
    }

    #[test]
    fn a_sphere_becomes_a_closed_outward_surface_on_its_radius() {
        let s = isosurface(&[sphere(Vec3::ZERO, 1.0)], 0.0, 0.1);
        assert!(s.triangles.len() > 500);
        for p in &s.positions {
            assert!((p.length() - 1.0).abs() < 0.03, "{p}");
        }
        // Outward winding: the centre is inside, a far point outside.
        assert!((winding_number(&s.positions, &s.triangles, Vec3::ZERO) - 1.0).abs() < 1e-3);
        assert!(winding_number(&s.positions, &s.triangles, Vec3::splat(3.0)).abs() < 1e-3);
        // Closed: every edge is shared by exactly two triangles, in opposite directions.
        let mut edges = std::collections::BTreeMap::new();
        for t in &s.triangles {
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
            }
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1);
            assert_eq!(edges.get(&(b, a)), Some(&1));
        }
    }

    #[test]
    fn blending_joins_two_spheres_into_one_body() {
        let s = isosurface(
            &[
                sphere(Vec3::ZERO, 0.5),
                sphere(Vec3::new(0.9, 0.0, 0.0), 0.5),
            ],
            0.2,
            0.05,
        );
        let mid = Vec3::new(0.45, 0.0, 0.0);
        assert!(winding_number(&s.positions, &s.triangles, mid) > 0.5);
    }
}

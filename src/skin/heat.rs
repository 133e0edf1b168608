//! Bone heat (Baran & Popović 2007, what Blender's automatic weights solve), with the nearest
//! bone found through the volume rather than by line of sight: each joint's weight is the
//! equilibrium temperature of the surface when the joint's own flesh is held at 1 by a
//! conductance that falls off as 1/d², and everything else is free to diffuse:
//! `(L + A·H) w = A·H·p`, with `L` the cotangent Laplacian, `A` the vertex areas, `H` the
//! conductances and `p` the indicator of the nearest joint.

use glam::Vec3;

/// The surface operator for one welded mesh: cotangent Laplacian rows and vertex areas.
pub struct HeatSurface {
    /// Per vertex: `(neighbour, weight)` with the cotangent weights of its edges.
    rows: Vec<Vec<(u32, f32)>>,
    /// Per vertex: a third of the area of its triangles.
    area: Vec<f32>,
}

impl HeatSurface {
    /// Builds the operator over `positions` and `triangles` (already welded: one vertex per
    /// position). Negative cotangents (obtuse angles) are clamped to 0 so that the system
    /// stays positive definite.
    pub fn new(positions: &[Vec3], triangles: &[[u32; 3]]) -> Self {
        let n = positions.len();
        let mut rows: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
        let mut area = vec![0.0f32; n];
        let add = |rows: &mut Vec<Vec<(u32, f32)>>, a: u32, b: u32, w: f32| {
            for (from, to) in [(a, b), (b, a)] {
                let row = &mut rows[from as usize];
                match row.iter_mut().find(|(j, _)| *j == to) {
                    Some(entry) => entry.1 += w,
                    None => row.push((to, w)),
                }
            }
        };
        for t in triangles {
            let [Some(&a), Some(&b), Some(&c)] = t.map(|i| positions.get(i as usize)) else {
                continue;
            };
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                continue;
            }
            let twice_area = (b - a).cross(c - a).length();
            if twice_area <= 0.0 || !twice_area.is_finite() {
                continue;
            }
            for v in t {
                area[*v as usize] += twice_area / 6.0;
            }
            // The cotangent of the angle at each corner weights the opposite edge.
            let corners = [
                (a, b, c, t[1], t[2]),
                (b, c, a, t[2], t[0]),
                (c, a, b, t[0], t[1]),
            ];
            for (at, p, q, i, j) in corners {
                let (u, v) = (p - at, q - at);
                let cot = u.dot(v) / u.cross(v).length().max(f32::MIN_POSITIVE);
                add(&mut rows, i, j, 0.5 * cot.max(0.0));
            }
        }
        Self { rows, area }
    }

    pub fn vertex_count(&self) -> usize {
        self.area.len()
    }

    /// Solves `(L + A·H) w = A·H·p` by Jacobi-preconditioned conjugate gradients, starting from
    /// `start` (a previous solution, when the rig changed a little) or else from `p`.
    pub fn solve(&self, conductance: &[f32], target: &[f32], start: Option<&[f32]>) -> Vec<f32> {
        let n = self.vertex_count();
        let diagonal: Vec<f32> = (0..n)
            .map(|i| {
                let l: f32 = self.rows[i].iter().map(|(_, w)| w).sum();
                (l + self.area[i] * conductance[i]).max(1e-12)
            })
            .collect();
        let apply = |x: &[f32], out: &mut [f32]| {
            for i in 0..n {
                let mut s = diagonal[i] * x[i];
                for &(j, w) in &self.rows[i] {
                    s -= w * x[j as usize];
                }
                out[i] = s;
            }
        };
        let b: Vec<f32> = (0..n)
            .map(|i| self.area[i] * conductance[i] * target[i])
            .collect();
        let mut x = match start {
            Some(s) if s.len() == n => s.to_vec(),
            _ => target.to_vec(),
        };
        let mut ax = vec![0.0; n];
        apply(&x, &mut ax);
        let mut r: Vec<f32> = (0..n).map(|i| b[i] - ax[i]).collect();
        let mut z: Vec<f32> = (0..n).map(|i| r[i] / diagonal[i]).collect();
        let mut p = z.clone();
        let mut rz: f64 = dot(&r, &z);
        let b_norm = dot(&b, &b).sqrt().max(1e-30);
        let mut ap = vec![0.0; n];
        for _ in 0..MAX_ITERATIONS {
            if dot(&r, &r).sqrt() <= TOLERANCE * b_norm {
                break;
            }
            apply(&p, &mut ap);
            let pap = dot(&p, &ap);
            if pap <= 0.0 {
                break;
            }
            let alpha = (rz / pap) as f32;
            for i in 0..n {
                x[i] += alpha * p[i];
                r[i] -= alpha * ap[i];
                z[i] = r[i] / diagonal[i];
            }
            let rz_next = dot(&r, &z);
            let beta = (rz_next / rz) as f32;
            rz = rz_next;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        x
    }
}

const MAX_ITERATIONS: usize = 1000;
const TOLERANCE: f64 = 1e-6;

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_held_at_one_end_of_a_strip_fades_towards_the_other() {
        // A strip of 10 quads along x; the first column is held at 1, the last at 0.
        let mut positions = Vec::new();
        for i in 0..=10 {
            positions.push(Vec3::new(i as f32, 0.0, 0.0));
            positions.push(Vec3::new(i as f32, 1.0, 0.0));
        }
        let mut triangles = Vec::new();
        for i in 0..10u32 {
            let (a, b, c, d) = (2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3);
            triangles.push([a, c, b]);
            triangles.push([b, c, d]);
        }
        let surface = HeatSurface::new(&positions, &triangles);
        let mut conductance = vec![0.0; positions.len()];
        let mut target = vec![0.0; positions.len()];
        for v in [0, 1] {
            conductance[v] = 1e4;
            target[v] = 1.0;
        }
        for v in [20, 21] {
            conductance[v] = 1e4;
        }
        let w = surface.solve(&conductance, &target, None);
        assert!((w[0] - 1.0).abs() < 1e-2 && w[20].abs() < 1e-2, "{w:?}");
        // Linear in between, as heat along a rod is.
        assert!((w[10] - 0.5).abs() < 0.05, "{w:?}");
        assert!(w.windows(2).step_by(2).all(|p| p[0] >= -1e-3));
    }
}

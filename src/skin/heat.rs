//! Bone heat (Baran & Popović 2007, what Blender's automatic weights solve), with the nearest
//! bone found through the volume rather than by line of sight: each joint's weight is the
//! equilibrium temperature of the surface when the joint's own flesh is held at 1 by a
//! conductance that falls off as 1/d², and everything else is free to diffuse:
//! `(L + A·H) w = A·H·p`, with `L` the cotangent Laplacian, `A` the vertex areas, `H` the
//! conductances and `p` the indicator of the nearest joint.

use glam::Vec3;

use crate::parallel;

/// The surface operator for one welded mesh: cotangent Laplacian rows (compressed, one slice
/// of `columns`/`weights` per vertex) and vertex areas.
pub struct HeatSurface {
    /// Per vertex `i`: its neighbours are `columns[row_start[i]..row_start[i + 1]]`.
    row_start: Vec<u32>,
    columns: Vec<u32>,
    /// The cotangent weight of each of those edges.
    weights: Vec<f32>,
    /// Per vertex: the sum of its row's weights.
    degree: Vec<f32>,
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
        let mut row_start = Vec::with_capacity(n + 1);
        let (mut columns, mut weights) = (Vec::new(), Vec::new());
        row_start.push(0);
        for row in &rows {
            for &(j, w) in row {
                columns.push(j);
                weights.push(w);
            }
            row_start.push(columns.len() as u32);
        }
        let degree = rows
            .iter()
            .map(|r| r.iter().map(|(_, w)| w).sum())
            .collect();
        Self {
            row_start,
            columns,
            weights,
            degree,
            area,
        }
    }

    pub fn vertex_count(&self) -> usize {
        self.area.len()
    }

    /// Solves `(L + A·H) w = A·H·p` for each target `p` under one conductance `H`, starting
    /// from its `start` (a previous solution, when the rig changed a little) or else from `p`:
    /// Jacobi-preconditioned conjugate gradients run side by side, the unknowns of all targets interleaved per vertex so that
    /// each pass over the operator serves every target (the operator is read once, the inner
    /// loops run over contiguous columns). Each target stops moving once its own residual is
    /// small enough.
    pub fn solve_many(
        &self,
        conductance: &[f32],
        targets: &[&[f32]],
        starts: &[Option<&[f32]>],
    ) -> Vec<Vec<f32>> {
        if targets.len() > BATCH {
            // Batches side by side: each target's solve is its own, whatever it is batched with.
            let batches: Vec<_> = (targets.chunks(BATCH))
                .zip(starts.chunks(BATCH).chain(std::iter::repeat(&[][..])))
                .collect();
            return parallel::map(&batches, |(t, s)| self.solve_many(conductance, t, s))
                .into_iter()
                .flatten()
                .collect();
        }
        let n = self.vertex_count();
        let m = targets.len();
        if m == 0 || n == 0 || conductance.len() != n || targets.iter().any(|t| t.len() != n) {
            return vec![vec![0.0; n]; m];
        }
        let diagonal: Vec<f32> = (0..n)
            .map(|i| (self.degree[i] + self.area[i] * conductance[i]).max(1e-12))
            .collect();
        let mut b = vec![0.0f32; n * m];
        let mut x = vec![0.0f32; n * m];
        for (c, target) in targets.iter().enumerate() {
            let start = starts.get(c).copied().flatten().filter(|s| s.len() == n);
            for i in 0..n {
                b[i * m + c] = self.area[i] * conductance[i] * target[i];
                x[i * m + c] = start.map_or(target[i], |s| s[i]);
            }
        }
        let mut ap = vec![0.0f32; n * m];
        self.apply(&diagonal, m, &x, &mut ap);
        let mut r: Vec<f32> = b.iter().zip(&ap).map(|(b, a)| b - a).collect();
        let mut z: Vec<f32> = r
            .iter()
            .enumerate()
            .map(|(k, r)| r / diagonal[k / m])
            .collect();
        let mut p = z.clone();
        let mut b_norm: Vec<f64> = column_dots(m, &b, &b)
            .into_iter()
            .map(|s| s.sqrt().max(1e-30))
            .collect();
        drop(b);
        let mut rz = column_dots(m, &r, &z);
        let mut rr = column_dots(m, &r, &r);
        // The targets still being solved (`columns[c]` is where column `c` came from) and the
        // answers of those that are done.
        let mut columns: Vec<usize> = (0..m).collect();
        let mut done: Vec<Vec<f32>> = vec![Vec::new(); m];
        let mut width = m;
        for _ in 0..=MAX_ITERATIONS {
            let moving: Vec<bool> = (0..width)
                .map(|c| rr[c].sqrt() > TOLERANCE * b_norm[c])
                .collect();
            let still = moving.iter().filter(|m| **m).count();
            // Retire finished targets once they are half the batch, so that one slow solve
            // does not drag the others' work along.
            if 2 * still <= width || still == 0 {
                let keep: Vec<usize> = (0..width).filter(|&c| moving[c]).collect();
                for c in (0..width).filter(|&c| !moving[c]) {
                    done[columns[c]] = (0..n).map(|i| x[i * width + c]).collect();
                }
                for v in [&mut x, &mut r, &mut z, &mut p] {
                    *v = gather_columns(v, width, &keep);
                }
                for v in [&mut rz, &mut rr, &mut b_norm] {
                    *v = keep.iter().map(|&c| v[c]).collect();
                }
                columns = keep.iter().map(|&c| columns[c]).collect();
                width = keep.len();
                ap.truncate(n * width);
                if width == 0 {
                    break;
                }
            }
            self.apply(&diagonal, width, &p, &mut ap);
            let pap = column_dots(width, &p, &ap);
            let alpha: Vec<f32> = (0..width)
                .map(|c| {
                    if rr[c].sqrt() > TOLERANCE * b_norm[c] && pap[c] > 0.0 {
                        (rz[c] / pap[c]) as f32
                    } else {
                        0.0
                    }
                })
                .collect();
            for (i, d) in diagonal.iter().enumerate() {
                let inverse = 1.0 / d;
                let span = i * width..(i + 1) * width;
                for ((((xk, rk), zk), pk), (apk, a)) in x[span.clone()]
                    .iter_mut()
                    .zip(&mut r[span.clone()])
                    .zip(&mut z[span.clone()])
                    .zip(&p[span.clone()])
                    .zip(ap[span.clone()].iter().zip(&alpha))
                {
                    *xk += a * pk;
                    *rk -= a * apk;
                    *zk = *rk * inverse;
                }
            }
            let rz_next = column_dots(width, &r, &z);
            rr = column_dots(width, &r, &r);
            // A stopped target keeps its direction bounded (it no longer moves along it).
            let beta: Vec<f32> = (0..width)
                .map(|c| {
                    if alpha[c] != 0.0 && rz[c] > 0.0 {
                        (rz_next[c] / rz[c]) as f32
                    } else {
                        0.0
                    }
                })
                .collect();
            rz = rz_next;
            for (pr, zr) in p.chunks_exact_mut(width).zip(z.chunks_exact(width)) {
                for ((pk, zk), bk) in pr.iter_mut().zip(zr).zip(&beta) {
                    *pk = zk + bk * *pk;
                }
            }
        }
        // Targets still moving after the last iteration keep where they got to.
        for (c, &original) in columns.iter().enumerate() {
            done[original] = (0..n).map(|i| x[i * width + c]).collect();
        }
        done
    }

    /// `out = (L + A·H) x` for `width` interleaved columns, with the diagonal of `L + A·H`.
    fn apply(&self, diagonal: &[f32], width: usize, x: &[f32], out: &mut [f32]) {
        for (i, d) in diagonal.iter().enumerate() {
            let row = &mut out[i * width..(i + 1) * width];
            for (o, xi) in row.iter_mut().zip(&x[i * width..(i + 1) * width]) {
                *o = d * xi;
            }
            let (from, to) = (self.row_start[i] as usize, self.row_start[i + 1] as usize);
            for (&j, &w) in self.columns[from..to].iter().zip(&self.weights[from..to]) {
                let j = j as usize;
                for (o, xj) in row.iter_mut().zip(&x[j * width..(j + 1) * width]) {
                    *o -= w * xj;
                }
            }
        }
    }
}

/// Per column, the dot product of two arrays of `width` interleaved columns.
fn column_dots(width: usize, u: &[f32], v: &[f32]) -> Vec<f64> {
    let mut sums = vec![0.0f64; width];
    if width == 0 {
        return sums;
    }
    for (ur, vr) in u.chunks_exact(width).zip(v.chunks_exact(width)) {
        for ((s, a), b) in sums.iter_mut().zip(ur).zip(vr) {
            *s += f64::from(*a) * f64::from(*b);
        }
    }
    sums
}

/// The columns `keep` of an array of `width` interleaved columns.
fn gather_columns(values: &[f32], width: usize, keep: &[usize]) -> Vec<f32> {
    if width == 0 {
        return Vec::new();
    }
    values
        .chunks_exact(width)
        .flat_map(|row| keep.iter().map(move |&c| row[c]))
        .collect()
}

const MAX_ITERATIONS: usize = 1000;
/// Targets solved side by side: enough to fill the vector units, few enough that the working
/// set (six floats per vertex and target) stays small on the largest meshes.
const BATCH: usize = 16;
/// Residual, relative to the right-hand side, at which a solve stops: 10⁻⁵ scored the same as
/// 10⁻⁶ on every training group and takes a quarter less time.
const TOLERANCE: f64 = 1e-5;

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of `quads` unit quads along x: vertices `2i` and `2i + 1` are column `i`.
    fn strip(quads: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let positions = (0..=quads)
            .flat_map(|i| [Vec3::new(i as f32, 0.0, 0.0), Vec3::new(i as f32, 1.0, 0.0)])
            .collect();
        let triangles = (0..quads)
            .flat_map(|i| {
                let (a, b, c, d) = (2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3);
                [[a, c, b], [b, c, d]]
            })
            .collect();
        (positions, triangles)
    }

    #[test]
    fn heat_held_at_one_end_of_a_strip_fades_towards_the_other() {
        // A strip of 10 quads along x; the first column is held at 1, the last at 0.
        let (positions, triangles) = strip(10);
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
        let w = surface
            .solve_many(&conductance, &[&target], &[None])
            .remove(0);
        assert!((w[0] - 1.0).abs() < 1e-2 && w[20].abs() < 1e-2, "{w:?}");
        // Linear in between, as heat along a rod is.
        assert!((w[10] - 0.5).abs() < 0.05, "{w:?}");
        assert!(w.windows(2).step_by(2).all(|p| p[0] >= -1e-3));
    }

    #[test]
    fn targets_solved_together_match_each_solved_alone() {
        // A strip of 30 quads; three targets held over different stretches, so that their
        // solves finish after different numbers of iterations and leave the batch apart.
        let (positions, triangles) = strip(30);
        let surface = HeatSurface::new(&positions, &triangles);
        let n = positions.len();
        let conductance: Vec<f32> = (0..n).map(|v| 1.0 / (1.0 + (v / 2) as f32)).collect();
        let held = |range: std::ops::Range<usize>| -> Vec<f32> {
            (0..n)
                .map(|v| if range.contains(&(v / 2)) { 1.0 } else { 0.0 })
                .collect()
        };
        let targets = [held(0..2), held(10..25), held(29..31)];
        let together = surface.solve_many(
            &conductance,
            &targets.iter().map(Vec::as_slice).collect::<Vec<_>>(),
            &[None, None, None],
        );
        for (t, solved) in targets.iter().zip(&together) {
            let alone = surface.solve_many(&conductance, &[t], &[None]).remove(0);
            let worst = solved
                .iter()
                .zip(&alone)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(worst < 1e-4, "{worst}");
        }
        // Heat from all targets adds up to one wherever some target holds it.
        let total: Vec<f32> = (0..n)
            .map(|v| together.iter().map(|w| w[v]).sum())
            .collect();
        assert!(total.iter().all(|&s| s < 1.0 + 1e-3), "{total:?}");
    }
}

//! Small dense linear algebra in `f64` for the few places that need more than glam's 4×4:
//! least squares by normal equations and principal components of a Gram matrix.

/// A symmetric `n × n` matrix's eigenvalues, largest first, and unit eigenvectors (`vectors[k]`
/// belongs to `values[k]`), by cyclic Jacobi rotations — exact to rounding for the small
/// matrices (up to a few hundred rows) it is used on. `a` is row-major.
pub fn symmetric_eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    assert_eq!(a.len(), n * n, "symmetric_eigen: a is not {n} × {n}");
    let mut a = a.to_vec();
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let scale: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..64 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-14 * scale.max(f64::MIN_POSITIVE) {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let sign = if theta >= 0.0 { 1.0 } else { -1.0 };
                let t = sign / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| a[j * n + j].total_cmp(&a[i * n + i]));
    let values = order.iter().map(|&i| a[i * n + i]).collect();
    let vectors = order
        .iter()
        .map(|&i| (0..n).map(|k| v[k * n + i]).collect())
        .collect();
    (values, vectors)
}

/// Solves `a x = b` for a symmetric positive definite `n × n` matrix `a` (row-major) and
/// `m` right-hand sides (`b` row-major `n × m`), by Cholesky; `None` when `a` is not positive
/// definite.
pub fn solve_positive_definite(a: &[f64], n: usize, b: &[f64], m: usize) -> Option<Vec<f64>> {
    assert_eq!(
        a.len(),
        n * n,
        "solve_positive_definite: a is not {n} × {n}"
    );
    assert_eq!(
        b.len(),
        n * m,
        "solve_positive_definite: b is not {n} × {m}"
    );
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let d = a[i * n + i] - sum;
                if d <= 0.0 || d.is_nan() {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    let mut x = b.to_vec();
    for c in 0..m {
        for i in 0..n {
            let sum: f64 = (0..i).map(|k| l[i * n + k] * x[k * m + c]).sum();
            x[i * m + c] = (x[i * m + c] - sum) / l[i * n + i];
        }
        for i in (0..n).rev() {
            let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k * m + c]).sum();
            x[i * m + c] = (x[i * m + c] - sum) / l[i * n + i];
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigenvectors_rebuild_the_matrix() {
        let n = 5;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = 1.0 / (1.0 + i as f64 + j as f64) + if i == j { 0.5 } else { 0.0 };
            }
        }
        let (values, vectors) = symmetric_eigen(&a, n);
        assert!(values.windows(2).all(|w| w[0] >= w[1]));
        for i in 0..n {
            for j in 0..n {
                let rebuilt: f64 = (0..n)
                    .map(|k| values[k] * vectors[k][i] * vectors[k][j])
                    .sum();
                assert!(
                    (rebuilt - a[i * n + j]).abs() < 1e-10,
                    "{rebuilt} {}",
                    a[i * n + j]
                );
            }
        }
    }

    #[test]
    fn cholesky_solves_and_refuses_indefinite() {
        let a = [4.0, 1.0, 1.0, 3.0];
        let x = solve_positive_definite(&a, 2, &[1.0, 2.0, 2.0, 0.0], 2).unwrap();
        // a · x = b, column by column.
        for c in 0..2 {
            let b0 = a[0] * x[c] + a[1] * x[2 + c];
            let b1 = a[2] * x[c] + a[3] * x[2 + c];
            assert!((b0 - [1.0, 2.0][c]).abs() < 1e-12 && (b1 - [2.0, 0.0][c]).abs() < 1e-12);
        }
        assert!(solve_positive_definite(&[1.0, 2.0, 2.0, 1.0], 2, &[1.0, 1.0], 1).is_none());
    }
}

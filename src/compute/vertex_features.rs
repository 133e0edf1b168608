//! Per-vertex input features for the learned models: positions in the unit box (see
//! [`UnitBox`]) and each vertex's distance from the box centre.
//!
//! This is the first computation that runs on the user's GPU; the plain-Rust reference below
//! pins what it must produce on every backend.

use burn::tensor::{Tensor, TensorData};

use super::{ComputeError, Device};
use crate::mesh::{Aabb, UnitBox};

/// `x, y, z` in the unit box, then the distance from its centre.
pub const FEATURES_PER_VERTEX: usize = 4;

/// Computes the features of `positions` (flat `x, y, z, …`) on `device`, lazily: the returned
/// tensor is read back by the caller, synchronously natively or asynchronously in a browser.
///
/// # Shapes
/// `positions`: `[n * 3]` → `[n, 4]`.
///
/// # Errors
/// [`ComputeError::NoVertices`] for an empty input.
pub fn vertex_features(positions: &[f32], device: &Device) -> Result<Tensor<2>, ComputeError> {
    let n = positions.len() / 3;
    if n == 0 {
        return Err(ComputeError::NoVertices);
    }
    let p = Tensor::<2>::from_data(TensorData::new(positions[..n * 3].to_vec(), [n, 3]), device);
    let min = p.clone().min_dim(0); // [1, 3]
    let max = p.clone().max_dim(0); // [1, 3]
    let center = (min.clone() + max.clone()).div_scalar(2.0); // [1, 3]
    // Guard a flat box; callers reject those earlier, this only keeps the kernel finite.
    let side = (max - min).max_dim(1).clamp_min(f32::MIN_POSITIVE); // [1, 1]
    let unit = (p - center).div(side); // [n, 3]
    let radius = unit.clone().powf_scalar(2.0).sum_dim(1).sqrt(); // [n, 1]
    Ok(Tensor::cat(vec![unit, radius], 1)) // [n, 4]
}

/// The same features in plain Rust, as the ground truth for every device.
pub fn vertex_features_reference(positions: &[f32]) -> Result<Vec<f32>, ComputeError> {
    let points: Vec<glam::Vec3> = positions
        .chunks_exact(3)
        .map(|c| glam::Vec3::new(c[0], c[1], c[2]))
        .collect();
    if points.is_empty() {
        return Err(ComputeError::NoVertices);
    }
    let unit_box = UnitBox::of(&Aabb::from_points(&points)).ok_or(ComputeError::NoExtent)?;
    Ok(points
        .iter()
        .flat_map(|p| {
            let u = unit_box.apply(*p);
            [u.x, u.y, u.z, u.length()]
        })
        .collect())
}

/// How far `device` strays from the plain-Rust reference on the features of `positions`:
/// the largest absolute difference of any feature. The check that a browser's GPU computes
/// what the CPU does.
///
/// # Errors
/// As [`vertex_features`], or [`ComputeError::Readback`] when the device cannot read back.
pub async fn vertex_features_difference(
    positions: &[f32],
    device: &Device,
) -> Result<f32, ComputeError> {
    let reference = vertex_features_reference(positions)?;
    let readback = |reason: String| ComputeError::Readback {
        device: format!("{device:?}"),
        reason,
    };
    let computed = vertex_features(positions, device)?
        .into_data_async()
        .await
        .map_err(|e| readback(format!("{e:?}")))?
        .try_to_vec::<f32>()
        .map_err(|e| readback(format!("{e:?}")))?;
    Ok(computed
        .iter()
        .zip(&reference)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::cpu_device;

    #[test]
    fn cpu_backend_matches_reference() {
        // An irregular cloud so that min, max and centre are all off the axes.
        let positions: Vec<f32> = (0..300)
            .map(|i| ((i * 7919) % 1000) as f32 * 0.013 - 4.0 + (i % 3) as f32)
            .collect();
        let features = vertex_features(&positions, &cpu_device()).unwrap();
        assert_eq!(features.dims(), [100, FEATURES_PER_VERTEX]);
        let got = features.into_data().try_to_vec::<f32>().unwrap();
        let want = vertex_features_reference(&positions).unwrap();
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "max abs difference {worst}");
    }

    #[test]
    fn empty_input_is_an_error() {
        assert_eq!(
            vertex_features(&[], &cpu_device()).unwrap_err(),
            ComputeError::NoVertices
        );
    }
}

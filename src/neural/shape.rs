//! What every network sees of the whole character: points spread evenly over its surface, with
//! their normals, in the unit box (centred, longest side 1) so that size and placement of the
//! model do not matter.

use glam::Vec3;

use crate::mesh::{Mesh, UnitBox};
use crate::random::Rng;

use super::NeuralError;

/// Surface points per character for the shape encoder.
pub const SHAPE_POINTS: usize = 1024;

/// Values per encoder point: position then normal.
pub const POINT_FEATURES: usize = 6;

/// The sampled surface of a mesh and the box that normalised it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeInput {
    pub unit_box: UnitBox,
    /// Unit-box positions of the samples.
    pub positions: Vec<Vec3>,
    /// Unit normals of the triangles they lie on.
    pub normals: Vec<Vec3>,
}

impl ShapeInput {
    /// Samples [`SHAPE_POINTS`] points by area with a fixed seed, so one mesh always gives
    /// the same input (and the same rig).
    ///
    /// # Errors
    /// [`NeuralError::NoSurface`] for a mesh without area or extent.
    pub fn of(mesh: &Mesh) -> Result<Self, NeuralError> {
        let unit_box = UnitBox::of(&mesh.bounds()).ok_or(NeuralError::NoSurface)?;
        let corners = |t: &[u32; 3]| t.map(|i| unit_box.apply(mesh.positions[i as usize]));
        let mut cumulative = Vec::with_capacity(mesh.triangles.len());
        let mut total = 0.0f64;
        for t in &mesh.triangles {
            let [a, b, c] = corners(t);
            let area = 0.5 * (b - a).cross(c - a).length();
            total += if area.is_finite() { area as f64 } else { 0.0 };
            cumulative.push(total);
        }
        if total <= 0.0 {
            return Err(NeuralError::NoSurface);
        }
        let mut rng = Rng::new(0x5A4D_B1E5);
        let (mut positions, mut normals) = (Vec::new(), Vec::new());
        for _ in 0..SHAPE_POINTS {
            let target = rng.unit() as f64 * total;
            let k = cumulative
                .partition_point(|&c| c < target)
                .min(cumulative.len() - 1);
            let [a, b, c] = corners(&mesh.triangles[k]);
            let (mut u, mut v) = (rng.unit(), rng.unit());
            if u + v > 1.0 {
                (u, v) = (1.0 - u, 1.0 - v);
            }
            positions.push(a + (b - a) * u + (c - a) * v);
            normals.push((b - a).cross(c - a).normalize_or_zero());
        }
        Ok(Self {
            unit_box,
            positions,
            normals,
        })
    }

    /// `[SHAPE_POINTS * POINT_FEATURES]` values for the encoder.
    pub fn flat(&self) -> Vec<f32> {
        self.positions
            .iter()
            .zip(&self.normals)
            .flat_map(|(p, n)| [p.x, p.y, p.z, n.x, n.y, n.z])
            .collect()
    }
}

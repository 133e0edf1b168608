use glam::Vec3;

use super::Aabb;

/// The normalisation used by the rigging literature (RigNet, UniRig) for metrics and network
/// inputs: centre the mesh's bounding box at the origin and scale its longest side to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitBox {
    pub center: Vec3,
    /// Multiply a centred point by this to normalise it.
    pub scale: f32,
}

impl UnitBox {
    /// `None` when the box has no extent (all points equal), which cannot be normalised.
    pub fn of(bounds: &Aabb) -> Option<Self> {
        let side = bounds.longest_side();
        (side.is_finite() && side > 0.0).then(|| Self {
            center: bounds.center(),
            scale: 1.0 / side,
        })
    }

    pub fn apply(&self, p: Vec3) -> Vec3 {
        (p - self.center) * self.scale
    }

    pub fn invert(&self, p: Vec3) -> Vec3 {
        p / self.scale + self.center
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_side_becomes_one_and_round_trips() {
        let pts = [Vec3::new(2.0, 0.0, 0.0), Vec3::new(6.0, 1.0, -1.0)];
        let ub = UnitBox::of(&Aabb::from_points(&pts)).unwrap();
        let n: Vec<Vec3> = pts.iter().map(|p| ub.apply(*p)).collect();
        let b = Aabb::from_points(&n);
        assert!((b.longest_side() - 1.0).abs() < 1e-6);
        assert!(b.center().length() < 1e-6);
        assert!((ub.invert(n[1]) - pts[1]).length() < 1e-5);
    }

    #[test]
    fn a_single_point_cannot_be_normalised() {
        assert!(UnitBox::of(&Aabb::from_points(&[Vec3::ONE, Vec3::ONE])).is_none());
    }
}

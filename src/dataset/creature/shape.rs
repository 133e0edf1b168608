//! The implicit primitives creatures are built from, as signed distances (negative inside).
//!
//! Distances are the cheap forms (exact for spheres and capsules, close for tapered cones,
//! ellipsoids and rounded boxes): they only have to be smooth and to cross zero on the surface.

use glam::{Quat, Vec3};

/// One primitive, owned by the joint whose bone it fleshes out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// Index of the joint that moves this primitive.
    pub owner: usize,
    /// Primitives of one group are blended into one surface; groups are separate surfaces
    /// (a robot's rigid parts, a prop in a hand, clothing).
    pub group: usize,
    pub kind: ShapeKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShapeKind {
    /// A capsule whose radius changes linearly from `ra` at `a` to `rb` at `b`.
    Cone { a: Vec3, b: Vec3, ra: f32, rb: f32 },
    /// An ellipsoid with semi-axes `radii` in its own frame, turned by `rotation`.
    Ellipsoid {
        center: Vec3,
        radii: Vec3,
        rotation: Quat,
    },
    /// A box from `a` to `b` (its long axis), `half` wide across it, corners rounded by `round`.
    Block {
        a: Vec3,
        b: Vec3,
        half: glam::Vec2,
        round: f32,
    },
}

impl Shape {
    pub fn distance(&self, p: Vec3) -> f32 {
        match self.kind {
            ShapeKind::Cone { a, b, ra, rb } => {
                let ab = b - a;
                let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
                (p - (a + ab * t)).length() - (ra + (rb - ra) * t)
            }
            ShapeKind::Ellipsoid {
                center,
                radii,
                rotation,
            } => {
                let q = rotation.inverse() * (p - center);
                let k0 = (q / radii).length();
                let k1 = (q / (radii * radii)).length();
                if k1 < 1e-12 {
                    -radii.min_element()
                } else {
                    k0 * (k0 - 1.0) / k1
                }
            }
            ShapeKind::Block { a, b, half, round } => {
                let (axis, u, v) = block_frame(a, b);
                let mid = (a + b) * 0.5;
                let d = p - mid;
                let local = Vec3::new(d.dot(u), d.dot(v), d.dot(axis));
                let extent = Vec3::new(half.x, half.y, (b - a).length() * 0.5);
                let q = local.abs() - extent + Vec3::splat(round);
                q.max(Vec3::ZERO).length() + q.max_element().min(0.0) - round
            }
        }
    }

    /// A box around the primitive.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        match self.kind {
            ShapeKind::Cone { a, b, ra, rb } => {
                let r = Vec3::splat(ra.max(rb));
                (a.min(b) - r, a.max(b) + r)
            }
            ShapeKind::Ellipsoid { center, radii, .. } => {
                let r = Vec3::splat(radii.max_element());
                (center - r, center + r)
            }
            ShapeKind::Block { a, b, half, .. } => {
                let r = Vec3::splat(half.length());
                (a.min(b) - r, a.max(b) + r)
            }
        }
    }

    /// A typical thickness, which sets how far weights blend into neighbours.
    pub fn thickness(&self) -> f32 {
        match self.kind {
            ShapeKind::Cone { ra, rb, .. } => 0.5 * (ra + rb),
            ShapeKind::Ellipsoid { radii, .. } => radii.min_element(),
            ShapeKind::Block { half, .. } => half.min_element(),
        }
    }
}

/// The unit long axis of a block and two unit axes across it, chosen the same way every time.
fn block_frame(a: Vec3, b: Vec3) -> (Vec3, Vec3, Vec3) {
    let axis = (b - a).try_normalize().unwrap_or(Vec3::Y);
    let helper = if axis.y.abs() < 0.9 { Vec3::Y } else { Vec3::Z };
    let u = helper.cross(axis).normalize();
    (axis, u, axis.cross(u))
}

/// Polynomial smooth minimum: `min(a, b)` with the crease rounded over a width `k`, so that
/// limbs grow out of the body instead of meeting it at a sharp seam.
pub fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    if k <= 0.0 {
        return a.min(b);
    }
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_negative_inside_and_zero_on_the_surface() {
        let cone = Shape {
            owner: 0,
            group: 0,
            kind: ShapeKind::Cone {
                a: Vec3::ZERO,
                b: Vec3::Y,
                ra: 0.2,
                rb: 0.1,
            },
        };
        assert!(cone.distance(Vec3::new(0.0, 0.5, 0.0)) < 0.0);
        assert!((cone.distance(Vec3::new(0.15, 0.5, 0.0))).abs() < 1e-5);
        let ellipsoid = Shape {
            owner: 0,
            group: 0,
            kind: ShapeKind::Ellipsoid {
                center: Vec3::ZERO,
                radii: Vec3::new(1.0, 0.5, 0.25),
                rotation: Quat::IDENTITY,
            },
        };
        assert!(ellipsoid.distance(Vec3::ZERO) < 0.0);
        assert!(ellipsoid.distance(Vec3::new(0.0, 0.5, 0.0)).abs() < 1e-5);
        assert!(ellipsoid.distance(Vec3::new(0.0, 0.0, 0.3)) > 0.0);
        let block = Shape {
            owner: 0,
            group: 0,
            kind: ShapeKind::Block {
                a: Vec3::ZERO,
                b: Vec3::X,
                half: glam::Vec2::splat(0.1),
                round: 0.02,
            },
        };
        assert!(block.distance(Vec3::new(0.5, 0.0, 0.0)) < 0.0);
        assert!(block.distance(Vec3::new(0.5, 0.1, 0.0)).abs() < 1e-5);
        assert!(block.distance(Vec3::new(1.2, 0.0, 0.0)) > 0.0);
    }

    #[test]
    fn smooth_min_rounds_only_near_the_crease() {
        assert_eq!(smooth_min(0.0, 1.0, 0.1), 0.0);
        assert!(smooth_min(0.0, 0.0, 0.1) < 0.0);
    }
}

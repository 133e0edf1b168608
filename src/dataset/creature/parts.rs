//! Body parts shared by the body plans: legs, arms, heads and the optional extras (tails, ears,
//! horns, a prop in the hand, clothing, a hat). Y is up, the creature faces +Z, its left is +X.

use glam::{Quat, Vec3};

use super::builder::{Build, Builder, walk};
use crate::dataset::creature::shape::{Shape, ShapeKind};

/// `.L` for the creature's left (+X), `.R` for its right.
pub fn side_name(side: f32) -> &'static str {
    if side > 0.0 { ".L" } else { ".R" }
}

/// A leg from `hip` (child of `parent`) down to the ground and a foot pointing along `forward`.
/// `knee` is +1 for a knee bending forward (humans), -1 for a hock bending back.
pub fn leg(
    b: &mut Builder,
    name: &str,
    parent: usize,
    hip: Vec3,
    forward: Vec3,
    knee: f32,
    r: f32,
) -> Vec<usize> {
    let height = hip.y;
    let bend = forward * knee * height * b.rng.range(0.03, 0.1);
    let knee_at = Vec3::new(hip.x, height * b.rng.range(0.45, 0.55), hip.z) + bend;
    let ankle = Vec3::new(hip.x, (height * 0.08).max(r * 0.5), hip.z);
    let toe = ankle + forward * height * b.rng.range(0.15, 0.25) - Vec3::Y * ankle.y * 0.6;
    let side = side_name(hip.x);
    let names = ["upper", "lower", "foot", "toe"].map(|part| format!("{name}_{part}{side}"));
    let points = [hip, knee_at, ankle, toe];
    b.limb(parent, &names, &points, &[r, r * 0.75, r * 0.55, r * 0.4])
}

/// An arm from the chest: clavicle, upper arm, forearm, hand and the hand's tip, hanging
/// `drop` radians below horizontal. Returns the joints, hand second to last.
pub fn arm(
    b: &mut Builder,
    parent: usize,
    shoulder: Vec3,
    length: f32,
    r: f32,
    drop: f32,
) -> Vec<usize> {
    let side = shoulder.x.signum();
    let dir = Vec3::new(side * drop.cos(), -drop.sin(), 0.0);
    let root = Vec3::new(side * r * 0.8, shoulder.y, shoulder.z);
    let steps = [
        (Vec3::X * side, (shoulder.x - root.x).abs()),
        (dir, length * 0.42),
        (dir, length * 0.38),
        (dir, length * 0.2),
    ];
    let points = walk(root, &steps);
    let s = side_name(side);
    let names = ["clavicle", "upper_arm", "forearm", "hand", "hand_end"].map(|n| format!("{n}{s}"));
    b.limb(
        parent,
        &names,
        &points,
        &[r * 1.1, r, r * 0.8, r * 0.6, r * 0.45],
    )
}

/// A neck and the head on it.
#[derive(Debug, Clone, Copy)]
pub struct Neck {
    pub base: Vec3,
    /// Where the neck points.
    pub dir: Vec3,
    pub length: f32,
    pub radius: f32,
    /// The head's radius.
    pub head: f32,
}

/// A neck from `neck.base`, then a head facing +Z; returns (neck, head, head end).
pub fn neck_and_head(b: &mut Builder, suffix: &str, parent: usize, neck: &Neck) -> [usize; 3] {
    let Neck {
        base,
        dir,
        length: neck_length,
        radius: neck_radius,
        head: size,
    } = *neck;
    let face = Vec3::Z;
    let neck = b.joint(format!("neck{suffix}"), Some(parent), base);
    let head_at = base + dir.normalize() * neck_length;
    let head = b.joint(format!("head{suffix}"), Some(neck), head_at);
    let end_at = head_at + (dir.normalize() * 0.6 + face * 0.9).normalize() * size * 1.6;
    let end = b.joint(format!("head_end{suffix}"), Some(head), end_at);
    b.bone(neck, head, neck_radius, neck_radius * 0.9);
    let center = head_at + (end_at - head_at) * 0.55;
    let stretch = b.rng.range(0.9, 1.3);
    b.blob(
        head,
        center,
        Vec3::new(size * 0.9, size, size * stretch),
        Quat::from_rotation_arc(Vec3::Z, (end_at - head_at).normalize()),
    );
    [neck, head, end]
}

/// A tapering chain (tail, tentacle, antenna) through `points`, child of `parent`.
pub fn tail(
    b: &mut Builder,
    name: &str,
    parent: usize,
    points: &[Vec3],
    r0: f32,
    r1: f32,
) -> Vec<usize> {
    b.chain(name, Some(parent), points, r0, r1)
}

/// Points along a curve from `start`: `n` steps of `length`, turning by `turn` each step.
pub fn curl(start: Vec3, dir: Vec3, n: usize, length: f32, turn: Quat) -> Vec<Vec3> {
    let mut points = vec![start];
    let (mut p, mut d) = (start, dir.normalize_or_zero());
    for _ in 0..n {
        p += d * length;
        points.push(p);
        d = turn * d;
    }
    points
}

/// A pair of ears or horns on a head: each a two-joint cone from the skull's surface outward.
pub fn pair_on_head(b: &mut Builder, name: &str, head: usize, size: f32, out: Vec3, length: f32) {
    let at = b.position(head);
    for side in [1.0f32, -1.0] {
        let dir = Vec3::new(out.x * side, out.y, out.z).normalize();
        let base = at + dir * size * 0.6;
        let s = side_name(side);
        let bend = Quat::from_axis_angle(Vec3::X, -0.25);
        let points = curl(base, dir, 2, length * 0.5, bend);
        let r = size * 0.22;
        tail(b, &format!("{name}{s}"), head, &points, r, r * 0.3);
    }
}

/// A prop (sword, staff, club) gripped in a hand: its own joint and its own rigid surface.
pub fn prop(b: &mut Builder, hand: usize, hand_end: usize, length: f32) {
    let grip = (b.position(hand) + b.position(hand_end)) * 0.5;
    let dir = Vec3::new(0.0, -0.2, 1.0).normalize();
    let joint = b.joint("prop", Some(hand), grip);
    let group = b.new_group();
    let r = length * b.rng.range(0.025, 0.05);
    let (a, tip) = (grip - dir * length * 0.2, grip + dir * length * 0.8);
    if b.rng.unit() < 0.5 {
        b.cone(joint, group, a, tip, r, r * 0.3);
    } else {
        b.shapes.push(Shape {
            owner: joint,
            group,
            kind: ShapeKind::Block {
                a,
                b: tip,
                half: glam::Vec2::new(r * 2.0, r * 0.6),
                round: r * 0.3,
            },
        });
    }
}

/// A hat floating just above the skull: a disconnected part that rides on the head joint.
pub fn hat(b: &mut Builder, head: usize, head_end: usize, size: f32) {
    let skull = (b.position(head) + b.position(head_end)) * 0.5;
    let group = b.new_group();
    let brim = skull + Vec3::Y * size * 1.15;
    b.shapes.push(Shape {
        owner: head,
        group,
        kind: ShapeKind::Ellipsoid {
            center: brim,
            radii: Vec3::new(size * 1.5, size * 0.12, size * 1.5),
            rotation: Quat::IDENTITY,
        },
    });
    b.cone(
        head,
        group,
        brim,
        brim + Vec3::Y * size * 0.8,
        size * 0.8,
        size * 0.6,
    );
}

/// A tunic: the torso's and thighs' flesh grown by `gap`, kept between two heights so it is
/// open at the neck and the hem, like clothing; it follows the body's weights.
pub fn tunic(b: &mut Builder, owners: &[usize], gap: f32, hem: f32, collar: f32) {
    if b.build != Build::Organic {
        return;
    }
    let group = b.new_group();
    let grown: Vec<Shape> = b
        .shapes
        .iter()
        .filter(|s| s.group == 0 && owners.contains(&s.owner))
        .map(|s| Shape {
            group,
            kind: match s.kind {
                ShapeKind::Cone { a, b, ra, rb } => ShapeKind::Cone {
                    a,
                    b,
                    ra: ra + gap,
                    rb: rb + gap,
                },
                ShapeKind::Ellipsoid {
                    center,
                    radii,
                    rotation,
                } => ShapeKind::Ellipsoid {
                    center,
                    radii: radii + Vec3::splat(gap),
                    rotation,
                },
                other => other,
            },
            ..*s
        })
        .collect();
    b.shapes.extend(grown);
    b.shells.push((group, hem, collar));
}

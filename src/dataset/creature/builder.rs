//! Joints and the primitives around their bones, as the body plans lay them down.

use glam::{Quat, Vec2, Vec3};

use super::shape::{Shape, ShapeKind};
use crate::random::Rng;

/// How flesh is laid on bones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// Blended tapered capsules and ellipsoids: one smooth skin.
    Organic,
    /// A separate rounded block per bone, bound rigidly to it.
    Robot,
}

/// A joint as laid down: its name, parent and rest position.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedJoint {
    pub name: String,
    pub parent: Option<usize>,
    pub position: Vec3,
}

/// Collects joints and shapes; body plans call it limb by limb.
pub struct Builder<'r> {
    pub rng: &'r mut Rng,
    pub build: Build,
    pub joints: Vec<PlannedJoint>,
    pub shapes: Vec<Shape>,
    /// Groups used so far; group 0 is the blended body.
    groups: usize,
    /// Clothing-like groups: separate surfaces that follow the body's weights, each kept only
    /// between two heights (an open shell such as a tunic).
    pub shells: Vec<(usize, f32, f32)>,
}

pub const BODY: usize = 0;

impl<'r> Builder<'r> {
    pub fn new(rng: &'r mut Rng, build: Build) -> Self {
        Self {
            rng,
            build,
            joints: Vec::new(),
            shapes: Vec::new(),
            groups: 1,
            shells: Vec::new(),
        }
    }

    pub fn joint(
        &mut self,
        name: impl Into<String>,
        parent: Option<usize>,
        position: Vec3,
    ) -> usize {
        self.joints.push(PlannedJoint {
            name: name.into(),
            parent,
            position,
        });
        self.joints.len() - 1
    }

    pub fn position(&self, joint: usize) -> Vec3 {
        self.joints[joint].position
    }

    /// A fresh surface of its own.
    pub fn new_group(&mut self) -> usize {
        self.groups += 1;
        self.groups - 1
    }

    /// Flesh on the bone from `joint` to `child`, owned by `joint`: a tapered capsule when
    /// organic, a block of its own when robotic.
    pub fn bone(&mut self, joint: usize, child: usize, ra: f32, rb: f32) {
        let (a, b) = (self.position(joint), self.position(child));
        match self.build {
            Build::Organic => self.cone(joint, BODY, a, b, ra, rb),
            Build::Robot => {
                // Blocks overlap at the joints, like armour plates, so no gap opens there.
                let along = (b - a).normalize_or_zero() * 0.35 * ra.min(rb);
                let half = Vec2::new(ra, ra * self.rng.range(0.7, 1.0)) * 0.95;
                let group = self.new_group();
                self.shapes.push(Shape {
                    owner: joint,
                    group,
                    kind: ShapeKind::Block {
                        a: a - along,
                        b: b + along,
                        half,
                        round: 0.25 * half.min_element(),
                    },
                });
            }
        }
    }

    /// A tapered capsule in `group`; on a robot's body, a rigid block of its own instead.
    pub fn cone(&mut self, owner: usize, group: usize, a: Vec3, b: Vec3, ra: f32, rb: f32) {
        if self.build == Build::Robot && group == BODY {
            let half = Vec2::splat(ra.max(rb) * 0.9);
            let group = self.new_group();
            self.shapes.push(Shape {
                owner,
                group,
                kind: ShapeKind::Block {
                    a,
                    b,
                    half,
                    round: 0.25 * half.x,
                },
            });
            return;
        }
        self.shapes.push(Shape {
            owner,
            group,
            kind: ShapeKind::Cone { a, b, ra, rb },
        });
    }

    /// A blob of flesh owned by `owner` (a belly, a skull, a fin); robots get a block.
    pub fn blob(&mut self, owner: usize, center: Vec3, radii: Vec3, rotation: Quat) {
        match self.build {
            Build::Organic => self.shapes.push(Shape {
                owner,
                group: BODY,
                kind: ShapeKind::Ellipsoid {
                    center,
                    radii,
                    rotation,
                },
            }),
            Build::Robot => {
                let axis = rotation * Vec3::new(0.0, 0.0, radii.z);
                let group = self.new_group();
                self.shapes.push(Shape {
                    owner,
                    group,
                    kind: ShapeKind::Block {
                        a: center - axis,
                        b: center + axis,
                        half: Vec2::new(radii.x, radii.y),
                        round: 0.2 * radii.min_element(),
                    },
                });
            }
        }
    }

    /// A limb: joints named `names` at `points`, each the child of the one before (the first
    /// of `parent`), fleshed with radius `radii[k]` at joint `k`. Returns the new joints.
    pub fn limb(
        &mut self,
        parent: usize,
        names: &[String],
        points: &[Vec3],
        radii: &[f32],
    ) -> Vec<usize> {
        let mut joints = Vec::with_capacity(points.len());
        let mut up = parent;
        for (name, p) in names.iter().zip(points) {
            up = self.joint(name.clone(), Some(up), *p);
            joints.push(up);
        }
        for k in 1..joints.len() {
            self.bone(joints[k - 1], joints[k], radii[k - 1], radii[k]);
        }
        joints
    }

    /// A chain of joints from `parent` through `points` (the first is the chain's first joint),
    /// fleshed with radii tapering from `r0` to `r1`. Returns the new joints.
    pub fn chain(
        &mut self,
        name: &str,
        parent: Option<usize>,
        points: &[Vec3],
        r0: f32,
        r1: f32,
    ) -> Vec<usize> {
        let mut joints = Vec::with_capacity(points.len());
        let mut up = parent;
        for (i, p) in points.iter().enumerate() {
            let j = self.joint(format!("{name}{}", i + 1), up, *p);
            joints.push(j);
            up = Some(j);
        }
        let last = points.len().saturating_sub(1).max(1) as f32;
        for (i, pair) in joints.windows(2).enumerate() {
            let ra = r0 + (r1 - r0) * i as f32 / last;
            let rb = r0 + (r1 - r0) * (i + 1) as f32 / last;
            self.bone(pair[0], pair[1], ra, rb);
        }
        joints
    }
}

/// Points from `start` taking steps of `lengths` in `directions` (normalised here).
pub fn walk(start: Vec3, steps: &[(Vec3, f32)]) -> Vec<Vec3> {
    let mut points = vec![start];
    let mut p = start;
    for (dir, len) in steps {
        p += dir.normalize_or_zero() * *len;
        points.push(p);
    }
    points
}

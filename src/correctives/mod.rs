//! Pose-space correctives: morph targets, driven by joint rotations, that take linear blend
//! skinning's collapsing elbows and candy-wrapper forearms back to a deformation that keeps
//! volume (dual-quaternion skinning). As in Neural Blend Shapes the shapes are driven by
//! joint rotations; each joint's shapes are the principal modes of the offsets it needs, and
//! their weights are interpolated over the rotations they were sampled at (pose-space
//! deformation, Lewis et al. 2000). A clip's weights are baked into it as glTF morph weights,
//! so any engine plays the corrected deformation.

mod apply;
mod fit;
mod measure;
mod reach;

use glam::{Quat, Vec3};

use crate::rig::{JointId, Transform};

pub use apply::{
    CORRECTIVE_PREFIX, add_correctives, fit_character, within_budget, write_correctives,
};
pub use fit::fit;
pub use measure::{PoseError, TestPose, pose_error, test_poses};

/// How correctives are fitted.
#[derive(Debug, Clone)]
pub struct CorrectiveOptions {
    /// At most this many morph targets, the strongest modes over all joints.
    pub targets: usize,
    /// Random rotations each joint is turned through, within its reach.
    pub samples: usize,
    /// Shapes kept per joint at most.
    pub per_joint: usize,
    /// The largest swing of a sampled rotation (about an axis across the bone), in radians:
    /// the reach of a joint no name tells more of (a humanoid's spine, collarbones and feet
    /// reach less).
    pub swing: f32,
    /// The largest twist of a sampled rotation (about the bone), in radians; as `swing`.
    pub twist: f32,
    /// Each vertex keeps its strongest this many influences, as the exported file plays it
    /// (`--max-influences`): the correctives fix the skinning the file plays, not a richer one.
    pub influences: usize,
    /// The size of the character's GLB without correctives, where the caller knows it: the
    /// fit then keeps the strongest shapes that keep the file within [`SIZE_BUDGET`] times
    /// that ([`within_budget`]).
    pub file_bytes: Option<usize>,
    pub seed: u64,
}

/// A GLB with correctives is at most this many times the size of the same file without.
pub const SIZE_BUDGET: f32 = 2.0;

impl Default for CorrectiveOptions {
    fn default() -> Self {
        Self {
            targets: 32,
            samples: 160,
            per_joint: 4,
            swing: 150f32.to_radians(),
            twist: 110f32.to_radians(),
            influences: 4,
            file_bytes: None,
            seed: 23,
        }
    }
}

/// Why correctives cannot be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CorrectiveError {
    #[error("correctives need a rigged character: this one has no skeleton")]
    NoSkeleton,
    #[error("correctives need skin weights: this character's mesh is not skinned")]
    NoSkin,
    #[error("the skin weights {weighted} vertices but the mesh has {vertices}")]
    SkinMismatch { weighted: usize, vertices: usize },
}

/// One corrective: a morph target whose weight is linear in one joint's rotation.
#[derive(Debug, Clone, PartialEq)]
pub struct Corrective {
    pub joint: JointId,
    /// One offset per vertex, in the mesh's space before skinning; zero away from the joint.
    pub offsets: Vec<Vec3>,
    pub driver: PoseDriver,
}

/// A corrective's weight as a function of its joint's turn (its rotation relative to rest):
/// a Gaussian radial basis over the turns it was fitted at, zero at rest.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseDriver {
    pub turns: Vec<Quat>,
    pub coefficients: Vec<f32>,
    /// The kernel's width, in radians of turn between two rotations.
    pub width: f32,
}

impl PoseDriver {
    /// The weight at `turn`.
    pub fn weight(&self, turn: Quat) -> f32 {
        let at = |q: Quat| -> f32 {
            (self.turns.iter().zip(&self.coefficients))
                .map(|(t, c)| c * kernel(q, *t, self.width))
                .sum()
        };
        at(turn) - at(Quat::IDENTITY)
    }
}

/// The Gaussian of the angle between two rotations (`q` and `-q` alike).
pub(crate) fn kernel(a: Quat, b: Quat, width: f32) -> f32 {
    let angle = 2.0 * a.dot(b).abs().min(1.0).acos();
    (-(angle * angle) / (2.0 * width * width)).exp()
}

/// A character's correctives and the rest pose their drivers are measured from.
#[derive(Debug, Clone, PartialEq)]
pub struct Correctives {
    /// Each joint's local transform at rest.
    pub rest: Vec<Transform>,
    pub shapes: Vec<Corrective>,
}

impl Correctives {
    /// Each corrective's weight with the joints at `locals` (one per joint, as clips hold
    /// them).
    pub fn weights(&self, locals: &[Transform]) -> Vec<f32> {
        self.shapes
            .iter()
            .map(|shape| {
                let j = shape.joint.index();
                let (Some(rest), Some(now)) = (self.rest.get(j), locals.get(j)) else {
                    return 0.0;
                };
                shape.driver.weight(rest.rotation.inverse() * now.rotation)
            })
            .collect()
    }

    /// `rest` positions with every corrective added at its weight in the pose `locals`.
    pub fn corrected(&self, rest: &[Vec3], locals: &[Transform]) -> Vec<Vec3> {
        let mut out = rest.to_vec();
        self.add_to(&mut out, locals);
        out
    }

    /// Each of `vertices` vertices' corrective offset (before skinning) in the pose `locals`.
    pub fn offsets(&self, vertices: usize, locals: &[Transform]) -> Vec<Vec3> {
        let mut out = vec![Vec3::ZERO; vertices];
        self.add_to(&mut out, locals);
        out
    }

    /// Adds every corrective at its weight in the pose `locals` to `positions`.
    fn add_to(&self, positions: &mut [Vec3], locals: &[Transform]) {
        for (shape, w) in self.shapes.iter().zip(self.weights(locals)) {
            if w == 0.0 {
                continue;
            }
            for (p, o) in positions.iter_mut().zip(&shape.offsets) {
                *p += *o * w;
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use glam::{Mat4, Quat, Vec3};

    use crate::Character;
    use crate::mesh::Mesh;
    use crate::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};

    /// A left arm: a closed tube of radius 0.25 along +X from the shoulder (0) through the elbow
    /// (1) to the wrist (2), weighted from the upper arm to the forearm across the elbow.
    pub(crate) fn arm() -> Character {
        let (rings, around) = (41, 16);
        let mut positions = Vec::new();
        let mut skin = SkinWeights::new();
        for r in 0..rings {
            let x = 2.0 * r as f32 / (rings - 1) as f32;
            let w = ((x - 0.7) / 0.6).clamp(0.0, 1.0);
            for a in 0..around {
                let t = std::f32::consts::TAU * a as f32 / around as f32;
                positions.push(Vec3::new(x, 0.25 * t.cos(), 0.25 * t.sin()));
                skin.push_vertex([
                    Influence {
                        joint: JointId(1),
                        weight: 1.0 - w,
                    },
                    Influence {
                        joint: JointId(2),
                        weight: w,
                    },
                ]);
            }
        }
        let mut triangles = Vec::new();
        for r in 0..rings - 1 {
            for a in 0..around {
                let i = |r: usize, a: usize| (r * around + a % around) as u32;
                triangles.push([i(r, a), i(r + 1, a), i(r + 1, a + 1)]);
                triangles.push([i(r, a), i(r + 1, a + 1), i(r, a + 1)]);
            }
        }
        let joint = |name: &str, parent: Option<u32>, x: f32| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::X * x),
        };
        let skeleton = Skeleton {
            joints: vec![
                joint("LeftShoulder", None, -0.5),
                joint("LeftArm", Some(0), 0.0),
                joint("LeftForeArm", Some(1), 1.0),
                joint("LeftHand", Some(2), 2.0),
            ],
        };
        Character {
            mesh: Mesh {
                positions,
                triangles,
                ..Mesh::default()
            },
            skeleton: Some(skeleton),
            skin: Some(skin),
            ..Character::default()
        }
    }

    #[test]
    fn correctives_take_a_bent_elbow_most_of_the_way_to_the_reference() {
        let arm = arm();
        let (skeleton, skin) = (arm.skeleton.as_ref().unwrap(), arm.skin.as_ref().unwrap());
        let correctives =
            super::fit(&arm.mesh.positions, skeleton, skin, &Default::default()).unwrap();
        assert!(!correctives.shapes.is_empty());
        assert!(correctives.shapes.iter().all(|s| s.joint == JointId(2)));
        let rest = crate::rig::rest_locals(skeleton);
        // Nothing to correct at rest.
        for w in correctives.weights(&rest) {
            assert!(w.abs() < 1e-4, "weight {w} at rest");
        }
        // The elbow is a hinge across the arm and the facing (+Z): it bends the forearm
        // forward (toward +Z), as elbows do.
        for (what, turn) in [
            ("bent 90°", Quat::from_rotation_y(-90f32.to_radians())),
            ("bent 130°", Quat::from_rotation_y(-130f32.to_radians())),
        ] {
            let mut locals = rest.clone();
            locals[2].rotation = rest[2].rotation * turn;
            let error = super::pose_error(&arm.mesh, skeleton, skin, &correctives, &locals);
            assert!(
                error.removed() >= 0.7,
                "{what}: {:.4} -> {:.4}",
                error.linear,
                error.corrected
            );
        }
    }

    #[test]
    fn correctives_fix_the_skinning_the_file_plays() {
        // Cut to one influence per vertex, as a file limited to one plays it, every vertex
        // moves rigidly with one joint: blending nothing, it has nothing to correct.
        let arm = arm();
        let (skeleton, skin) = (arm.skeleton.as_ref().unwrap(), arm.skin.as_ref().unwrap());
        let options = super::CorrectiveOptions {
            influences: 1,
            ..Default::default()
        };
        let correctives = super::fit(&arm.mesh.positions, skeleton, skin, &options).unwrap();
        assert!(
            correctives.shapes.is_empty(),
            "{}",
            correctives.shapes.len()
        );
    }
}

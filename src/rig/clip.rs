use glam::Mat4;

use super::{Skeleton, Transform};

/// A named motion for one skeleton: every joint's local transform at each key time.
///
/// Clips are stored densely (joints × frames) because retargeting, playback and export all
/// visit every joint at every frame; sparse per-channel keys are resolved on import.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    pub name: String,
    /// Key times in seconds, strictly increasing; the first need not be zero.
    pub times: Vec<f32>,
    /// Joint count of the skeleton this clip moves.
    pub joint_count: usize,
    /// `times.len() × joint_count` local transforms, frame by frame.
    pub locals: Vec<Transform>,
    /// Morph target weights frame by frame, `times.len() ×` the mesh's target count (in
    /// [`crate::mesh::Mesh::morph_targets`] order), or empty for a clip that leaves them at
    /// rest: a face's expressions and visemes, an exported rig's correctives.
    pub morph_weights: Vec<f32>,
}

impl Clip {
    pub fn frame_count(&self) -> usize {
        self.times.len()
    }

    /// Seconds from the first key to the last.
    pub fn duration(&self) -> f32 {
        match (self.times.first(), self.times.last()) {
            (Some(a), Some(b)) => b - a,
            _ => 0.0,
        }
    }

    /// The joints' local transforms at key `frame`.
    pub fn frame(&self, frame: usize) -> &[Transform] {
        &self.locals[frame * self.joint_count..(frame + 1) * self.joint_count]
    }

    /// The joints' local transforms at `time` seconds (clamped to the clip), interpolated
    /// between the two keys around it.
    pub fn locals_at(&self, time: f32) -> Vec<Transform> {
        let Some((a, b, s)) = self.keys_around(time) else {
            return Vec::new();
        };
        if a == b {
            return self.frame(a).to_vec();
        }
        (self.frame(a).iter().zip(self.frame(b)))
            .map(|(x, y)| x.interpolate(*y, s))
            .collect()
    }

    /// The morph target weights at `time` seconds (clamped to the clip), interpolated
    /// between the two keys around it; `None` when the clip does not drive `targets`
    /// targets.
    pub fn morph_weights_at(&self, time: f32, targets: usize) -> Option<Vec<f32>> {
        let (a, b, s) = self.keys_around(time)?;
        let (x, y) = (self.morph_frame(a, targets)?, self.morph_frame(b, targets)?);
        Some(x.iter().zip(y).map(|(x, y)| x + (y - x) * s).collect())
    }

    /// The keys before and after `time` (clamped to the clip) and how far between them it
    /// lies, 0 to 1; `None` for a clip without keys.
    fn keys_around(&self, time: f32) -> Option<(usize, usize, f32)> {
        let &first = self.times.first()?;
        let time = if time.is_finite() { time } else { first };
        let next = self.times.partition_point(|&t| t <= time);
        let last = self.times.len() - 1;
        if next == 0 {
            return Some((0, 0, 0.0));
        }
        if next > last {
            return Some((last, last, 0.0));
        }
        let (a, b) = (self.times[next - 1], self.times[next]);
        Some((
            next - 1,
            next,
            ((time - a) / (b - a).max(1e-9)).clamp(0.0, 1.0),
        ))
    }

    /// The joints' world matrices at `time` seconds.
    pub fn world_at(&self, skeleton: &Skeleton, time: f32) -> Vec<Mat4> {
        pose_world(skeleton, &self.locals_at(time))
    }

    /// The morph target weights at key `frame`, or `None` when the clip does not drive
    /// `targets` targets.
    pub fn morph_frame(&self, frame: usize, targets: usize) -> Option<&[f32]> {
        if targets == 0 || self.morph_weights.len() != self.times.len() * targets {
            return None;
        }
        self.morph_weights
            .get(frame * targets..(frame + 1) * targets)
    }

    /// Whether this clip can drive `skeleton`.
    pub fn fits(&self, skeleton: &Skeleton) -> bool {
        self.joint_count == skeleton.joints.len()
            && self.locals.len() == self.times.len() * self.joint_count
    }

    /// The joints' world matrices at key `frame` (forward kinematics; parents come first).
    pub fn world_matrices(&self, skeleton: &Skeleton, frame: usize) -> Vec<Mat4> {
        pose_world(skeleton, self.frame(frame))
    }
}

/// The joints' world matrices with each joint at `locals[j]` relative to its parent.
pub fn pose_world(skeleton: &Skeleton, locals: &[Transform]) -> Vec<Mat4> {
    let locals: Vec<Mat4> = locals.iter().map(|l| l.to_mat4()).collect();
    skeleton.world_from_locals(&locals)
}

/// Each joint's local bind transform (parent⁻¹ × world), the pose a clip departs from.
pub fn rest_locals(skeleton: &Skeleton) -> Vec<Transform> {
    skeleton
        .locals_from_world(&skeleton.bind_world())
        .into_iter()
        .map(Transform::from_mat4)
        .collect()
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::rig::{Joint, JointId};

    #[test]
    fn world_matrices_chain_parent_rotations() {
        let joint = |parent: Option<u32>, y: f32| Joint {
            name: String::new(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::new(0.0, y, 0.0)),
        };
        let skeleton = Skeleton {
            joints: vec![joint(None, 0.0), joint(Some(0), 1.0)],
        };
        let mut locals = rest_locals(&skeleton);
        assert!(locals[1].translation.abs_diff_eq(Vec3::Y, 1e-6));
        locals[0].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let clip = Clip {
            name: "bend".into(),
            times: vec![0.0],
            joint_count: 2,
            locals,
            morph_weights: Vec::new(),
        };
        assert!(clip.fits(&skeleton));
        let world = clip.world_matrices(&skeleton, 0);
        assert!(world[1].w_axis.truncate().abs_diff_eq(-Vec3::X, 1e-6));
    }
}

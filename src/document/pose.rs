//! What pose the character is shown in: at rest, a clip playing, or joints turned by hand
//! (pose mode) — one at a time.

use glam::{Mat4, Quat, Vec3};

use super::{Change, Document, missing};
use crate::Error;
use crate::anim::{Motion, procedural_clip};
use crate::rig::{JointId, Transform};
use crate::rig::{pose_world, rest_locals};

/// Where playback stands, as the page's timeline shows it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Playback {
    /// The clip shown, if any.
    pub index: Option<usize>,
    /// Its length in seconds (0 without a clip).
    pub duration: f32,
    /// Seconds from its start.
    pub time: f32,
    pub speed: f32,
    pub playing: bool,
}

/// Moments of a motion looked at to find its test pose.
const TEST_POSE_SAMPLES: usize = 24;

/// The pose shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Pose {
    /// The bind pose.
    Rest,
    /// Clip `index` of the character's animations, `time` seconds from its start; it
    /// advances with [`Document::tick`] while `playing`.
    Clip {
        index: usize,
        time: f32,
        playing: bool,
    },
    /// Pose mode: each joint's rotation on top of its rest pose, one per joint.
    Turns(Vec<Quat>),
}

impl Document {
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// Plays the character's clip `index` from its start; returns its duration in seconds.
    ///
    /// # Errors
    /// When nothing is loaded or there is no such clip.
    pub fn play(&mut self, index: usize) -> Result<(f32, Change), Error> {
        let clip = self
            .loaded()?
            .animations
            .get(index)
            .ok_or_else(|| missing(&format!("there is no clip {index}")))?;
        let duration = clip.duration();
        Ok((duration, self.start_clip(index)))
    }

    /// Shows clip `index` from its start, playing (a drag in progress is abandoned).
    pub(super) fn start_clip(&mut self, index: usize) -> Change {
        self.cancel_drag();
        self.pose = Pose::Clip {
            index,
            time: 0.0,
            playing: true,
        };
        Change::Pose
    }

    /// Moves the clip shown to `time` seconds from its start; without a clip, nothing.
    pub fn seek(&mut self, time: f32) -> Change {
        match &mut self.pose {
            Pose::Clip { time: t, .. } if time.is_finite() => {
                *t = time;
                Change::Pose
            }
            _ => Change::None,
        }
    }

    /// Starts or pauses the clip shown; without a clip, nothing.
    pub fn set_playing(&mut self, on: bool) {
        if let Pose::Clip { playing, .. } = &mut self.pose {
            *playing = on;
        }
    }

    /// How fast clips play (1 is real time); negative or non-finite speeds are refused.
    pub fn set_speed(&mut self, speed: f32) -> Result<(), Error> {
        if !(speed.is_finite() && speed >= 0.0) {
            return Err(missing(&format!(
                "a playback speed of {speed} is not possible"
            )));
        }
        self.speed = speed;
        Ok(())
    }

    /// Advances a playing clip by `seconds` of wall time (times the speed), wrapping at its
    /// end: what a viewer calls once per frame.
    pub fn tick(&mut self, seconds: f32) -> Change {
        let duration = self.playback().duration;
        match &mut self.pose {
            Pose::Clip {
                time,
                playing: true,
                ..
            } if duration > 0.0 && seconds.is_finite() => {
                *time = (*time + seconds.max(0.0) * self.speed) % duration;
                Change::Pose
            }
            _ => Change::None,
        }
    }

    /// Where playback stands.
    pub fn playback(&self) -> Playback {
        let (index, time, playing) = match self.pose {
            Pose::Clip {
                index,
                time,
                playing,
            } => (Some(index), time, playing),
            _ => (None, 0.0, false),
        };
        let duration = index
            .and_then(|i| self.character.as_ref()?.animations.get(i))
            .map_or(0.0, |clip| clip.duration());
        Playback {
            index,
            duration,
            time,
            speed: self.speed,
            playing,
        }
    }

    /// Back to the bind pose: playback stops, pose mode's turns and its ring go.
    pub fn rest(&mut self) -> Change {
        self.gizmo = None;
        match std::mem::replace(&mut self.pose, Pose::Rest) {
            Pose::Rest => Change::None,
            _ => Change::Pose,
        }
    }

    /// Pose mode: turns `joint` by `world_turn` (a rotation in world space, as the pointer
    /// drew it) on top of how it is posed now. A playing clip stops.
    ///
    /// # Errors
    /// When there is no such joint.
    pub fn turn_joint(&mut self, joint: u32, world_turn: Quat) -> Result<Change, Error> {
        let id = self.joint(joint)?;
        let count = self.rigged()?.joints.len();
        let world = match &self.pose {
            Pose::Turns(_) => self.posed_world(),
            _ => None,
        }
        .unwrap_or_else(|| self.rest_world());
        let (_, rotation, _) = world[id.index()].to_scale_rotation_translation();
        if !matches!(&self.pose, Pose::Turns(t) if t.len() == count) {
            self.pose = Pose::Turns(vec![Quat::IDENTITY; count]);
        }
        if let Pose::Turns(turns) = &mut self.pose {
            // The world-space turn in the joint's current frame, on top of its pose.
            let local = rotation.inverse() * world_turn * rotation;
            turns[id.index()] = (turns[id.index()] * local).normalize();
        }
        Ok(Change::Pose)
    }

    /// A test pose for checking the weights: the generated motion `name` (walk, idle, look,
    /// wave, flap, …) at the moment its joints turn farthest from rest, shown as pose mode's
    /// turns. Nothing is added to the character's clips.
    ///
    /// # Errors
    /// When nothing rigged is loaded, `name` is not a motion, or the skeleton lacks the parts
    /// it moves.
    pub fn test_pose(&mut self, name: &str) -> Result<Change, Error> {
        let motion = Motion::from_name(name)
            .ok_or_else(|| missing(&format!("'{name}' is not a motion rigkit can make")))?;
        let skeleton = self.rigged()?;
        let clip = procedural_clip(skeleton, motion)?;
        let rest = rest_locals(skeleton);
        let start = clip.times.first().copied().unwrap_or(0.0);
        let turns_at = |t: f32| -> Vec<Quat> {
            clip.locals_at(start + t)
                .iter()
                .zip(&rest)
                .map(|(l, r)| (r.rotation.inverse() * l.rotation).normalize())
                .collect()
        };
        let spread =
            |turns: &[Quat]| -> f32 { turns.iter().map(|q| q.angle_between(Quat::IDENTITY)).sum() };
        let turns = (0..TEST_POSE_SAMPLES)
            .map(|k| turns_at(clip.duration() * k as f32 / TEST_POSE_SAMPLES as f32))
            .max_by(|a, b| spread(a).total_cmp(&spread(b)))
            .unwrap_or_default();
        self.cancel_drag();
        self.gizmo = None;
        self.pose = Pose::Turns(turns);
        Ok(Change::Pose)
    }

    /// Each joint's world matrix in the pose shown; `None` at rest, and when the clip playing
    /// does not fit the skeleton (it is then shown at rest).
    pub fn posed_world(&self) -> Option<Vec<Mat4>> {
        Some(pose_world(self.skeleton()?, &self.posed_locals()?))
    }

    /// Each joint's local transform in the pose shown; `None` as for [`Self::posed_world`].
    pub fn posed_locals(&self) -> Option<Vec<Transform>> {
        let c = self.character.as_ref()?;
        let skeleton = c.skeleton.as_ref()?;
        match &self.pose {
            Pose::Rest => None,
            Pose::Clip { index, time, .. } => {
                let clip = c
                    .animations
                    .get(*index)
                    .filter(|clip| clip.fits(skeleton))?;
                let start = clip.times.first().copied().unwrap_or(0.0);
                Some(clip.locals_at(start + time))
            }
            Pose::Turns(turns) => {
                let mut locals = rest_locals(skeleton);
                for (local, turn) in locals.iter_mut().zip(turns) {
                    local.rotation = (local.rotation * *turn).normalize();
                }
                Some(locals)
            }
        }
    }

    fn rest_world(&self) -> Vec<Mat4> {
        self.skeleton().map(|s| s.bind_world()).unwrap_or_default()
    }

    /// The joints where they are shown: posed, or at bind.
    pub fn shown_joints(&self) -> Vec<Vec3> {
        self.posed_world()
            .unwrap_or_else(|| self.rest_world())
            .iter()
            .map(|m| m.w_axis.truncate())
            .collect()
    }

    /// Puts pose mode's rotation ring on `joint` (or takes it away for `None` or a joint
    /// that does not exist); returns where it is and its radius.
    pub fn set_gizmo(&mut self, joint: Option<u32>) -> Option<(Vec3, f32)> {
        self.gizmo = joint.and_then(|j| self.joint(j).ok());
        self.gizmo_ring()
    }

    /// The joint the rotation ring is on.
    pub fn gizmo(&self) -> Option<JointId> {
        self.gizmo
    }

    /// The rotation ring's centre (its joint as shown) and radius, if it is on.
    pub fn gizmo_ring(&self) -> Option<(Vec3, f32)> {
        let at = *self.shown_joints().get(self.gizmo?.index())?;
        Some((at, 0.05 * self.size()))
    }
}

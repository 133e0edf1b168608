//! Motions made for any skeleton, no capture needed: idle breathing, looking around, a walk or
//! trot for whatever legs it has, wing flaps and waves along tails, tentacles and snake bodies.
//! Each is a seamless loop: its last frame is its first.

use std::f32::consts::TAU;

use glam::{Mat4, Quat, Vec3};

use super::body_plan::{BodyPlan, Chain};
use crate::rig::{Clip, Transform, rest_locals};
use crate::rig::{JointId, Skeleton};

/// Frames per second of generated motions.
const FPS: f32 = 30.0;

/// The motions the generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// Breathing: the spine rises and falls.
    Idle,
    /// The head turns left and right.
    Look,
    /// A gait for every leg: bipeds alternate, quadrupeds trot, six or eight legs walk in
    /// alternating sets; tails sway along.
    Walk,
    /// Wings (or arms held out) beat up and down.
    Flap,
    /// A travelling wave along every tail, tentacle or snake body.
    Wave,
}

impl Motion {
    pub const ALL: [Motion; 5] = [
        Motion::Idle,
        Motion::Look,
        Motion::Walk,
        Motion::Flap,
        Motion::Wave,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Motion::Idle => "idle",
            Motion::Look => "look",
            Motion::Walk => "walk",
            Motion::Flap => "flap",
            Motion::Wave => "wave",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    fn duration(self) -> f32 {
        match self {
            Motion::Idle => 3.0,
            Motion::Look => 4.0,
            Motion::Walk => 1.0,
            Motion::Flap => 0.8,
            Motion::Wave => 2.0,
        }
    }
}

/// Why a motion cannot be made for a skeleton.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MotionError {
    #[error("the character has no skeleton to move")]
    NoSkeleton,
    #[error("'{motion}' needs {what}, and this skeleton has none{}", fits_instead(.instead))]
    Missing {
        motion: &'static str,
        what: &'static str,
        /// The motions that do fit the skeleton.
        instead: Vec<&'static str>,
    },
}

fn fits_instead(motions: &[&str]) -> String {
    if motions.is_empty() {
        String::new()
    } else {
        format!(": it can play {}", motions.join(", "))
    }
}

/// A world-space turn applied at one joint, as a function of the loop's phase (0..1).
struct Turn {
    joint: JointId,
    axis: Vec3,
    angle: Box<dyn Fn(f32) -> f32>,
}

/// The motions that fit `skeleton` (idle and look fit every skeleton; walk needs legs, flap
/// wings, wave a chain of three joints).
pub fn motions_for(skeleton: &Skeleton) -> Vec<Motion> {
    let Some((turn, plan)) = BodyPlan::standing(skeleton) else {
        return Vec::new();
    };
    fitting(&skeleton.turned(turn), &plan)
}

/// The motions that fit `skeleton` standing along +Y, with its `plan`.
fn fitting(skeleton: &Skeleton, plan: &BodyPlan) -> Vec<Motion> {
    (Motion::ALL.into_iter())
        .filter(|&m| turns(skeleton, plan, m).is_ok())
        .collect()
}

/// `motion` for `skeleton`, one loop long. A rig that stands along another axis than +Y
/// ([`BodyPlan::standing`]) moves as it stands.
pub fn procedural_clip(skeleton: &Skeleton, motion: Motion) -> Result<Clip, MotionError> {
    let (turn, plan) = BodyPlan::standing(skeleton).ok_or(MotionError::NoSkeleton)?;
    let upright = skeleton.turned(turn);
    let mut clip = upright_clip(&upright, &plan, motion).map_err(|e| match e {
        MotionError::Missing { motion, what, .. } => MotionError::Missing {
            motion,
            what,
            instead: fitting(&upright, &plan)
                .into_iter()
                .map(Motion::name)
                .collect(),
        },
        e => e,
    })?;
    // Back to the file's frame: only the roots' locals are world transforms.
    if turn != Quat::IDENTITY {
        let back = turn.inverse();
        let n = skeleton.joints.len();
        for frame in clip.locals.chunks_mut(n) {
            for root in &plan.roots {
                let t = &mut frame[root.index()];
                t.translation = back * t.translation;
                t.rotation = (back * t.rotation).normalize();
            }
        }
    }
    Ok(clip)
}

/// The turns `motion` makes and how far the body bobs, for a skeleton standing along +Y.
fn turns(
    skeleton: &Skeleton,
    plan: &BodyPlan,
    motion: Motion,
) -> Result<(Vec<Turn>, f32), MotionError> {
    Ok(match motion {
        Motion::Idle => (idle(plan), 0.004 * plan.size),
        Motion::Look => (look(plan), 0.0),
        Motion::Walk => (walk(skeleton, plan)?, 0.02 * plan.size),
        Motion::Flap => (flap(skeleton, plan)?, 0.0),
        Motion::Wave => (wave(skeleton, plan)?, 0.0),
    })
}

/// `motion` for `skeleton` standing along +Y, with its `plan`.
fn upright_clip(skeleton: &Skeleton, plan: &BodyPlan, motion: Motion) -> Result<Clip, MotionError> {
    let (turns, bob) = turns(skeleton, plan, motion)?;
    let rest = rest_locals(skeleton);
    let rest_rotation: Vec<Quat> = skeleton
        .joints
        .iter()
        .map(|j| j.world_bind.to_scale_rotation_translation().1)
        .collect();
    let rest_world = skeleton.bind_world();
    let frames = (motion.duration() * FPS).round() as usize + 1;
    let mut locals = Vec::with_capacity(frames * skeleton.joints.len());
    for f in 0..frames {
        let phase = f as f32 / (frames - 1) as f32;
        let mut frame = rest.clone();
        for turn in &turns {
            let j = turn.joint.index();
            let world_turn = Quat::from_axis_angle(turn.axis, (turn.angle)(phase));
            // The world-space turn expressed in the joint's own rest frame, so it composes
            // with whatever its parents do.
            let local_turn = rest_rotation[j].inverse() * world_turn * rest_rotation[j];
            frame[j].rotation = (frame[j].rotation * local_turn).normalize();
        }
        // Every root bobs, so that a body split over several roots stays together.
        for root in plan.roots.iter().map(|r| r.index()) {
            let up = skeleton.joints[root]
                .parent
                .map_or(Mat4::IDENTITY, |p| {
                    skeleton.joints[p.index()].world_bind.inverse()
                })
                .transform_vector3(Vec3::Y);
            frame[root] = Transform {
                translation: frame[root].translation
                    + up * bob * (0.5 - 0.5 * (2.0 * TAU * phase).cos()),
                ..frame[root]
            };
        }
        carry_feet(skeleton, plan, &rest_world, &mut frame);
        locals.extend(frame);
    }
    Ok(Clip {
        name: motion.name().to_owned(),
        times: (0..frames).map(|f| f as f32 / FPS).collect(),
        joint_count: skeleton.joints.len(),
        locals,
        morph_weights: Vec::new(),
    })
}

/// Moves each leg's IK foot target (a joint off a root, not on the leg) by as much as the
/// leg's tip moved from its rest place, so the foot goes where the leg takes it.
fn carry_feet(skeleton: &Skeleton, plan: &BodyPlan, rest_world: &[Mat4], frame: &mut [Transform]) {
    if plan.feet.iter().all(Option::is_none) {
        return;
    }
    let mats: Vec<Mat4> = frame.iter().map(|t| t.to_mat4()).collect();
    let world = skeleton.world_from_locals(&mats);
    for (leg, foot) in plan.legs.iter().zip(&plan.feet) {
        let Some(foot) = foot else { continue };
        let tip = leg[leg.len() - 1].index();
        let moved = world[tip].w_axis.truncate() - rest_world[tip].w_axis.truncate();
        let target = rest_world[foot.index()].w_axis.truncate() + moved;
        let parent = skeleton.joints[foot.index()]
            .parent
            .map_or(Mat4::IDENTITY, |p| world[p.index()]);
        frame[foot.index()].translation = parent.inverse().transform_point3(target);
    }
}

fn idle(plan: &BodyPlan) -> Vec<Turn> {
    plan.spine
        .iter()
        .map(|&joint| Turn {
            joint,
            axis: plan.lateral,
            angle: Box::new(|p| 0.03 * (TAU * p).sin()),
        })
        .collect()
}

fn look(plan: &BodyPlan) -> Vec<Turn> {
    let head = plan.head();
    vec![
        Turn {
            joint: head,
            axis: Vec3::Y,
            angle: Box::new(|p| 0.6 * (TAU * p).sin()),
        },
        Turn {
            joint: head,
            axis: plan.lateral,
            angle: Box::new(|p| 0.12 * (2.0 * TAU * p).sin()),
        },
    ]
}

/// [`MotionError::Missing`] unless the body has some of the `parts` `motion` moves (`what`
/// says which); the motions that do fit are added by [`procedural_clip`].
fn needs<T>(parts: &[T], motion: &'static str, what: &'static str) -> Result<(), MotionError> {
    if !parts.is_empty() {
        return Ok(());
    }
    Err(MotionError::Missing {
        motion,
        what,
        instead: Vec::new(),
    })
}

fn walk(skeleton: &Skeleton, plan: &BodyPlan) -> Result<Vec<Turn>, MotionError> {
    needs(&plan.legs, "walk", "legs (chains reaching the ground)")?;
    let pos = |j: JointId| skeleton.joints[j.index()].position();
    // Legs in rows from front to back; alternate sides and rows: a biped alternates its feet,
    // a quadruped trots (diagonal pairs), six and eight legs walk in alternating sets.
    let root = pos(plan.root);
    let along = |c: &Chain| (pos(c[0]) - root).dot(plan.forward);
    let rows = {
        let mut fronts: Vec<f32> = plan.legs.iter().map(along).collect();
        fronts.sort_by(f32::total_cmp);
        fronts
    };
    let gap = 0.08 * plan.size;
    let mut turns = Vec::new();
    for leg in &plan.legs {
        let row = rows
            .iter()
            .filter(|&&f| f > along(leg) + gap)
            .fold(Vec::<f32>::new(), |mut distinct, &f| {
                if distinct.last().is_none_or(|&d| f - d > gap) {
                    distinct.push(f);
                }
                distinct
            })
            .len();
        let left = (pos(leg[0]) - root).dot(plan.lateral) > 0.0;
        let offset = if (row + usize::from(left)) % 2 == 0 {
            0.0
        } else {
            0.5
        };
        let tip = pos(leg[leg.len() - 1]);
        let first = (pos(leg[1]) - pos(leg[0])).normalize_or_zero();
        let upright = first.y.abs() > 0.6;
        // Swing forward and back; lift the leg while it moves forward.
        let swing_axis = if upright { plan.lateral } else { Vec3::Y };
        let forward_sign = sign_moving(pos(leg[0]), tip, swing_axis, plan.forward);
        turns.push(Turn {
            joint: leg[0],
            axis: swing_axis,
            angle: Box::new(move |p| forward_sign * 0.35 * (TAU * (p + offset)).sin()),
        });
        let (lift_joint, lift_axis) = if upright && leg.len() >= 3 {
            (leg[1], plan.lateral)
        } else {
            let out = Vec3::new(first.x, 0.0, first.z).normalize_or_zero();
            (leg[0], out.cross(Vec3::Y).normalize_or_zero())
        };
        if lift_axis != Vec3::ZERO {
            let pivot = pos(lift_joint);
            // Knees fold the foot backwards; splayed legs rise.
            let sign = if upright {
                sign_moving(pivot, tip, lift_axis, -plan.forward)
            } else {
                sign_moving(pivot, tip, lift_axis, Vec3::Y)
            };
            turns.push(Turn {
                joint: lift_joint,
                axis: lift_axis,
                angle: Box::new(move |p| sign * 0.6 * (TAU * (p + offset)).cos().max(0.0)),
            });
        }
    }
    // Tails sway with the gait.
    turns.extend(chain_waves(skeleton, plan, &plan.appendages, 0.12, 1.0));
    Ok(turns)
}

fn flap(skeleton: &Skeleton, plan: &BodyPlan) -> Result<Vec<Turn>, MotionError> {
    needs(&plan.wings, "flap", "wings (chains spreading sideways)")?;
    let pos = |j: JointId| skeleton.joints[j.index()].position();
    let mut turns = Vec::new();
    for wing in &plan.wings {
        let tip = pos(wing[wing.len() - 1]);
        for (k, &joint) in wing.iter().take(3).enumerate() {
            let sign = sign_moving(pos(joint), tip, plan.forward, Vec3::Y);
            let (amplitude, lag) = ([0.7, 0.3, 0.2][k], 0.12 * k as f32);
            turns.push(Turn {
                joint,
                axis: plan.forward,
                angle: Box::new(move |p| sign * amplitude * (TAU * (p - lag)).sin()),
            });
        }
    }
    Ok(turns)
}

fn wave(skeleton: &Skeleton, plan: &BodyPlan) -> Result<Vec<Turn>, MotionError> {
    let chains: Vec<Chain> = plan
        .appendages
        .iter()
        .chain(&plan.legs)
        .filter(|c| c.len() >= 3)
        .cloned()
        .collect();
    needs(
        &chains,
        "wave",
        "chains of three or more joints (tails, tentacles, bodies)",
    )?;
    Ok(chain_waves(skeleton, plan, &chains, 0.3, 1.0))
}

/// A travelling wave down each chain: every joint turns a little later than the one above.
fn chain_waves(
    skeleton: &Skeleton,
    plan: &BodyPlan,
    chains: &[Chain],
    amplitude: f32,
    cycles: f32,
) -> Vec<Turn> {
    let pos = |j: JointId| skeleton.joints[j.index()].position();
    let mut turns = Vec::new();
    for chain in chains.iter().filter(|c| c.len() >= 3) {
        let dir = (pos(chain[chain.len() - 1]) - pos(chain[0])).normalize_or_zero();
        // Side to side for chains lying flat, else across the chain and the facing.
        let axis = if dir.y.abs() < 0.7 {
            Vec3::Y
        } else {
            dir.cross(plan.forward)
                .try_normalize()
                .unwrap_or(plan.lateral)
        };
        let step = amplitude / (chain.len() as f32).sqrt();
        for (k, &joint) in chain[..chain.len() - 1].iter().enumerate() {
            let delay = 0.15 * k as f32;
            turns.push(Turn {
                joint,
                axis,
                angle: Box::new(move |p| step * (TAU * (cycles * p - delay)).sin()),
            });
        }
    }
    turns
}

/// +1 if a small positive turn about `axis` at `pivot` moves `tip` along `towards`, else -1.
fn sign_moving(pivot: Vec3, tip: Vec3, axis: Vec3, towards: Vec3) -> f32 {
    let moved = Quat::from_axis_angle(axis, 0.1) * (tip - pivot) - (tip - pivot);
    if moved.dot(towards) >= 0.0 { 1.0 } else { -1.0 }
}

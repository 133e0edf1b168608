//! Templates fitted along the curve skeleton: a Mixamo-named humanoid, a quadruped, a bird
//! and a chain of joints for long bodies, placed on the body's limbs and trunk ([`legs`] finds
//! where the legs fork); each lists its joints with [`joint_list`].

pub(super) mod bird;
pub(super) mod chain;
pub(super) mod humanoid;
pub(super) mod joint_list;
pub(super) mod legs;
pub(super) mod quadruped;

use glam::Vec3;

use crate::rig::Skeleton;
use crate::skeleton::curve::curves::{Path, tip_paths_and_root};

/// More limbs than this are not searched for a template's roles.
const MAX_TIPS: usize = 16;

/// What a template is fitted on: the body's free-form curve skeleton, the body's size (its
/// longest side) and what moves a point into the body.
#[derive(Clone, Copy)]
pub(super) struct Fit<'a> {
    pub auto: &'a Skeleton,
    pub size: f32,
    pub inside: &'a dyn Fn(Vec3) -> Vec3,
}

impl Fit<'_> {
    /// The paths from the curve skeleton's root to each of its tips: five at least (a head and
    /// four limbs, as every template with roles needs) and not too many to search; else why
    /// not, for a template that `needs` what it says.
    pub fn limbs(&self, needs: &str) -> Result<Vec<Path>, String> {
        let tips = tip_paths_and_root(self.auto);
        if tips.len() < 5 {
            return Err(format!("its shape has {} limbs and {needs}", tips.len()));
        }
        if tips.len() > MAX_TIPS {
            return Err(format!("its shape has {} limbs, too many", tips.len()));
        }
        Ok(tips)
    }
}

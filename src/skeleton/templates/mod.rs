//! Templates fitted along the curve skeleton: a Mixamo-named humanoid, a quadruped, a bird
//! and a chain of joints for long bodies, placed on the body's limbs and trunk ([`legs`] finds
//! where the legs fork); each lists its joints with [`joint_list`].

pub(super) mod bird;
pub(super) mod chain;
pub(super) mod humanoid;
pub(super) mod joint_list;
pub(super) mod legs;
pub(super) mod quadruped;

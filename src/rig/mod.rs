//! Rigs: the skeleton (joints in a hierarchy) and the skin weights that bind mesh vertices to it.

mod humanoid;
mod skeleton;
mod skin_weights;

pub use humanoid::HumanoidBone;
pub use skeleton::{Bone, Joint, JointId, Skeleton};
pub use skin_weights::{Influence, SkinWeights};

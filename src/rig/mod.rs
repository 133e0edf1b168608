//! Rigs: the skeleton (joints in a hierarchy) and the skin weights that bind mesh vertices to it.

mod humanoid;
mod humanoid_roles;
mod influences;
mod kinematics;
mod skeleton;
mod skin_weights;

pub use humanoid::HumanoidBone;
pub use humanoid_roles::{HumanoidRole, Side, humanoid_role, humanoid_roles};
pub use influences::top_influences;
pub use kinematics::forward_kinematics;
pub use skeleton::{Bone, Joint, JointId, Skeleton};
pub use skin_weights::{Influence, SkinWeights};

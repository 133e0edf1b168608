//! Rigs: the skeleton (joints in a hierarchy) and the skin weights that bind mesh vertices to it.

mod bone_names;
mod clip;
mod humanoid;
mod humanoid_roles;
mod influences;
mod kinematics;
mod skeleton;
mod skin_weights;
mod transform;

pub use bone_names::{BoneNames, humanoid_bone_map, rename_humanoid};
pub use clip::{Clip, pose_world, rest_locals};
pub use humanoid::HumanoidBone;
pub(crate) use humanoid_roles::words as name_words;
pub use humanoid_roles::{HumanoidRole, Side, humanoid_role, humanoid_roles, role_joint};
pub use influences::top_influences;
pub use kinematics::forward_kinematics;
pub use skeleton::{Bone, Joint, JointId, Skeleton};
pub use skin_weights::{Influence, SkinWeights};
pub use transform::Transform;

//! Motion on a skeleton: clips ([`crate::rig::Clip`]) retargeted from other skeletons,
//! generated for any creature, and skinned for playback.

mod body_plan;
mod dual_quaternion;
mod joint_map;
mod packed_influences;
mod procedural;
pub mod proportions;
mod rest_pose;
mod retarget;
mod skinning;

pub use body_plan::{BodyPlan, Chain};
pub use dual_quaternion::{DualQuaternionSkinning, dual_quaternion_positions};
pub use joint_map::joint_map;
pub use packed_influences::{PACKED_INFLUENCES, PackedInfluences, skinning_texels};
pub use procedural::{Motion, MotionError, motions_for, procedural_clip};
pub use rest_pose::bake_rest_pose;
pub use retarget::{RETARGET_FPS, RetargetError, RetargetOptions, SourceMotion, retarget};
pub use skinning::{blended_matrix, skin_normals, skin_positions, skinning_matrices};

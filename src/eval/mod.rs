//! Measuring rigs against artists' rigs, with the literature's metrics, so that every
//! rigger (geometric or learned) is judged the same way.

mod fit_metrics;
mod skeleton_metrics;
mod skin_metrics;

pub use fit_metrics::{joint_distances, joint_error, random_placement};
pub use skeleton_metrics::{SkeletonMetrics, skeleton_metrics, without_controls};
pub use skin_metrics::{SkinMetrics, TopJointConfusion, skin_metrics, top_joint_confusion};

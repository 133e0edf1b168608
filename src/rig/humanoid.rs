use super::JointId;

/// A humanoid bone name (VRM's: `hips`, `spine`, `leftUpperArm`, …) assigned to a joint.
/// Files that carry such a map say exactly which joint plays which part, which retargeting
/// uses before guessing from names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HumanoidBone {
    pub bone: String,
    pub joint: JointId,
}

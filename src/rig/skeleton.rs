use glam::{Mat4, Quat, Vec3};

/// Index of a joint in [`Skeleton::joints`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointId(pub u32);

impl JointId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One joint of a skeleton in its bind (rest) pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    /// `None` for a root. Parents always come before their children in [`Skeleton::joints`].
    pub parent: Option<JointId>,
    /// The joint's frame in world space at bind pose; its translation is the joint position.
    pub world_bind: Mat4,
}

impl Joint {
    pub fn position(&self) -> Vec3 {
        self.world_bind.w_axis.truncate()
    }
}

/// A parent→child pair of joints: what a viewer draws and what skinning binds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bone {
    pub parent: JointId,
    pub child: JointId,
}

/// Joints in a forest, stored parents-first so forward kinematics is one pass.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skeleton {
    pub joints: Vec<Joint>,
}

impl Skeleton {
    pub fn joint(&self, id: JointId) -> Option<&Joint> {
        self.joints.get(id.index())
    }

    /// Every parent→child bone.
    pub fn bones(&self) -> impl Iterator<Item = Bone> + '_ {
        self.joints.iter().enumerate().filter_map(|(i, j)| {
            j.parent.map(|parent| Bone {
                parent,
                child: JointId(i as u32),
            })
        })
    }

    /// The skeleton turned by `turn` about the world's origin.
    pub fn turned(&self, turn: Quat) -> Skeleton {
        let turn = Mat4::from_quat(turn);
        Skeleton {
            joints: (self.joints.iter())
                .map(|j| Joint {
                    world_bind: turn * j.world_bind,
                    ..j.clone()
                })
                .collect(),
        }
    }

    /// Whether joint `j` is `ancestor` or hangs below it.
    pub fn is_at_or_below(&self, j: usize, ancestor: usize) -> bool {
        let mut at = Some(j);
        while let Some(k) = at {
            if k == ancestor {
                return true;
            }
            at = self
                .joints
                .get(k)
                .and_then(|joint| joint.parent)
                .map(JointId::index);
        }
        false
    }

    /// Each joint's number of ancestors (0 for roots); parents come first, so one pass does.
    pub fn depths(&self) -> Vec<usize> {
        let mut depth: Vec<usize> = Vec::with_capacity(self.joints.len());
        for joint in &self.joints {
            let d = joint
                .parent
                .and_then(|p| depth.get(p.index()))
                .map_or(0, |d| d + 1);
            depth.push(d);
        }
        depth
    }

    /// Each joint's number of children.
    pub fn child_counts(&self) -> Vec<usize> {
        let mut children = vec![0usize; self.joints.len()];
        for bone in self.bones() {
            children[bone.parent.index()] += 1;
        }
        children
    }

    /// The joints where `keep` is true, in order; a kept joint whose parent is dropped hangs
    /// from its nearest kept ancestor (a root if there is none).
    pub fn keeping(&self, keep: &[bool]) -> Skeleton {
        let mut new_index: Vec<Option<JointId>> = Vec::with_capacity(self.joints.len());
        let mut joints = Vec::new();
        for (i, joint) in self.joints.iter().enumerate() {
            // Parents come first, so a dropped parent already knows its kept ancestor.
            let parent = joint
                .parent
                .and_then(|p| new_index.get(p.index()).copied().flatten());
            if keep.get(i).copied().unwrap_or(true) {
                new_index.push(Some(JointId(joints.len() as u32)));
                joints.push(Joint {
                    parent,
                    ..joint.clone()
                });
            } else {
                new_index.push(parent);
            }
        }
        Skeleton { joints }
    }

    /// Each joint's parent index, -1 for roots: the layout JS and Python read.
    pub fn parent_indices(&self) -> Vec<i32> {
        self.joints
            .iter()
            .map(|j| j.parent.map_or(-1, |p| p.0 as i32))
            .collect()
    }

    /// The joint names, in joint order.
    pub fn names(&self) -> Vec<String> {
        self.joints.iter().map(|j| j.name.clone()).collect()
    }

    /// Joint positions as a flat `x, y, z, …` array.
    pub fn flat_positions(&self) -> Vec<f32> {
        self.joints
            .iter()
            .flat_map(|j| j.position().to_array())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bones_link_each_child_to_its_parent() {
        let joint = |name: &str, parent: Option<u32>, y: f32| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::from_translation(Vec3::new(0.0, y, 0.0)),
        };
        let s = Skeleton {
            joints: vec![joint("hips", None, 1.0), joint("spine", Some(0), 1.2)],
        };
        let bones: Vec<Bone> = s.bones().collect();
        assert_eq!(
            bones,
            vec![Bone {
                parent: JointId(0),
                child: JointId(1)
            }]
        );
        assert_eq!(s.flat_positions(), vec![0.0, 1.0, 0.0, 0.0, 1.2, 0.0]);
    }

    #[test]
    fn keeping_hangs_a_dropped_joints_children_from_its_kept_ancestor() {
        let joint = |name: &str, parent: Option<u32>| Joint {
            name: name.into(),
            parent: parent.map(JointId),
            world_bind: Mat4::IDENTITY,
        };
        let s = Skeleton {
            joints: vec![
                joint("root", None),
                joint("ik_group", Some(0)),
                joint("hips", Some(1)),
                joint("pole", Some(0)),
                joint("spine", Some(2)),
            ],
        };
        let kept = s.keeping(&[true, false, true, false, true]);
        assert_eq!(kept.names(), vec!["root", "hips", "spine"]);
        assert_eq!(kept.parent_indices(), vec![-1, 0, 1]);
        // Dropping a root leaves its children as roots.
        assert_eq!(
            s.keeping(&[false, true, true, true, true]).parent_indices(),
            vec![-1, 0, -1, 1]
        );
    }
}

//! How near a fitted template lands to the skeleton an artist rigged with the same template:
//! the joints are matched by name, so each distance is one joint's error.

use glam::{Mat4, Quat, Vec3};

use crate::mesh::Aabb;
use crate::random::Rng;
use crate::rig::Skeleton;

/// Mean distance between the same-named joints of `fitted` and `truth`, ×10⁻² of the longest
/// side of `bounds`, and how many joints were matched; `None` when no name is shared.
pub fn joint_error(fitted: &Skeleton, truth: &Skeleton, bounds: &Aabb) -> Option<(f32, usize)> {
    let size = bounds.longest_side().max(f32::MIN_POSITIVE);
    let distances = joint_distances(fitted, truth);
    if distances.is_empty() {
        return None;
    }
    let mean = distances.iter().map(|(_, d)| d).sum::<f32>() / distances.len() as f32;
    Some((100.0 * mean / size, distances.len()))
}

/// Each joint of `fitted` that `truth` names too, and how far it lies from its namesake.
pub fn joint_distances<'a>(fitted: &'a Skeleton, truth: &Skeleton) -> Vec<(&'a str, f32)> {
    fitted
        .joints
        .iter()
        .filter_map(|f| {
            let t = truth.joints.iter().find(|t| t.name == f.name)?;
            Some((f.name.as_str(), f.position().distance(t.position())))
        })
        .collect()
}

/// A placement as real files come: moved up to ten body sizes, scaled by `scale` drawn
/// log-uniformly between its bounds, turned by one of the 24 axis turns and, with `yaw`, by
/// any angle about the turned up axis.
pub fn random_placement(rng: &mut Rng, size: f32, scale: (f32, f32), yaw: bool) -> Mat4 {
    let turns = crate::skeleton::axis_turns();
    let turn = turns[(rng.next_u64() % turns.len() as u64) as usize];
    let turn = if yaw {
        turn * Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU))
    } else {
        turn
    };
    let s = (rng.range(scale.0.ln(), scale.1.ln())).exp();
    let shift = rng.direction() * rng.range(0.0, 10.0 * size * s);
    Mat4::from_scale_rotation_translation(Vec3::splat(s), turn, shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::{Joint, JointId};

    #[test]
    fn joint_error_is_the_mean_shift_of_the_named_joints() {
        let joint = |name: &str, p: Vec3| Joint {
            name: name.into(),
            parent: None::<JointId>,
            world_bind: Mat4::from_translation(p),
        };
        let truth = Skeleton {
            joints: vec![joint("a", Vec3::ZERO), joint("b", Vec3::X)],
        };
        let fitted = Skeleton {
            joints: vec![
                joint("a", Vec3::new(0.0, 0.1, 0.0)),
                joint("b", Vec3::new(1.0, 0.3, 0.0)),
                joint("extra", Vec3::splat(9.0)),
            ],
        };
        let bounds = Aabb::from_points(&[Vec3::ZERO, Vec3::new(2.0, 1.0, 1.0)]);
        let (error, matched) = joint_error(&fitted, &truth, &bounds).unwrap();
        assert_eq!(matched, 2);
        assert!((error - 10.0).abs() < 1e-4, "{error}");
    }
}

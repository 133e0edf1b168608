//! Skeleton metrics in the literature's convention (RigNet, UniRig): the mesh's bounding box
//! centred and scaled so that its longest side is 1, then symmetric chamfer distances between
//! joints (CD-J2J), joints and bones (CD-J2B) and points sampled every 0.005 along bones
//! (CD-B2B), each the mean of both directions, reported ×10⁻².

use glam::Vec3;
use serde::Serialize;

use crate::mesh::Aabb;
use crate::rig::Skeleton;
use crate::skin::deforming_joints;

/// Spacing of the points sampled along bones for CD-B2B, in unit-box units.
const BONE_SAMPLE: f32 = 0.005;

/// Chamfer distances between a predicted and an artist's skeleton, ×10⁻² of the longest side;
/// lower is better.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkeletonMetrics {
    pub cd_j2j: f32,
    pub cd_j2b: f32,
    pub cd_b2b: f32,
}

/// `skeleton` without its controls (IK targets, pole vectors, stray leaves beside the root:
/// [`deforming_joints`]): what a rigger predicts and the literature's datasets hold. An IK pole
/// floats a body length in front of the knee; scoring a predicted skeleton against it
/// measures nothing about the rig.
pub fn without_controls(skeleton: &Skeleton) -> Skeleton {
    skeleton.keeping(&deforming_joints(skeleton))
}

/// Compares `predicted` with `truth`, both in the frame of a mesh with bounds `bounds`.
pub fn skeleton_metrics(predicted: &Skeleton, truth: &Skeleton, bounds: &Aabb) -> SkeletonMetrics {
    let centre = bounds.center();
    let scale = 1.0 / bounds.longest_side().max(f32::MIN_POSITIVE);
    let unit = |p: Vec3| (p - centre) * scale;
    let joints =
        |s: &Skeleton| -> Vec<Vec3> { s.joints.iter().map(|j| unit(j.position())).collect() };
    let bones = |s: &Skeleton| -> Vec<(Vec3, Vec3)> {
        s.bones()
            .filter_map(|b| {
                Some((
                    unit(s.joint(b.parent)?.position()),
                    unit(s.joint(b.child)?.position()),
                ))
            })
            .collect()
    };
    let (jp, jt) = (joints(predicted), joints(truth));
    let (bp, bt) = (bones(predicted), bones(truth));
    let samples = |bones: &[(Vec3, Vec3)], joints: &[Vec3]| -> Vec<Vec3> {
        let mut out: Vec<Vec3> = joints.to_vec();
        for &(a, b) in bones {
            let n = (a.distance(b) / BONE_SAMPLE).ceil() as usize;
            out.extend((1..n).map(|i| a.lerp(b, i as f32 / n as f32)));
        }
        out
    };
    let point_to_points = |p: Vec3, set: &[Vec3]| {
        set.iter()
            .map(|q| p.distance(*q))
            .fold(f32::INFINITY, f32::min)
    };
    let point_to_bones = |p: Vec3, bones: &[(Vec3, Vec3)], joints: &[Vec3]| {
        if bones.is_empty() {
            return point_to_points(p, joints);
        }
        bones
            .iter()
            .map(|&(a, b)| segment_distance(p, a, b))
            .fold(f32::INFINITY, f32::min)
    };
    let mean = |values: Vec<f32>| {
        if values.is_empty() {
            0.0
        } else {
            values.iter().sum::<f32>() / values.len() as f32
        }
    };
    let chamfer = |a: &[Vec3], b: &[Vec3]| {
        0.5 * (mean(a.iter().map(|p| point_to_points(*p, b)).collect())
            + mean(b.iter().map(|p| point_to_points(*p, a)).collect()))
    };
    let j2b = 0.5
        * (mean(jp.iter().map(|p| point_to_bones(*p, &bt, &jt)).collect())
            + mean(jt.iter().map(|p| point_to_bones(*p, &bp, &jp)).collect()));
    SkeletonMetrics {
        cd_j2j: 100.0 * chamfer(&jp, &jt),
        cd_j2b: 100.0 * j2b,
        cd_b2b: 100.0 * chamfer(&samples(&bp, &jp), &samples(&bt, &jt)),
    }
}

fn segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let t = crate::mesh::segment_parameter(p, a, b);
    p.distance(a + (b - a) * t)
}

#[cfg(test)]
mod tests {
    use glam::Mat4;

    use super::*;
    use crate::rig::{Joint, JointId};

    fn chain(points: &[Vec3]) -> Skeleton {
        Skeleton {
            joints: points
                .iter()
                .enumerate()
                .map(|(i, p)| Joint {
                    name: format!("j{i}"),
                    parent: i.checked_sub(1).map(|p| JointId(p as u32)),
                    world_bind: Mat4::from_translation(*p),
                })
                .collect(),
        }
    }

    #[test]
    fn identical_skeletons_score_zero_and_shifted_ones_their_shift() {
        let bounds = Aabb {
            min: Vec3::ZERO,
            max: Vec3::new(1.0, 2.0, 1.0),
        };
        let a = chain(&[
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(0.5, 1.0, 0.5),
            Vec3::new(0.5, 2.0, 0.5),
        ]);
        let same = skeleton_metrics(&a, &a, &bounds);
        assert_eq!(same, SkeletonMetrics::default());
        let shifted = chain(&[
            Vec3::new(0.6, 0.0, 0.5),
            Vec3::new(0.6, 1.0, 0.5),
            Vec3::new(0.6, 2.0, 0.5),
        ]);
        let m = skeleton_metrics(&shifted, &a, &bounds);
        // 0.1 in a box whose longest side is 2: 0.05 of the unit box, 5 ×10⁻².
        assert!((m.cd_j2j - 5.0).abs() < 1e-3, "{m:?}");
        assert!((m.cd_j2b - 5.0).abs() < 1e-3, "{m:?}");
        assert!((m.cd_b2b - 5.0).abs() < 1e-3, "{m:?}");
    }

    #[test]
    fn an_ik_pole_in_front_of_the_knee_is_not_part_of_the_scored_skeleton() {
        let bounds = Aabb {
            min: Vec3::ZERO,
            max: Vec3::new(1.0, 2.0, 1.0),
        };
        let leg = [
            Vec3::new(0.5, 2.0, 0.5),
            Vec3::new(0.5, 1.0, 0.6),
            Vec3::new(0.5, 0.0, 0.5),
        ];
        let predicted = chain(&leg);
        let mut artist = chain(&leg);
        artist.joints.push(Joint {
            name: "PoleTarget.L".into(),
            parent: Some(JointId(0)),
            world_bind: Mat4::from_translation(Vec3::new(0.5, 1.0, 3.0)),
        });
        let with_pole = skeleton_metrics(&predicted, &artist, &bounds);
        assert!(with_pole.cd_j2j > 5.0, "{with_pole:?}");
        let rig = without_controls(&artist);
        assert_eq!(rig.joints.len(), 3);
        assert_eq!(
            skeleton_metrics(&predicted, &rig, &bounds),
            SkeletonMetrics::default()
        );
    }
}

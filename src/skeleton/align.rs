//! A user's skeleton of any shape fitted to a mesh by its bounds: scaled per axis so that its
//! joints span the mesh as they spanned their own body, then each joint moved under the
//! surface. For skeletons that no name tells about (creatures, props) this assumes what such
//! files almost always share with their mesh: the same up and forward axes.

use glam::{Mat4, Vec3};

use crate::mesh::Aabb;
use crate::rig::Skeleton;

/// `template` stretched from the bounds of its own joints onto `mesh_bounds` (the joints of a
/// rig span less than its mesh, so the joints' box is first grown by `margin` of its size on
/// every side), each joint then moved by `inside`.
pub fn align_to_bounds(
    template: &Skeleton,
    mesh_bounds: &Aabb,
    margin: f32,
    inside: &dyn Fn(Vec3) -> Vec3,
) -> Skeleton {
    let positions: Vec<Vec3> = template.joints.iter().map(|j| j.position()).collect();
    let joints_box = Aabb::from_points(&positions);
    let grow = joints_box.size() * margin;
    let (from_min, from_size) = (joints_box.min - grow, joints_box.size() + 2.0 * grow);
    let to_size = mesh_bounds.size();
    // An axis along which the joints are flat (a planar skeleton) takes the largest scale of
    // the others.
    let tiny = 1e-6 * from_size.max_element();
    let ratio = |t: f32, f: f32| (f > tiny).then(|| t / f);
    let ratios = [
        ratio(to_size.x, from_size.x),
        ratio(to_size.y, from_size.y),
        ratio(to_size.z, from_size.z),
    ];
    let largest = ratios.iter().flatten().copied().fold(0.0f32, f32::max);
    let largest = if largest > 0.0 { largest } else { 1.0 };
    let scale = Vec3::from_array(ratios.map(|r| r.unwrap_or(largest)));
    let place = |p: Vec3| mesh_bounds.min + (p - from_min) * scale;
    let joints = template
        .joints
        .iter()
        .map(|joint| {
            let (_, rotation, _) = joint.world_bind.to_scale_rotation_translation();
            let mut fitted = joint.clone();
            fitted.world_bind =
                Mat4::from_rotation_translation(rotation, inside(place(joint.position())));
            fitted
        })
        .collect();
    Skeleton { joints }
}

use three_d::{
    ColorMaterial, Context, CpuMesh, DepthTest, Gm, Indices, InstancedMesh, Instances, Mat4,
    Positions, Quaternion, RenderStates, Srgba, Vec3, vec3,
};

use crate::rig::Skeleton;

const BONE_COLOR: Srgba = Srgba::new(255, 153, 51, 255);
const JOINT_COLOR: Srgba = Srgba::new(255, 236, 180, 255);

/// Bones as octahedra (wide near the parent joint, pointing at the child, as in Blender) and
/// joints as small spheres, drawn on top of the mesh (x-ray) so the
/// whole skeleton stays visible inside the body, or hidden by it where x-ray is off.
pub struct SkeletonOverlay {
    bones: Option<Gm<InstancedMesh, ColorMaterial>>,
    joints: Gm<InstancedMesh, ColorMaterial>,
}

impl SkeletonOverlay {
    /// `scale` is the model's size (bounding-box diagonal); bone and joint radii follow it.
    pub fn new(context: &Context, skeleton: &Skeleton, scale: f32, xray: bool) -> Self {
        let material = |color| ColorMaterial {
            color,
            render_states: RenderStates {
                depth_test: if xray {
                    DepthTest::Always
                } else {
                    DepthTest::Less
                },
                ..Default::default()
            },
            ..Default::default()
        };
        let bones = bone_instances(skeleton, scale);
        Self {
            bones: (!bones.transformations.is_empty()).then(|| {
                Gm::new(
                    InstancedMesh::new(context, &bones, &octahedron()),
                    material(BONE_COLOR),
                )
            }),
            joints: Gm::new(
                InstancedMesh::new(
                    context,
                    &joint_instances(skeleton, scale),
                    &CpuMesh::sphere(8),
                ),
                material(JOINT_COLOR),
            ),
        }
    }

    /// Moves the drawn joints and bones to `skeleton`'s (the same skeleton, posed): only the
    /// instance transforms are uploaded again. `false` when the overlay cannot show it (its
    /// bones appeared from nothing) and must be rebuilt.
    pub fn set_pose(&mut self, skeleton: &Skeleton, scale: f32) -> bool {
        let bones = bone_instances(skeleton, scale);
        match &mut self.bones {
            Some(gm) => gm.geometry.set_instances(&bones),
            None if bones.transformations.is_empty() => {}
            None => return false,
        }
        self.joints
            .geometry
            .set_instances(&joint_instances(skeleton, scale));
        true
    }

    pub fn objects(&self) -> impl Iterator<Item = &Gm<InstancedMesh, ColorMaterial>> {
        self.bones.iter().chain(std::iter::once(&self.joints))
    }
}

/// A sphere per joint, sized to the model.
fn joint_instances(skeleton: &Skeleton, scale: f32) -> Instances {
    let radius = scale * 0.008;
    Instances {
        transformations: skeleton
            .joints
            .iter()
            .map(|j| {
                let p = j.position();
                Mat4::from_translation(vec3(p.x, p.y, p.z)) * Mat4::from_scale(radius)
            })
            .collect(),
        ..Default::default()
    }
}

/// An octahedron per bone of non-zero length.
fn bone_instances(skeleton: &Skeleton, scale: f32) -> Instances {
    let to_vec3 = |p: glam::Vec3| vec3(p.x, p.y, p.z);
    let radius = scale * 0.003;
    Instances {
        transformations: skeleton
            .bones()
            .filter_map(|b| {
                let from = to_vec3(skeleton.joint(b.parent)?.position());
                let to = to_vec3(skeleton.joint(b.child)?.position());
                octahedron_between(from, to, radius)
            })
            .collect(),
        ..Default::default()
    }
}

/// Where along the bone the octahedron is widest.
const WAIST: f32 = 0.1;

/// A unit bone octahedron: from the head at x = 0 to the tip at x = 1, widest (radius 1) at
/// x = [`WAIST`].
fn octahedron() -> CpuMesh {
    let positions = vec![
        vec3(0.0, 0.0, 0.0),
        vec3(WAIST, 1.0, 0.0),
        vec3(WAIST, 0.0, 1.0),
        vec3(WAIST, -1.0, 0.0),
        vec3(WAIST, 0.0, -1.0),
        vec3(1.0, 0.0, 0.0),
    ];
    let mut indices = Vec::new();
    for k in 0..4u32 {
        let (a, b) = (1 + k, 1 + (k + 1) % 4);
        indices.extend([0, b, a, 5, a, b]);
    }
    CpuMesh {
        positions: Positions::F32(positions),
        indices: Indices::U32(indices),
        ..Default::default()
    }
}

/// Places the unit octahedron from `from` to `to`, its waist a tenth of the length wide but no
/// thinner than `radius` nor thicker than four times it. `None` for a zero-length bone.
pub(super) fn octahedron_between(from: Vec3, to: Vec3, radius: f32) -> Option<Mat4> {
    use three_d::InnerSpace;
    let length = (to - from).magnitude();
    let width = (0.1 * length).clamp(radius, 4.0 * radius);
    cylinder_between(from, to, width)
}

/// Places a unit mesh that runs from x = 0 to x = 1 with radius 1 (three-d's unit cylinder,
/// the bone octahedron) from `from` to `to`. `None` for a zero-length bone.
pub(super) fn cylinder_between(from: Vec3, to: Vec3, radius: f32) -> Option<Mat4> {
    use three_d::InnerSpace;
    let along = to - from;
    let length = along.magnitude();
    if length <= f32::EPSILON || !length.is_finite() {
        return None;
    }
    let rotation = Quaternion::from_arc(vec3(1.0, 0.0, 0.0), along / length, None);
    Some(
        Mat4::from_translation(from)
            * Mat4::from(rotation)
            * Mat4::from_nonuniform_scale(length, radius, radius),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use three_d::{InnerSpace, Vector4};

    #[test]
    fn bone_octahedra_run_from_parent_to_child_with_a_proportionate_waist() {
        let (from, to) = (vec3(1.0, 2.0, 3.0), vec3(1.0, 4.0, 3.0));
        let m = octahedron_between(from, to, 0.01).expect("a bone");
        let at = |p: Vec3| {
            let q = m * Vector4::new(p.x, p.y, p.z, 1.0);
            vec3(q.x, q.y, q.z)
        };
        assert!((at(vec3(0.0, 0.0, 0.0)) - from).magnitude() < 1e-5);
        assert!((at(vec3(1.0, 0.0, 0.0)) - to).magnitude() < 1e-5);
        // Length 2: the waist is 0.2 wide, capped at four bone radii (0.04).
        let waist = at(vec3(WAIST, 1.0, 0.0)) - at(vec3(WAIST, 0.0, 0.0));
        assert!(
            (waist.magnitude() - 0.04).abs() < 1e-5,
            "{}",
            waist.magnitude()
        );
        assert!(octahedron_between(from, from, 0.01).is_none());
        let CpuMesh { indices, .. } = octahedron();
        assert_eq!(indices.len(), Some(24));
    }
}

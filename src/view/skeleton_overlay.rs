use three_d::{
    ColorMaterial, Context, CpuMesh, DepthTest, Gm, InstancedMesh, Instances, Mat4, Quaternion,
    RenderStates, Srgba, Vec3, vec3,
};

use crate::rig::Skeleton;

const BONE_COLOR: Srgba = Srgba::new(255, 153, 51, 255);
const JOINT_COLOR: Srgba = Srgba::new(255, 236, 180, 255);

/// Bones as thin cylinders and joints as small spheres, drawn on top of the mesh (x-ray) so the
/// whole skeleton stays visible inside the body, or hidden by it where x-ray is off.
pub struct SkeletonOverlay {
    bones: Option<Gm<InstancedMesh, ColorMaterial>>,
    joints: Gm<InstancedMesh, ColorMaterial>,
}

impl SkeletonOverlay {
    /// `scale` is the model's size (bounding-box diagonal); bone and joint radii follow it.
    pub fn new(context: &Context, skeleton: &Skeleton, scale: f32, xray: bool) -> Self {
        let to_vec3 = |p: glam::Vec3| vec3(p.x, p.y, p.z);
        let joint_radius = scale * 0.008;
        let bone_radius = scale * 0.003;
        let joints = Instances {
            transformations: skeleton
                .joints
                .iter()
                .map(|j| {
                    Mat4::from_translation(to_vec3(j.position())) * Mat4::from_scale(joint_radius)
                })
                .collect(),
            ..Default::default()
        };
        let bones: Vec<Mat4> = skeleton
            .bones()
            .filter_map(|b| {
                let from = to_vec3(skeleton.joint(b.parent)?.position());
                let to = to_vec3(skeleton.joint(b.child)?.position());
                cylinder_between(from, to, bone_radius)
            })
            .collect();
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
        Self {
            bones: (!bones.is_empty()).then(|| {
                Gm::new(
                    InstancedMesh::new(
                        context,
                        &Instances {
                            transformations: bones,
                            ..Default::default()
                        },
                        &CpuMesh::cylinder(8),
                    ),
                    material(BONE_COLOR),
                )
            }),
            joints: Gm::new(
                InstancedMesh::new(context, &joints, &CpuMesh::sphere(8)),
                material(JOINT_COLOR),
            ),
        }
    }

    pub fn objects(&self) -> impl Iterator<Item = &Gm<InstancedMesh, ColorMaterial>> {
        self.bones.iter().chain(std::iter::once(&self.joints))
    }
}

/// three-d's unit cylinder runs from x = 0 to x = 1 with radius 1; this places one from `from`
/// to `to`. `None` for a zero-length bone.
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

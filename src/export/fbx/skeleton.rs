//! The skeleton as FBX limb nodes under an `Armature` null, the skin as a `Skin` deformer of
//! one cluster per joint (its weights, its bind matrix), and the `BindPose` engines check
//! the skin against.

use glam::{DMat4, DQuat, DVec3, Mat4};

use super::euler;
use super::geometry::Geometry;
use super::node::property;
use super::{CM, Objects, display_name, fbx_name};
use crate::Character;
use crate::io::fbx::{Node, Value};
use crate::rig::Skeleton;

/// The written skeleton: each joint's model id.
pub struct Rig {
    pub models: Vec<i64>,
}

/// A model's contents: its local transform and the settings engines expect on every model.
pub fn model_children(translation: DVec3, rotation: DVec3, scale: DVec3) -> Vec<Node> {
    vec![
        Node::of("Version", Value::I32(232)),
        Node::new("Properties70").children([
            property::local("Lcl Translation", translation.to_array()),
            property::local("Lcl Rotation", rotation.to_array()),
            property::local("Lcl Scaling", scale.to_array()),
            property::int("DefaultAttributeIndex", 0),
            // RSrs: a joint's world matrix is its parent's times its own, as in glTF.
            property::enumeration("InheritType", 1),
        ]),
        Node::of("MultiLayer", Value::I32(0)),
        Node::of("MultiTake", Value::I32(0)),
        Node::of("Shading", Value::Bool(true)),
        Node::of("Culling", Value::Str("CullingOff".into())),
    ]
}

/// A joint's world frame as the file holds it: rotation and position (centimetres), its
/// scale dropped. Tools keep bones rigid (Blender cannot give a bone a rest scale), and an
/// armature scaled ×100 in a glTF would reach them with every bone ×100 again; skinning
/// only needs the bind and posed frames to differ by the same scale, which a rigid frame
/// at both keeps.
pub fn rigid_cm(m: Mat4) -> DMat4 {
    let (_, rotation, translation) = m.as_dmat4().to_scale_rotation_translation();
    DMat4::from_rotation_translation(rotation.normalize(), translation * CM)
}

/// [`rigid_cm`] of every frame of `worlds`.
pub fn rigid_frames(worlds: impl IntoIterator<Item = Mat4>) -> Vec<DMat4> {
    worlds.into_iter().map(rigid_cm).collect()
}

/// Each joint's frame relative to its parent's, from world frames as [`rigid_cm`] gives.
pub fn locals(skeleton: &Skeleton, worlds: &[DMat4]) -> Vec<(DVec3, DQuat, DVec3)> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let parent = j.parent.map_or(DMat4::IDENTITY, |p| worlds[p.index()]);
            let (scale, rotation, translation) =
                (parent.inverse() * worlds[i]).to_scale_rotation_translation();
            (translation, rotation, scale)
        })
        .collect()
}

/// Adds the joints, the skin over `geometry` and the bind pose. `None` without a skeleton.
pub fn write(
    objects: &mut Objects,
    character: &Character,
    mesh_model: i64,
    geometry: &Geometry,
) -> Option<Rig> {
    let skeleton = character
        .skeleton
        .as_ref()
        .filter(|s| !s.joints.is_empty())?;
    let armature_attribute = objects.add(
        "NodeAttribute",
        "NodeAttribute",
        "Armature",
        "Null",
        vec![Node::of("TypeFlags", Value::Str("Null".into()))],
    );
    let armature = objects.add(
        "Model",
        "Model",
        "Armature",
        "Null",
        model_children(DVec3::ZERO, DVec3::ZERO, DVec3::ONE),
    );
    objects.link(armature_attribute, armature);
    objects.link(armature, 0);
    let worlds = rigid_frames(skeleton.joints.iter().map(|j| j.world_bind));
    let locals = locals(skeleton, &worlds);
    let size = joint_size(skeleton);
    let mut models = Vec::with_capacity(skeleton.joints.len());
    for (i, joint) in skeleton.joints.iter().enumerate() {
        let parent = joint.parent.map(|p| p.index());
        let (translation, rotation, scale) = locals[i];
        let name = joint_name(&joint.name, i);
        let model = objects.add(
            "Model",
            "Model",
            &name,
            "LimbNode",
            model_children(translation, euler::degrees(rotation, None), scale),
        );
        let attribute = objects.add(
            "NodeAttribute",
            "NodeAttribute",
            &name,
            "LimbNode",
            vec![
                Node::of("TypeFlags", Value::Str("Skeleton".into())),
                Node::new("Properties70").child(property::double("Size", size)),
            ],
        );
        objects.link(attribute, model);
        objects.link(model, parent.map_or(armature, |p| models[p]));
        models.push(model);
    }
    // One cluster per joint (empty ones too: engines take the skeleton from the skin).
    let mut per_joint: Vec<(Vec<i32>, Vec<f64>)> = vec![Default::default(); models.len()];
    for (point, influences) in geometry.point_influences.iter().enumerate() {
        for i in influences {
            if let Some((indexes, weights)) = per_joint.get_mut(i.joint.index()) {
                indexes.push(point as i32);
                weights.push(f64::from(i.weight));
            }
        }
    }
    let name = display_name(&character.name);
    let skin = objects.add(
        "Deformer",
        "Deformer",
        &name,
        "Skin",
        vec![
            Node::of("Version", Value::I32(101)),
            Node::of("Link_DeformAcuracy", Value::F64(50.0)),
        ],
    );
    objects.link(skin, geometry.id);
    for (j, (indexes, weights)) in per_joint.into_iter().enumerate() {
        let mut contents = vec![
            Node::of("Version", Value::I32(100)),
            Node::new("UserData")
                .value(Value::Str(String::new()))
                .value(Value::Str(String::new())),
        ];
        if !indexes.is_empty() {
            contents.push(Node::of("Indexes", Value::I32s(indexes)));
            contents.push(Node::of("Weights", Value::F64s(weights)));
        }
        // `Transform` as the FBX SDK writes it: the mesh's bind matrix (the identity here,
        // the mesh is in world space) seen from the joint; `TransformLink` the joint's.
        contents.push(matrix("Transform", worlds[j].inverse()));
        contents.push(matrix("TransformLink", worlds[j]));
        let cluster = objects.add(
            "Deformer",
            "SubDeformer",
            &joint_name(&skeleton.joints[j].name, j),
            "Cluster",
            contents,
        );
        objects.link(cluster, skin);
        objects.link(models[j], cluster);
    }
    let pose_nodes = [(mesh_model, DMat4::IDENTITY), (armature, DMat4::IDENTITY)]
        .into_iter()
        .chain(models.iter().copied().zip(worlds.iter().copied()))
        .map(|(id, m)| {
            Node::new("PoseNode")
                .child(Node::of("Node", Value::I64(id)))
                .child(matrix("Matrix", m))
        });
    let mut pose = vec![
        Node::of("Type", Value::Str("BindPose".into())),
        Node::of("Version", Value::I32(100)),
        Node::of("NbPoseNodes", Value::I32(models.len() as i32 + 2)),
    ];
    pose.extend(pose_nodes);
    objects.add("Pose", "Pose", &name, "BindPose", pose);
    Some(Rig { models })
}

fn matrix(name: &'static str, m: DMat4) -> Node {
    Node::of(name, Value::F64s(m.to_cols_array().to_vec()))
}

/// A joint's name, or one made from its index when it has none.
pub fn joint_name(name: &str, index: usize) -> String {
    fbx_name(name, || format!("joint {index}"))
}

/// The size a viewer draws joints at (centimetres): a fiftieth of the skeleton's extent.
fn joint_size(skeleton: &Skeleton) -> f64 {
    let points: Vec<_> = skeleton.joints.iter().map(|j| j.position()).collect();
    let b = crate::mesh::Aabb::from_points(&points);
    let extent = f64::from((b.max - b.min).max_element());
    (extent * CM / 50.0).max(0.1)
}

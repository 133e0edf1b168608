//! A pose made the rest pose: the mesh skinned into it, the joints' binds set to it, so mesh,
//! skeleton and weights stay consistent (how posed or re-proportioned bodies are made from a
//! rigged one).

use glam::Mat4;

use super::{skin_positions, skinning_matrices};
use crate::Character;
use crate::mesh::vertex_normals;

/// Skins the mesh into the pose `posed` (a world matrix per joint) and makes it the rest
/// pose; nothing changes for a character without a skeleton or skin.
pub fn bake_rest_pose(character: &mut Character, posed: Vec<Mat4>) {
    let (Some(skeleton), Some(skin)) = (character.skeleton.as_mut(), character.skin.as_ref())
    else {
        return;
    };
    character.mesh.positions = skin_positions(
        &character.mesh.positions,
        skin,
        &skinning_matrices(skeleton, &posed),
    );
    for (joint, m) in skeleton.joints.iter_mut().zip(posed) {
        joint.world_bind = m;
    }
    let mesh = &mut character.mesh;
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
}

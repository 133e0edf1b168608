//! A pose made the rest pose: the mesh skinned into it, the joints' binds set to it, so mesh,
//! skeleton and weights stay consistent (how posed or re-proportioned bodies are made from a
//! rigged one).

use glam::{Mat4, Vec3};

use super::{skin_normals, skin_positions, skinning_matrices};
use crate::Character;
use crate::mesh::vertex_normals;

/// Skins the mesh into the pose `posed` (a world matrix per joint) and makes it the rest
/// pose; nothing changes for a character without a skeleton or skin.
pub fn bake_rest_pose(character: &mut Character, posed: Vec<Mat4>) {
    let (Some(skeleton), Some(skin)) = (character.skeleton.as_mut(), character.skin.as_ref())
    else {
        return;
    };
    let skinning = skinning_matrices(skeleton, &posed);
    let mesh = &mut character.mesh;
    let smooth = vertex_normals(&mesh.positions, &mesh.triangles);
    let own_normals = (mesh.normals.len() == smooth.len())
        && (mesh.normals.iter().zip(&smooth)).any(|(n, s)| n.distance_squared(*s) > 1e-6);
    mesh.positions = skin_positions(&mesh.positions, skin, &skinning);
    for (joint, m) in skeleton.joints.iter_mut().zip(posed) {
        joint.world_bind = m;
    }
    // The file's own normals and tangents turn with the skin; smooth ones are made anew.
    if own_normals {
        mesh.normals = skin_normals(&mesh.normals, skin, &skinning);
    } else {
        mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
    }
    if mesh.tangents.len() == mesh.positions.len() {
        let directions: Vec<Vec3> = mesh.tangents.iter().map(|t| t.truncate()).collect();
        let turned = skin_normals(&directions, skin, &skinning);
        for (t, d) in mesh.tangents.iter_mut().zip(turned) {
            *t = d.extend(t.w);
        }
    }
}

//! Augmentations of a rigged character, as current learned riggers train with: a random pose
//! baked in as the new rest pose, non-uniform scaling, coarser remeshing, surface noise, and
//! skeletons with joints or whole sub-trees removed (their weights passed to what remains).
//! Every one keeps mesh, skeleton and weights consistent with each other.

use std::collections::HashMap;

use glam::{IVec3, Mat4, Quat, Vec3};

use crate::Character;
use crate::anim::bake_rest_pose;
use crate::mesh::{MeshPart, vertex_normals};
use crate::random::Rng;
use crate::rig::top_influences;
use crate::rig::{Influence, JointId, SkinWeights};

/// How strongly and how often each augmentation applies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Augmentations {
    /// Largest random rotation per joint, radians (0: keep the pose).
    pub pose_angle: f32,
    /// Largest relative change of each axis' scale.
    pub scale: f32,
    /// Chance of remeshing on a coarser grid.
    pub remesh: f32,
    /// Largest displacement along the normal, relative to the longest side.
    pub noise: f32,
    /// Chance of deleting each inner joint.
    pub delete_joint: f32,
    /// Chance of dropping one whole sub-tree (a limb, a tail).
    pub drop_subtree: f32,
}

impl Default for Augmentations {
    fn default() -> Self {
        Self {
            pose_angle: 0.5,
            scale: 0.25,
            remesh: 0.3,
            noise: 0.002,
            delete_joint: 0.05,
            drop_subtree: 0.2,
        }
    }
}

/// Applies `options` to a rigged character; one without a skin comes back unchanged.
pub fn augment(character: &mut Character, options: &Augmentations, rng: &mut Rng) {
    if character.skeleton.is_none() || character.skin.is_none() {
        return;
    }
    if options.pose_angle > 0.0 {
        repose(character, options.pose_angle, rng);
    }
    if options.scale > 0.0 {
        let s = Vec3::new(
            1.0 + rng.range(-options.scale, options.scale),
            1.0 + rng.range(-options.scale, options.scale),
            1.0 + rng.range(-options.scale, options.scale),
        );
        rescale(character, s);
    }
    let size = character.mesh.bounds().longest_side();
    if rng.unit() < options.remesh {
        remesh(character, size / rng.range(30.0, 60.0));
    }
    if options.noise > 0.0 {
        jitter(character, options.noise * size, rng);
    }
    let joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
    let mut remove = vec![false; joints];
    if rng.unit() < options.drop_subtree {
        drop_random_subtree(character, &mut remove, rng);
    }
    for (j, flag) in remove.iter_mut().enumerate() {
        let inner = character.skeleton.as_ref().is_some_and(|s| {
            s.joints[j].parent.is_some()
                && s.joints.iter().any(|c| c.parent == Some(JointId(j as u32)))
        });
        if inner && rng.unit() < options.delete_joint {
            *flag = true;
        }
    }
    remove_joints(character, &remove);
}

/// Poses every joint by a random rotation of up to `max_angle`, skins the mesh into that pose
/// and makes it the rest pose: the network must not rely on T-poses.
pub fn repose(character: &mut Character, max_angle: f32, rng: &mut Rng) {
    let (Some(skeleton), Some(_)) = (character.skeleton.as_ref(), character.skin.as_ref()) else {
        return;
    };
    let bind = skeleton.bind_world();
    let locals = skeleton.locals_from_world(&bind);
    let posed = skeleton.world_with(|j, parent| {
        // Drawn for roots too, so a seed gives the same augmentation as before.
        let turn = Quat::from_axis_angle(rng.direction(), rng.range(0.0, max_angle));
        match skeleton.joints[j].parent {
            Some(_) => parent * locals[j] * Mat4::from_quat(turn),
            None => bind[j],
        }
    });
    bake_rest_pose(character, posed);
}

/// Scales the character about the origin by `s` per axis; joint frames keep their rotation.
pub fn rescale(character: &mut Character, s: Vec3) {
    for p in &mut character.mesh.positions {
        *p *= s;
    }
    if let Some(skeleton) = character.skeleton.as_mut() {
        for joint in &mut skeleton.joints {
            joint.world_bind.w_axis = (joint.position() * s).extend(1.0);
        }
    }
    refresh_normals(character);
}

/// Remeshes by vertex clustering on a grid of `cell`: vertices in one cell merge (positions and
/// weights averaged) and collapsed triangles go, as a coarse decimation would leave them.
pub fn remesh(character: &mut Character, cell: f32) {
    let Some(skin) = character.skin.as_ref() else {
        return;
    };
    let mesh = &mut character.mesh;
    let origin = mesh.bounds().min;
    let mut cluster_of_cell: HashMap<IVec3, u32> = HashMap::new();
    let mut cluster = Vec::with_capacity(mesh.positions.len());
    let mut sums: Vec<(Vec3, u32, Vec<Influence>)> = Vec::new();
    for (v, p) in mesh.positions.iter().enumerate() {
        let key = ((*p - origin) / cell).floor().as_ivec3();
        let id = *cluster_of_cell.entry(key).or_insert_with(|| {
            sums.push((Vec3::ZERO, 0, Vec::new()));
            (sums.len() - 1) as u32
        });
        let entry = &mut sums[id as usize];
        entry.0 += *p;
        entry.1 += 1;
        entry.2.extend_from_slice(skin.influences(v));
        cluster.push(id);
    }
    let mut new_skin = SkinWeights::new();
    mesh.positions = sums
        .iter()
        .map(|(sum, n, influences)| {
            new_skin.push_vertex(top_influences(influences, 4));
            *sum / *n as f32
        })
        .collect();
    let mut parts = Vec::new();
    let mut triangles = Vec::new();
    for part in mesh.parts_or_whole() {
        let first_triangle = triangles.len();
        for t in &mesh.triangles[part.first_triangle..part.first_triangle + part.triangle_count] {
            let [a, b, c] = t.map(|i| cluster[i as usize]);
            if a != b && b != c && a != c {
                triangles.push([a, b, c]);
            }
        }
        parts.push(MeshPart {
            first_triangle,
            triangle_count: triangles.len() - first_triangle,
            material: part.material,
        });
    }
    mesh.triangles = triangles;
    mesh.parts = parts;
    mesh.uvs.clear();
    mesh.second_uvs.clear();
    mesh.tangents.clear();
    character.skin = Some(new_skin);
    refresh_normals(character);
}

/// Moves every vertex along its normal by up to `amplitude`, as scanned or sculpted surfaces are.
pub fn jitter(character: &mut Character, amplitude: f32, rng: &mut Rng) {
    let mesh = &mut character.mesh;
    for (p, n) in mesh.positions.iter_mut().zip(&mesh.normals) {
        *p += *n * rng.range(-amplitude, amplitude);
    }
    refresh_normals(character);
}

/// Marks a random non-root joint and everything below it for removal.
fn drop_random_subtree(character: &Character, remove: &mut [bool], rng: &mut Rng) {
    let Some(skeleton) = character.skeleton.as_ref() else {
        return;
    };
    let candidates: Vec<usize> = (0..skeleton.joints.len())
        .filter(|&j| skeleton.joints[j].parent.is_some())
        .collect();
    if candidates.is_empty() {
        return;
    }
    let top = candidates[(rng.next_u64() % candidates.len() as u64) as usize];
    // Parents come first, so one forward pass finds every descendant.
    remove[top] = true;
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if joint.parent.is_some_and(|p| remove[p.index()]) {
            remove[j] = true;
        }
    }
}

/// Removes the marked joints (never roots); see [`crate::edit::remove_joints`].
pub fn remove_joints(character: &mut Character, remove: &[bool]) {
    if let Some(skeleton) = character.skeleton.as_mut() {
        crate::edit::remove_joints(skeleton, character.skin.as_mut(), remove);
    }
}

fn refresh_normals(character: &mut Character) {
    let mesh = &mut character.mesh;
    mesh.normals = vertex_normals(&mesh.positions, &mesh.triangles);
}

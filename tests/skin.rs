//! Geometric skinning on real characters and on shapes where the answer is known.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{add_box, load};
use glam::{Mat4, Vec3};
use rigkit::eval::skin_metrics;
use rigkit::mesh::Mesh;
use rigkit::rig::{Joint, JointId, Skeleton, SkinWeights};
use rigkit::skin::{SkinOptions, geodesic_skin};

fn assert_complete(skin: &SkinWeights, vertices: usize, k: usize, what: &str) {
    assert_eq!(skin.vertex_count(), vertices, "{what}");
    for v in 0..vertices {
        let influences = skin.influences(v);
        assert!(
            !influences.is_empty() && influences.len() <= k,
            "{what}: vertex {v} has {} influences",
            influences.len()
        );
        assert!(
            influences.iter().all(|i| i.weight >= 0.0),
            "{what}: vertex {v}"
        );
        let sum: f32 = influences.iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{what}: vertex {v} sums to {sum}");
    }
}

#[test]
fn real_characters_get_complete_weights_close_to_the_artists() {
    for rel in [
        "eval/Fox.glb",
        "eval/CesiumMan.glb",
        "eval/mannequiny.glb",
        "eval/quaternius-easy_enemies_pack/Rat.glb",
    ] {
        let c = load(rel);
        let (skeleton, truth) = (c.skeleton.as_ref().unwrap(), c.skin.as_ref().unwrap());
        let skin = geodesic_skin(&c.mesh, skeleton, &SkinOptions::default()).unwrap();
        assert_complete(&skin, c.mesh.vertex_count(), 4, rel);
        let m = skin_metrics(&c.mesh, skeleton, &skin, truth, 4, 1);
        // A skin that binds everything to one joint scores L1 near 1 and a large
        // deformation error; ours must be much closer to the artist.
        assert!(m.l1 < 0.8, "{rel}: L1 {}", m.l1);
        assert!(m.recall > 0.6, "{rel}: recall {}", m.recall);
        assert!(m.deformation < 1.5, "{rel}: deformation {}", m.deformation);
    }
}

/// Two fingers rising from a palm, half a unit apart, each with its own bone, and a prop
/// floating far away: distances through the body, not through the air, decide the weights.
fn hand() -> (Mesh, Skeleton) {
    let mut mesh = Mesh::default();
    add_box(
        &mut mesh,
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(2.5, 0.0, 1.0),
    ); // palm
    add_box(
        &mut mesh,
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 4.0, 1.0),
    ); // finger a
    add_box(
        &mut mesh,
        Vec3::new(1.5, 0.0, 0.0),
        Vec3::new(2.5, 4.0, 1.0),
    ); // finger b
    add_box(
        &mut mesh,
        Vec3::new(8.0, 0.0, 0.0),
        Vec3::new(8.5, 0.5, 0.5),
    ); // prop
    mesh.normals = rigkit::mesh::vertex_normals(&mesh.positions, &mesh.triangles);
    let joint = |name: &str, parent: Option<u32>, p: Vec3| Joint {
        name: name.into(),
        parent: parent.map(JointId),
        world_bind: Mat4::from_translation(p),
    };
    let skeleton = Skeleton {
        joints: vec![
            joint("palm", None, Vec3::new(1.25, -0.5, 0.5)),
            joint("a", Some(0), Vec3::new(0.5, 0.0, 0.5)),
            joint("a_end", Some(1), Vec3::new(0.5, 3.8, 0.5)),
            joint("b", Some(0), Vec3::new(2.0, 0.0, 0.5)),
            joint("b_end", Some(3), Vec3::new(2.0, 3.8, 0.5)),
        ],
    };
    (mesh, skeleton)
}

#[test]
fn fingers_are_not_bound_to_their_neighbours_through_the_air() {
    let (mesh, skeleton) = hand();
    let options = SkinOptions {
        falloff: 4.0,
        smoothing: 0,
        ..SkinOptions::default()
    };
    let skin = geodesic_skin(&mesh, &skeleton, &options).unwrap();
    assert_complete(&skin, mesh.vertex_count(), 4, "hand");
    let weight = |v: usize, j: u32| {
        skin.influences(v)
            .iter()
            .find(|i| i.joint == JointId(j))
            .map_or(0.0, |i| i.weight)
    };
    // Finger a's top corners (vertices 8..16 are finger a; y = 4 is bits 2).
    for v in [10, 11, 14, 15] {
        // Straight-line distances would give finger b's bone about a quarter of the weight
        // at the inner corners; through the body it is many times farther.
        assert!(weight(v, 3) < 0.01, "vertex {v}: {}", weight(v, 3));
        assert!(weight(v, 1) > 0.95, "vertex {v}: {}", weight(v, 1));
    }
    // End tips own nothing.
    for v in 0..mesh.vertex_count() {
        assert_eq!(weight(v, 2) + weight(v, 4), 0.0, "vertex {v}");
    }
    // The floating prop (vertices 24..32) rides on the bones nearest to it in a straight
    // line: the palm's bone to finger b and finger b's own, which meet at b's root.
    for v in 24..32 {
        let near = weight(v, 0) + weight(v, 3);
        assert!(near > 0.8, "prop vertex {v}: {:?}", skin.influences(v));
    }
}

#[test]
fn empty_inputs_are_errors_not_panics() {
    let (mesh, skeleton) = hand();
    assert!(geodesic_skin(&Mesh::default(), &skeleton, &SkinOptions::default()).is_err());
    assert!(geodesic_skin(&mesh, &Skeleton::default(), &SkinOptions::default()).is_err());
}

/// A bar along x from 0 to 4 (a limb), for skeletons that are awkward on purpose.
fn bar() -> Mesh {
    let mut mesh = Mesh::default();
    add_box(
        &mut mesh,
        Vec3::new(0.0, -0.5, -0.5),
        Vec3::new(4.0, 0.5, 0.5),
    );
    let mut mesh = rigkit::mesh::subdivide(&rigkit::mesh::subdivide(&mesh).0).0;
    mesh.normals = rigkit::mesh::vertex_normals(&mesh.positions, &mesh.triangles);
    mesh
}

fn joint_at(name: &str, parent: Option<u32>, x: f32, y: f32) -> Joint {
    Joint {
        name: name.into(),
        parent: parent.map(JointId),
        world_bind: Mat4::from_translation(Vec3::new(x, y, 0.0)),
    }
}

/// Skeletons real files have: two joints at one place (a zero-length bone), a leaf without a
/// tail, and joints far outside the mesh (an IK target, a mis-placed root). Each gets defined
/// weights — every vertex bound, summing to 1, no NaN — and the joints inside the body still
/// carry the flesh around them.
#[test]
fn coincident_tailless_and_outside_joints_get_defined_weights() {
    let mesh = bar();
    let cases = [
        (
            "zero-length bone",
            vec![
                joint_at("root", None, 0.5, 0.0),
                joint_at("twin", Some(0), 0.5, 0.0),
                joint_at("mid", Some(1), 2.0, 0.0),
                joint_at("tip", Some(2), 3.5, 0.0),
            ],
        ),
        (
            "leaf without a tail",
            vec![
                joint_at("root", None, 0.5, 0.0),
                joint_at("mid", Some(0), 2.0, 0.0),
            ],
        ),
        (
            "joints outside the mesh",
            vec![
                joint_at("root", None, 0.5, 0.0),
                joint_at("mid", Some(0), 2.0, 0.0),
                joint_at("target", Some(0), 2.0, 10.0),
                joint_at("far_root", None, -20.0, 0.0),
            ],
        ),
        ("one joint", vec![joint_at("only", None, 2.0, 0.0)]),
        (
            "every joint outside",
            vec![joint_at("away", None, 2.0, 30.0)],
        ),
    ];
    for (what, joints) in cases {
        let skeleton = Skeleton { joints };
        let skin = geodesic_skin(&mesh, &skeleton, &SkinOptions::default()).unwrap();
        assert_complete(&skin, mesh.vertex_count(), 4, what);
        assert!(
            (0..skin.vertex_count())
                .all(|v| skin.influences(v).iter().all(|i| i.weight.is_finite())),
            "{what}: a weight is not finite"
        );
        // The flesh at the far end of the bar follows a joint inside the body near it.
        let end = (0..mesh.vertex_count())
            .max_by(|&a, &b| mesh.positions[a].x.total_cmp(&mesh.positions[b].x))
            .unwrap();
        let strongest = skin.influences(end)[0].joint;
        let name = &skeleton.joints[strongest.index()].name;
        if what != "every joint outside" {
            assert!(
                !["target", "far_root"].contains(&name.as_str()),
                "{what}: the bar's end follows '{name}'"
            );
        }
    }
}

/// A mech's leg: one column from hip to ankle, and a separate armour plate over the thigh that
/// reaches a little past the knee. The plate is one rigid piece, as artists bind it: all of it
/// follows the thigh joint, while the column still bends at the knee. A coincident leaf (a
/// twin of the ankle) continues the shin instead of claiming a point.
#[test]
fn a_separate_armour_plate_moves_with_one_joint_and_the_limb_still_bends() {
    let mesh = rigkit::mesh::boxes(
        &[
            (Vec3::new(0.0, -0.3, -0.3), Vec3::new(4.0, 0.3, 0.3)),
            (Vec3::new(0.6, 0.35, -0.4), Vec3::new(2.2, 0.5, 0.4)),
        ],
        2,
    );
    let column = 8;
    let skeleton = Skeleton {
        joints: vec![
            joint_at("hip", None, 0.1, 0.0),
            joint_at("knee", Some(0), 2.0, 0.0),
            joint_at("ankle", Some(1), 3.9, 0.0),
            joint_at("ankle_twin", Some(2), 3.9, 0.0),
        ],
    };
    let skin = geodesic_skin(&mesh, &skeleton, &SkinOptions::default()).unwrap();
    assert_complete(&skin, mesh.vertex_count(), 4, "armour");
    let plate: Vec<usize> = (0..mesh.vertex_count())
        .filter(|&v| mesh.positions[v].y > 0.32)
        .collect();
    assert!(
        plate.len() > column,
        "the plate was subdivided with the column"
    );
    for &v in &plate {
        let w = skin.influences(v);
        assert!(
            w.len() == 1 && w[0].joint == JointId(0),
            "plate vertex at {:?} has {w:?}",
            mesh.positions[v]
        );
    }
    let at_knee = (0..mesh.vertex_count())
        .filter(|&v| mesh.positions[v].y < 0.31 && (mesh.positions[v].x - 2.0).abs() < 0.3)
        .filter(|&v| skin.influences(v).len() > 1)
        .count();
    assert!(at_knee > 0, "the column does not blend at the knee");
    // The twin owns the flesh beyond the ankle, along the shin's direction.
    let toe = (0..mesh.vertex_count())
        .max_by(|&a, &b| mesh.positions[a].x.total_cmp(&mesh.positions[b].x))
        .unwrap();
    assert!(
        skin.influences(toe)
            .iter()
            .any(|i| i.joint == JointId(3) && i.weight > 0.3),
        "{:?}",
        skin.influences(toe)
    );
}

/// A flat-shaded export keeps no vertex shared between triangles (every triangle its own three
/// vertices, at the same positions as its neighbours'). The skin must see one surface, not
/// thousands of separate pieces each bound rigidly: the same weights as the shared mesh, per
/// position, and a limb that still blends at its joint.
#[test]
fn a_flat_shaded_triangle_soup_blends_like_the_shared_mesh() {
    let shared = bar();
    let mut soup = Mesh::default();
    for t in &shared.triangles {
        let base = soup.positions.len() as u32;
        soup.positions
            .extend(t.iter().map(|&v| shared.positions[v as usize]));
        soup.triangles.push([base, base + 1, base + 2]);
    }
    soup.normals = rigkit::mesh::vertex_normals(&soup.positions, &soup.triangles);
    let skeleton = Skeleton {
        joints: vec![
            joint_at("root", None, 0.2, 0.0),
            joint_at("mid", Some(0), 2.0, 0.0),
            joint_at("tip", Some(1), 3.8, 0.0),
        ],
    };
    let options = SkinOptions::default();
    let a = geodesic_skin(&shared, &skeleton, &options).unwrap();
    let b = geodesic_skin(&soup, &skeleton, &options).unwrap();
    let mut blended = 0;
    for (k, t) in shared.triangles.iter().enumerate() {
        for (corner, &v) in t.iter().enumerate() {
            let (wa, wb) = (a.influences(v as usize), b.influences(3 * k + corner));
            assert_eq!(wa.len(), wb.len(), "at {:?}", shared.positions[v as usize]);
            for (x, y) in wa.iter().zip(wb) {
                assert!(x.joint == y.joint && (x.weight - y.weight).abs() < 1e-4);
            }
            blended += usize::from(wb.len() > 1);
        }
    }
    assert!(blended > 0, "nothing blends at the joint");
}

/// A mesh too large to skin whole (the mannequin subdivided twice, 200 k vertices) is
/// skinned on a proxy: every vertex is weighted, and the mannequin's own vertices are
/// weighted about as when the mannequin is rigged as it is — as near as when it is
/// subdivided once and skinned whole.
#[test]
fn a_large_mesh_is_skinned_on_a_proxy_as_the_mesh_it_was_made_from() {
    use rigkit::pipeline::{RigRequest, rig_character};
    let small = load("eval/mannequiny.glb");
    let rigged = |subdivisions: usize| {
        let mut c = small.clone();
        for _ in 0..subdivisions {
            c.mesh = rigkit::mesh::subdivide(&c.mesh).0;
        }
        rig_character(&mut c, &RigRequest::default(), |_| {}).unwrap();
        c
    };
    let (as_is, once, twice) = (rigged(0), rigged(1), rigged(2));
    assert!(once.mesh.vertex_count() <= rigkit::skin::PROXY_VERTICES);
    assert!(twice.mesh.vertex_count() > rigkit::skin::PROXY_VERTICES);
    let skin = |c: &rigkit::Character| c.skin.clone().unwrap();
    assert_complete(
        &skin(&twice),
        twice.mesh.vertex_count(),
        4,
        "the large mannequin",
    );
    // Half the summed difference of two rigs' weights by joint name, over the mannequin's
    // own vertices (subdividing keeps them first).
    let apart = |a: &rigkit::Character, b: &rigkit::Character| -> f32 {
        let names = |c: &rigkit::Character| -> Vec<String> {
            (c.skeleton.as_ref().unwrap().joints.iter())
                .map(|j| j.name.clone())
                .collect()
        };
        let (a_names, b_names) = (names(a), names(b));
        let (a_skin, b_skin) = (skin(a), skin(b));
        let vertices = small.mesh.vertex_count();
        let total: f32 = (0..vertices)
            .map(|v| {
                let mut by_name: std::collections::HashMap<&str, f32> = Default::default();
                for i in a_skin.influences(v) {
                    *by_name.entry(&a_names[i.joint.0 as usize]).or_default() += i.weight;
                }
                for i in b_skin.influences(v) {
                    *by_name.entry(&b_names[i.joint.0 as usize]).or_default() -= i.weight;
                }
                0.5 * by_name.values().map(|w| w.abs()).sum::<f32>()
            })
            .sum();
        total / vertices as f32
    };
    let (whole, proxy) = (apart(&as_is, &once), apart(&as_is, &twice));
    assert!(
        proxy < 1.5 * whole.max(0.05),
        "weights on the proxy {proxy} from the mannequin's, subdivided once and skinned whole {whole}"
    );
}

/// `pipeline::skin_files` (the packages' `skin`): new weights for the file's own skeleton,
/// which keeps its joints, names and clips; a mesh without a skeleton is refused by name.
#[test]
fn skin_files_keeps_the_skeleton_and_clips() {
    use rigkit::blocking::block_on;
    use rigkit::io::InputFile;
    use rigkit::pipeline::{Method, bundled_on_cpu, skin_files};

    let path = "eval/CesiumMan.glb";
    let bytes = std::fs::read(common::data(path)).unwrap();
    let files = [InputFile {
        name: "CesiumMan.glb",
        bytes: &bytes,
    }];
    let mut stages = Vec::new();
    let glb = block_on(skin_files(
        &files,
        Method::Geometric,
        4,
        bundled_on_cpu,
        |s| stages.push(s.name()),
    ))
    .unwrap();
    assert_eq!(stages, ["parse", "skin", "export"]);
    let before = load(path);
    let after = rigkit::io::import(&glb, "skinned.glb", &rigkit::Limits::default()).unwrap();
    let (b, a) = (
        before.skeleton.as_ref().unwrap(),
        after.skeleton.as_ref().unwrap(),
    );
    assert_eq!(a.names(), b.names());
    assert_eq!(after.animations.len(), before.animations.len());
    let skin = after.skin.as_ref().unwrap();
    assert_complete(skin, after.mesh.vertex_count(), 4, "CesiumMan skinned");
    // The artist's weights were replaced, not copied through.
    let artist = before.skin.as_ref().unwrap();
    let differ = (0..artist.vertex_count())
        .filter(|&v| skin.influences(v) != artist.influences(v))
        .count();
    assert!(
        differ > artist.vertex_count() / 2,
        "{differ} vertices changed"
    );

    let mut mesh = before.clone();
    mesh.skeleton = None;
    mesh.skin = None;
    mesh.animations.clear();
    let unrigged = rigkit::export::export_glb(&mesh, &Default::default());
    let unrigged = unrigged.unwrap();
    let files = [InputFile {
        name: "mesh.glb",
        bytes: &unrigged,
    }];
    let error = block_on(skin_files(
        &files,
        Method::Geometric,
        4,
        bundled_on_cpu,
        |_| {},
    ))
    .unwrap_err()
    .to_string();
    assert!(error.contains("'mesh.glb' has no skeleton"), "{error}");
}

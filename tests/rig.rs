//! Automatic skeletons: joints inside the body, a branch for every limb, the input's frame
//! kept, and a rig that deforms sanely.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::load;
use glam::{Mat4, Quat, Vec3};
use rigkit::eval::skeleton_metrics;
use rigkit::mesh::{Mesh, winding_number};
use rigkit::random::Rng;
use rigkit::rig::Skeleton;
use rigkit::rig::rest_locals;
use rigkit::skeleton::{AutoOptions, auto_skeleton};
use rigkit::skin::{SkinOptions, geodesic_skin};

const CHARACTERS: [&str; 5] = [
    "eval/Fox.glb",
    "eval/CesiumMan.glb",
    "eval/mannequiny.glb",
    "eval/quaternius-easy_enemies_pack/Rat.glb",
    "eval/quaternius-easy_enemies_pack/Spider.glb",
];

#[test]
fn joints_land_inside_real_characters_near_the_artists_joints() {
    for rel in CHARACTERS {
        let c = load(rel);
        let auto = auto_skeleton(&c.mesh, &AutoOptions::default()).unwrap();
        assert!(
            auto.joints.len() >= 5,
            "{rel}: {} joints",
            auto.joints.len()
        );
        let inside = auto
            .joints
            .iter()
            .filter(|j| winding_number(&c.mesh.positions, &c.mesh.triangles, j.position()) > 0.5)
            .count();
        assert!(
            inside * 10 >= auto.joints.len() * 9,
            "{rel}: only {inside} of {} joints inside",
            auto.joints.len()
        );
        let m = skeleton_metrics(&auto, c.skeleton.as_ref().unwrap(), &c.mesh.bounds());
        assert!(m.cd_j2j < 8.0, "{rel}: CD-J2J {}", m.cd_j2j);
        assert!(m.cd_b2b < 8.0, "{rel}: CD-B2B {}", m.cd_b2b);
    }
}

/// Vertices posed by linear blend skinning with each joint turned by up to `degrees`.
fn pose(
    mesh: &Mesh,
    skeleton: &Skeleton,
    skin: &rigkit::rig::SkinWeights,
    degrees: f32,
) -> Vec<Vec3> {
    let mut rng = Rng::new(3);
    let mut world: Vec<Mat4> = Vec::new();
    for (joint, local) in skeleton.joints.iter().zip(rest_locals(skeleton)) {
        let turn = Quat::from_axis_angle(rng.direction(), degrees.to_radians());
        let local = Mat4::from_scale_rotation_translation(
            local.scale,
            local.rotation * turn,
            local.translation,
        );
        world.push(joint.parent.map_or(Mat4::IDENTITY, |p| world[p.index()]) * local);
    }
    (0..mesh.vertex_count())
        .map(|v| {
            skin.influences(v)
                .iter()
                .map(|i| {
                    let m = world[i.joint.index()]
                        * skeleton.joints[i.joint.index()].world_bind.inverse();
                    m.transform_point3(mesh.positions[v]) * i.weight
                })
                .sum()
        })
        .collect()
}

#[test]
fn an_automatic_rig_deforms_without_tearing() {
    for rel in CHARACTERS {
        let c = load(rel);
        let auto = auto_skeleton(&c.mesh, &AutoOptions::default()).unwrap();
        let skin = geodesic_skin(&c.mesh, &auto, &SkinOptions::default()).unwrap();
        for v in 0..c.mesh.vertex_count() {
            let sum: f32 = skin.influences(v).iter().map(|i| i.weight).sum();
            assert!((sum - 1.0).abs() < 1e-4, "{rel}: vertex {v} sums to {sum}");
        }
        let posed = pose(&c.mesh, &auto, &skin, 15.0);
        let diagonal = c.mesh.bounds().diagonal();
        let farthest = posed
            .iter()
            .zip(&c.mesh.positions)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0f32, f32::max);
        assert!(farthest > 0.0, "{rel}: the pose moves the mesh");
        assert!(
            farthest < 0.6 * diagonal,
            "{rel}: a vertex travelled {farthest} of {diagonal}"
        );
        // Neighbouring vertices stay neighbours: no edge stretches to many times its length.
        for t in &c.mesh.triangles {
            for e in 0..3 {
                let (a, b) = (t[e] as usize, t[(e + 1) % 3] as usize);
                let rest = c.mesh.positions[a].distance(c.mesh.positions[b]);
                let now = posed[a].distance(posed[b]);
                assert!(
                    now <= 5.0 * rest + 0.02 * diagonal,
                    "{rel}: edge {a}-{b} {rest} → {now}"
                );
            }
        }
    }
}

/// A plus sign: a body with four arms of different lengths.
fn plus() -> Mesh {
    let mut mesh = Mesh::default();
    let boxes = [
        (Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)),
        (Vec3::new(1.0, -0.4, -0.4), Vec3::new(5.0, 0.4, 0.4)),
        (Vec3::new(-4.0, -0.4, -0.4), Vec3::new(-1.0, 0.4, 0.4)),
        (Vec3::new(-0.4, -0.4, 1.0), Vec3::new(0.4, 0.4, 4.5)),
        (Vec3::new(-0.4, -0.4, -3.5), Vec3::new(0.4, 0.4, -1.0)),
    ];
    for (lo, hi) in boxes {
        common::add_box(&mut mesh, lo, hi);
    }
    mesh
}

fn tips(skeleton: &Skeleton) -> Vec<Vec3> {
    let mut has_child = vec![false; skeleton.joints.len()];
    for b in skeleton.bones() {
        has_child[b.parent.index()] = true;
    }
    skeleton
        .joints
        .iter()
        .zip(has_child)
        .filter(|(_, c)| !c)
        .map(|(j, _)| j.position())
        .collect()
}

#[test]
fn every_arm_of_a_plus_gets_a_chain_ending_near_its_tip() {
    let mesh = plus();
    let skeleton = auto_skeleton(&mesh, &AutoOptions::default()).unwrap();
    let ends = tips(&skeleton);
    assert_eq!(ends.len(), 4, "{:?}", ends);
    for arm_tip in [
        Vec3::new(5.0, 0.0, 0.0),
        Vec3::new(-4.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 4.5),
        Vec3::new(0.0, 0.0, -3.5),
    ] {
        let nearest = ends
            .iter()
            .map(|e| e.distance(arm_tip))
            .fold(f32::INFINITY, f32::min);
        assert!(nearest < 0.6, "no chain reaches {arm_tip}: {ends:?}");
    }
    // The root sits in the body, where the arms meet.
    assert!(
        skeleton.joints[0].position().length() < 0.8,
        "{}",
        skeleton.joints[0].position()
    );
}

#[test]
fn the_skeleton_follows_the_mesh_into_any_frame() {
    let mesh = plus();
    let frame = Mat4::from_scale_rotation_translation(
        Vec3::splat(40.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        Vec3::new(100.0, -20.0, 3.0),
    );
    let mut moved = mesh.clone();
    for p in &mut moved.positions {
        *p = frame.transform_point3(*p);
    }
    let a = auto_skeleton(&mesh, &AutoOptions::default()).unwrap();
    let b = auto_skeleton(&moved, &AutoOptions::default()).unwrap();
    assert!(
        a.joints.len().abs_diff(b.joints.len()) <= 2,
        "{} vs {}",
        a.joints.len(),
        b.joints.len()
    );
    let mut expected = a.clone();
    for j in &mut expected.joints {
        j.world_bind = frame * j.world_bind;
    }
    let m = skeleton_metrics(&b, &expected, &moved.bounds());
    assert!(m.cd_j2j < 1.0, "{m:?}");
}

/// The pipeline every shell runs: files in, all five stages announced in order, a rigged GLB
/// out that reads back with the new skeleton and a weight on every vertex.
#[test]
fn rig_files_announces_every_stage_and_writes_a_rigged_glb() {
    use rigkit::pipeline::{RigRequest, Stage, bundled_on_cpu, rig_files};
    let bytes = common::read("eval/quaternius-easy_enemies_pack/Rat.glb");
    let files = [rigkit::io::InputFile {
        name: "rat.glb",
        bytes: &bytes,
    }];
    let mut heard = Vec::new();
    let free = RigRequest::named("free", "best", 4, None).unwrap();
    let rigkit::pipeline::RiggedFiles { glb, report, .. } =
        rigkit::blocking::block_on(rig_files(&files, &free, bundled_on_cpu, None, |stage| {
            heard.push(stage)
        }))
        .unwrap();
    assert_eq!(
        report.recognised, None,
        "free-form asks the classifier nothing"
    );
    assert_eq!(heard, Stage::ALL);
    let rigged = rigkit::io::import(&glb, "rigged.glb", &rigkit::Limits::default()).unwrap();
    // The automatic skeleton replaced the artist's.
    let names = rigged.skeleton.unwrap().names();
    assert!(names.iter().any(|n| n == "root") && names.iter().any(|n| n.starts_with("chain")));
    let skin = rigged.skin.unwrap();
    assert_eq!(skin.vertex_count(), rigged.mesh.vertex_count());
    assert!((0..skin.vertex_count()).all(|v| !skin.influences(v).is_empty()));
    // A bad file is refused with its name, not a panic.
    let broken = [rigkit::io::InputFile {
        name: "broken.glb",
        bytes: b"glTF\x02\0\0\0",
    }];
    let err = rigkit::blocking::block_on(rig_files(
        &broken,
        &RigRequest::default(),
        bundled_on_cpu,
        None,
        |_| {},
    ))
    .unwrap_err();
    assert!(err.to_string().contains("broken.glb"), "{err}");
}

/// The same file and options rig to the same bytes every time (the default rig: the template
/// carried on threads, the networks). The joints are also written to
/// `target/e2e/native-rig-CesiumMan.json`, which the browser test compares the page's rig with.
#[test]
fn the_same_input_rigs_to_the_same_bytes() {
    use rigkit::pipeline::{RigRequest, bundled_on_cpu, rig_files};
    let bytes = common::read("eval/CesiumMan.glb");
    let files = [rigkit::io::InputFile {
        name: "CesiumMan.glb",
        bytes: &bytes,
    }];
    let rig = || {
        rigkit::blocking::block_on(rig_files(
            &files,
            &RigRequest::default(),
            bundled_on_cpu,
            None,
            |_| {},
        ))
        .unwrap()
        .glb
    };
    let first = rig();
    assert!(first == rig(), "a second rig of the same file differs");
    let rigged = rigkit::io::import(&first, "rigged.glb", &rigkit::Limits::default()).unwrap();
    let skeleton = rigged.skeleton.unwrap();
    let record = serde_json::json!({
        "file": "eval/CesiumMan.glb",
        "names": skeleton.names(),
        "joints": skeleton.flat_positions(),
        "longest_side": rigged.mesh.bounds().longest_side(),
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("native-rig-CesiumMan.json"), record.to_string()).unwrap();
}

/// Requests by name, as the page's worker and the packages give them: unknown names are
/// refused with the names there are, a skeleton file (here a BVH) becomes a given skeleton.
#[test]
fn a_rig_request_by_name_refuses_unknown_names_and_reads_a_skeleton_file() {
    use rigkit::pipeline::RigRequest;
    use rigkit::skeleton::SkeletonSource;
    let rigkit::Error::Unknown(unknown) =
        RigRequest::named("octopus", "best", 4, None).unwrap_err()
    else {
        panic!("an unknown template is not Error::Unknown");
    };
    assert_eq!(
        (unknown.kind, unknown.word.as_str()),
        ("template", "octopus")
    );
    for name in ["auto", "free", "humanoid", "rig-fox"] {
        assert!(unknown.available.iter().any(|a| a == name), "{unknown}");
    }
    let err = RigRequest::named("auto", "magic", 4, None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("magic") && err.contains("geometric"), "{err}");
    let auto = RigRequest::named("auto", "best", 8, None).unwrap();
    assert!(auto.runs_networks() && auto.max_influences == 8);
    let bvh = common::read("motion/cmu/01_01.bvh");
    let given = RigRequest::named("auto", "best", 4, Some(("walk.bvh", &bvh))).unwrap();
    let SkeletonSource::Given(skeleton) = &given.source else {
        panic!("the BVH's skeleton was not used");
    };
    assert!(skeleton.joints.len() >= 31);
    // The skeleton head refines automatic skeletons only; a given one still gets the
    // skinning head's weights by default, and no network with the geometric method.
    assert!(given.runs_networks());
    let geometric = RigRequest::named("auto", "geometric", 4, Some(("walk.bvh", &bvh))).unwrap();
    assert!(!geometric.runs_networks());
    let mut skin_only = geometric.clone();
    skin_only.methods.skin = rigkit::pipeline::Method::Neural;
    assert!(skin_only.runs_networks());
    let err = RigRequest::named("auto", "best", 4, Some(("broken.bvh", b"HIERARCHY\nROOT")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("broken.bvh"), "{err}");
}

/// Inputs at the edges: one triangle, a flat plane, a body a million units from the origin.
/// Each gets a defined answer — a rig whose joints are finite, or an error that says why —
/// never a panic.
#[test]
fn one_triangle_a_flat_plane_and_a_far_body_get_defined_answers() {
    use rigkit::Character;
    use rigkit::pipeline::{RigRequest, rig_character};
    let character = |mesh: Mesh| Character {
        name: "edge".into(),
        mesh,
        ..Character::default()
    };
    let triangle = Mesh {
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        triangles: vec![[0, 1, 2]],
        ..Mesh::default()
    };
    let mut plane = Mesh::default();
    common::add_box(
        &mut plane,
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, 1.0),
    );
    let mut far = Mesh::default();
    let offset = Vec3::splat(1.0e6);
    common::add_box(&mut far, offset, offset + Vec3::new(0.2, 1.0, 0.2));
    common::add_box(
        &mut far,
        offset + Vec3::new(0.2, 0.8, 0.0),
        offset + Vec3::new(0.8, 0.9, 0.2),
    );
    let far = rigkit::mesh::subdivide(&far).0;
    for (what, mesh) in [
        ("one triangle", triangle),
        ("a flat plane", plane),
        ("a far body", far),
    ] {
        let mut c = character(mesh);
        c.mesh.normals = rigkit::mesh::vertex_normals(&c.mesh.positions, &c.mesh.triangles);
        for method in ["geometric", "best"] {
            let request = RigRequest::named("auto", method, 4, None).unwrap();
            match rig_character(&mut c, &request, |_| {}) {
                Ok(_) => {
                    let skeleton = c.skeleton.as_ref().unwrap();
                    assert!(!skeleton.joints.is_empty(), "{what}: an empty skeleton");
                    assert!(
                        skeleton.joints.iter().all(|j| j.position().is_finite()),
                        "{what}: a joint is not finite"
                    );
                }
                Err(e) => assert!(!e.to_string().is_empty(), "{what}: an empty message"),
            }
        }
    }
}

//! Importing real characters: counts, rest pose and skeletons of the public evaluation set, and
//! clear errors (never panics) for broken files.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{data, load, read};
use rigkit::io::{ImportError, import};
use rigkit::{Character, Limits};

/// The fraction of joints within the mesh's bounding box, grown by `slack` of its diagonal.
/// Not all: rigs carry helpers such as IK pole targets that sit outside the body by design.
fn fraction_of_joints_within_bounds(c: &Character, slack: f32) -> f32 {
    let b = c.mesh.bounds();
    let pad = b.diagonal() * slack;
    let joints = &c.skeleton.as_ref().unwrap().joints;
    let inside = joints
        .iter()
        .filter(|j| {
            let p = j.position();
            p.cmpge(b.min - pad).all() && p.cmple(b.max + pad).all()
        })
        .count();
    inside as f32 / joints.len() as f32
}

/// What every real rigged character must import with: its skeleton (parents first), a mesh with
/// normals and finite positions, a skin over every vertex, and a rest pose that puts the joints
/// on the mesh.
fn assert_imports_with_its_skeleton(c: &Character, rel: &str) {
    let info = c.info();
    let skeleton = c
        .skeleton
        .as_ref()
        .unwrap_or_else(|| panic!("{rel} lost its skeleton"));
    assert!(info.joints >= 2, "{rel}: {} joints", info.joints);
    assert!(info.triangles > 0 && info.vertices > 0, "{rel}");
    assert_eq!(c.mesh.normals.len(), info.vertices, "{rel}");
    assert!(c.mesh.positions.iter().all(|p| p.is_finite()), "{rel}");
    // Parents come first, so one pass of forward kinematics suffices later.
    for (i, j) in skeleton.joints.iter().enumerate() {
        assert!(
            j.parent.is_none_or(|p| p.index() < i),
            "{rel}: joint {i} before its parent"
        );
    }
    // A wrong rest pose (node transforms or inverse binds misapplied) moves most joints off.
    let inside = fraction_of_joints_within_bounds(c, 0.05);
    assert!(
        inside >= 0.85,
        "{rel}: only {inside} of joints near the mesh"
    );
    assert_eq!(
        c.skin.as_ref().unwrap().vertex_count(),
        info.vertices,
        "{rel}"
    );
}

#[test]
fn every_eval_character_of_the_test_data_imports_with_its_skeleton() {
    let files = common::files_under(&data("eval"), "glb");
    assert!(
        files.len() >= 9,
        "expected the eval characters of tests/data, found {files:?}"
    );
    for rel in files {
        let rel = format!("eval/{rel}");
        assert_imports_with_its_skeleton(&load(&rel), &rel);
    }
}

#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn every_eval_character_imports_with_its_skeleton() {
    let eval = common::shared("eval");
    let files = common::files_under(&eval, "glb");
    assert!(
        files.len() >= 14,
        "expected the whole eval set in {}, found {files:?}",
        eval.display()
    );
    for rel in files {
        let c = common::load_path(&eval.join(&rel), &rel);
        assert_imports_with_its_skeleton(&c, &format!("eval/{rel}"));
    }
}

#[test]
fn fox_matches_its_known_counts() {
    let fox = load("eval/Fox.glb");
    let info = fox.info();
    assert_eq!(info.joints, 24);
    assert_eq!(info.vertices, 1728);
    assert_eq!(info.triangles, 576);
    assert_eq!(info.skinned_vertices, 1728);
    let names: Vec<&str> = fox
        .skeleton
        .as_ref()
        .unwrap()
        .joints
        .iter()
        .map(|j| j.name.as_str())
        .collect();
    assert!(names.contains(&"b_Root_00"), "{names:?}");
    assert_eq!((info.skins, info.animations, info.materials), (1, 3, 1));
}

#[test]
fn nan_skin_weights_are_dropped_with_a_warning() {
    let wasp = load("eval/quaternius-easy_enemies_pack/Wasp.glb");
    assert!(
        wasp.warnings.iter().any(|w| w.contains("NaN")),
        "{:?}",
        wasp.warnings
    );
    let skin = wasp.skin.as_ref().unwrap();
    for v in 0..skin.vertex_count() {
        assert!(
            skin.influences(v)
                .iter()
                .all(|i| i.weight.is_finite() && i.weight > 0.0)
        );
    }
}

#[test]
fn rigid_parts_ride_on_their_bone() {
    // RobotExpressive parents some mesh parts to bones instead of skinning them.
    let robot = load("eval/RobotExpressive.glb");
    let info = robot.info();
    assert_eq!(
        info.skinned_vertices, info.vertices,
        "every vertex is bound to a joint"
    );
}

#[test]
fn draco_files_get_a_clear_error() {
    for rel in [
        "robustness/draco/Astronaut_FinnTheFrog-transformed.glb",
        "robustness/draco/Mech_BarbaraTheBee-transformed.glb",
    ] {
        let err = import(&read(rel), rel, &Limits::default()).unwrap_err();
        assert!(
            matches!(err, ImportError::UnsupportedExtension { .. }),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("Draco-compressed meshes are not supported yet")
        );
    }
}

#[test]
fn truncated_files_never_panic() {
    let bytes = read("eval/CesiumMan.glb");
    // Cuts through the header, the JSON chunk and the binary chunk.
    let cuts = (0..64).chain((64..bytes.len()).step_by(997));
    for n in cuts {
        let result = import(&bytes[..n], "cut.glb", &Limits::default());
        assert!(result.is_err(), "a file cut at {n} bytes imported");
    }
}

#[test]
fn corrupted_bytes_never_panic() {
    let original = read("eval/Fox.glb");
    // Deterministic corruption of single bytes across the file, including the JSON and
    // the accessor data; each import must return, never panic.
    let mut state = 0x2545_f491_u32;
    for _ in 0..400 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let mut bytes = original.clone();
        let at = state as usize % bytes.len();
        bytes[at] = bytes[at].wrapping_add((state >> 24) as u8 | 1);
        let _ = import(&bytes, "corrupt.glb", &Limits::default());
    }
}

#[test]
fn limits_are_enforced_before_work_is_done() {
    let bytes = read("eval/Fox.glb");
    let tight = Limits {
        max_vertices: 100,
        ..Limits::default()
    };
    let err = import(&bytes, "Fox.glb", &tight).unwrap_err();
    assert!(
        err.to_string().contains("more than the limit of 100"),
        "{err}"
    );
    let tiny = Limits {
        max_file_bytes: 10,
        ..Limits::default()
    };
    assert!(matches!(
        import(&bytes, "Fox.glb", &tiny).unwrap_err(),
        ImportError::TooLarge { .. }
    ));
}

#[test]
fn non_finite_positions_are_rejected() {
    // A one-triangle glTF with an embedded buffer whose first x is NaN.
    let mut floats = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    floats[0] = f32::NAN;
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let gltf = triangle_gltf(&bytes);
    let err = import(gltf.as_bytes(), "nan.gltf", &Limits::default()).unwrap_err();
    assert!(
        matches!(err, ImportError::NonFinitePosition { vertex: 0, .. }),
        "{err}"
    );
    // The same file with finite positions imports.
    let ok: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let c = import(triangle_gltf(&ok).as_bytes(), "ok.gltf", &Limits::default()).unwrap();
    assert_eq!(c.info().triangles, 1);
    assert!(c.skeleton.is_none());
}

fn triangle_gltf(buffer: &[u8]) -> String {
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "buffers":[{{"byteLength":{len},"uri":"data:application/octet-stream;base64,{data}"}}],
        "bufferViews":[{{"buffer":0,"byteLength":{len}}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
                      "min":[0,0,0],"max":[1,1,0]}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
        "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}],"scene":0}}"#,
        len = buffer.len(),
        data = base64(buffer)
    )
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

//! The corpus of broken inputs in `tests/corpus/` (written by `make_corpus.py`): each file gets
//! an error that names the file and says what is wrong, and none makes rigkit panic.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use rigkit::Limits;
use rigkit::io::bvh::Bvh;
use rigkit::io::import;

/// Every corpus model file and the words its error must contain.
const EXPECTED: &[(&str, &str)] = &[
    ("empty.glb", "is empty"),
    ("wrong-magic.glb", "does not start with the GLB magic"),
    ("truncated-header.glb", "truncated"),
    ("length-lies.glb", "truncated: the header says 100000 bytes"),
    ("chunk-past-end.glb", "past the end of the file"),
    ("glb-version-1.glb", "GLB version 1 is not supported"),
    ("bad-json.gltf", "bad JSON"),
    ("invalid-reference.gltf", "invalid glTF"),
    ("view-past-buffer.gltf", "runs past the end of buffer 0"),
    (
        "accessor-past-view.gltf",
        "runs past the end of buffer view 0",
    ),
    (
        "index-out-of-range.gltf",
        "index 9 is out of range for its 3 vertices",
    ),
    (
        "nan-position.gltf",
        "non-finite (NaN or infinite) position at vertex 1",
    ),
    (
        "infinite-position.gltf",
        "non-finite (NaN or infinite) position at vertex 2",
    ),
    ("points-only.gltf", "contains no triangles"),
    ("zero-extent.gltf", "has no extent"),
    (
        "missing-bin.gltf",
        "refers to the external file 'missing.bin'",
    ),
    ("bad-data-uri.gltf", "not valid base64"),
    ("float-joints.gltf", "JOINTS"),
    (
        "joint-out-of-range.gltf",
        "refers to joint 5 but the skin has 1",
    ),
    ("node-cycle.gltf", "the node hierarchy contains a cycle"),
    (
        "draco-required.gltf",
        "Draco-compressed meshes are not supported yet",
    ),
    ("model.fbx", "binary FBX header is damaged or cut short"),
    ("node-past-end.fbx", "it is cut short"),
    ("huge-array.fbx", "larger than the limit"),
    ("spaces-for-zeros.fbx", "zero bytes became spaces"),
    ("unclosed.fbx", "a '}' is missing"),
    ("no-geometry.fbx", "contains no triangles"),
    ("unclosed.dae", "not a valid COLLADA file: bad XML"),
    ("no-scene.dae", "it has no visual scene"),
    (
        "missing-source.dae",
        "the source '#nowhere' is not in the file",
    ),
    (
        "unknown-joint.dae",
        "the joint 'Ghost', which is not in the scene",
    ),
    ("empty.obj", "contains no triangles"),
    ("face-out-of-range.obj", "line 4"),
    ("nan.obj", "non-finite"),
];

fn corpus() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus"))
}

#[test]
fn every_broken_model_gets_a_clear_error() {
    for (file, expected) in EXPECTED {
        let bytes = std::fs::read(corpus().join(file)).unwrap();
        let err = match import(&bytes, file, &Limits::default()) {
            Ok(_) => panic!("{file} imported, expected an error containing '{expected}'"),
            Err(e) => e.to_string(),
        };
        // Matched without the file name, which may itself contain the expected words.
        let message = err.replace(file, "");
        assert!(
            message.contains(expected),
            "{file}: '{err}' lacks '{expected}'"
        );
        assert!(
            err.contains(file),
            "{file}: the error does not name the file: '{err}'"
        );
    }
}

#[test]
fn the_corpus_is_covered() {
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let known = EXPECTED.iter().any(|(f, _)| *f == name)
            || name.ends_with(".bvh")
            || name.ends_with(".py")
            || name == "lines-and-triangles.gltf";
        assert!(known, "{name} is in the corpus but no test checks it");
    }
}

#[test]
fn non_surface_primitives_are_skipped_with_a_warning() {
    let bytes = std::fs::read(corpus().join("lines-and-triangles.gltf")).unwrap();
    let c = import(&bytes, "lines-and-triangles.gltf", &Limits::default()).unwrap();
    assert_eq!(c.info().triangles, 1);
    assert!(
        c.warnings.iter().any(|w| w.contains("skipped")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn broken_bvh_files_name_the_line() {
    for (file, expected) in [
        ("truncated.bvh", "unexpected end of file"),
        ("bad-channel.bvh", "unknown channel 'Wrotation'"),
    ] {
        let text = std::fs::read_to_string(corpus().join(file)).unwrap();
        let err = Bvh::parse(&text, file).unwrap_err();
        assert!(err.to_string().contains(expected), "{file}: {err}");
        assert!(err.line > 0, "{file}: {err}");
    }
}

/// An animation channel aimed at a node the file lacks, or at a property glTF does not
/// animate, is skipped with a warning; the rest of the clip is kept (the `gltf` crate
/// validates neither and panicked on both: found by the `glb_json` fuzz target).
#[test]
fn channels_with_broken_targets_are_skipped() {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz/regressions/glb"
    ));
    for file in ["animation-target-node.glb", "animation-target-path.glb"] {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let c = import(&bytes, file, &Limits::default()).unwrap();
        assert_eq!(c.animations.len(), 1, "{file}");
        assert!(c.animations[0].frame_count() > 1, "{file}");
        assert!(
            (c.warnings.iter()).any(|w| w.contains("channel 7: its target is not")),
            "{file}: {:?}",
            c.warnings
        );
    }
}

/// Inputs that once crashed a fuzz target (kept by `tests/fuzz/run.sh`) must now fail cleanly
/// or import; replaying them is what keeps a fixed crash fixed.
#[test]
fn fuzz_regressions_stay_fixed() {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz/regressions"
    ));
    // fbx_tree's crashes are edits of its base files: `cargo fuzz run fbx_tree FILE` replays
    // them (tests/fuzz/fuzz_targets/fbx_tree.rs); each fixed one is kept here as the FBX file.
    for target in ["glb", "glb_json", "obj", "bvh", "fbx", "dae"] {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).unwrap();
            match target {
                "bvh" => {
                    let _ = Bvh::parse(&String::from_utf8_lossy(&bytes), "regression.bvh");
                }
                "glb_json" => {
                    // The input of the `glb_json` target: JSON, a zero byte, the binary chunk.
                    let (json, bin) = match bytes.iter().position(|&b| b == 0) {
                        Some(at) => (&bytes[..at], &bytes[at + 1..]),
                        None => (&bytes[..], &[][..]),
                    };
                    let glb = rigkit::export::write_glb(json, bin);
                    let _ = import(&glb, "regression.glb", &Limits::default());
                }
                _ => {
                    let name = format!("regression.{target}");
                    let _ = import(&bytes, &name, &Limits::default());
                }
            }
        }
    }
}

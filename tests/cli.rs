//! The `rigkit` command line as a user runs it: readable output, clear errors, exit codes.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::data;

fn rigkit(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rigkit"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `rigkit` with `head` (paths and words) followed by the options `tail`.
fn rigkit_with(head: &[&std::ffi::OsStr], tail: &[&str]) -> (bool, String, String) {
    let mut args = head.to_vec();
    args.extend(tail.iter().map(std::ffi::OsStr::new));
    rigkit(&args)
}

/// `rigkit info F | head -1`: the reader goes away before the output is written, and the
/// command ends quietly and successfully instead of panicking on the closed pipe.
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let fox = data("eval/Fox.glb");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigkit"))
        .args(["info".as_ref(), fox.as_os_str()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn info_describes_a_rigged_character() {
    let fox = data("eval/Fox.glb");
    let (ok, out, _) = rigkit(&["info".as_ref(), fox.as_os_str()]);
    assert!(ok);
    assert!(out.contains("vertices:         1728"), "{out}");
    assert!(out.contains("joints:           24"), "{out}");
    let (ok, json, _) = rigkit(&["info".as_ref(), fox.as_os_str(), "--json".as_ref()]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["joints"], 24);
}

#[test]
fn convert_writes_a_file_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("fox.glb");
    let fox = data("eval/Fox.glb");
    let (ok, stdout, stderr) = rigkit(&["convert".as_ref(), fox.as_os_str(), out.as_os_str()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("24 joints"), "{stdout}");
    let (ok, info, _) = rigkit(&["info".as_ref(), out.as_os_str()]);
    assert!(ok && info.contains("joints:           24"), "{info}");
    // The extension picks the format: FBX reads back with the skeleton and its clips.
    let fbx = dir.join("fox.fbx");
    let (ok, _, stderr) = rigkit(&["convert".as_ref(), fox.as_os_str(), fbx.as_os_str()]);
    assert!(ok, "{stderr}");
    let (ok, info, _) = rigkit(&["info".as_ref(), fbx.as_os_str()]);
    assert!(ok && info.contains("joints:           24"), "{info}");
    assert!(info.contains("Survey") && info.contains("Walk"), "{info}");
    // A format rigkit does not write is refused before any work, naming what it writes.
    let obj = dir.join("fox.obj");
    let (ok, _, stderr) = rigkit(&["convert".as_ref(), fox.as_os_str(), obj.as_os_str()]);
    assert!(
        !ok && stderr.contains(".glb (the default), .fbx and .vrm"),
        "{stderr}"
    );
    assert!(!obj.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_fails_with_a_sentence_not_a_panic() {
    let draco = data("robustness/draco/Mech_BarbaraTheBee-transformed.glb");
    let (ok, _, err) = rigkit(&["info".as_ref(), draco.as_os_str()]);
    assert!(!ok);
    assert!(
        err.contains("Draco-compressed meshes are not supported yet"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let (ok, _, err) = rigkit(&["info".as_ref(), "no/such/file.glb".as_ref()]);
    assert!(
        !ok && err.contains("cannot read 'no/such/file.glb'"),
        "{err}"
    );
}

/// `rigkit --help` lists what a user rigs with and points at the lab; `rigkit COMMAND --help`
/// prints that command's usage and nothing else, successfully.
#[test]
fn help_shows_the_product_commands_and_each_commands_usage() {
    let (ok, out, _) = rigkit(&["--help".as_ref()]);
    assert!(ok);
    let commands: Vec<&str> = (out.lines())
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .collect();
    assert_eq!(
        commands,
        [
            "info",
            "convert",
            "rig",
            "skin",
            "animate",
            "batch",
            "bench",
            "lab",
            "completions",
            "help"
        ],
        "{out}"
    );
    assert!(out.contains("rigkit lab --help"), "{out}");
    let (ok, lab, _) = rigkit(&["lab".as_ref(), "--help".as_ref()]);
    for command in [
        "eval",
        "eval-fit",
        "eval-landmarks",
        "eval-correctives",
        "recognise",
        "dataset",
        "train",
        "quantize",
    ] {
        assert!(
            ok && lab.contains(&format!("\n  {command} ")),
            "{command}: {lab}"
        );
    }
    assert!(!lab.contains("\n  rig "), "{lab}");
    for args in [["rig", "--help"], ["rig", "-h"], ["help", "rig"]] {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let (ok, usage, err) = rigkit(&args);
        assert!(ok, "{err}");
        assert!(
            usage.contains("Usage: rigkit rig [OPTIONS] --output <OUT> <MESH>")
                && usage.contains("--template"),
            "{usage}"
        );
        assert!(!usage.contains("rigkit skin"), "{usage}");
    }
    let (ok, usage, _) = rigkit(&["animate".as_ref(), "x.glb".as_ref(), "--help".as_ref()]);
    assert!(
        ok && usage.contains("Usage: rigkit animate") && usage.contains("--motion"),
        "{usage}"
    );
    let (ok, version, _) = rigkit(&["--version".as_ref()]);
    assert!(ok && version.starts_with("rigkit "), "{version}");
}

/// `rigkit completions SHELL` prints a script that completes the commands and their options.
#[test]
fn completions_cover_the_commands_and_their_options() {
    let (ok, bash, err) = rigkit_with(&[], &["completions", "bash"]);
    assert!(ok, "{err}");
    for word in [
        "rigkit",
        "animate",
        "--template",
        "--bone-names",
        "eval-fit",
    ] {
        assert!(bash.contains(word), "{word} missing from the bash script");
    }
    let (ok, _, err) = rigkit_with(&[], &["completions", "tcsh"]);
    assert!(!ok && err.contains("possible values"), "{err}");
}

/// A wrong word names itself and what would be right, before any file is read.
#[test]
fn bad_arguments_are_named() {
    let (ok, _, err) = rigkit_with(&[], &["frobnicate"]);
    assert!(
        !ok && err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
    let (ok, _, err) = rigkit_with(&[], &["rig", "missing.glb", "-o", "out.obj"]);
    assert!(
        !ok && err.contains("'out.obj'") && err.contains("rigkit writes .glb"),
        "{err}"
    );
    let (ok, _, err) = rigkit_with(&[], &["rig", "missing.glb"]);
    assert!(!ok && err.contains("--output <OUT>"), "{err}");
    let words = ["convert", "missing.glb", "out.glb", "--max-influences", "5"];
    let (ok, _, err) = rigkit_with(&[], &words);
    assert!(!ok && err.contains("4 or 8"), "{err}");
}

#[test]
fn bench_import_reports_a_median() {
    let (ok, out, err) = rigkit(&[
        "bench".as_ref(),
        "import".as_ref(),
        "--triangles".as_ref(),
        "2000".as_ref(),
        "--runs".as_ref(),
        "3".as_ref(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("median") && out.contains("over 3 runs"),
        "{out}"
    );
    let (ok, _, err) = rigkit(&[
        "bench".as_ref(),
        "import".as_ref(),
        "--runs".as_ref(),
        "0".as_ref(),
    ]);
    assert!(
        !ok && err.contains("'--runs <R>': needs a positive whole number"),
        "{err}"
    );
}

/// `eval --skeleton` names the skeletons it scores when given another.
#[test]
fn eval_refuses_an_unknown_skeleton_by_naming_the_ones_it_has() {
    let (ok, _, err) = rigkit(&[
        "lab".as_ref(),
        "eval".as_ref(),
        "--skeleton".as_ref(),
        "template".as_ref(),
    ]);
    assert!(
        !ok && err.contains("invalid value 'template' for '--skeleton")
            && err.contains("[possible values: free, default]"),
        "{err}"
    );
}

/// `bench rig` times the default rig stage by stage, as the README quotes it.
#[test]
fn bench_rig_reports_each_stage() {
    let fox = data("eval/Fox.glb");
    let (ok, out, err) = rigkit(&[
        "bench".as_ref(),
        "rig".as_ref(),
        fox.as_os_str(),
        "--runs".as_ref(),
        "1".as_ref(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("median") && out.contains("over 1 runs"),
        "{out}"
    );
    for stage in ["parse", "voxelise", "skeleton", "skin", "export"] {
        assert!(out.contains(&format!("{stage} ")), "{stage}: {out}");
    }
    // The default rig carries the fox template: 49 joints, not the free-form skeleton's.
    assert!(out.contains("49 joints"), "{out}");
}

#[test]
fn rig_fits_a_skeleton_to_a_mesh_without_one_and_keeps_its_vertices() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-rig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("rat.glb");
    let rat = data("eval/quaternius-easy_enemies_pack/Rat.glb");
    let (ok, stdout, stderr) = rigkit(&[
        "rig".as_ref(),
        rat.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    // By default the body plan is recognised, and the choice said.
    assert!(
        stdout.contains("joints") && stdout.contains("recognised"),
        "{stdout}"
    );
    let limits = rigkit::Limits::default();
    let original = rigkit::io::import(&std::fs::read(&rat).unwrap(), "rat.glb", &limits).unwrap();
    let rigged = rigkit::io::import(&std::fs::read(&out).unwrap(), "out.glb", &limits).unwrap();
    assert_eq!(rigged.mesh.vertex_count(), original.mesh.vertex_count());
    let scale = original.mesh.bounds().diagonal();
    for (a, b) in original.mesh.positions.iter().zip(&rigged.mesh.positions) {
        assert!(a.distance(*b) < 1e-4 * scale);
    }
    let skeleton = rigged.skeleton.unwrap();
    assert!(skeleton.joints.len() >= 5);
    assert!(
        rigged.animations.is_empty(),
        "the old skeleton's clips do not fit the new one"
    );
    // Unknown templates and methods are refused by name.
    let (ok, _, stderr) = rigkit(&[
        "rig".as_ref(),
        rat.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--template".as_ref(),
        "dragon".as_ref(),
    ]);
    assert!(
        !ok && stderr.contains("unknown template 'dragon'") && stderr.contains("rig-dragon"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rig_carries_a_library_template_by_name_and_refuses_one_it_lacks() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-library-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("fox.glb");
    let fox = data("eval/Fox.glb");
    let (ok, stdout, stderr) = rigkit_with(
        &[
            "rig".as_ref(),
            fox.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
        &["--template", "rig-fox", "--method", "geometric"],
    );
    assert!(ok, "{stderr}");
    assert!(stdout.contains("49 joints"), "{stdout}");
    let rigged = rigkit::io::import(
        &std::fs::read(&out).unwrap(),
        "fox.glb",
        &rigkit::Limits::default(),
    )
    .unwrap();
    let names = rigged.skeleton.unwrap().names();
    assert!(names.iter().any(|n| n == "Tail_End"), "{names:?}");
    let (ok, _, stderr) = rigkit_with(
        &[
            "rig".as_ref(),
            fox.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
        &["--template", "rig-cat"],
    );
    assert!(
        !ok && stderr.contains("unknown template 'rig-cat'") && stderr.contains("rig-fox"),
        "{stderr}"
    );
    // The template's motion library plays on the fitted rig with no joint map: every joint
    // of its walk finds its joint by name.
    let walk = dir.join("walk.glb");
    let library = data("motion/mesh2motion/fox-animations.glb");
    let (ok, stdout, stderr) = rigkit_with(
        &[
            "animate".as_ref(),
            out.as_os_str(),
            "--motion".as_ref(),
            library.as_os_str(),
            "-o".as_ref(),
            walk.as_os_str(),
        ],
        &["--clip", "13"],
    );
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("'Walk'") && stdout.contains("49 of 49 joints driven"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rig_adapts_a_given_bvh_skeleton_keeping_its_names() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-adapt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("mannequin.glb");
    let mannequin = data("eval/mannequiny.glb");
    let bvh = data("motion/cmu/01_01.bvh");
    let (ok, _, stderr) = rigkit(&[
        "rig".as_ref(),
        mannequin.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--template".as_ref(),
        bvh.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    let rigged = rigkit::io::import(
        &std::fs::read(&out).unwrap(),
        "out.glb",
        &rigkit::Limits::default(),
    )
    .unwrap();
    let names = rigged.skeleton.unwrap().names();
    for expected in [
        "Hips",
        "LHipJoint",
        "LeftUpLeg",
        "LeftForeArm",
        "RThumb",
        "Head",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_neural_method_skins_and_quantize_refuses_a_bad_record() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-neural-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fox = data("eval/Fox.glb");
    let out = dir.join("fox-neural.glb");
    // `rigkit skin` of the fox with these options.
    let skin_fox = |options: &[&str]| {
        rigkit_with(
            &[
                "skin".as_ref(),
                fox.as_os_str(),
                "-o".as_ref(),
                out.as_os_str(),
            ],
            options,
        )
    };
    let (ok, stdout, stderr) = skin_fox(&["--method", "neural"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("1728 vertices skinned to 24 joints"),
        "{stdout}"
    );
    let (ok, info, _) = rigkit(&["info".as_ref(), out.as_os_str()]);
    assert!(ok && info.contains("joints:           24"), "{info}");
    // The head reads geometric weights at its training resolution: another one is refused
    // (the default method is the head), and taken with the geometric method.
    let (ok, _, err) = skin_fox(&["--resolution", "64"]);
    assert!(!ok && err.contains("--method geometric"), "{err}");
    let (ok, _, err) = skin_fox(&["--resolution", "64", "--method", "geometric"]);
    assert!(ok, "{err}");
    // An unknown method names the ones there are.
    let (ok, _, err) = rigkit(&[
        "rig".as_ref(),
        fox.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--method".as_ref(),
        "magic".as_ref(),
    ]);
    assert!(!ok);
    assert!(err.contains("available: best, geometric, neural"), "{err}");
    // The blend of network and geometric weights is a share.
    let (ok, _, err) = rigkit(&[
        "lab".as_ref(),
        "eval".as_ref(),
        dir.as_os_str(),
        "--method".as_ref(),
        "neural".as_ref(),
        "--network-share".as_ref(),
        "1.5".as_ref(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("'--network-share <S>': takes a number from 0 to 1"),
        "{err}"
    );
    // A file that is not a record of the network.
    let garbage = dir.join("garbage.bpk");
    std::fs::write(&garbage, b"not a burnpack record").unwrap();
    let (ok, _, err) = rigkit(&[
        "lab".as_ref(),
        "quantize".as_ref(),
        "skin".as_ref(),
        garbage.as_os_str(),
        dir.join("q.bpk").as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("garbage.bpk") && !err.contains("panicked"),
        "{err}"
    );
    // A record is quantized with the layer widths saved beside it, which come along.
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/skin.bpk");
    let again = dir.join("skin-again.bpk");
    let (ok, _, err) = rigkit(&[
        "lab".as_ref(),
        "quantize".as_ref(),
        "skin".as_ref(),
        shipped.as_os_str(),
        again.as_os_str(),
    ]);
    assert!(ok, "{err}");
    let config = std::fs::read_to_string(dir.join("skin-again.json")).unwrap();
    let shipped_config = std::fs::read_to_string(shipped.with_extension("json")).unwrap();
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
    assert_eq!(parse(&config), parse(&shipped_config));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 0 A.D. art folder in miniature: a strip of 64 vertices bound to a three-joint chain, and the
/// skeleton file naming its bones. `dataset 0ad` writes it as a rigged GLB that imports with
/// the skeleton's names and the artist's weights, and skips a marker with a reason.
#[test]
fn zero_ad_meshes_convert_to_rigged_glbs() {
    let art = std::env::temp_dir().join(format!("rigkit-0ad-{}", std::process::id()));
    let meshes = art.join("meshes/skeletal");
    std::fs::create_dir_all(&meshes).unwrap();
    std::fs::create_dir_all(art.join("skeletons")).unwrap();
    std::fs::write(
        art.join("skeletons/tail.xml"),
        r#"<skeletons><standard_skeleton id="Tail"><bone name="Base"><bone name="Mid">
        <bone name="Tip"/></bone></bone></standard_skeleton></skeletons>"#,
    )
    .unwrap();
    let pmd = |columns: u32| {
        let mut b = b"PSMD".to_vec();
        let put = |b: &mut Vec<u8>, v: u32| b.extend(v.to_le_bytes());
        let float = |b: &mut Vec<u8>, v: f32| b.extend(v.to_le_bytes());
        put(&mut b, 4);
        put(&mut b, 0);
        put(&mut b, 2 * columns);
        put(&mut b, 1);
        for i in 0..columns {
            for y in [0.0, 0.2] {
                let x = 2.0 * i as f32 / (columns - 1).max(1) as f32;
                for v in [x, y, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0] {
                    float(&mut b, v);
                }
                b.extend([0, 1, 0xFF, 0xFF]);
                let mid = ((x - 0.9) / 0.2).clamp(0.0, 1.0);
                for w in [1.0 - mid, mid, 0.0, 0.0] {
                    float(&mut b, w);
                }
            }
        }
        put(&mut b, 2 * (columns - 1));
        for i in 0..columns - 1 {
            let (a, c) = (2 * i as u16, 2 * i as u16 + 2);
            for v in [a, c, a + 1, a + 1, c, c + 1] {
                b.extend(v.to_le_bytes());
            }
        }
        put(&mut b, 3);
        for x in [0.0, 1.0, 2.0] {
            for v in [x, 0.1, 0.0, 0.0, 0.0, 0.0, 1.0] {
                float(&mut b, v);
            }
        }
        put(&mut b, 0);
        b
    };
    std::fs::write(meshes.join("tail.dae.cached.pmd"), pmd(32)).unwrap();
    std::fs::write(meshes.join("marker.dae.cached.pmd"), pmd(2)).unwrap();
    let out = art.join("out");
    let (ok, stdout, stderr) = rigkit(&[
        "lab".as_ref(),
        "dataset".as_ref(),
        "0ad".as_ref(),
        art.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("skipped marker: 4 vertices"), "{stdout}");
    assert!(stdout.contains("1 characters written"), "{stdout}");
    let glb = std::fs::read(out.join("tail.glb")).unwrap();
    let character = rigkit::io::import(&glb, "tail.glb", &rigkit::Limits::default()).unwrap();
    let skeleton = character.skeleton.as_ref().unwrap();
    assert_eq!(skeleton.names(), vec!["Base", "Mid", "Tip"]);
    assert_eq!(character.mesh.vertex_count(), 64);
    let skin = character.skin.as_ref().unwrap();
    let tip_weight = |v: usize| {
        skin.influences(v)
            .iter()
            .find(|i| i.joint.0 == 1)
            .map_or(0.0, |i| i.weight)
    };
    // The artist's weights survive: none on the middle joint at the base, all of it at the end.
    let (base, end) = (0, character.mesh.vertex_count() - 1);
    assert!(tip_weight(base) < 0.01 && tip_weight(end) > 0.99);
    std::fs::remove_dir_all(&art).ok();
}

/// The whole records of a batch's output folder, as (file, status) pairs sorted by file.
fn batch_records(out: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(out.join("rigkit-batch.jsonl")).unwrap();
    let mut records: Vec<(String, String)> = text
        .lines()
        // A line cut short by an interruption is no record.
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| {
            (
                v["file"].as_str().unwrap().to_owned(),
                v["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    records.sort();
    records
}

/// `rigkit batch`: every asset of a folder rigged into another, a record each; a broken file
/// is recorded with its reason and does not stop the rest; run again, nothing is done twice;
/// an interrupted run (a record cut short, an output missing) resumes with exactly the
/// assets that were not finished.
#[test]
fn batch_rigs_a_folder_and_resumes_without_doing_anything_twice() {
    let root = std::env::temp_dir().join(format!("rigkit-cli-batch-{}", std::process::id()));
    let (input, out) = (root.join("in"), root.join("out"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(input.join("enemies")).unwrap();
    std::fs::copy(data("eval/Fox.glb"), input.join("Fox.glb")).unwrap();
    std::fs::copy(data("eval/CesiumMan.glb"), input.join("CesiumMan.glb")).unwrap();
    let snake = data("eval/quaternius-easy_enemies_pack/Snake.glb");
    std::fs::copy(&snake, input.join("enemies/Snake.glb")).unwrap();
    let bytes = std::fs::read(&snake).unwrap();
    std::fs::write(input.join("enemies/cut.glb"), &bytes[..bytes.len() / 3]).unwrap();
    std::fs::write(input.join("notes.txt"), "not an asset").unwrap();
    let batch =
        |extra: &[&str]| rigkit_with(&["batch".as_ref(), input.as_ref(), out.as_ref()], extra);
    let (ok, stdout, stderr) = batch(&["--jobs", "2"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("3 rigged, 1 failed, 0 done before"),
        "{stdout}"
    );
    let expected = [
        ("CesiumMan.glb", "ok"),
        ("Fox.glb", "ok"),
        ("enemies/Snake.glb", "ok"),
        ("enemies/cut.glb", "error"),
    ];
    let as_owned = |e: &[(&str, &str)]| -> Vec<(String, String)> {
        e.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    };
    assert_eq!(batch_records(&out), as_owned(&expected));
    let text = std::fs::read_to_string(out.join("rigkit-batch.jsonl")).unwrap();
    assert!(
        text.contains("truncated"),
        "the broken file's reason: {text}"
    );
    // What 'auto' recognised and fitted, per asset.
    let fox = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["file"] == "Fox.glb")
        .unwrap();
    assert_eq!(
        (&fox["plan"], &fox["template"]),
        (
            &serde_json::json!("quadruped"),
            &serde_json::json!("rig-fox")
        ),
        "{fox}"
    );
    assert!(fox["confidence"].as_f64().is_some_and(|p| p > 0.5), "{fox}");
    // Each output is a rigged GLB.
    let (ok, info, _) = rigkit(&["info".as_ref(), out.join("enemies/Snake.glb").as_os_str()]);
    assert!(ok && info.contains("joints:"), "{info}");

    // A humanoid batch with Unreal's names.
    let (humans, named) = (root.join("humans"), root.join("named"));
    std::fs::create_dir_all(&humans).unwrap();
    std::fs::copy(data("eval/mannequiny.glb"), humans.join("mannequiny.glb")).unwrap();
    let (ok, _, stderr) = rigkit(&[
        "batch".as_ref(),
        humans.as_os_str(),
        named.as_os_str(),
        "--template".as_ref(),
        "humanoid".as_ref(),
        "--bone-names".as_ref(),
        "unreal".as_ref(),
    ]);
    assert!(ok, "{stderr}");
    // The joint names sit in the GLB's JSON chunk.
    let glb = std::fs::read(named.join("mannequiny.glb")).unwrap();
    let document = String::from_utf8_lossy(&glb);
    for bone in ["pelvis", "spine_01", "thigh_l", "upperarm_r"] {
        assert!(
            document.contains(&format!("\"{bone}\"")),
            "no {bone} in the batch output"
        );
    }
    // Again: nothing to do.
    let (_, stdout, _) = batch(&[]);
    assert!(
        stdout.starts_with("0 rigged, 0 failed, 4 done before"),
        "{stdout}"
    );
    // Interrupted: the Fox's output never landed and the last record was cut short.
    std::fs::remove_file(out.join("Fox.glb")).unwrap();
    let cut = text.trim_end().len() - 10;
    std::fs::write(out.join("rigkit-batch.jsonl"), &text[..cut]).unwrap();
    let (ok, stdout, stderr) = batch(&["--retry-errors"]);
    assert!(ok, "{stderr}");
    // The Fox, the asset whose record was cut, and the failed one retried: no more.
    let redone = stderr.lines().filter(|l| l.starts_with('[')).count();
    assert!((2..=3).contains(&redone), "{stderr}");
    // The three whole records of the first run and one per asset redone.
    assert_eq!(batch_records(&out).len(), 3 + redone, "{stderr}");
    assert!(stdout.contains("1 failed"), "{stdout}");
    let mut after: Vec<(String, String)> = batch_records(&out);
    after.dedup_by(|a, b| a.0 == b.0);
    assert_eq!(after, as_owned(&expected));
    assert!(out.join("Fox.glb").is_file());
    // A folder that is not there, and a bad job count, are refused by name.
    let missing = root.join("nowhere");
    let (ok, _, err) = rigkit_with(&["batch".as_ref(), missing.as_ref(), out.as_ref()], &[]);
    assert!(
        !ok && err.contains("nowhere") && err.contains("not a folder"),
        "{err}"
    );
    let (ok, _, err) = batch(&["--jobs", "0"]);
    assert!(!ok && err.contains("--jobs"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

/// `eval --errors` scores the automatic skeleton against the artist's and says where the error
/// comes from: the artist's joints farthest from ours, and ours farthest from theirs.
#[test]
fn eval_reports_the_skeleton_and_where_its_error_comes_from() {
    let dir = std::env::temp_dir().join(format!("rigkit-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(data("eval/Fox.glb"), dir.join("Fox.glb")).unwrap();
    let report = dir.join("report.json");
    let (ok, stdout, err) = rigkit_with(
        &[
            "lab".as_ref(),
            "eval".as_ref(),
            dir.as_os_str(),
            "--json".as_ref(),
            report.as_os_str(),
        ],
        &["--errors"],
    );
    assert!(ok, "{err}");
    assert!(
        stdout.contains("Fox.glb: artist's joints farthest from the other skeleton's: ")
            && stdout.contains("Fox.glb: ours joints farthest from the other skeleton's: "),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let row = &json["rows"][0];
    // The fox's rig has no IK controls: every joint is scored, and both numbers agree.
    assert_eq!(row["rig_joints"], 24, "{row}");
    let (rig, all) = (
        row["cd_j2j"].as_f64().unwrap(),
        row["cd_j2j_all"].as_f64().unwrap(),
    );
    assert!(rig > 0.5 && rig < 8.0 && (rig - all).abs() < 1e-6, "{row}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_fit_and_eval_landmarks_score_fitted_templates() {
    // The bird on its own body, moved, scaled and turned: its joints land where they were.
    let bird = data("train/mesh2motion-variations/bird-base.glb");
    let library = data("train/mesh2motion-variations");
    let (ok, stdout, stderr) = rigkit_with(
        &["lab".as_ref(), "eval-fit".as_ref(), bird.as_os_str()],
        &[
            "--library",
            library.to_str().unwrap(),
            "--own",
            "--placements",
            "2",
        ],
    );
    assert!(ok, "{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("bird-base.glb"))
        .unwrap();
    let mean: f32 = row.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert!(mean < 1.0, "{stdout}");
    // The fox rig on the eval Fox, whose artist used another skeleton: four feet compared.
    let fox = data("eval/Fox.glb");
    let (ok, stdout, stderr) = rigkit_with(
        &["lab".as_ref(), "eval-landmarks".as_ref(), fox.as_os_str()],
        &["--template", "rig-fox", "--placements", "1"],
    );
    assert!(ok, "{stderr}");
    let row = stdout.lines().find(|l| l.starts_with("Fox.glb")).unwrap();
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(fields[1], "4", "{stdout}");
    let feet: f32 = fields[2].parse().unwrap();
    assert!(feet < 6.0, "{stdout}");
    // A template the library lacks is refused by name, listing the library.
    let (ok, _, stderr) = rigkit_with(
        &["lab".as_ref(), "eval-landmarks".as_ref(), fox.as_os_str()],
        &["--template", "rig-cat"],
    );
    assert!(
        !ok && stderr.contains("unknown template 'rig-cat'") && stderr.contains("rig-fox"),
        "{stderr}"
    );
}

/// `rigkit animate --correctives`: corrective morph targets beside the skin, keyed through
/// the new clip so that engines play them; the file reads back with them.
#[test]
fn animate_adds_correctives_keyed_through_the_clip() {
    let dir = std::env::temp_dir().join(format!("rigkit-cli-correctives-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("corrected.glb");
    let (mannequin, bvh) = (data("eval/mannequiny.glb"), data("motion/cmu/01_01.bvh"));
    let (ok, stdout, stderr) = rigkit_with(
        &[
            "animate".as_ref(),
            mannequin.as_os_str(),
            "--motion".as_ref(),
            bvh.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
        &["--correctives"],
    );
    assert!(ok, "{stderr}");
    assert!(stdout.contains("32 corrective targets"), "{stdout}");
    let bytes = std::fs::read(&out).unwrap();
    let character = rigkit::io::import_files(
        &[rigkit::io::InputFile {
            name: "corrected.glb",
            bytes: &bytes,
        }],
        &rigkit::Limits::default(),
    )
    .unwrap();
    let targets = &character.mesh.morph_targets;
    assert_eq!(targets.len(), 32);
    assert!(targets.iter().all(|t| t.name.starts_with("corrective_")));
    let clip = &character.animations[0];
    let (first, middle) = (
        clip.morph_frame(0, 32).unwrap(),
        clip.morph_frame(clip.frame_count() / 2, 32).unwrap(),
    );
    let moved = first
        .iter()
        .zip(middle)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(moved > 0.05, "corrective weights moved only {moved}");
    std::fs::remove_dir_all(&dir).ok();
}

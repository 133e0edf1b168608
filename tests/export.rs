//! Exported GLBs read back exactly: same vertices in the same order and frame, same skeleton,
//! and skin weights normalised to at most 4 (or 8) influences per vertex.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use common::load;
use rigkit::export::{ExportOptions, export_glb};
use rigkit::io::import;
use rigkit::rig::top_influences;
use rigkit::{Character, Limits};

fn round_trip(c: &Character, options: &ExportOptions) -> Character {
    let glb = export_glb(c, options).unwrap();
    import(&glb, "exported.glb", &Limits::default()).unwrap()
}

/// `c` given a new skeleton and weights by the default rig.
fn rigged_anew(c: &Character) -> Character {
    let mut rigged = c.clone();
    let request = rigkit::pipeline::RigRequest::default();
    rigkit::pipeline::rig_character(&mut rigged, &request, |_| {}).unwrap();
    rigged
}

/// A Quaternius mech of the space kit: a non-joint armature above three root joints (body and
/// two feet), IK pole targets and 17 clips; the small stand-in in `tests/data` for the mech pack.
const MECH: &str = "train/quaternius-glb/ultimate-space-kit/Mech_RaeTheRedPanda.glb";

/// The same vertices in the same order and frame, the same skeleton, and at most 4 normalised
/// influences per vertex.
fn assert_round_trips_exactly(original: &Character, rel: &str) {
    let back = round_trip(original, &ExportOptions::default());
    let scale = original.mesh.bounds().diagonal();
    assert_eq!(
        back.mesh.vertex_count(),
        original.mesh.vertex_count(),
        "{rel}"
    );
    assert_eq!(back.mesh.triangles, original.mesh.triangles, "{rel}");
    for (a, b) in original.mesh.positions.iter().zip(&back.mesh.positions) {
        assert!(
            (*a - *b).length() <= 1e-4 * scale,
            "{rel}: vertex moved {a} → {b}"
        );
    }
    let (s0, s1) = (
        original.skeleton.as_ref().unwrap(),
        back.skeleton.as_ref().unwrap(),
    );
    assert_eq!(s1.joints.len(), s0.joints.len(), "{rel}");
    for (a, b) in s0.joints.iter().zip(&s1.joints) {
        assert_eq!(a.name, b.name, "{rel}");
        assert_eq!(a.parent, b.parent, "{rel}: parent of {}", a.name);
        assert!(
            (a.position() - b.position()).length() <= 1e-4 * scale,
            "{rel}: {}",
            a.name
        );
    }
    let skin = back.skin.as_ref().unwrap();
    for v in 0..skin.vertex_count() {
        let influences = skin.influences(v);
        assert!(
            !influences.is_empty() && influences.len() <= 4,
            "{rel}: vertex {v}"
        );
        let sum: f32 = influences.iter().map(|i| i.weight).sum();
        assert!(
            (sum - 1.0).abs() < 1e-5,
            "{rel}: vertex {v} weights sum to {sum}"
        );
    }
}

#[test]
fn rigged_characters_round_trip() {
    for rel in [
        "eval/Fox.glb",
        "eval/CesiumMan.glb",
        "eval/RobotExpressive.glb",
        MECH,
    ] {
        assert_round_trips_exactly(&load(rel), rel);
    }
}

/// The full mech pack (2.4–3.4 MB each, so not in `tests/data`), as `rigged_characters_round_trip`
/// and `animation_clips_round_trip` check their characters.
#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn the_mech_pack_round_trips_with_its_clips() {
    let dir = common::shared("eval/quaternius-mech_pack");
    let files = common::files_under(&dir, "glb");
    assert!(
        files.len() >= 4,
        "expected 4 mechs in {}: {files:?}",
        dir.display()
    );
    for name in files {
        let rel = format!("eval/quaternius-mech_pack/{name}");
        let original = common::load_path(&dir.join(&name), &rel);
        assert_round_trips_exactly(&original, &rel);
        assert_clips_round_trip(&original, &rel);
    }
}

#[test]
fn cesium_man_weights_come_out_normalised() {
    let original = load("eval/CesiumMan.glb");
    let skin = original.skin.as_ref().unwrap();
    let off = (0..skin.vertex_count())
        .filter(|&v| (skin.influences(v).iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() > 1e-4)
        .count();
    assert!(off > 0, "the input is known to have non-normalised weights");
    let back = round_trip(&original, &ExportOptions::default());
    let skin = back.skin.as_ref().unwrap();
    for v in 0..skin.vertex_count() {
        let sum: f32 = skin.influences(v).iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-5, "vertex {v}: {sum}");
    }
}

#[test]
fn eight_influences_use_a_second_set() {
    let original = load("eval/Fox.glb");
    let glb = export_glb(
        &original,
        &ExportOptions {
            max_influences: 8,
            ..Default::default()
        },
    )
    .unwrap();
    let text = String::from_utf8_lossy(&glb);
    assert!(text.contains("JOINTS_1") && text.contains("WEIGHTS_1"));
    assert!(
        export_glb(
            &original,
            &ExportOptions {
                max_influences: 5,
                ..Default::default()
            }
        )
        .is_err()
    );
}

#[test]
fn unrigged_meshes_export_without_a_skin() {
    let human = load("samples/model-human.glb");
    assert!(human.skeleton.is_none());
    let back = round_trip(&human, &ExportOptions::default());
    assert!(back.skeleton.is_none());
    assert_eq!(back.mesh.vertex_count(), human.mesh.vertex_count());
}

#[test]
fn materials_textures_and_parts_survive_export() {
    for rel in [
        "eval/Fox.glb",
        "eval/CesiumMan.glb",
        "eval/RobotExpressive.glb",
    ] {
        let original = load(rel);
        let back = round_trip(&original, &ExportOptions::default());
        assert_eq!(back.materials, original.materials, "{rel}");
        assert_eq!(back.images, original.images, "{rel}");
        assert_eq!(back.mesh.parts, original.mesh.parts, "{rel}");
        assert_eq!(back.mesh.uvs, original.mesh.uvs, "{rel}");
    }
    let fox = load("eval/Fox.glb");
    assert_eq!(fox.images.len(), 1);
    assert!(fox.materials[0].base_color_image.is_some());
    assert_eq!(fox.mesh.uvs.len(), fox.mesh.vertex_count());
    let robot = load("eval/RobotExpressive.glb");
    assert_eq!(robot.mesh.parts.len(), 19);
    assert_eq!(robot.materials.len(), 3);
}

/// Every GLB of the eval and training sets under `root`, recursively, as `eval/...` and
/// `train/...` paths.
fn eval_and_training_glbs(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for set in ["eval", "train"] {
        for rel in common::files_under(&root.join(set), "glb") {
            out.push(format!("{set}/{rel}"));
        }
    }
    out
}

/// A rigged character keeps its joints, clips and (strongest 4, normalised) weights through an
/// export; an unrigged one is skipped.
fn assert_rig_round_trips(original: &Character, rel: &str) {
    let Some(skeleton) = original.skeleton.as_ref() else {
        return;
    };
    let back = round_trip(original, &ExportOptions::default());
    let scale = original.mesh.bounds().diagonal();
    let joints = &back.skeleton.as_ref().unwrap().joints;
    assert_eq!(joints.len(), skeleton.joints.len(), "{rel}");
    assert_eq!(back.animations.len(), original.animations.len(), "{rel}");
    for (a, b) in skeleton.joints.iter().zip(joints) {
        let moved = a.position().distance(b.position());
        assert!(
            moved <= 1e-5 * scale,
            "{rel}: joint {} moved {moved}",
            a.name
        );
    }
    // Weights as a 4-influence engine sees them: the strongest 4, normalised.
    let (w0, w1) = (original.skin.as_ref().unwrap(), back.skin.as_ref().unwrap());
    for v in 0..w0.vertex_count() {
        let want = top_influences(w0.influences(v), 4);
        if want.is_empty() {
            continue; // bound to nothing: the exporter picks the nearest joint
        }
        let got = w1.influences(v);
        for i in &want {
            let g = got
                .iter()
                .find(|g| g.joint == i.joint)
                .map_or(0.0, |g| g.weight);
            assert!(
                (g - i.weight).abs() <= 1e-3,
                "{rel}: vertex {v} joint {:?}",
                i.joint
            );
        }
    }
}

#[test]
fn every_rig_of_the_test_data_round_trips() {
    let root = common::data("");
    let files = eval_and_training_glbs(&root);
    assert!(files.len() >= 12, "found only {} files", files.len());
    for rel in files {
        assert_rig_round_trips(&load(&rel), &rel);
    }
}

#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn every_eval_and_training_rig_round_trips() {
    let root = common::shared("");
    let files = eval_and_training_glbs(&root);
    assert!(
        files.len() > 140,
        "found only {} files in {}",
        files.len(),
        root.display()
    );
    for rel in files {
        assert_rig_round_trips(&common::load_path(&root.join(&rel), &rel), &rel);
    }
}

/// Every clip comes back with the same name, key times and joint poses; without animations
/// asked for, none.
fn assert_clips_round_trip(original: &Character, rel: &str) {
    assert!(!original.animations.is_empty(), "{rel} has animations");
    let skeleton = original.skeleton.as_ref().unwrap();
    let scale = original.mesh.bounds().diagonal();
    let back = round_trip(original, &ExportOptions::default());
    assert_eq!(back.animations.len(), original.animations.len(), "{rel}");
    for (a, b) in original.animations.iter().zip(&back.animations) {
        assert_eq!(a.name, b.name, "{rel}");
        assert_eq!(a.times.len(), b.times.len(), "{rel} '{}'", a.name);
        for f in 0..a.frame_count() {
            assert!((a.times[f] - b.times[f]).abs() < 1e-6, "{rel}");
            let (wa, wb) = (a.world_matrices(skeleton, f), b.world_matrices(skeleton, f));
            for (j, (ma, mb)) in wa.iter().zip(&wb).enumerate() {
                let d = (ma.w_axis - mb.w_axis).truncate().length();
                assert!(
                    d <= 1e-5 * scale,
                    "{rel} '{}' frame {f}: joint {j} moved {d}",
                    a.name
                );
            }
        }
    }
    let without = ExportOptions {
        animations: false,
        ..Default::default()
    };
    assert!(round_trip(original, &without).animations.is_empty());
}

#[test]
fn animation_clips_round_trip() {
    for rel in [
        "eval/Fox.glb",
        "eval/CesiumMan.glb",
        "eval/RobotExpressive.glb",
        MECH,
    ] {
        assert_clips_round_trip(&load(rel), rel);
    }
}

#[test]
fn clips_move_the_skinned_mesh_but_keep_it_whole() {
    // Fox's walk: posed vertices (linear blend skinning with the clip) move, yet stay within
    // the character's reach; a broken joint transform would fling them far away.
    let fox = load("eval/Fox.glb");
    let skeleton = fox.skeleton.as_ref().unwrap();
    let skin = fox.skin.as_ref().unwrap();
    let walk = fox.animations.iter().find(|c| c.name == "Walk").unwrap();
    let scale = fox.mesh.bounds().diagonal();
    let mut largest = 0.0f32;
    for f in 0..walk.frame_count() {
        let world = walk.world_matrices(skeleton, f);
        for (v, p) in fox.mesh.positions.iter().enumerate() {
            let posed: glam::Vec3 = skin
                .influences(v)
                .iter()
                .map(|i| {
                    let bind = skeleton.joints[i.joint.index()].world_bind;
                    (world[i.joint.index()] * bind.inverse()).transform_point3(*p) * i.weight
                })
                .sum();
            largest = largest.max(posed.distance(*p));
        }
    }
    assert!(
        largest > 0.01 * scale,
        "the walk moves vertices ({largest})"
    );
    assert!(largest < 0.6 * scale, "no vertex is flung away ({largest})");
}

#[test]
fn every_texture_slot_survives_export() {
    let mut fox = load("eval/Fox.glb");
    let m = &mut fox.materials[0];
    m.metallic_roughness_image = Some(0);
    m.normal_image = Some(0);
    m.normal_scale = 0.5;
    m.occlusion_image = Some(0);
    m.occlusion_strength = 0.25;
    m.emissive = [0.1, 0.2, 0.3];
    m.emissive_image = Some(0);
    let back = round_trip(&fox, &ExportOptions::default());
    let (a, b) = (&fox.materials[0], &back.materials[0]);
    assert_eq!(back.images.len(), 1, "one image, shared by every slot");
    assert_eq!(b.base_color_image, Some(0));
    assert_eq!(b.metallic_roughness_image, Some(0));
    assert_eq!(b.normal_image, Some(0));
    assert_eq!(b.occlusion_image, Some(0));
    assert_eq!(b.emissive_image, Some(0));
    assert_eq!(
        (b.normal_scale, b.occlusion_strength, b.emissive),
        (a.normal_scale, a.occlusion_strength, a.emissive)
    );
}

/// Largest offset a morph target gives any vertex.
fn reach(target: &rigkit::mesh::MorphTarget) -> f32 {
    target
        .offsets
        .iter()
        .map(|o| o.length())
        .fold(0.0, f32::max)
}

#[test]
fn morph_targets_survive_rigging_export_and_subdivision() {
    let original = load("eval/RobotExpressive.glb");
    let size = original.mesh.bounds().longest_side();
    let names: Vec<&str> = original
        .mesh
        .morph_targets
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["Angry", "Surprised", "Sad"]);
    for target in &original.mesh.morph_targets {
        assert_eq!(target.offsets.len(), original.mesh.vertex_count());
        // A face moves; the rest of the body does not.
        assert!(
            reach(target) > 1e-3 * size,
            "{}: reach {}",
            target.name,
            reach(target)
        );
        let still = target.offsets.iter().filter(|o| o.length() == 0.0).count();
        assert!(
            still > original.mesh.vertex_count() / 2,
            "{}: {still} still",
            target.name
        );
    }
    // Rigged anew and written out, the targets come back as they were.
    let back = round_trip(&rigged_anew(&original), &ExportOptions::default());
    assert_eq!(back.info().morph_targets, ["Angry", "Surprised", "Sad"]);
    for (a, b) in original
        .mesh
        .morph_targets
        .iter()
        .zip(&back.mesh.morph_targets)
    {
        assert_eq!((a.name.as_str(), a.weight), (b.name.as_str(), b.weight));
        let worst = a
            .offsets
            .iter()
            .zip(&b.offsets)
            .map(|(x, y)| x.distance(*y))
            .fold(0.0, f32::max);
        assert!(worst < 1e-5 * size, "{}: offsets moved {worst}", a.name);
    }
    // Subdivided, every old vertex keeps its offset and a new one lies halfway.
    let (fine, parents) = rigkit::mesh::subdivide(&original.mesh);
    let n = original.mesh.vertex_count();
    for (a, b) in original.mesh.morph_targets.iter().zip(&fine.morph_targets) {
        assert_eq!(&b.offsets[..n], &a.offsets[..]);
        let [p, q] = parents[0];
        let halfway = 0.5 * (a.offsets[p as usize] + a.offsets[q as usize]);
        assert!(b.offsets[n].distance(halfway) < 1e-6);
    }
}

/// The Fox painted from red at its lowest point to blue at its highest.
fn painted_fox() -> Character {
    let mut fox = load("eval/Fox.glb");
    let bounds = fox.mesh.bounds();
    fox.mesh.colors = (fox.mesh.positions.iter())
        .map(|p| {
            let s = (p.y - bounds.min.y) / (bounds.max.y - bounds.min.y);
            glam::Vec4::new(1.0 - s, 0.2, s, 1.0)
        })
        .collect();
    fox
}

/// Vertex colours are read, kept through rigging and subdivision, and written back as
/// COLOR_0 (and in FBX).
#[test]
fn vertex_colours_survive_rigging_export_and_subdivision() {
    // The mannequin's three parts carry near-white colours.
    let mannequin = load("eval/mannequiny.glb");
    assert_eq!(mannequin.mesh.colors.len(), mannequin.mesh.vertex_count());
    assert!(
        (mannequin.mesh.colors.iter()).all(|c| c.min_element() > 0.99 && c.max_element() <= 1.0)
    );
    assert!(load("eval/Fox.glb").mesh.colors.is_empty());
    let fox = painted_fox();
    let back = round_trip(&rigged_anew(&fox), &ExportOptions::default());
    assert_eq!(back.mesh.colors.len(), fox.mesh.colors.len());
    let worst = (fox.mesh.colors.iter().zip(&back.mesh.colors))
        .map(|(a, b)| (*a - *b).abs().max_element())
        .fold(0.0, f32::max);
    assert!(worst < 1e-6, "colours moved {worst}");
    // And through FBX (sRGB there, linear here).
    assert_fbx_round_trips(&fox, "painted fox");
    let (fine, parents) = rigkit::mesh::subdivide(&fox.mesh);
    let n = fox.mesh.vertex_count();
    assert_eq!(fine.colors.len(), fine.vertex_count());
    let [p, q] = parents[0];
    let halfway = 0.5 * (fox.mesh.colors[p as usize] + fox.mesh.colors[q as usize]);
    assert!(fine.colors[n].abs_diff_eq(halfway, 1e-6));
}

/// A second UV set (TEXCOORD_1: lightmaps, detail maps) is kept through glTF and FBX export
/// and subdivision.
#[test]
fn second_uv_sets_survive_export_and_subdivision() {
    let mut fox = load("eval/Fox.glb");
    assert!(fox.mesh.second_uvs.is_empty());
    fox.mesh.second_uvs = (fox.mesh.uvs.iter())
        .map(|uv| glam::Vec2::new(uv.y * 0.5 + 0.25, 1.0 - uv.x))
        .collect();
    let glb = export_glb(&fox, &ExportOptions::default()).unwrap();
    let doc = common::glb_json(&glb);
    assert!(doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_1"].is_u64());
    let back = import(&glb, "fox.glb", &Limits::default()).unwrap();
    assert_eq!(back.mesh.second_uvs, fox.mesh.second_uvs);
    assert_fbx_round_trips(&fox, "fox with a second UV set");
    let (fine, parents) = rigkit::mesh::subdivide(&fox.mesh);
    let [p, q] = parents[0];
    let halfway = 0.5 * (fox.mesh.second_uvs[p as usize] + fox.mesh.second_uvs[q as usize]);
    assert!(fine.second_uvs[fox.mesh.vertex_count()].abs_diff_eq(halfway, 1e-6));
}

/// The file's own shading normals (hard edges, the normals a normal map was baked against)
/// and tangents are kept through rigging, glTF export and subdivision, and the rig does not
/// depend on them: the same body shaded otherwise gets the same skeleton and weights.
#[test]
fn shading_normals_and_tangents_survive_rigging_export_and_subdivision() {
    let mut fox = load("eval/Fox.glb");
    assert!(fox.mesh.tangents.is_empty());
    let plain = rigged_anew(&fox);
    // Every normal tilted 20 degrees about X (what no triangle gives), a tangent across it,
    // the bitangent's side alternating.
    let tilt = glam::Quat::from_rotation_x(20f32.to_radians());
    fox.mesh.normals = fox.mesh.normals.iter().map(|n| tilt * *n).collect();
    fox.mesh.tangents = (fox.mesh.normals.iter().enumerate())
        .map(|(v, n)| {
            n.any_orthonormal_vector()
                .extend(if v % 2 == 0 { 1.0 } else { -1.0 })
        })
        .collect();
    let glb = export_glb(&fox, &ExportOptions::default()).unwrap();
    let doc = common::glb_json(&glb);
    assert!(doc["meshes"][0]["primitives"][0]["attributes"]["TANGENT"].is_u64());
    let close = |a: &Character, b: &Character| {
        let normals =
            (a.mesh.normals.iter().zip(&b.mesh.normals)).all(|(a, b)| a.abs_diff_eq(*b, 1e-5));
        let tangents =
            (a.mesh.tangents.iter().zip(&b.mesh.tangents)).all(|(a, b)| a.abs_diff_eq(*b, 1e-5));
        a.mesh.tangents.len() == b.mesh.tangents.len() && normals && tangents
    };
    let back = import(&glb, "fox.glb", &Limits::default()).unwrap();
    assert!(close(&back, &fox), "glTF round trip");
    // What the glTF validator asks of them: unit directions, the side ±1.
    assert!((back.mesh.tangents.iter()).all(|t| t.truncate().is_normalized() && t.w.abs() == 1.0));
    if let Ok(dir) = std::env::var("RIGKIT_WRITE_TANGENTS") {
        std::fs::write(format!("{dir}/fox-tangents.glb"), &glb).unwrap();
    }
    let rigged = rigged_anew(&fox);
    assert_eq!(rigged.skin, plain.skin, "the weights depend on the shading");
    assert_eq!(
        rigged.skeleton, plain.skeleton,
        "the skeleton depends on the shading"
    );
    assert!(
        close(&round_trip(&rigged, &ExportOptions::default()), &fox),
        "after rigging"
    );
    let (fine, parents) = rigkit::mesh::subdivide(&fox.mesh);
    assert_eq!(fine.tangents.len(), fine.vertex_count());
    let [p, q] = parents[0];
    let (p, q, n) = (p as usize, q as usize, fox.mesh.vertex_count());
    let halfway = (fox.mesh.normals[p] + fox.mesh.normals[q]).normalize();
    assert!(fine.normals[n].abs_diff_eq(halfway, 1e-6));
    assert!(fine.tangents[n].truncate().is_normalized());
    assert_eq!(fine.tangents[n].w, fox.mesh.tangents[p].w);
}

/// Morph targets are written sparse where they move few vertices (the robot's face shapes),
/// with the normals' change: a shaped vertex's rest normal plus its delta is the unit normal
/// of the shaped face, and vertices far from the face keep theirs.
#[test]
fn morph_targets_are_written_sparse_with_their_normals() {
    let robot = load("eval/RobotExpressive.glb");
    let glb = export_glb(&robot, &ExportOptions::default()).unwrap();
    let (document, buffers, _) = gltf::import_slice(&glb).unwrap();
    let data = |b: gltf::Buffer<'_>| Some(&buffers[b.index()].0[..]);
    let mut shaded = 0;
    for primitive in document.meshes().flat_map(|m| m.primitives()) {
        let reader = primitive.reader(data);
        let rest: Vec<[f32; 3]> = reader.read_normals().unwrap().collect();
        for (target, (_, normals, _)) in primitive.morph_targets().zip(reader.read_morph_targets())
        {
            assert!(target.positions().unwrap().sparse().is_some());
            let deltas: Vec<[f32; 3]> = normals.expect("normal deltas").collect();
            assert_eq!(deltas.len(), rest.len());
            let turned: Vec<usize> = (0..rest.len()).filter(|&v| deltas[v] != [0.0; 3]).collect();
            assert!(turned.len() < rest.len() / 2, "{} turned", turned.len());
            for v in turned {
                let n = glam::Vec3::from(rest[v]) + glam::Vec3::from(deltas[v]);
                assert!((n.length() - 1.0).abs() < 1e-3, "vertex {v}: {n}");
                shaded += 1;
            }
        }
    }
    assert!(shaded > 100, "{shaded} shaded vertices");
}

/// RobotExpressive's clips key its face's three morph targets: imported, every key of the
/// file's weight channels is the clip's weight at that time, and written out (glTF and FBX)
/// and read back, the weights come back as they were (also where a clip moves them).
#[test]
fn morph_weight_channels_survive_import_and_export() {
    use gltf::animation::{Property, util::ReadOutputs};
    let robot = load("eval/RobotExpressive.glb");
    let targets = robot.mesh.morph_targets.len();
    assert_eq!(targets, 3);
    let (document, buffers, _) =
        gltf::import_slice(common::read("eval/RobotExpressive.glb")).unwrap();
    let mut keys = 0;
    for animation in document.animations() {
        let clip = (robot.animations.iter())
            .find(|c| Some(c.name.as_str()) == animation.name())
            .unwrap();
        for channel in animation.channels() {
            if channel.target().property() != Property::MorphTargetWeights {
                continue;
            }
            let reader = channel.reader(|b| Some(&buffers[b.index()].0[..]));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            let Some(ReadOutputs::MorphTargetWeights(weights)) = reader.read_outputs() else {
                panic!("{}: weights", clip.name);
            };
            let weights: Vec<f32> = weights.into_f32().collect();
            for (k, t) in times.iter().enumerate() {
                let frame = (clip.times.iter())
                    .position(|c| (c - t).abs() < 1e-5)
                    .unwrap_or_else(|| panic!("{}: no frame at {t}", clip.name));
                let ours = clip.morph_frame(frame, targets).unwrap();
                let theirs = &weights[k * targets..(k + 1) * targets];
                assert!(
                    ours.iter().zip(theirs).all(|(a, b)| (a - b).abs() < 1e-6),
                    "{} at {t}: {ours:?} against {theirs:?}",
                    clip.name
                );
                keys += 1;
            }
        }
    }
    assert!(keys > 100, "{keys} keys");
    // The file holds its face still; make one clip pull faces, each target in turn.
    let robot = pulling_faces(robot);
    let back = round_trip(&robot, &ExportOptions::default());
    assert_eq!(back.animations.len(), robot.animations.len());
    for (a, b) in robot.animations.iter().zip(&back.animations) {
        assert_eq!(
            (&a.name, a.morph_weights.len()),
            (&b.name, b.morph_weights.len())
        );
        let worst = (a.morph_weights.iter().zip(&b.morph_weights))
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-6, "{}: {worst}", a.name);
    }
    let back = assert_fbx_round_trips(&robot, "RobotExpressive pulling faces");
    let keyed = |c: &Character| c.animations[0].morph_weights.len();
    assert_eq!(keyed(&back), keyed(&robot));
}

/// `robot` (RobotExpressive) with its first clip pulling each of the face's three targets in
/// turn from 0 to 1.
fn pulling_faces(mut robot: Character) -> Character {
    let targets = robot.mesh.morph_targets.len();
    let clip = &mut robot.animations[0];
    let frames = clip.frame_count() as f32;
    for (i, w) in clip.morph_weights.iter_mut().enumerate() {
        let (frame, target) = (i / targets, i % targets);
        *w = ((frame as f32 / frames) * 3.0 - target as f32).clamp(0.0, 1.0);
    }
    robot
}

/// `glb`'s JSON chunk changed by `edit`, packed again with the same binary chunk.
fn edit_glb(glb: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut document: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    edit(&mut document);
    let mut json = serde_json::to_vec(&document).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let rest = &glb[20 + json_len..];
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((20 + json.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(rest);
    out
}

/// Vertex colours fewer than the vertices refuse the file by the attribute's name; a morph
/// weight channel with the wrong number of values is skipped with a warning saying why, and
/// the clip keeps its joints.
#[test]
fn broken_colours_and_weight_channels_are_named() {
    let mut fox = load("eval/Fox.glb");
    fox.mesh.colors = vec![glam::Vec4::new(1.0, 0.5, 0.25, 1.0); fox.mesh.vertex_count()];
    let glb = export_glb(&fox, &ExportOptions::default()).unwrap();
    let short = edit_glb(&glb, |d| {
        let colors = d["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"]
            .as_u64()
            .unwrap() as usize;
        let count = d["accessors"][colors]["count"].as_u64().unwrap();
        d["accessors"][colors]["count"] = serde_json::json!(count - 1);
    });
    let err = import(&short, "short.glb", &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("COLOR_0 has"), "{err}");

    let glb = export_glb(&load("eval/RobotExpressive.glb"), &ExportOptions::default()).unwrap();
    let mut clip = String::new();
    let short = edit_glb(&glb, |d| {
        let animation = &d["animations"][0];
        clip = animation["name"].as_str().unwrap().to_owned();
        let channel = (animation["channels"].as_array().unwrap().iter())
            .find(|c| c["target"]["path"] == "weights")
            .unwrap();
        let sampler = channel["sampler"].as_u64().unwrap() as usize;
        let output = animation["samplers"][sampler]["output"].as_u64().unwrap() as usize;
        let count = d["accessors"][output]["count"].as_u64().unwrap();
        d["accessors"][output]["count"] = serde_json::json!(count - 1);
    });
    let back = import(&short, "short.glb", &Limits::default()).unwrap();
    assert!(
        (back.warnings.iter()).any(|w| w.contains(&clip) && w.contains("weights but")),
        "{:?}",
        back.warnings
    );
    let first = &back.animations[0];
    assert_eq!(first.name, clip);
    assert!(first.morph_weights.is_empty() && first.frame_count() > 0);
}

#[test]
fn broken_morph_targets_are_refused_by_name() {
    let glb = export_glb(&load("eval/RobotExpressive.glb"), &ExportOptions::default()).unwrap();
    // A target that moves fewer vertices than its primitive has.
    let short = edit_glb(&glb, |d| {
        let target = d["meshes"][0]["primitives"][0]["targets"][0]["POSITION"]
            .as_u64()
            .unwrap() as usize;
        let count = d["accessors"][target]["count"].as_u64().unwrap();
        d["accessors"][target]["count"] = serde_json::json!(count - 1);
    });
    let err = import(&short, "short.glb", &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("morph target 0 moves"), "{err}");
    // More targets than a character may carry.
    let many = edit_glb(&glb, |d| {
        let first = d["meshes"][0]["primitives"][0]["targets"][0].clone();
        let targets = serde_json::json!(vec![first; 257]);
        for p in d["meshes"][0]["primitives"].as_array_mut().unwrap() {
            p["targets"] = targets.clone();
        }
        d["meshes"][0]["weights"] = serde_json::json!(vec![0.0; 257]);
    });
    let err = import(&many, "many.glb", &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("morph targets"), "{err}");
}

/// Vertices of `c` by position (quantised to a millionth of `size`), for matching vertices
/// across a format that welds or splits them differently.
fn by_position(c: &Character, size: f32) -> std::collections::HashMap<[i64; 3], Vec<usize>> {
    let mut map: std::collections::HashMap<[i64; 3], Vec<usize>> = Default::default();
    for (v, p) in c.mesh.positions.iter().enumerate() {
        map.entry((*p / (1e-6 * size)).round().as_i64vec3().to_array())
            .or_default()
            .push(v);
    }
    map
}

/// The influences of vertex `v` as (joint name, weight), at most 4, normalised, by name.
fn named_influences(c: &Character, v: usize) -> Vec<(String, f32)> {
    let (s, w) = (c.skeleton.as_ref().unwrap(), c.skin.as_ref().unwrap());
    let mut list: Vec<(String, f32)> = top_influences(w.influences(v), 4)
        .iter()
        .map(|i| (s.joints[i.joint.index()].name.clone(), i.weight))
        .collect();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

/// `original` written as FBX by rigkit and read back: the same surface, skeleton (names,
/// parents, bind positions), skin weights by joint name (within 1e-4), blend shapes (names,
/// rest weights, offsets within 1e-5 of the body), vertex colours (within 1e-4), the second
/// UV set (within 1e-5), materials,
/// images and clips (joints and morph target weights).
fn assert_fbx_round_trips(original: &Character, rel: &str) -> Character {
    let fbx = rigkit::export::export_fbx(original, &ExportOptions::default()).unwrap();
    let back = import(&fbx, "exported.fbx", &Limits::default()).unwrap();
    let size = original.mesh.bounds().longest_side();
    let tolerance = 1e-5 * size;
    assert_eq!(
        back.mesh.triangles.len(),
        original.mesh.triangles.len(),
        "{rel}"
    );
    let (a, b) = (back.mesh.bounds(), original.mesh.bounds());
    assert!(
        a.min.distance(b.min) < tolerance && a.max.distance(b.max) < tolerance,
        "{rel}: {a:?} {b:?}"
    );
    let (sb, so) = (
        back.skeleton.as_ref().unwrap(),
        original.skeleton.as_ref().unwrap(),
    );
    assert_eq!(sb.joints.len(), so.joints.len(), "{rel}");
    for (j, k) in sb.joints.iter().zip(&so.joints) {
        assert_eq!(j.name, k.name, "{rel}");
        assert!(
            j.position().distance(k.position()) < tolerance,
            "{rel}: {}",
            j.name
        );
        let parent = |s: &rigkit::rig::Skeleton, p: Option<rigkit::rig::JointId>| {
            p.and_then(|p| s.joint(p)).map(|p| p.name.clone())
        };
        assert_eq!(
            parent(sb, j.parent),
            parent(so, k.parent),
            "{rel}: {}",
            j.name
        );
    }
    // Weights and shape offsets, vertices matched by position (several may share one).
    let originals = by_position(original, size);
    let (mut matched, mut compared) = (0, 0);
    for v in 0..back.mesh.vertex_count() {
        let key = (back.mesh.positions[v] / (1e-6 * size))
            .round()
            .as_i64vec3();
        let Some(candidates) = originals.get(&key.to_array()) else {
            continue;
        };
        compared += 1;
        let weights = named_influences(&back, v);
        let same = candidates.iter().any(|&u| {
            let theirs = named_influences(original, u);
            let weights_match = theirs.len() == weights.len()
                && theirs
                    .iter()
                    .zip(&weights)
                    .all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() < 1e-4);
            let shapes_match = (original.mesh.morph_targets.iter())
                .zip(&back.mesh.morph_targets)
                .all(|(x, y)| x.offsets[u].distance(y.offsets[v]) < tolerance);
            let colour =
                |c: &Character, v: usize| c.mesh.colors.get(v).copied().unwrap_or(glam::Vec4::ONE);
            let colours_match = colour(original, u).abs_diff_eq(colour(&back, v), 1e-4);
            let second_uv = |c: &Character, v: usize| {
                c.mesh
                    .second_uvs
                    .get(v)
                    .copied()
                    .unwrap_or(glam::Vec2::ZERO)
            };
            let uvs_match = second_uv(original, u).abs_diff_eq(second_uv(&back, v), 1e-5);
            weights_match && shapes_match && colours_match && uvs_match
        });
        matched += usize::from(same);
    }
    assert!(
        compared > back.mesh.vertex_count() * 99 / 100,
        "{rel}: {compared}"
    );
    assert_eq!(matched, compared, "{rel}: weights or shape offsets differ");
    let names = |c: &Character| {
        (c.mesh.morph_targets.iter())
            .map(|t| (t.name.clone(), t.weight))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&back), names(original), "{rel}");
    // Materials by colour, images byte for byte.
    let colours = |c: &Character| c.materials.iter().map(|m| m.base_color).collect::<Vec<_>>();
    assert_eq!(
        colours(&back)[..original.materials.len()],
        colours(original)[..],
        "{rel}"
    );
    let images = |c: &Character| c.images.iter().map(|i| i.bytes.len()).collect::<Vec<_>>();
    assert_eq!(images(&back), images(original), "{rel}");
    // Every clip plays the same joint positions and morph target weights (a clip that keys
    // none holds them at rest).
    let targets = original.mesh.morph_targets.len();
    let rest: Vec<f32> = (original.mesh.morph_targets.iter())
        .map(|t| t.weight)
        .collect();
    let weights = |c: &rigkit::rig::Clip, t: f32| {
        c.morph_weights_at(t, targets)
            .unwrap_or_else(|| rest.clone())
    };
    assert_eq!(back.animations.len(), original.animations.len(), "{rel}");
    for (x, y) in original.animations.iter().zip(&back.animations) {
        assert_eq!(x.name, y.name, "{rel}");
        assert!(
            (x.duration() - y.duration()).abs() < 1e-4,
            "{rel} '{}'",
            x.name
        );
        for step in 0..10 {
            let t = x.times[0] + x.duration() * step as f32 / 9.0;
            let (a, b) = (weights(x, t), weights(y, t));
            assert!(
                a.iter().zip(&b).all(|(a, b)| (a - b).abs() < 1e-5),
                "{rel} '{}' at {t}: weights {a:?} against {b:?}",
                x.name
            );
            let (wx, wy) = (x.world_at(so, t), y.world_at(sb, t));
            for (j, (mx, my)) in wx.iter().zip(&wy).enumerate() {
                let d = mx.w_axis.truncate().distance(my.w_axis.truncate());
                assert!(
                    d < 1e-4 * size,
                    "{rel} '{}' at {t}: joint {} off by {d}",
                    x.name,
                    so.joints[j].name
                );
            }
        }
    }
    back
}

/// rigkit's FBX (binary 7.4, centimetres) reads back as the character it was written from:
/// RobotExpressive (parts, materials, three blend shapes, 14 clips), the Fox (a texture, three
/// clips) and a Quaternius mech (root joints beside the hierarchy, 17 clips).
#[test]
fn fbx_export_reads_back_as_the_rig_it_was_written_from() {
    for rel in ["eval/RobotExpressive.glb", "eval/Fox.glb", MECH] {
        let original = load(rel);
        let back = assert_fbx_round_trips(&original, rel);
        assert!(back.warnings.is_empty(), "{rel}: {:?}", back.warnings);
    }
}

/// A mesh without a skeleton is written without one; no clips, no skin.
#[test]
fn unrigged_meshes_export_as_fbx_without_a_skin() {
    let mut c = load("eval/Fox.glb");
    c.skeleton = None;
    c.skin = None;
    let fbx = rigkit::export::export_fbx(&c, &ExportOptions::default()).unwrap();
    let back = import(&fbx, "plain.fbx", &Limits::default()).unwrap();
    assert!(back.skeleton.is_none() && back.skin.is_none());
    assert!(back.animations.is_empty());
    assert_eq!(back.mesh.triangles.len(), c.mesh.triangles.len());
}

/// The python with Blender's `bpy` module: `$RIGKIT_BPY`, else the venv `.ci/setup` makes.
fn blender_python() -> std::path::PathBuf {
    std::env::var_os("RIGKIT_BPY").map_or_else(
        || {
            let home = std::env::var_os("HOME").unwrap_or_default();
            Path::new(&home).join(".cache/rigkit/bpy-venv/bin/python")
        },
        Into::into,
    )
}

/// What Blender made of an FBX (`tests/blender/read_fbx.py`): bones and weighted vertices.
fn read_in_blender(fbx: &[u8], name: &str) -> serde_json::Value {
    let python = blender_python();
    assert!(
        python.exists(),
        "{} is missing: `bash .ci/setup test` installs Blender's bpy from PyPI (or set RIGKIT_BPY)",
        python.display()
    );
    let dir = std::env::temp_dir().join(format!("rigkit-blender-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join(format!("{name}.fbx")), dir.join("read.json"));
    std::fs::write(&input, fbx).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blender/read_fbx.py");
    let run = std::process::Command::new(&python)
        .args([script.as_os_str(), input.as_os_str(), output.as_os_str()])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let json = serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    json
}

/// An FBX rigkit writes imports in Blender 4.5.15 (its own FBX importer, through the bpy wheel:
/// offline tooling, never part of the product) with the same joints (names, parents, places)
/// and the same skin weights by joint name, and its blend shapes and clips.
#[test]
#[ignore = "needs Blender's bpy (bash .ci/setup test installs it)"]
fn blender_imports_rigkits_fbx_with_the_same_joints_and_weights() {
    for rel in ["eval/RobotExpressive.glb", "eval/Fox.glb", MECH] {
        let original = load(rel);
        let fbx = rigkit::export::export_fbx(&original, &ExportOptions::default()).unwrap();
        let blender = read_in_blender(&fbx, &rel.replace('/', "_"));
        let skeleton = original.skeleton.as_ref().unwrap();
        let size = original.mesh.bounds().longest_side();
        let bones = blender["bones"].as_array().unwrap();
        assert_eq!(bones.len(), skeleton.joints.len(), "{rel}");
        let vec3 = |v: &serde_json::Value| {
            let a: Vec<f32> = (v.as_array().unwrap().iter())
                .map(|x| x.as_f64().unwrap() as f32)
                .collect();
            glam::Vec3::new(a[0], a[1], a[2])
        };
        for bone in bones {
            let name = bone["name"].as_str().unwrap();
            let joint = skeleton.joints.iter().find(|j| j.name == name).unwrap();
            let parent = joint
                .parent
                .map(|p| skeleton.joints[p.index()].name.as_str());
            assert_eq!(bone["parent"].as_str(), parent, "{rel}: {name}");
            let d = vec3(&bone["head"]).distance(joint.position());
            assert!(d < 1e-4 * size, "{rel}: {name} is {d} away");
        }
        // Weights by joint name, Blender's vertices (single floats, metres) matched to
        // rigkit's within a hundred-thousandth of the body.
        let cell = 1e-5 * size;
        let mut originals: std::collections::HashMap<[i64; 3], Vec<usize>> = Default::default();
        for (u, q) in original.mesh.positions.iter().enumerate() {
            let key = (*q / cell).floor().as_i64vec3().to_array();
            originals.entry(key).or_default().push(u);
        }
        let vertices = blender["vertices"].as_array().unwrap();
        let mut worst = 0.0f32;
        for v in vertices {
            let p = vec3(&v["position"]);
            let at = (p / cell).floor().as_i64vec3();
            let mut candidates = Vec::new();
            for d in 0..27 {
                let offset = glam::I64Vec3::new(d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1);
                if let Some(list) = originals.get(&(at + offset).to_array()) {
                    let close = |&&u: &&usize| original.mesh.positions[u].distance(p) < cell;
                    candidates.extend(list.iter().filter(close));
                }
            }
            assert!(!candidates.is_empty(), "{rel}: no vertex at {p}");
            let theirs: Vec<(String, f32)> = {
                let mut list: Vec<(String, f32)> = (v["weights"].as_object().unwrap().iter())
                    .map(|(n, w)| (n.clone(), w.as_f64().unwrap() as f32))
                    .collect();
                list.sort_by(|a, b| a.0.cmp(&b.0));
                list
            };
            let l1 = |u: usize| {
                let ours = named_influences(&original, u);
                let weight = |list: &[(String, f32)], n: &str| {
                    list.iter().find(|(m, _)| m == n).map_or(0.0, |x| x.1)
                };
                let names: std::collections::BTreeSet<&str> = (ours.iter().chain(&theirs))
                    .map(|(n, _)| n.as_str())
                    .collect();
                names
                    .into_iter()
                    .map(|n| (weight(&ours, n) - weight(&theirs, n)).abs())
                    .sum::<f32>()
            };
            let best = candidates
                .iter()
                .map(|&u| l1(u))
                .fold(f32::INFINITY, f32::min);
            worst = worst.max(best);
        }
        assert!(worst < 1e-4, "{rel}: weights differ by L1 {worst}");
        let keys: Vec<&str> = (blender["shape_keys"].as_array().unwrap().iter())
            .map(|k| k.as_str().unwrap())
            .collect();
        let names: Vec<&str> = (original.mesh.morph_targets.iter())
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(keys, names, "{rel}");
        let actions = blender["actions"].as_array().unwrap();
        assert_eq!(actions.len(), original.animations.len(), "{rel}");
        println!(
            "{rel}: {} bones, {} vertices, worst weight L1 {worst:.2e}, {} actions",
            bones.len(),
            vertices.len(),
            actions.len()
        );
    }
}

/// Blender plays the morph target weights rigkit's FBX keys: each of RobotExpressive's face
/// targets pulled by a clip comes in as a shape-key curve with a key per frame, reaching the
/// weight the clip gives it.
#[test]
#[ignore = "needs Blender's bpy (bash .ci/setup test installs it)"]
fn blender_plays_the_morph_weights_rigkits_fbx_keys() {
    let robot = pulling_faces(load("eval/RobotExpressive.glb"));
    let fbx = rigkit::export::export_fbx(&robot, &ExportOptions::default()).unwrap();
    let blender = read_in_blender(&fbx, "robot-faces");
    let curves = blender["shape_key_curves"].as_array().unwrap();
    let clip = &robot.animations[0];
    for (t, target) in robot.mesh.morph_targets.iter().enumerate() {
        let path = format!("key_blocks[\"{}\"].value", target.name);
        let curve = (curves.iter())
            .find(|c| c["path"] == path.as_str())
            .unwrap_or_else(|| panic!("no curve {path} in {curves:?}"));
        let keys = curve["keys"].as_array().unwrap();
        assert_eq!(keys.len(), clip.frame_count(), "{path}");
        let highest = (keys.iter())
            .map(|k| k[1].as_f64().unwrap() as f32)
            .fold(f32::MIN, f32::max);
        let ours = (0..clip.frame_count())
            .map(|f| clip.morph_frame(f, 3).unwrap()[t])
            .fold(f32::MIN, f32::max);
        assert!(
            (highest - ours).abs() < 1e-3,
            "{path}: {highest} against {ours}"
        );
    }
}

/// Blender shows the vertex colours rigkit's FBX writes as the colours rigkit holds: a fox
/// painted red to blue, each of Blender's corners within a byte step of the vertex at its place.
#[test]
#[ignore = "needs Blender's bpy (bash .ci/setup test installs it)"]
fn blender_reads_the_vertex_colours_rigkits_fbx_writes() {
    let fox = painted_fox();
    let bounds = fox.mesh.bounds();
    let fbx = rigkit::export::export_fbx(&fox, &ExportOptions::default()).unwrap();
    let blender = read_in_blender(&fbx, "painted-fox");
    let corners = blender["corner_colors"]
        .as_array()
        .expect("Blender has colours");
    assert!(
        corners.len() >= fox.mesh.triangles.len() * 3,
        "{}",
        corners.len()
    );
    let floats = |v: &serde_json::Value| -> Vec<f32> {
        (v.as_array().unwrap().iter())
            .map(|x| x.as_f64().unwrap() as f32)
            .collect()
    };
    let size = bounds.longest_side();
    let mut worst = 0.0f32;
    for corner in corners {
        let p = glam::Vec3::from_slice(&floats(&corner["position"]));
        let theirs = glam::Vec4::from_slice(&floats(&corner["color"]));
        let nearest = (fox.mesh.positions.iter().zip(&fox.mesh.colors))
            .filter(|(q, _)| q.distance(p) < 1e-4 * size)
            .map(|(_, c)| (*c - theirs).abs().max_element())
            .fold(f32::INFINITY, f32::min);
        worst = worst.max(nearest);
    }
    // Blender keeps imported colours as sRGB bytes: a step is 1/255 of sRGB, at most about
    // 0.004 of linear near white.
    assert!(worst < 0.01, "colours differ by {worst}");
}

/// Correctives keep a GLB within twice the size of the same file without them: the fox
/// without its texture and clips (a file of little but its mesh) keeps fewer than all its
/// shapes and stays within 2×; the mannequin, whose file is large beside its shapes, keeps
/// them all.
#[test]
fn correctives_keep_the_file_within_twice_its_size() {
    use rigkit::correctives::{CorrectiveOptions, add_correctives, fit_character};
    let mut bare = load("eval/Fox.glb");
    bare.images.clear();
    for m in &mut bare.materials {
        (m.base_color_image, m.normal_image) = (None, None);
        (
            m.metallic_roughness_image,
            m.occlusion_image,
            m.emissive_image,
        ) = (None, None, None);
    }
    bare.animations.clear();
    for (rel, character, all_kept) in [
        ("fox, bare", bare, false),
        ("mannequin", load("eval/mannequiny.glb"), true),
    ] {
        let without = export_glb(&character, &ExportOptions::default())
            .unwrap()
            .len();
        let unlimited = fit_character(&character, &CorrectiveOptions::default()).unwrap();
        let mut corrected = character.clone();
        let options = CorrectiveOptions {
            file_bytes: Some(without),
            ..Default::default()
        };
        let kept = add_correctives(&mut corrected, &options)
            .unwrap()
            .shapes
            .len();
        let with = export_glb(&corrected, &ExportOptions::default())
            .unwrap()
            .len();
        assert!(
            with <= 2 * without,
            "{rel}: {with} bytes with {kept} correctives, {without} without"
        );
        assert!(kept > 0, "{rel}");
        match all_kept {
            true => assert_eq!(kept, unlimited.shapes.len(), "{rel}"),
            false => assert!(kept < unlimited.shapes.len(), "{rel}: {kept}"),
        }
        println!(
            "{rel}: {kept} of {} shapes, {without} -> {with} bytes",
            unlimited.shapes.len()
        );
    }
}

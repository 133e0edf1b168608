//! The app state every shell drives: loading, drags and edits with undo, poses and clips —
//! what the page does through it, checked natively, including calls in awkward orders.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use glam::{Quat, Vec3};
use rigkit::document::{Change, Document, MotionKind, Pose};

fn fox() -> Document {
    let mut doc = Document::new();
    assert_eq!(doc.load(common::load("eval/Fox.glb")), Change::Character);
    doc
}

fn joint_count(doc: &Document) -> usize {
    doc.skeleton().unwrap().joints.len()
}

#[test]
fn calls_without_a_character_or_joint_are_refused_in_words() {
    let mut doc = Document::new();
    let err = doc.begin_drag(0).unwrap_err().to_string();
    assert!(err.contains("rig it first"), "{err}");
    assert!(
        doc.export_glb(4)
            .unwrap_err()
            .to_string()
            .contains("no character")
    );
    assert_eq!(doc.undo(), None);
    assert_eq!(doc.drag(|_| Vec3::X), Change::None);
    let mut doc = fox();
    let err = doc.begin_drag(10_000).unwrap_err().to_string();
    assert!(err.contains("there is no joint 10000"), "{err}");
    assert!(doc.play(99).unwrap_err().to_string().contains("no clip 99"));
    assert!(doc.turn_joint(10_000, Quat::IDENTITY).is_err());
}

#[test]
fn a_drag_becomes_one_undoable_move() {
    let mut doc = fox();
    let j = 5;
    let from = doc.skeleton().unwrap().joints[j].position();
    doc.begin_drag(j as u32).unwrap();
    assert_eq!(doc.drag(|_| Vec3::new(0.0, 1.0, 0.0)), Change::Skeleton);
    assert_eq!(doc.drag(|_| Vec3::new(0.0, 1.0, 0.0)), Change::Skeleton);
    assert_eq!(doc.end_drag().unwrap(), Change::Rig);
    let moved = doc.skeleton().unwrap().joints[j].position();
    assert!((moved - from - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-4);
    assert_eq!(doc.undo(), Some(Change::Rig));
    let back = doc.skeleton().unwrap().joints[j].position();
    assert!((back - from).length() < 1e-5);
}

#[test]
fn undo_during_a_drag_of_a_new_joint_abandons_the_drag() {
    let mut doc = fox();
    let before = joint_count(&doc);
    let (added, _) = doc.add_joint(3, "").unwrap();
    assert_eq!(joint_count(&doc), before + 1);
    doc.begin_drag(added.0).unwrap();
    doc.drag(|_| Vec3::X);
    // The joint being dragged goes away under the drag.
    assert_eq!(doc.undo(), Some(Change::Rig));
    assert_eq!(joint_count(&doc), before);
    assert_eq!(doc.drag(|_| Vec3::X), Change::None);
    assert_eq!(doc.end_drag().unwrap(), Change::None);
    assert_eq!(doc.redo(), Some(Change::Rig));
    assert_eq!(joint_count(&doc), before + 1);
}

#[test]
fn a_clip_poses_the_joints_and_rest_puts_them_back() {
    let mut doc = fox();
    let bind = doc.shown_joints();
    let (duration, change) = doc.play(0).unwrap();
    assert!(duration > 0.0);
    assert_eq!(change, Change::Pose);
    assert_eq!(doc.seek(0.5 * duration), Change::Pose);
    let posed = doc.shown_joints();
    let moved = bind
        .iter()
        .zip(&posed)
        .filter(|(a, b)| a.distance(**b) > 1e-3)
        .count();
    assert!(moved > 0, "the clip moves no joint");
    assert_eq!(doc.rest(), Change::Pose);
    assert_eq!(doc.pose(), &Pose::Rest);
    assert!(doc.posed_world().is_none());
    assert_eq!(doc.shown_joints(), bind);
    assert_eq!(doc.seek(1.0), Change::None);
}

#[test]
fn playback_advances_wraps_pauses_and_keeps_its_speed() {
    let mut doc = fox();
    let (duration, _) = doc.play(0).unwrap();
    doc.set_speed(2.0).unwrap();
    assert!(doc.set_speed(f32::NAN).is_err() && doc.set_speed(-1.0).is_err());
    assert_eq!(doc.tick(0.25 * duration), Change::Pose);
    assert!((doc.playback().time - 0.5 * duration).abs() < 1e-4);
    doc.tick(0.3 * duration);
    assert!(
        (doc.playback().time - 0.1 * duration).abs() < 1e-3,
        "wraps at the end"
    );
    doc.set_playing(false);
    assert_eq!(doc.tick(1.0), Change::None);
    assert!(!doc.playback().playing);
    assert_eq!(doc.playback().index, Some(0));
    doc.rest();
    assert_eq!(doc.playback().index, None);
    assert_eq!(doc.tick(1.0), Change::None);
    // A new character keeps the speed the user chose.
    doc.load(common::load("eval/Fox.glb"));
    assert_eq!(doc.playback().speed, 2.0);
}

#[test]
fn turning_a_joint_carries_its_children_and_an_edit_ends_the_pose() {
    let mut doc = fox();
    let skeleton = doc.skeleton().unwrap().clone();
    let parent = skeleton
        .joints
        .iter()
        .position(|j| j.parent.is_some())
        .unwrap();
    let child = skeleton
        .joints
        .iter()
        .position(|j| j.parent.map(|p| p.index()) == Some(parent))
        .unwrap();
    let before = doc.shown_joints();
    doc.turn_joint(parent as u32, Quat::from_rotation_z(1.0))
        .unwrap();
    let after = doc.shown_joints();
    assert!(
        before[parent].distance(after[parent]) < 1e-4,
        "the turned joint stays put"
    );
    assert!(
        before[child].distance(after[child]) > 1e-4,
        "its child swings"
    );
    assert!(matches!(doc.pose(), Pose::Turns(_)));
    doc.edit(rigkit::edit::Edit::Rename {
        joint: rigkit::rig::JointId(0),
        name: "renamed".into(),
    })
    .unwrap();
    assert_eq!(doc.pose(), &Pose::Rest);
}

#[test]
fn a_generated_motion_is_listed_kept_and_exported() {
    let mut doc = fox();
    let listed = doc.motions();
    assert!(listed.iter().any(|m| m.kind == MotionKind::Clip));
    let idle = listed
        .iter()
        .find(|m| m.kind == MotionKind::Procedural && m.name == "idle")
        .expect("the fox can idle");
    let (index, change) = doc.animate(&idle.name).unwrap();
    assert_eq!(change, Change::Pose);
    assert_eq!(
        doc.pose(),
        &Pose::Clip {
            index,
            time: 0.0,
            playing: true
        }
    );
    let glb = doc.export_glb(4).unwrap();
    let back = rigkit::io::import(&glb, "fox.glb", &rigkit::Limits::default()).unwrap();
    assert!(back.animations.iter().any(|c| c.name == "idle"));
    assert!(
        doc.animate("moonwalk")
            .unwrap_err()
            .to_string()
            .contains("moonwalk")
    );
}

#[test]
fn a_dropped_capture_plays_on_the_character_and_a_mesh_replaces_it() {
    use rigkit::document::Opened;
    use rigkit::io::InputFile;
    let mut doc = Document::new();
    doc.load(common::load("eval/mannequiny.glb"));
    let bvh = common::read("motion/cmu/01_01.bvh");
    let (opened, change) = doc
        .open(&[InputFile {
            name: "01_01.bvh",
            bytes: &bvh,
        }])
        .unwrap();
    let Opened::Clip { index } = opened else {
        panic!("a BVH was opened as a character: {opened:?}");
    };
    assert_eq!(change, Change::Pose);
    assert_eq!(doc.playback().index, Some(index));
    assert_eq!(doc.character().unwrap().animations[index].name, "01_01");
    // A broken file changes nothing.
    assert!(
        doc.open(&[InputFile {
            name: "x.glb",
            bytes: b"nope"
        }])
        .is_err()
    );
    assert_eq!(doc.playback().index, Some(index));
    let mesh = common::read("samples/model-human.glb");
    let (opened, change) = doc
        .open(&[InputFile {
            name: "model-human.glb",
            bytes: &mesh,
        }])
        .unwrap();
    assert_eq!(change, Change::Character);
    assert!(matches!(
        opened,
        Opened::Character {
            needs_rig: true,
            ..
        }
    ));
}

#[test]
fn a_test_pose_bends_the_legs_without_adding_a_clip() {
    let mut doc = fox();
    let clips = doc.character().unwrap().animations.len();
    let rest = doc.shown_joints();
    assert_eq!(doc.test_pose("walk").unwrap(), Change::Pose);
    assert!(matches!(doc.pose(), Pose::Turns(_)));
    let posed = doc.shown_joints();
    let size = doc.character().unwrap().mesh.bounds().longest_side();
    let moved = rest
        .iter()
        .zip(&posed)
        .filter(|(a, b)| a.distance(**b) > 0.02 * size)
        .count();
    assert!(
        moved >= 4,
        "only {moved} joints moved in the walk's test pose"
    );
    assert_eq!(doc.character().unwrap().animations.len(), clips);
    assert_eq!(doc.rest(), Change::Pose);
    assert_eq!(doc.shown_joints(), rest);
    let err = doc.test_pose("moonwalk").unwrap_err().to_string();
    assert!(err.contains("'moonwalk' is not a motion"), "{err}");
}

#[test]
fn a_humanoid_downloads_with_standard_bone_names_and_keeps_its_own() {
    use rigkit::export::OutputFormat;
    use rigkit::rig::BoneNames;
    let mut doc = Document::new();
    doc.load(common::load("eval/mannequiny.glb"));
    let own = doc.joint_names();
    let (glb, renamed) = doc
        .export_named(OutputFormat::Glb, 4, BoneNames::Unreal)
        .unwrap();
    assert!(renamed >= 15, "{renamed} joints renamed");
    let back = rigkit::io::import(&glb, "unreal.glb", &rigkit::Limits::default()).unwrap();
    let unreal = back.skeleton.as_ref().unwrap().names();
    for name in [
        "pelvis",
        "spine_01",
        "upperarm_l",
        "lowerarm_r",
        "calf_l",
        "head",
    ] {
        assert!(unreal.iter().any(|n| n == name), "no {name} in {unreal:?}");
    }
    assert_eq!(unreal.len(), own.len());
    // The character shown keeps its names.
    assert_eq!(doc.joint_names(), own);
    // A fox has no humanoid joints to rename.
    let (_, renamed) = fox()
        .export_named(OutputFormat::Glb, 4, BoneNames::Mixamo)
        .unwrap();
    assert_eq!(renamed, 0);
}

#[test]
fn correctives_shape_the_posed_surface_follow_edits_and_go_into_the_download() {
    use rigkit::edit::Edit;
    use rigkit::rig::JointId;
    let corrective_targets = |glb: &[u8]| -> usize {
        let back = rigkit::io::import(glb, "c.glb", &rigkit::Limits::default()).unwrap();
        (back.mesh.morph_targets.iter())
            .filter(|t| t.name.starts_with("corrective_"))
            .count()
    };
    let mut doc = Document::new();
    doc.load(common::load("eval/mannequiny.glb"));
    let size = doc.character().unwrap().mesh.bounds().diagonal();
    // The left knee (calf.l) bent 90°, the shin back (toward -Z), where linear blending
    // collapses the joint.
    let knee = doc
        .joint_names()
        .iter()
        .position(|n| n == "calf.l")
        .unwrap() as u32;
    let bend_knee = |doc: &mut Document| {
        doc.turn_joint(knee, Quat::from_rotation_x(90f32.to_radians()))
            .unwrap();
    };
    bend_knee(&mut doc);
    assert_eq!(doc.corrective_offsets(), None, "off until turned on");
    let (shapes, change) = doc.set_correctives(true).unwrap();
    assert!((1..=32).contains(&shapes), "{shapes} shapes");
    assert_eq!(change, Change::Pose);
    let offsets = doc.corrective_offsets().expect("posed, correctives on");
    assert_eq!(
        doc.shapes().correctives,
        offsets,
        "what the difference view paints"
    );
    let moved = offsets.iter().filter(|o| o.length() > 1e-3 * size).count();
    assert!(moved > 20, "{moved} vertices corrected");
    doc.rest();
    assert_eq!(doc.corrective_offsets(), None, "nothing to correct at rest");
    assert_eq!(corrective_targets(&doc.export_glb(4).unwrap()), shapes);

    // An edit (re-skinning) keeps them on, fitted again to the rig as it now is.
    let fitted = doc.correctives().unwrap().unwrap().clone();
    let j = JointId(3);
    let at = doc.skeleton().unwrap().joints[3].position();
    doc.edit(Edit::Move {
        joint: j,
        to: at + Vec3::Y * 0.01 * size,
    })
    .unwrap();
    assert!(doc.correctives_on());
    bend_knee(&mut doc);
    let refitted = doc.correctives().unwrap().unwrap();
    assert_ne!(&fitted, refitted, "fitted to the rig as it was");
    assert!(doc.corrective_offsets().is_some());

    doc.set_correctives(false).unwrap();
    assert_eq!(doc.corrective_offsets(), None);
    assert_eq!(corrective_targets(&doc.export_glb(4).unwrap()), 0);

    // A mesh without a rig cannot have them: refused in words, and they stay off.
    let mut doc = Document::new();
    doc.load(common::load("samples/model-human.glb"));
    let err = doc.set_correctives(true).unwrap_err().to_string();
    assert!(err.contains("no skeleton"), "{err}");
    assert!(!doc.correctives_on());
}

#[test]
fn morph_targets_show_at_their_weights_as_clips_key_them_and_download_as_set() {
    let mut doc = Document::new();
    doc.load(common::load("eval/RobotExpressive.glb"));
    let targets = doc.character().unwrap().mesh.morph_targets.clone();
    assert_eq!(targets.len(), 3);
    for i in 0..3 {
        assert_eq!(doc.set_morph_weight(i, 0.0).unwrap(), Change::Pose);
    }
    assert_eq!(doc.shape_offsets(), None, "nothing moves at weight 0");
    doc.set_morph_weight(1, 0.5).unwrap();
    assert_eq!(doc.morph_weights(), [0.0, 0.5, 0.0]);
    let shown = doc.shape_offsets().unwrap();
    let expected: Vec<Vec3> = targets[1].offsets.iter().map(|o| *o * 0.5).collect();
    assert_eq!(shown, expected);
    // A face is no correction: the difference view paints nothing of it.
    assert!(doc.shapes().correctives.is_empty());
    // The download carries the weight set.
    let back = rigkit::io::import(
        &doc.export_glb(4).unwrap(),
        "robot.glb",
        &rigkit::Limits::default(),
    )
    .unwrap();
    let weights: Vec<f32> = back.mesh.morph_targets.iter().map(|t| t.weight).collect();
    assert_eq!(weights, [0.0, 0.5, 0.0]);
    // A clip that keys them shows its own weights, between its keys.
    let robot = doc.character().unwrap();
    let (index, clip) = (robot.animations.iter().enumerate())
        .find(|(_, c)| c.morph_frame(0, 3).is_some())
        .expect("a clip keying the face");
    let at = 0.37 * clip.duration();
    let keyed = clip.morph_weights_at(clip.times[0] + at, 3).unwrap();
    doc.play(index).unwrap();
    doc.seek(at);
    assert_eq!(doc.morph_weights(), keyed);
    // Refused in words.
    let err = doc.set_morph_weight(7, 1.0).unwrap_err().to_string();
    assert!(err.contains("no morph target 7 (3 in all)"), "{err}");
    let err = doc.set_morph_weight(0, f32::NAN).unwrap_err().to_string();
    assert!(err.contains("must be a number"), "{err}");
}

//! Editing a rig by hand: every edit keeps the rig valid, re-skins, and can be undone.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use glam::Vec3;
use rigkit::Character;
use rigkit::edit::{Edit, EditError, RigEditor};
use rigkit::rig::JointId;
use rigkit::skin::SkinOptions;

fn mannequin() -> Character {
    common::load("eval/mannequiny.glb")
}

fn joint(c: &Character, name: &str) -> JointId {
    let k = c
        .skeleton
        .as_ref()
        .unwrap()
        .joints
        .iter()
        .position(|j| j.name == name)
        .unwrap();
    JointId(k as u32)
}

fn weights_of(c: &Character, j: JointId) -> Vec<f32> {
    let skin = c.skin.as_ref().unwrap();
    (0..skin.vertex_count())
        .map(|v| {
            skin.influences(v)
                .iter()
                .filter(|i| i.joint == j)
                .map(|i| i.weight)
                .sum()
        })
        .collect()
}

fn assert_valid(c: &Character) {
    let skeleton = c.skeleton.as_ref().unwrap();
    for (k, j) in skeleton.joints.iter().enumerate() {
        assert!(
            j.parent.is_none_or(|p| p.index() < k),
            "{}: parents first",
            j.name
        );
    }
    let skin = c.skin.as_ref().unwrap();
    assert_eq!(skin.vertex_count(), c.mesh.vertex_count());
    for v in 0..skin.vertex_count() {
        for i in skin.influences(v) {
            assert!(i.joint.index() < skeleton.joints.len());
        }
    }
}

#[test]
fn moving_a_joint_changes_the_weights_and_undo_brings_them_back() {
    let mut c = mannequin();
    let mut editor = RigEditor::new(SkinOptions::default());
    // Re-skin once so the comparison is between our own skins.
    let elbow = joint(&c, "lowerarm.l");
    let at = c.skeleton.as_ref().unwrap().joints[elbow.index()].position();
    editor
        .apply(
            &mut c,
            Edit::Move {
                joint: elbow,
                to: at,
            },
        )
        .unwrap();
    let before = weights_of(&c, elbow);
    let size = c.mesh.bounds().diagonal();
    let to = at + Vec3::new(0.0, -0.06 * size, 0.0);
    editor
        .apply(&mut c, Edit::Move { joint: elbow, to })
        .unwrap();
    assert_valid(&c);
    assert!(
        c.skeleton.as_ref().unwrap().joints[elbow.index()]
            .position()
            .abs_diff_eq(to, 1e-6)
    );
    let after = weights_of(&c, elbow);
    let changed = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| (*a - *b).abs() > 0.05)
        .count();
    assert!(changed > 50, "only {changed} vertices changed weight");
    assert!(editor.undo(&mut c));
    assert_eq!(weights_of(&c, elbow), before);
    assert!(editor.redo(&mut c));
    assert_eq!(weights_of(&c, elbow), after);
    assert!(!editor.redo(&mut c));
}

#[test]
fn joints_can_be_added_renamed_reparented_and_deleted() {
    let mut c = mannequin();
    let joints = c.skeleton.as_ref().unwrap().joints.len();
    let mut editor = RigEditor::new(SkinOptions::default());
    let hand = joint(&c, "hand.l");
    let at =
        c.skeleton.as_ref().unwrap().joints[hand.index()].position() + Vec3::new(0.02, 0.0, 0.0);
    let added = editor
        .apply(
            &mut c,
            Edit::Add {
                parent: hand,
                at,
                name: "Tip.L".into(),
            },
        )
        .unwrap()
        .joint
        .unwrap();
    assert_valid(&c);
    assert_eq!(c.skeleton.as_ref().unwrap().joints.len(), joints + 1);
    editor
        .apply(
            &mut c,
            Edit::Rename {
                joint: added,
                name: "Finger.L".into(),
            },
        )
        .unwrap();
    assert_eq!(
        c.skeleton.as_ref().unwrap().joints[added.index()].name,
        "Finger.L"
    );
    // Re-parent the new joint to the head: order is fixed up, parents first.
    let head = joint(&c, "head");
    let moved = editor
        .apply(
            &mut c,
            Edit::Reparent {
                joint: added,
                parent: head,
            },
        )
        .unwrap()
        .joint
        .unwrap();
    assert_valid(&c);
    assert_eq!(
        c.skeleton.as_ref().unwrap().joints[moved.index()].parent,
        Some(joint(&c, "head"))
    );
    // Deleting the forearm hands its children to the upper arm.
    let forearm = joint(&c, "lowerarm.l");
    editor
        .apply(&mut c, Edit::Delete { joint: forearm })
        .unwrap();
    assert_valid(&c);
    let hand = joint(&c, "hand.l");
    let parent = c.skeleton.as_ref().unwrap().joints[hand.index()]
        .parent
        .unwrap();
    assert_eq!(
        c.skeleton.as_ref().unwrap().joints[parent.index()].name,
        "upperarm.l"
    );
    // Four undos bring the original skeleton back.
    for _ in 0..4 {
        assert!(editor.undo(&mut c));
    }
    assert_eq!(c.skeleton, mannequin().skeleton);
}

#[test]
fn impossible_edits_are_refused_and_change_nothing() {
    let mut c = mannequin();
    let original = c.skeleton.clone();
    let mut editor = RigEditor::new(SkinOptions::default());
    let root = JointId(0);
    let hand = joint(&c, "hand.l");
    let refusals = [
        (Edit::Delete { joint: root }, "root"),
        (
            Edit::Reparent {
                joint: root,
                parent: hand,
            },
            "below it",
        ),
        (
            Edit::Rename {
                joint: hand,
                name: "  ".into(),
            },
            "empty",
        ),
        (
            Edit::Move {
                joint: JointId(999),
                to: Vec3::ZERO,
            },
            "no joint 999",
        ),
        (
            Edit::Move {
                joint: hand,
                to: Vec3::NAN,
            },
            "finite",
        ),
    ];
    for (edit, words) in refusals {
        let e: EditError = editor.apply(&mut c, edit).unwrap_err();
        assert!(e.to_string().contains(words), "{e}");
        assert_eq!(c.skeleton, original);
    }
    assert!(!editor.can_undo());
}

#[test]
fn an_edit_reskin_matches_a_skin_from_scratch() {
    let mut c = mannequin();
    let mut editor = RigEditor::new(SkinOptions::default());
    let size = c.mesh.bounds().diagonal();
    for (name, dy) in [
        ("lowerarm.l", -0.05),
        ("spine_02", 0.03),
        ("lowerarm.l", 0.05),
    ] {
        let j = joint(&c, name);
        let at = c.skeleton.as_ref().unwrap().joints[j.index()].position();
        editor
            .apply(
                &mut c,
                Edit::Move {
                    joint: j,
                    to: at + Vec3::Y * dy * size,
                },
            )
            .unwrap();
        let scratch = rigkit::skin::geodesic_skin(
            &c.mesh,
            c.skeleton.as_ref().unwrap(),
            &SkinOptions::default(),
        )
        .unwrap();
        let joints = c.skeleton.as_ref().unwrap().joints.len();
        let mut worst = 0.0f32;
        for k in 0..joints {
            let (a, b) = (weights_of(&c, JointId(k as u32)), {
                (0..scratch.vertex_count())
                    .map(|v| {
                        scratch
                            .influences(v)
                            .iter()
                            .filter(|i| i.joint.index() == k)
                            .map(|i| i.weight)
                            .sum::<f32>()
                    })
                    .collect::<Vec<f32>>()
            });
            worst = a
                .iter()
                .zip(&b)
                .map(|(x, y)| (x - y).abs())
                .fold(worst, f32::max);
        }
        assert!(
            worst < 0.02,
            "after moving {name}: weights differ by up to {worst}"
        );
    }
}

#[test]
fn a_mirrored_move_moves_the_twin_across_the_body_and_undoes_as_one() {
    use rigkit::edit::MirrorPlane;
    let mut c = mannequin();
    let plane = MirrorPlane::of(&c.mesh);
    let (left, right) = (joint(&c, "lowerarm.l"), joint(&c, "lowerarm.r"));
    let position =
        |c: &Character, j: JointId| c.skeleton.as_ref().unwrap().joints[j.index()].position();
    let (left_was, right_was) = (position(&c, left), position(&c, right));
    let before = c.clone();
    let mut editor = RigEditor::new(SkinOptions::default());
    let to = left_was + Vec3::new(0.02, 0.03, 0.01);
    editor
        .apply(&mut c, Edit::MirroredMove { joint: left, to })
        .unwrap();
    assert_valid(&c);
    assert!(position(&c, left).distance(to) < 1e-6);
    assert!(
        position(&c, right).distance(plane.reflect(to)) < 1e-6,
        "the right forearm is at {} instead of {}",
        position(&c, right),
        plane.reflect(to)
    );
    assert!(position(&c, right).distance(right_was) > 0.01);
    // Every other joint stays.
    let moved = (0..c.skeleton.as_ref().unwrap().joints.len())
        .filter(|&k| position(&c, JointId(k as u32)) != position(&before, JointId(k as u32)))
        .count();
    assert_eq!(moved, 2);
    assert!(editor.undo(&mut c));
    assert_eq!(position(&c, left), left_was);
    assert_eq!(position(&c, right), right_was);
    // The head sits on the middle line: it is its own twin and moves alone.
    let head = joint(&c, "head");
    let up = position(&c, head) + Vec3::new(0.0, 0.05, 0.0);
    editor
        .apply(
            &mut c,
            Edit::MirroredMove {
                joint: head,
                to: up,
            },
        )
        .unwrap();
    assert!(position(&c, head).distance(up) < 1e-6);
}

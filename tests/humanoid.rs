//! The humanoid template: Mixamo names on the right joints, in any frame, symmetric on a
//! symmetric body, and a clear refusal for bodies that are not humanoid.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::load;
use glam::{Mat4, Quat, Vec3};
use rigkit::Character;
use rigkit::mesh::winding_number;
use rigkit::rig::Skeleton;
use rigkit::skeleton::{AutoOptions, RigError, Template, fit_skeleton};

/// mannequiny's joints and the Mixamo joints they correspond to.
const CORRESPONDENCE: [(&str, &str); 15] = [
    ("pelvis", "Hips"),
    ("head", "Head"),
    ("upperarm.l", "LeftArm"),
    ("lowerarm.l", "LeftForeArm"),
    ("hand.l", "LeftHand"),
    ("upperarm.r", "RightArm"),
    ("lowerarm.r", "RightForeArm"),
    ("hand.r", "RightHand"),
    ("thigh.l", "LeftUpLeg"),
    ("calf.l", "LeftLeg"),
    ("foot.l", "LeftFoot"),
    ("ball.l", "LeftToeBase"),
    ("thigh.r", "RightUpLeg"),
    ("calf.r", "RightLeg"),
    ("foot.r", "RightFoot"),
];

fn position(s: &Skeleton, name: &str) -> Vec3 {
    s.joints
        .iter()
        .find(|j| j.name == name)
        .unwrap_or_else(|| panic!("no joint {name}"))
        .position()
}

fn humanoid(c: &Character) -> Skeleton {
    fit_skeleton(&c.mesh, Template::Humanoid, &AutoOptions::default()).unwrap()
}

fn assert_fits_artist(c: &Character, fitted: &Skeleton, what: &str) {
    let artist = c.skeleton.as_ref().unwrap();
    let height = c.mesh.bounds().longest_side();
    for (theirs, ours) in CORRESPONDENCE {
        let d = position(artist, theirs).distance(position(fitted, &format!("mixamorig:{ours}")));
        assert!(
            d < 0.08 * height,
            "{what}: {ours} is {d} from the artist's {theirs}"
        );
    }
}

#[test]
fn mannequin_joints_get_mixamo_names_where_the_artist_put_them() {
    let c = load("eval/mannequiny.glb");
    let fitted = humanoid(&c);
    for name in [
        "Hips",
        "Spine",
        "Spine1",
        "Spine2",
        "Neck",
        "Head",
        "LeftShoulder",
        "LeftArm",
        "LeftForeArm",
        "LeftHand",
        "RightShoulder",
        "RightArm",
        "RightForeArm",
        "RightHand",
        "LeftUpLeg",
        "LeftLeg",
        "LeftFoot",
        "LeftToeBase",
        "RightUpLeg",
        "RightLeg",
        "RightFoot",
        "RightToeBase",
    ] {
        position(&fitted, &format!("mixamorig:{name}"));
    }
    assert_fits_artist(&c, &fitted, "mannequiny");
    for j in &fitted.joints {
        let w = winding_number(&c.mesh.positions, &c.mesh.triangles, j.position());
        assert!(w > 0.5, "{} is outside the body (winding {w})", j.name);
    }
}

#[test]
fn a_symmetric_body_gets_a_mirror_symmetric_skeleton() {
    let c = load("eval/mannequiny.glb");
    let fitted = humanoid(&c);
    let height = c.mesh.bounds().longest_side();
    let hips = position(&fitted, "mixamorig:Hips");
    // The mirror plane: through the hips, across the line between the hands.
    let side = (position(&fitted, "mixamorig:LeftHand") - position(&fitted, "mixamorig:RightHand"))
        .normalize();
    let mirror = |p: Vec3| p - side * (2.0 * (p - hips).dot(side));
    // Tips (`…_End`) only mark where the last bone ends; the joints that bend must mirror.
    for j in fitted
        .joints
        .iter()
        .filter(|j| j.name.contains(":Left") && !j.name.ends_with("_End"))
    {
        let right = position(&fitted, &j.name.replace(":Left", ":Right"));
        let d = mirror(j.position()).distance(right);
        assert!(d < 0.01 * height, "{} and its mirror differ by {d}", j.name);
    }
}

#[test]
fn the_template_fits_in_any_frame_without_assuming_y_up() {
    let mut c = load("eval/mannequiny.glb");
    // Z up, facing −X, in centimetres, somewhere else.
    let frame = Mat4::from_scale_rotation_translation(
        Vec3::splat(100.0),
        Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2)
            * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        Vec3::new(30.0, -500.0, 12.0),
    );
    for p in &mut c.mesh.positions {
        *p = frame.transform_point3(*p);
    }
    for j in &mut c.skeleton.as_mut().unwrap().joints {
        j.world_bind = frame * j.world_bind;
    }
    let fitted = humanoid(&c);
    assert_fits_artist(&c, &fitted, "mannequiny in a Z-up frame");
}

#[test]
fn non_humanoids_are_refused_with_a_reason() {
    let snake = load("eval/quaternius-easy_enemies_pack/Snake.glb");
    let error = fit_skeleton(&snake.mesh, Template::Humanoid, &AutoOptions::default()).unwrap_err();
    assert!(matches!(error, RigError::NotHumanoid { .. }), "{error}");
    assert!(
        error.to_string().contains("humanoid template does not fit"),
        "{error}"
    );
}

/// `--bone-names`: a fitted humanoid renamed to each standard keeps every joint's role (so
/// clips still retarget by name), gives no name twice, uses each convention's own names,
/// and renamed back to Mixamo's is the skeleton it was.
#[test]
fn humanoid_joints_take_each_standard_naming() {
    use rigkit::rig::{BoneNames, humanoid_role, rename_humanoid};
    let c = load("train/mesh2motion-variations/human-zombie.glb");
    let fitted = fit_skeleton(&c.mesh, Template::Humanoid, &AutoOptions::default()).unwrap();
    let expect: [(BoneNames, &[&str]); 4] = [
        (
            BoneNames::Unity,
            &[
                "Hips",
                "Chest",
                "UpperChest",
                "LeftUpperArm",
                "RightLowerLeg",
                "LeftToes",
            ],
        ),
        (
            BoneNames::Vrm,
            &[
                "hips",
                "spine",
                "upperChest",
                "leftUpperArm",
                "rightLowerLeg",
                "leftToes",
            ],
        ),
        (
            BoneNames::Unreal,
            &[
                "pelvis",
                "spine_01",
                "spine_03",
                "neck_01",
                "upperarm_l",
                "calf_r",
                "ball_l",
            ],
        ),
        (
            BoneNames::Mixamo,
            &[
                "mixamorig:Hips",
                "mixamorig:Spine2",
                "mixamorig:LeftArm",
                "mixamorig:RightUpLeg",
            ],
        ),
    ];
    for (names, wanted) in expect {
        let mut renamed = fitted.clone();
        let count = rename_humanoid(&mut renamed, names);
        let all: Vec<&str> = renamed.joints.iter().map(|j| j.name.as_str()).collect();
        for w in wanted {
            assert!(all.contains(w), "{names:?}: no {w} in {all:?}");
        }
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            all.len(),
            "{names:?}: a name given twice: {all:?}"
        );
        for (a, b) in fitted.joints.iter().zip(&renamed.joints) {
            if humanoid_role(&a.name).is_some() {
                assert_eq!(
                    humanoid_role(&a.name),
                    humanoid_role(&b.name),
                    "{} → {}",
                    a.name,
                    b.name
                );
            }
        }
        if names != BoneNames::Mixamo {
            assert!(count >= 20, "{names:?}: {count} renamed");
            rename_humanoid(&mut renamed, BoneNames::Mixamo);
            assert_eq!(renamed, fitted, "{names:?} and back");
        }
    }
}

//! Motion on any rig: retargeted captures and clips, and procedural motions for every kind of
//! creature the generator makes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use glam::{Mat4, Quat, Vec3};
use rigkit::anim::{
    BodyPlan, Motion, RetargetOptions, SourceMotion, joint_map, motions_for, procedural_clip,
    retarget,
};
use rigkit::dataset::body_plans::class_of_path;
use rigkit::dataset::creature::{Morphology, generate};
use rigkit::io::bvh::Bvh;
use rigkit::recognise::BodyClass;
use rigkit::rig::{Clip, Joint, JointId, Skeleton};

fn cmu(name: &str) -> Bvh {
    let text = String::from_utf8(common::read(&format!("motion/cmu/{name}"))).unwrap();
    Bvh::parse(&text, name).unwrap()
}

fn height(skeleton: &Skeleton) -> f32 {
    let ys = skeleton.joints.iter().map(|j| j.position().y);
    ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min)
}

/// Every local transform of every frame is finite.
fn assert_finite(clip: &Clip) {
    for t in &clip.locals {
        assert!(
            t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite(),
            "{}: non-finite key",
            clip.name
        );
    }
}

/// World joint positions per frame.
fn positions(skeleton: &Skeleton, clip: &Clip) -> Vec<Vec<Vec3>> {
    (0..clip.frame_count())
        .map(|f| {
            clip.world_matrices(skeleton, f)
                .iter()
                .map(|m| m.w_axis.truncate())
                .collect()
        })
        .collect()
}

#[test]
fn a_capture_retargeted_onto_its_own_skeleton_reproduces_every_joint() {
    let bvh = cmu("01_01.bvh");
    let source = SourceMotion::from_bvh(&bvh, "01_01").unwrap();
    let skeleton = bvh.to_skeleton();
    let options = RetargetOptions {
        keep_feet_above_ground: false,
    };
    let clip = retarget(&source, &skeleton, &options).unwrap();
    assert_finite(&clip);
    assert_eq!(clip.frame_count(), source.world.len());
    let tolerance = 1e-4 * height(&skeleton);
    for (f, frame) in positions(&skeleton, &clip).iter().enumerate() {
        for (j, p) in frame.iter().enumerate() {
            let want = source.world[f][j].w_axis.truncate();
            assert!(
                p.distance(want) <= tolerance,
                "frame {f} joint {j}: {p} vs {want}"
            );
        }
    }
}

#[test]
fn a_gltf_clip_retargeted_onto_its_own_skeleton_reproduces_every_joint() {
    let fox = common::load("eval/Fox.glb");
    let skeleton = fox.skeleton.as_ref().unwrap();
    for clip in &fox.animations {
        let source = SourceMotion::from_clip(skeleton, clip).unwrap();
        let options = RetargetOptions {
            keep_feet_above_ground: false,
        };
        let out = retarget(&source, skeleton, &options).unwrap();
        let tolerance = 1e-4 * height(skeleton).max(fox.mesh.bounds().size().y);
        for (f, frame) in positions(skeleton, &out).iter().enumerate() {
            for (j, p) in frame.iter().enumerate() {
                let want = source.world[f][j].w_axis.truncate();
                assert!(
                    p.distance(want) <= tolerance,
                    "{} frame {f} joint {j}",
                    clip.name
                );
            }
        }
    }
}

#[test]
fn a_walk_retargeted_onto_other_proportions_keeps_the_feet_on_the_ground() {
    let bvh = cmu("01_01.bvh");
    let source = SourceMotion::from_bvh(&bvh, "01_01").unwrap();
    for file in [
        "train/mesh2motion-variations/human-zombie.glb",
        "eval/mannequiny.glb",
    ] {
        let character = common::load(file);
        let skeleton = character.skeleton.as_ref().unwrap();
        let map = joint_map(&source.skeleton, skeleton);
        assert!(
            map.iter().flatten().count() >= 15,
            "{file}: {} joints matched",
            map.iter().flatten().count()
        );
        let clip = retarget(&source, skeleton, &RetargetOptions::default()).unwrap();
        assert_finite(&clip);
        let feet: Vec<usize> = rigkit::rig::humanoid_roles(skeleton)
            .into_iter()
            .filter(|(r, _)| {
                matches!(
                    r,
                    rigkit::rig::HumanoidRole::Foot(_) | rigkit::rig::HumanoidRole::Toes(_)
                )
            })
            .map(|(_, j)| j.index())
            .collect();
        assert!(feet.len() >= 2, "{file}: feet {feet:?}");
        let ground = feet
            .iter()
            .map(|&f| skeleton.joints[f].position().y)
            .fold(f32::MAX, f32::min);
        let h = character.mesh.bounds().size().y;
        let poses = positions(skeleton, &clip);
        let mut floating = 0;
        for (f, frame) in poses.iter().enumerate() {
            let lowest = feet.iter().map(|&j| frame[j].y).fold(f32::MAX, f32::min);
            assert!(
                lowest >= ground - 1e-3 * h,
                "{file} frame {f}: a foot {:.3} below ground",
                ground - lowest
            );
            if lowest > ground + 0.05 * h {
                floating += 1;
            }
        }
        // The capture jumps now and then: the character may leave the ground only as often.
        let source_feet: Vec<usize> = rigkit::rig::humanoid_roles(&source.skeleton)
            .into_iter()
            .filter(|(r, _)| {
                matches!(
                    r,
                    rigkit::rig::HumanoidRole::Foot(_) | rigkit::rig::HumanoidRole::Toes(_)
                )
            })
            .map(|(_, j)| j.index())
            .collect();
        let source_lowest: Vec<f32> = source
            .world
            .iter()
            .map(|w| {
                source_feet
                    .iter()
                    .map(|&j| w[j].w_axis.y)
                    .fold(f32::MAX, f32::min)
            })
            .collect();
        let floor = source_lowest.iter().copied().fold(f32::MAX, f32::min);
        let source_h = height(&source.skeleton);
        let airborne = source_lowest
            .iter()
            .filter(|&&y| y > floor + 0.07 * source_h)
            .count();
        assert!(
            floating <= airborne + poses.len() / 50,
            "{file}: feet off the ground in {floating} of {} frames, the capture's in {airborne}",
            poses.len()
        );
        // It walks: the hips travel.
        let hips = map
            .iter()
            .position(|s| s.is_some_and(|s| source.skeleton.joints[s.index()].parent.is_none()))
            .unwrap();
        let travel = poses[0][hips].distance(poses[poses.len() - 1][hips]);
        assert!(travel > 0.5 * h, "{file}: hips travelled only {travel}");
    }
}

#[test]
fn procedural_walks_move_the_legs_of_every_legged_creature() {
    let legged = [
        Morphology::Biped,
        Morphology::Quadruped,
        Morphology::Hexapod,
        Morphology::Octopod,
        Morphology::Bird,
        Morphology::MultiHeaded,
        Morphology::Robot,
    ];
    for morphology in legged {
        for seed in 0..4 {
            let creature = generate(seed, Some(morphology));
            let skeleton = creature.skeleton.as_ref().unwrap();
            let plan = BodyPlan::of(skeleton).unwrap();
            let expected = match morphology {
                Morphology::Hexapod => 6,
                Morphology::Octopod => 8,
                Morphology::Quadruped => 4,
                Morphology::Biped | Morphology::Bird => 2,
                _ => 2,
            };
            assert!(
                plan.legs.len() >= expected,
                "{}: {} legs found",
                creature.name,
                plan.legs.len()
            );
            let clip = procedural_clip(skeleton, Motion::Walk).unwrap();
            assert_finite(&clip);
            let poses = positions(skeleton, &clip);
            let size = creature.mesh.bounds().longest_side();
            for leg in &plan.legs {
                let tip = leg[leg.len() - 1].index();
                let reach = poses
                    .iter()
                    .map(|p| p[tip].distance(poses[0][tip]))
                    .fold(0.0, f32::max);
                assert!(
                    reach > 0.03 * size,
                    "{}: leg tip {} moves {reach}",
                    creature.name,
                    skeleton.joints[tip].name
                );
            }
            // A seamless loop.
            let (first, last) = (clip.frame(0), clip.frame(clip.frame_count() - 1));
            for (a, b) in first.iter().zip(last) {
                assert!(a.rotation.angle_between(b.rotation) < 1e-3);
            }
        }
    }
}

#[test]
fn every_creature_has_a_motion_and_none_produces_nan() {
    for morphology in Morphology::EVERY {
        for seed in 0..3 {
            let creature = generate(seed, Some(morphology));
            let skeleton = creature.skeleton.as_ref().unwrap();
            let mut made = Vec::new();
            for motion in Motion::ALL {
                if let Ok(clip) = procedural_clip(skeleton, motion) {
                    assert_finite(&clip);
                    assert!(clip.fits(skeleton));
                    made.push(motion.name());
                }
            }
            assert!(made.contains(&"idle"), "{}: {made:?}", creature.name);
            let expected = match morphology {
                Morphology::Bird => "flap",
                Morphology::Fish | Morphology::Snake | Morphology::Tentacled => "wave",
                _ => "walk",
            };
            assert!(made.contains(&expected), "{}: {made:?}", creature.name);
        }
    }
}

#[test]
fn animate_writes_a_clip_the_importer_reads_back() {
    let dir = std::env::temp_dir().join(format!("rigkit-animate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rigged = dir.join("quadruped.glb");
    let creature = generate(2, Some(Morphology::Quadruped));
    let glb = rigkit::export::export_glb(&creature, &Default::default()).unwrap();
    std::fs::write(&rigged, glb).unwrap();
    let bvh = common::data("motion/cmu/01_01.bvh");
    let mannequin = common::data("eval/mannequiny.glb");
    for (input, motion, frames) in [
        (rigged.as_path(), "walk".to_owned(), 31),
        (mannequin.as_path(), bvh.display().to_string(), 100),
    ] {
        let out = dir.join("out.glb");
        let status = Command::new(env!("CARGO_BIN_EXE_rigkit"))
            .arg("animate")
            .arg(input)
            .args(["--motion", &motion, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        let back = rigkit::io::import(
            &std::fs::read(&out).unwrap(),
            "out.glb",
            &Default::default(),
        )
        .unwrap();
        assert_eq!(back.animations.len(), 1);
        assert!(back.animations[0].frame_count() >= frames);
        assert!(back.animations[0].fits(back.skeleton.as_ref().unwrap()));
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_rigkit"))
        .arg("animate")
        .arg(&rigged)
        .args(["--motion", "dance", "-o"])
        .arg(dir.join("x.glb"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'dance' is neither"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn skeletons_with_unrelated_names_are_matched_by_their_hierarchy() {
    let creature = generate(1, Some(Morphology::Quadruped));
    let skeleton = creature.skeleton.as_ref().unwrap();
    let clip = procedural_clip(skeleton, Motion::Walk).unwrap();
    let source = SourceMotion::from_clip(skeleton, &clip).unwrap();
    let mut renamed = skeleton.clone();
    for (k, joint) in renamed.joints.iter_mut().enumerate() {
        joint.name = format!("bone{k:03}");
    }
    let map = joint_map(skeleton, &renamed);
    let inner = (0..skeleton.joints.len())
        .filter(|&j| {
            skeleton
                .joints
                .iter()
                .any(|c| c.parent.is_some_and(|p| p.index() == j))
        })
        .count();
    let same = map
        .iter()
        .enumerate()
        .filter(|(t, s)| s.is_some_and(|s| s.index() == *t))
        .count();
    assert!(
        same >= inner,
        "{same} of {inner} inner joints matched to themselves"
    );
    assert!(
        map.iter()
            .enumerate()
            .all(|(t, s)| s.is_none_or(|s| s.index() == t))
    );
    let options = RetargetOptions {
        keep_feet_above_ground: false,
    };
    let out = retarget(&source, &renamed, &options).unwrap();
    let size = creature.mesh.bounds().longest_side();
    for (f, frame) in positions(&renamed, &out).iter().enumerate() {
        for (j, p) in frame.iter().enumerate() {
            let want = source.world[f][j].w_axis.truncate();
            assert!(p.distance(want) <= 1e-4 * size, "frame {f} joint {j}");
        }
    }
}

/// A capture in another frame and unit: the CMU walk turned Z-up and scaled to centimetres
/// (as a Blender or 3ds Max export would be) retargets onto the mannequin exactly as its Y-up
/// twin does — the same joint rotations every frame, the same path on the floor.
#[test]
fn a_z_up_centimetre_capture_retargets_like_its_y_up_twin() {
    use glam::{Mat4, Quat};
    let walk = SourceMotion::from_bvh(&cmu("01_01.bvh"), "walk").unwrap();
    // Y-up to Z-up is a quarter turn about +X; then ×2.54 (inches to centimetres).
    let frame = Mat4::from_scale(Vec3::splat(2.54))
        * Mat4::from_quat(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
    let moved = |m: Mat4| {
        let (s, r, t) = m.to_scale_rotation_translation();
        let (_, turn, _) = frame.to_scale_rotation_translation();
        Mat4::from_scale_rotation_translation(s, turn * r, frame.transform_point3(t))
    };
    let mut twin = walk.clone();
    for joint in &mut twin.skeleton.joints {
        joint.world_bind = moved(joint.world_bind);
    }
    for m in twin.world.iter_mut().flatten() {
        *m = moved(*m);
    }
    assert!(
        (twin.skeleton.joints[0].position().z - 2.54 * walk.skeleton.joints[0].position().y).abs()
            < 1e-3,
        "the twin stands along Z"
    );
    let mannequin = common::load("eval/mannequiny.glb");
    let target = mannequin.skeleton.unwrap();
    let options = RetargetOptions::default();
    let a = retarget(&walk, &target, &options).unwrap();
    let b = retarget(&twin, &target, &options).unwrap();
    assert_eq!(a.locals.len(), b.locals.len());
    let size = height(&target);
    let (mut turn, mut shift) = (0.0f32, 0.0f32);
    for (x, y) in a.locals.iter().zip(&b.locals) {
        turn = turn.max(x.rotation.angle_between(y.rotation));
        shift = shift.max(x.translation.distance(y.translation) / size);
    }
    assert!(turn < 1e-2, "joint rotations differ by up to {turn} rad");
    assert!(
        shift < 1e-3,
        "joints move differently by up to {shift} of the height"
    );
}

/// A motion file that holds no usable motion is refused in words naming it: an empty file, a
/// mesh without clips, a clip number past the last, and a capture opened as a character.
#[test]
fn motion_files_without_the_motion_asked_for_are_refused_by_name() {
    let limits = rigkit::Limits::default();
    let err = |bytes: &[u8], name: &str, clip: usize| {
        rigkit::read::motion(bytes, name, clip, &limits)
            .unwrap_err()
            .to_string()
    };
    let empty = err(b"", "empty.bvh", 0);
    assert!(empty.contains("'empty.bvh' is empty"), "{empty}");
    let mesh = common::read("samples/model-human.glb");
    let none = err(&mesh, "model-human.glb", 0);
    assert!(
        none.contains("'model-human.glb' has no animation clip"),
        "{none}"
    );
    let fox = common::read("eval/Fox.glb");
    let past = err(&fox, "Fox.glb", 9);
    assert!(
        past.contains("'Fox.glb' has 3 clips; there is no clip 9"),
        "{past}"
    );
    let bvh = common::read("motion/cmu/01_01.bvh");
    let as_character = rigkit::io::import(&bvh, "01_01.bvh", &limits)
        .unwrap_err()
        .to_string();
    assert!(
        as_character.contains("motion capture (BVH)"),
        "{as_character}"
    );
    let walk = rigkit::read::motion(&bvh, "captures/01_01.bvh", 0, &limits).unwrap();
    assert_eq!(walk.name, "01_01");
}

/// Artists' rigs as they come: legs under several roots (the Khronos fox's legs hang off the
/// body, the Quaternius rat's feet are IK targets off the root, the robot's too), humans,
/// a mech. `walk` finds their legs and moves every one; a foot target goes with its leg; `idle`
/// plays on all.
#[test]
fn walk_and_idle_play_on_artists_rigs() {
    let rigs = [
        ("eval/Fox.glb", 4),
        ("eval/quaternius-easy_enemies_pack/Rat.glb", 4),
        ("eval/RobotExpressive.glb", 2),
        ("eval/CesiumMan.glb", 2),
        ("eval/mannequiny.glb", 2),
        ("train/mesh2motion-variations/human-zombie.glb", 2),
        (
            "train/quaternius-glb/ultimate-space-kit/Mech_RaeTheRedPanda.glb",
            2,
        ),
        ("train/mesh2motion-variations/bird-base.glb", 2),
    ];
    for (file, legs) in rigs {
        let character = common::load(file);
        let skeleton = character.skeleton.as_ref().unwrap();
        let plan = BodyPlan::of(skeleton).unwrap();
        assert_eq!(plan.legs.len(), legs, "{file}: legs {:?}", plan.legs);
        let size = character.mesh.bounds().longest_side();
        let clip = procedural_clip(skeleton, Motion::Walk).unwrap();
        assert_finite(&clip);
        let poses = positions(skeleton, &clip);
        let travel = |j: usize| {
            poses
                .iter()
                .map(|p| p[j].distance(poses[0][j]))
                .fold(0.0, f32::max)
        };
        for (leg, foot) in plan.legs.iter().zip(&plan.feet) {
            let tip = leg[leg.len() - 1].index();
            assert!(
                travel(tip) > 0.02 * size,
                "{file}: leg tip {tip} moves {}",
                travel(tip)
            );
            if let Some(foot) = foot {
                // The foot keeps its offset from the leg's tip.
                let offset = |p: &Vec<Vec3>| p[foot.index()] - p[tip];
                for p in &poses {
                    assert!(
                        offset(p).distance(offset(&poses[0])) < 1e-3 * size,
                        "{file}: foot {} left its leg",
                        skeleton.joints[foot.index()].name
                    );
                }
            }
        }
        let idle = procedural_clip(skeleton, Motion::Idle).unwrap();
        assert_finite(&idle);
    }
    // The rat's feet are its IK targets, carried by the legs.
    let rat = common::load("eval/quaternius-easy_enemies_pack/Rat.glb");
    let plan = BodyPlan::of(rat.skeleton.as_ref().unwrap()).unwrap();
    assert_eq!(plan.feet.iter().flatten().count(), 4, "{:?}", plan.feet);
}

/// A rig stood along +Z (a file authored Z-up) walks as its +Y twin does, turned.
#[test]
fn a_z_up_rig_walks_like_its_y_up_twin() {
    let fox = common::load("eval/Fox.glb");
    let skeleton = fox.skeleton.as_ref().unwrap();
    let turn = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let lying = skeleton.turned(turn);
    let (up, plan) = BodyPlan::standing(&lying).unwrap();
    assert_eq!(plan.legs.len(), 4);
    assert!((up * turn).angle_between(Quat::IDENTITY) < 1e-3, "{up:?}");
    let standing = positions(skeleton, &procedural_clip(skeleton, Motion::Walk).unwrap());
    let turned = positions(&lying, &procedural_clip(&lying, Motion::Walk).unwrap());
    let size = fox.mesh.bounds().longest_side();
    for (a, b) in standing.iter().zip(&turned) {
        for (p, q) in a.iter().zip(b) {
            assert!(
                (turn * *p).distance(*q) < 1e-3 * size,
                "{p} turned is not {q}"
            );
        }
    }
}

/// A joint named `name` under `parent` at `at`.
fn joint(name: &str, parent: Option<u32>, at: Vec3) -> Joint {
    Joint {
        name: name.into(),
        parent: parent.map(JointId),
        world_bind: Mat4::from_translation(at),
    }
}

/// Legs that stop at the ankle, each foot and toe carried by an IK control off the root (no
/// joint named as a leg): four legs, each control carried with its leg, and the foot chains
/// are no legs or tails of their own.
#[test]
fn controls_carrying_the_feet_go_with_their_legs() {
    let mut joints = vec![joint("root", None, Vec3::new(0.0, 1.0, 0.0))];
    for (k, (x, z)) in [(0.3, 0.6), (-0.3, 0.6), (0.3, -0.6), (-0.3, -0.6)]
        .into_iter()
        .enumerate()
    {
        // Hip, knee and ankle; then the control at the ankle, off the root, with foot and toe.
        let hip = joints.len() as u32;
        joints.push(joint(&format!("a{k}"), Some(0), Vec3::new(x, 1.0, z)));
        joints.push(joint(
            &format!("b{k}"),
            Some(hip),
            Vec3::new(x, 0.55, z + 0.05),
        ));
        joints.push(joint(&format!("c{k}"), Some(hip + 1), Vec3::new(x, 0.2, z)));
        joints.push(joint(&format!("ctl{k}"), Some(0), Vec3::new(x, 0.2, z)));
        joints.push(joint(
            &format!("f{k}"),
            Some(hip + 3),
            Vec3::new(x, 0.05, z + 0.05),
        ));
        joints.push(joint(
            &format!("t{k}"),
            Some(hip + 4),
            Vec3::new(x, 0.0, z + 0.15),
        ));
    }
    joints.push(joint("head", Some(0), Vec3::new(0.0, 1.4, 1.0)));
    let skeleton = Skeleton { joints };
    let plan = BodyPlan::of(&skeleton).unwrap();
    let name = |j: &JointId| skeleton.joints[j.index()].name.clone();
    let legs: Vec<String> = plan.legs.iter().map(|c| name(&c[0])).collect();
    assert_eq!(legs, ["a0", "a1", "a2", "a3"]);
    let feet: Vec<String> = plan.feet.iter().flatten().map(name).collect();
    assert_eq!(feet, ["ctl0", "ctl1", "ctl2", "ctl3"]);
    assert!(
        plan.appendages
            .iter()
            .all(|c| !name(&c[0]).starts_with("ctl")),
        "{:?}",
        plan.appendages
    );
    let clip = procedural_clip(&skeleton, Motion::Walk).unwrap();
    let poses = positions(&skeleton, &clip);
    for (leg, foot) in plan.legs.iter().zip(&plan.feet) {
        let (ankle, toe) = (leg[2].index(), foot.unwrap().index() + 2);
        let offset = |p: &Vec<Vec3>| p[toe] - p[ankle];
        let moved = poses
            .iter()
            .map(|p| p[toe].distance(poses[0][toe]))
            .fold(0.0, f32::max);
        assert!(moved > 0.05, "toe {toe} stays put");
        for p in &poses {
            assert!(
                offset(p).distance(offset(&poses[0])) < 1e-3,
                "toe {toe} left its leg"
            );
        }
    }
}

/// A body without legs is told why and what it can play instead.
#[test]
fn a_legless_body_is_told_what_fits_instead() {
    // An eel lying on the ground: one chain, nothing reaching down.
    let skeleton = &Skeleton {
        joints: (0..6u32)
            .map(|k| {
                joint(
                    &format!("j{k}"),
                    k.checked_sub(1),
                    Vec3::new(0.0, 0.1, 0.2 * k as f32),
                )
            })
            .collect(),
    };
    let fits: Vec<&str> = motions_for(skeleton)
        .into_iter()
        .map(Motion::name)
        .collect();
    assert!(
        !fits.contains(&"walk") && fits.contains(&"wave"),
        "{fits:?}"
    );
    let Err(error) = procedural_clip(skeleton, Motion::Walk) else {
        panic!("an eel does not walk");
    };
    let error = error.to_string();
    assert!(error.contains("needs legs"), "{error}");
    assert!(
        error.ends_with(&format!("it can play {}", fits.join(", "))),
        "{error}"
    );
}

/// Files of a legged body plan whose artists rigged no legs.
const RIGGED_WITHOUT_LEGS: [(&str, &str); 3] = [
    (
        "quaternius-fbx/Animals_Pack_-_Oct_2016/bird.glb",
        "a bird in flight: body, neck, tail and wings",
    ),
    (
        "quaternius-glb/platformer_game_pack/Bee.glb",
        "body, head and wings",
    ),
    (
        "quaternius-glb/platformer_game_pack/Crab.glb",
        "body, head, mouth and eyebrows",
    ),
];

/// Body plans that stand on legs (birds on theirs, crabs and wasps on six).
fn has_legs(class: BodyClass) -> bool {
    !matches!(class, BodyClass::Fish | BodyClass::Snake | BodyClass::Other)
}

/// Joints whose names say the rig has legs (the test's own oracle: the body plan reads
/// shape, not names, to find legs).
fn named_legs(skeleton: &Skeleton) -> usize {
    skeleton
        .joints
        .iter()
        .filter(|j| {
            let name = j.name.to_ascii_lowercase();
            ["leg", "thigh", "knee", "calf", "shin", "foot", "feet"]
                .iter()
                .any(|w| name.contains(w))
                && !name.contains("pole")
                && !name.contains("target")
        })
        .count()
}

#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn walk_and_idle_play_on_every_legged_rig_of_the_shared_set() {
    let mut failures = Vec::new();
    let mut legged = 0;
    // 0 A.D.'s characters too where `rigkit lab dataset 0ad` has converted them (CC-BY-SA, not
    // shipped): RIGKIT_ZERO_AD=DIR.
    let mut sets: Vec<(String, std::path::PathBuf)> = ["eval", "train"]
        .into_iter()
        .map(|set| (set.to_owned(), common::shared(set)))
        .collect();
    if let Some(dir) = std::env::var_os("RIGKIT_ZERO_AD") {
        sets.push(("0ad".to_owned(), dir.into()));
    }
    for (set, root) in &sets {
        for rel in common::files_under(root, "glb") {
            let character = common::load_path(&root.join(&rel), &rel);
            let Some(skeleton) = character.skeleton.as_ref() else {
                continue;
            };
            if let Err(e) = procedural_clip(skeleton, Motion::Idle) {
                failures.push(format!("{set}/{rel}: idle: {e}"));
            }
            // Legged by its body plan (labelled by pack and file name, whatever its joints are
            // called: `Bone.014`) or by joint names where no label covers the file.
            let label = class_of_path(&format!("{set}/{rel}"));
            if !label.is_some_and(has_legs) && named_legs(skeleton) < 2 {
                continue;
            }
            legged += 1;
            let walk = procedural_clip(skeleton, Motion::Walk);
            if let Some((_, why)) = RIGGED_WITHOUT_LEGS.iter().find(|(f, _)| *f == rel) {
                // Told so, and what it can play instead.
                match walk {
                    Err(e) if e.to_string().contains("it can play idle, look") => {}
                    other => failures.push(format!("{set}/{rel} ({why}): {other:?}")),
                }
                continue;
            }
            match walk {
                Ok(clip) => assert_finite(&clip),
                Err(e) => failures.push(format!("{set}/{rel}: walk: {e}")),
            }
        }
    }
    assert!(legged >= 100, "only {legged} legged rigs found");
    assert!(
        failures.is_empty(),
        "{} of {legged}: {failures:#?}",
        failures.len()
    );
}

/// The rigs rigkit makes: every body of the shared set labelled as standing on legs, its
/// artist's rig removed and rigged by default (`rigkit rig` with no options), walks — every
/// leg found moves — and idles. Those whose artists rigged no legs are the exception only if
/// rigkit's rig has none either, and then they are told what fits.
#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn walk_and_idle_play_on_the_rigs_rigkit_makes_for_legged_bodies() {
    let request = rigkit::pipeline::RigRequest::default();
    let (mut failures, mut rigged) = (Vec::new(), 0);
    for set in ["eval", "train"] {
        let root = common::shared(set);
        for rel in common::files_under(&root, "glb") {
            let path = format!("{set}/{rel}");
            if !class_of_path(&path).is_some_and(has_legs) {
                continue;
            }
            let mut character = common::load_path(&root.join(&rel), &rel);
            character.skeleton = None;
            character.skin = None;
            if let Err(e) = rigkit::pipeline::rig_character(&mut character, &request, |_| {}) {
                failures.push(format!("{path}: rig: {e}"));
                continue;
            }
            rigged += 1;
            let skeleton = character.skeleton.as_ref().unwrap();
            match procedural_clip(skeleton, Motion::Idle) {
                Ok(clip) => assert_finite(&clip),
                Err(e) => failures.push(format!("{path}: idle: {e}")),
            }
            let walk = match procedural_clip(skeleton, Motion::Walk) {
                Ok(clip) => clip,
                Err(e) if RIGGED_WITHOUT_LEGS.iter().any(|(f, _)| *f == rel) => {
                    if !e.to_string().contains("it can play idle") {
                        failures.push(format!(
                            "{path}: walk refused without saying what fits: {e}"
                        ));
                    }
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{path}: walk: {e}"));
                    continue;
                }
            };
            assert_finite(&walk);
            let Some(plan) = BodyPlan::of(skeleton) else {
                failures.push(format!("{path}: walks, but has no body plan"));
                continue;
            };
            let poses = positions(skeleton, &walk);
            let size = character.mesh.bounds().longest_side();
            for leg in &plan.legs {
                let tip = leg[leg.len() - 1].index();
                let travel = (poses.iter())
                    .map(|p| p[tip].distance(poses[0][tip]))
                    .fold(0.0, f32::max);
                if travel <= 0.01 * size {
                    failures.push(format!(
                        "{path}: the leg ending in {} moves {:.3} of the body's size",
                        skeleton.joints[tip].name,
                        travel / size
                    ));
                }
            }
        }
    }
    assert!(rigged >= 100, "only {rigged} legged bodies rigged");
    assert!(
        failures.is_empty(),
        "{} of {rigged}: {failures:#?}",
        failures.len()
    );
}

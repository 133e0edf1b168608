//! The learned rigger: the shipped int8 models load and rig real characters sanely (joints
//! inside, weights that sum to one), bad inputs are refused with a reason, quantization keeps
//! the outputs, and training runs, checkpoints and resumes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::load;
use rigkit::blocking::block_on;
use rigkit::compute::cpu_device;
use rigkit::dataset::creature::generate;
use rigkit::mesh::{Mesh, winding_number};
use rigkit::neural::train::quantize::quantize;
use rigkit::neural::train::run::TrainOptions;
use rigkit::neural::train::{CorpusPlan, skin::train_skin};
use rigkit::neural::{
    CANDIDATES, GEOMETRIC_WEIGHT, JointInputs, NETWORK_SHARE, Networks, NeuralError, PAIR_FEATURES,
    SkinNet, SkinTensors, model_from_bytes, moved_skeleton, read, skin_inputs, skin_weights_from,
};
use rigkit::pipeline::{Method, Methods, RigRequest, rig_character};
use rigkit::skeleton::{AutoOptions, Template, auto_skeleton};

fn networks() -> Networks {
    Networks::bundled(&cpu_device()).expect("the shipped models load")
}

#[test]
fn neural_rig_of_real_characters_has_joints_inside_and_normalised_weights() {
    for rel in [
        "eval/mannequiny.glb",
        "eval/quaternius-easy_enemies_pack/Rat.glb",
        "eval/Fox.glb",
    ] {
        let mut c = load(rel);
        let request = RigRequest {
            source: rigkit::skeleton::SkeletonSource::Template(Template::FreeForm),
            methods: Methods::all(Method::Neural),
            ..RigRequest::default()
        };
        rig_character(&mut c, &request, |_| {}).unwrap();
        let (skeleton, skin) = (c.skeleton.as_ref().unwrap(), c.skin.as_ref().unwrap());
        let inside = skeleton
            .joints
            .iter()
            .filter(|j| winding_number(&c.mesh.positions, &c.mesh.triangles, j.position()) > 0.5)
            .count();
        assert!(
            inside * 10 >= skeleton.joints.len() * 9,
            "{rel}: only {inside} of {} joints inside",
            skeleton.joints.len()
        );
        assert_eq!(skin.vertex_count(), c.mesh.vertex_count());
        for v in 0..skin.vertex_count() {
            let row = skin.influences(v);
            assert!(
                (1..=4).contains(&row.len()),
                "{rel}: vertex {v} has {} influences",
                row.len()
            );
            let total: f32 = row.iter().map(|i| i.weight).sum();
            assert!(
                (total - 1.0).abs() < 1e-4,
                "{rel}: vertex {v} sums to {total}"
            );
            assert!(row.iter().all(|i| i.joint.index() < skeleton.joints.len()));
        }
    }
}

#[test]
fn the_skeleton_head_moves_joints_by_a_bounded_refinement() {
    let c = load("eval/CesiumMan.glb");
    let proposal = auto_skeleton(&c.mesh, &AutoOptions::default()).unwrap();
    let refined = networks().refine_skeleton(&c.mesh, &proposal).unwrap();
    assert_eq!(refined.joints.len(), proposal.joints.len());
    let side = c.mesh.bounds().longest_side();
    let moves: Vec<f32> = proposal
        .joints
        .iter()
        .zip(&refined.joints)
        .map(|(a, b)| a.position().distance(b.position()) / side)
        .collect();
    assert!(moves.iter().any(|&m| m > 1e-4), "nothing moved");
    assert!(moves.iter().all(|&m| m < 0.1), "a joint jumped: {moves:?}");
    // Names and hierarchy are the proposal's.
    for (a, b) in proposal.joints.iter().zip(&refined.joints) {
        assert_eq!((&a.name, a.parent), (&b.name, b.parent));
    }
}

#[test]
fn the_network_share_blends_the_heads_weights_with_the_geometric_ones() {
    let c = generate(3, None);
    let skeleton = c.skeleton.clone().unwrap();
    let inputs = skin_inputs(&c.mesh, &skeleton).unwrap();
    let n = inputs.vertex_count;
    // A head sure of each vertex's first candidate.
    let log: Vec<f32> = (0..n * CANDIDATES)
        .map(|i| if i % CANDIDATES == 0 { 0.0 } else { -30.0 })
        .collect();
    let weight_on = |w: &rigkit::rig::SkinWeights, v: usize, joint: u32| {
        w.influences(v)
            .iter()
            .find(|i| i.joint.0 == joint)
            .map_or(0.0, |i| i.weight)
    };
    let head = skin_weights_from(&inputs, &log, 4, 1.0).unwrap();
    let geometric = skin_weights_from(&inputs, &log, 4, 0.0).unwrap();
    let half = skin_weights_from(&inputs, &log, 4, 0.5).unwrap();
    for v in 0..n {
        let first = inputs.candidates[v * CANDIDATES];
        assert_eq!(head.influences(v).len(), 1);
        assert_eq!(weight_on(&head, v, first), 1.0);
        // Alone, the geometric weights decide: the strongest is the geometric favourite.
        let g = |k: usize| inputs.pairs[(v * CANDIDATES + k) * PAIR_FEATURES + GEOMETRIC_WEIGHT];
        let favourite = (0..CANDIDATES)
            .filter(|&k| inputs.valid[v * CANDIDATES + k] > 0.0 && g(k) > 0.0)
            .max_by(|&a, &b| g(a).total_cmp(&g(b)))
            .map(|k| inputs.candidates[v * CANDIDATES + k]);
        let strongest = geometric
            .influences(v)
            .iter()
            .map(|i| i.weight)
            .fold(0.0, f32::max);
        match favourite {
            Some(f) => assert!(
                weight_on(&geometric, v, f) + 1e-5 >= strongest,
                "vertex {v}"
            ),
            None => assert!(geometric.influences(v).is_empty(), "vertex {v}"),
        }
        // Half and half lies between.
        let w = weight_on(&half, v, first);
        assert!(
            w + 1e-5 >= weight_on(&geometric, v, first) && w <= 1.0 + 1e-5,
            "vertex {v}: {w}"
        );
    }
}

#[test]
fn bad_inputs_are_refused_with_a_reason() {
    let empty = Mesh::default();
    let skeleton = generate(3, None).skeleton.unwrap();
    assert_eq!(
        JointInputs::new(&empty, &skeleton).unwrap_err(),
        NeuralError::NoSurface
    );
    let c = generate(3, None);
    let inputs = skin_inputs(&c.mesh, &skeleton).unwrap();
    assert!(matches!(
        skin_weights_from(&inputs, &[0.0; 5], 4, NETWORK_SHARE),
        Err(NeuralError::Mismatch(_))
    ));
    let joints = JointInputs::new(&c.mesh, &skeleton).unwrap();
    assert!(matches!(
        moved_skeleton(&skeleton, &joints, &[0.0; 2], &c.mesh),
        Err(NeuralError::Mismatch(_))
    ));
    // Non-finite offsets leave joints where they were.
    let nan = vec![f32::NAN; skeleton.joints.len() * 3];
    let kept = moved_skeleton(&skeleton, &joints, &nan, &c.mesh).unwrap();
    for (a, b) in skeleton.joints.iter().zip(&kept.joints) {
        assert!(a.position().distance(b.position()) < 1e-4);
    }
    for garbage in [
        Vec::new(),
        b"not a burnpack record".to_vec(),
        vec![0xFF; 4096],
    ] {
        assert!(matches!(
            model_from_bytes(SkinNet::new, garbage, &cpu_device()),
            Err(NeuralError::Model(_))
        ));
    }
}

#[test]
fn int8_weights_give_the_float_weights_within_tolerance() {
    let device = cpu_device();
    let float = networks().skin;
    let int8 = quantize(float.clone());
    let c = load("eval/quaternius-easy_enemies_pack/Wasp.glb");
    let inputs = skin_inputs(&c.mesh, c.skeleton.as_ref().unwrap()).unwrap();
    let a = read(float.forward(SkinTensors::new(&inputs, None, &device))).unwrap();
    let b = read(int8.forward(SkinTensors::new(&inputs, None, &device))).unwrap();
    assert_eq!(a.len(), inputs.vertex_count * CANDIDATES);
    let worst = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x.exp() - y.exp()).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 0.05, "a weight changed by {worst}");
}

#[test]
fn training_checkpoints_and_resumes() {
    let root = std::env::temp_dir().join(format!("rigkit-train-{}", std::process::id()));
    let data = root.join("data");
    std::fs::create_dir_all(data.join("train")).unwrap();
    let plan = CorpusPlan {
        procedural: 2,
        anny: 0,
        augmented: 0,
        zero_ad: None,
    };
    let mut options = TrainOptions::new(root.join("run"));
    options.steps = 6;
    options.validate_every = 3;
    let (_, log) = train_skin(&data, &plan, &options).unwrap();
    assert_eq!(log.iter().map(|e| e.step).collect::<Vec<_>>(), [3, 6]);
    assert!(
        log.iter()
            .all(|e| e.loss.is_finite() && e.validation.is_finite())
    );
    assert!(options.out.join("loss.png").exists());
    // A longer run continues the log from the checkpoint instead of starting over.
    options.steps = 9;
    let (_, log) = train_skin(&data, &plan, &options).unwrap();
    assert_eq!(log.iter().map(|e| e.step).collect::<Vec<_>>(), [3, 6, 9]);
    std::fs::remove_dir_all(&root).ok();
}

/// The backend check the page runs (WebGPU against the CPU) measures a real difference: the
/// same device agrees with itself exactly on the probe creature.
#[test]
fn the_backend_check_finds_no_difference_between_identical_devices() {
    let probe = rigkit::mesh::probe_creature();
    let difference =
        rigkit::blocking::block_on(networks().difference_from(&networks(), &probe)).unwrap();
    assert_eq!(difference.joints, 0.0);
    assert_eq!(difference.weights, 0.0);
}

/// The skinning head on skeletons real files have — a zero-length bone, joints far outside
/// the mesh — gives every vertex finite weights summing to 1, as the geometric skinner does.
#[test]
fn the_skinning_head_is_defined_on_awkward_skeletons() {
    use glam::{Mat4, Vec3};
    use rigkit::rig::{Joint, JointId, Skeleton};
    let mesh = rigkit::mesh::boxes(&[(Vec3::new(0.0, -0.5, -0.5), Vec3::new(4.0, 0.5, 0.5))], 2);
    let joint = |name: &str, parent: Option<u32>, x: f32, y: f32| Joint {
        name: name.into(),
        parent: parent.map(JointId),
        world_bind: Mat4::from_translation(Vec3::new(x, y, 0.0)),
    };
    let skeleton = Skeleton {
        joints: vec![
            joint("root", None, 0.5, 0.0),
            joint("twin", Some(0), 0.5, 0.0),
            joint("mid", Some(1), 2.0, 0.0),
            joint("target", Some(0), 2.0, 10.0),
            joint("far_root", None, -20.0, 0.0),
        ],
    };
    let skin = networks().skin(&mesh, &skeleton, 4).unwrap();
    assert_eq!(skin.vertex_count(), mesh.vertex_count());
    for v in 0..skin.vertex_count() {
        let weights = skin.influences(v);
        assert!(!weights.is_empty() && weights.iter().all(|i| i.weight.is_finite()));
        let sum: f32 = weights.iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-4, "vertex {v} sums to {sum}");
    }
}

/// The shipped body-plan classifier names what it is shown, wherever the mesh stands, and
/// gives a defined answer for meshes no body plan fits.
#[test]
fn the_body_plan_classifier_recognises_real_characters_in_any_placement() {
    use glam::{Quat, Vec3};
    use rigkit::neural::PlanNet;
    use rigkit::recognise::{BodyClass, DescribeError};
    let device = cpu_device();
    let model = PlanNet::bundled(&device).expect("the shipped classifier loads");
    let human = load("samples/model-human.glb").mesh;
    let turn = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_y(2.0);
    for (scale, offset) in [
        (1.0, Vec3::ZERO),
        (0.05, Vec3::new(40.0, -3.0, 7.0)),
        (20.0, Vec3::new(-900.0, 0.0, 2e3)),
    ] {
        let mut placed = human.clone();
        placed
            .positions
            .iter_mut()
            .for_each(|p| *p = turn * (*p * scale) + offset);
        let (class, p) = model.recognise_mesh(&placed, &device).unwrap().best();
        assert_eq!(class, BodyClass::Humanoid, "x{scale} at {offset}: {p}");
    }
    let fox = model
        .recognise_mesh(&load("eval/Fox.glb").mesh, &device)
        .unwrap();
    assert_eq!(fox.best().0, BodyClass::Quadruped);
    // A single triangle and a flat plane have area but no volume: some class, with
    // probabilities that are numbers summing to one.
    let triangle = Mesh {
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        triangles: vec![[0, 1, 2]],
        ..Mesh::default()
    };
    let plane = Mesh {
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        ..Mesh::default()
    };
    for mesh in [triangle, plane] {
        let r = model.recognise_mesh(&mesh, &device).unwrap();
        let total: f32 = r.probabilities.iter().sum();
        assert!(r.probabilities.iter().all(|p| p.is_finite()) && (total - 1.0).abs() < 1e-4);
    }
    let mut empty = human.clone();
    empty.triangles.clear();
    assert_eq!(
        model.recognise_mesh(&empty, &device),
        Err(NeuralError::Describe(DescribeError::NoSurface))
    );
}

/// `--template auto`: a human turned, scaled and moved gets the library's human template with
/// its joint names, fitted where the artist put them; the Fox gets the fox template; a plan
/// the classifier is unsure of gets the free-form skeleton; and whatever it decides, the
/// character comes back with a complete rig.
/// Where the classifier is unsure, fitting decides: the likely plan whose template bends
/// least wins even when the classifier ranked it second, a bird's template only where bird
/// is the likeliest, and a mesh no likely template fits gets the free-form skeleton.
#[test]
fn an_unsure_plan_is_decided_by_which_likely_template_fits() {
    use rigkit::recognise::{BodyClass, Recognition, choose};
    use rigkit::skeleton::{Body, Library};
    let library = Library::shared().expect("the bundled library reads");
    let template = |c: BodyClass| c.template().and_then(|name| library.get(name));
    let unsure = |likely: &[(BodyClass, f32)]| {
        let mut probabilities = vec![0.0; BodyClass::ALL.len()];
        for &(c, p) in likely {
            probabilities[c.index()] = p;
        }
        Recognition { probabilities }
    };
    // A human (none of the library's bodies) the classifier takes for a fish rather than a
    // humanoid.
    let human = load("eval/mannequiny.glb");
    let body = Body::of(&human.mesh, &AutoOptions::default()).unwrap();
    let recognition = unsure(&[
        (BodyClass::Fish, 0.5),
        (BodyClass::Humanoid, 0.3),
        (BodyClass::Other, 0.2),
    ]);
    let choice = block_on(choose(&recognition, &human.mesh, &body, template, None));
    assert!(choice.by_fit);
    assert_eq!(choice.class, BodyClass::Humanoid);
    let carried = choice.carried.expect("the human template fits");
    assert!(carried.cost <= rigkit::recognise::FITS, "{}", carried.cost);
    assert_eq!(
        carried.skeleton.joints.len(),
        library.get("rig-human").unwrap().skeleton().joints.len()
    );
    // A sure classifier is taken at its word for the plan, but a template other than the
    // human's is kept only where it fits; "other" gets the free-form skeleton.
    let sure = unsure(&[(BodyClass::Fish, 0.9), (BodyClass::Humanoid, 0.1)]);
    let choice = block_on(choose(&sure, &human.mesh, &body, template, None));
    assert_eq!((choice.class, choice.by_fit), (BodyClass::Fish, false));
    let bend = choice.bend.expect("the fish template was tried");
    assert_eq!(
        choice.carried.is_some(),
        bend <= rigkit::recognise::FITS,
        "{bend}"
    );
    let sure = unsure(&[(BodyClass::Humanoid, 0.9), (BodyClass::Fish, 0.1)]);
    let choice = block_on(choose(&sure, &human.mesh, &body, template, None));
    assert_eq!(choice.class, BodyClass::Humanoid);
    assert!(choice.carried.is_some());
    let other = unsure(&[(BodyClass::Other, 0.9), (BodyClass::Humanoid, 0.1)]);
    let choice = block_on(choose(&other, &human.mesh, &body, template, None));
    assert_eq!(choice.class, BodyClass::Other);
    assert!(choice.carried.is_none());
    // A flat slab is no creature: no template fits it well enough.
    let slab = rigkit::mesh::boxes(&[(glam::Vec3::ZERO, glam::Vec3::new(1.0, 0.05, 0.6))], 3);
    let body = Body::of(&slab, &AutoOptions::default()).unwrap();
    let recognition = unsure(&[
        (BodyClass::Quadruped, 0.4),
        (BodyClass::Spider, 0.35),
        (BodyClass::Other, 0.25),
    ]);
    let choice = block_on(choose(&recognition, &slab, &body, template, None));
    assert_eq!(
        choice.class,
        BodyClass::Other,
        "{:?}",
        choice.carried.map(|c| c.cost)
    );
    // A bird keeps the bird template when unsure only where bird is also the likeliest plan;
    // ranked second, the bird template's fit alone does not make it a bird.
    let bird = load("train/mesh2motion-variations/bird-base.glb");
    let body = Body::of(&bird.mesh, &AutoOptions::default()).unwrap();
    let first = unsure(&[(BodyClass::Bird, 0.5), (BodyClass::Quadruped, 0.3)]);
    let choice = block_on(choose(&first, &bird.mesh, &body, template, None));
    assert_eq!((choice.class, choice.by_fit), (BodyClass::Bird, true));
    assert!(choice.carried.is_some());
    let second = unsure(&[(BodyClass::Quadruped, 0.5), (BodyClass::Bird, 0.3)]);
    let choice = block_on(choose(&second, &bird.mesh, &body, template, None));
    assert_eq!(choice.class, BodyClass::Other, "{:?}", choice.bend);
    assert!(choice.carried.is_none());
}

#[test]
fn auto_fits_the_recognised_plans_library_template_or_falls_back_to_free_form() {
    use glam::{Mat4, Quat, Vec3};
    use rigkit::recognise::{AUTO_CONFIDENCE, BodyClass};
    use rigkit::skeleton::Library;
    let library = Library::shared().expect("the bundled library reads");
    let auto = RigRequest::named("auto", "geometric", 4, None).unwrap();
    let names = |s: &rigkit::rig::Skeleton| {
        let mut n = s.names();
        n.sort();
        n
    };
    // Placed as real files come: lying on its back, turned, x7 and far away.
    let place = Mat4::from_scale_rotation_translation(
        Vec3::splat(7.0),
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2) * Quat::from_rotation_y(2.5),
        Vec3::new(300.0, -40.0, 12.0),
    );
    for (rel, class, template) in [
        (
            "train/mesh2motion-variations/human-zombie.glb",
            BodyClass::Humanoid,
            "rig-human",
        ),
        ("eval/Fox.glb", BodyClass::Quadruped, "rig-fox"),
    ] {
        let original = load(rel);
        let mut c = original.clone();
        c.mesh
            .positions
            .iter_mut()
            .for_each(|p| *p = place.transform_point3(*p));
        let report = rig_character(&mut c, &auto, |_| {}).unwrap();
        let recognised = report.recognised.expect("auto recognises the plan");
        assert_eq!(
            (recognised.class, recognised.template),
            (class, Some(template)),
            "{rel}"
        );
        let skeleton = c.skeleton.as_ref().unwrap();
        assert_eq!(
            names(skeleton),
            names(library.get(template).unwrap().skeleton()),
            "{rel}"
        );
        if template == "rig-human" {
            // The zombie was rigged by hand with this template: its joints are the truth.
            let back = place.inverse();
            let mut fitted = skeleton.clone();
            for j in &mut fitted.joints {
                j.world_bind = back * j.world_bind;
            }
            let truth = original.skeleton.as_ref().unwrap();
            let (error, matched) =
                rigkit::eval::joint_error(&fitted, truth, &original.mesh.bounds()).unwrap();
            assert!(
                matched >= 20 && error < 5.0,
                "{rel}: {error} over {matched} joints"
            );
        }
    }
    // Every other in-repo character: the template of the plan it is sure of, else the one
    // fitting decides, else free-form; both cases occur, and each rig is complete.
    let (mut templated, mut free) = (0, 0);
    for rel in [
        "eval/CesiumMan.glb",
        "eval/quaternius-easy_enemies_pack/Snake.glb",
        "eval/quaternius-easy_enemies_pack/Rat.glb",
        "eval/RobotExpressive.glb",
    ] {
        let mut c = load(rel);
        let recognised = rig_character(&mut c, &auto, |_| {})
            .unwrap()
            .recognised
            .unwrap();
        let (best, p) = recognised.recognition.best();
        let skeleton = c.skeleton.as_ref().unwrap();
        match recognised.template {
            Some(t) => {
                templated += 1;
                if recognised.by_fit {
                    // Unsure: one of the likeliest plans, whose template fitted best.
                    assert!(p < AUTO_CONFIDENCE, "{rel}: {p}");
                    let likely = recognised.recognition.ranked();
                    assert!(
                        likely
                            .iter()
                            .take(rigkit::recognise::TRIED + 1)
                            .any(|&(c, q)| c == recognised.class
                                && q >= rigkit::recognise::PLAUSIBLE),
                        "{rel}: {:?} is not a likely plan",
                        recognised.class
                    );
                } else {
                    assert!(p >= AUTO_CONFIDENCE && recognised.class == best, "{rel}");
                }
                assert_eq!(Some(t), recognised.class.template(), "{rel}");
                assert_eq!(names(skeleton), names(library.get(t).unwrap().skeleton()));
            }
            None => {
                free += 1;
                // Unsure, "other", or a sure plan whose template did not fit.
                let refused = recognised.bend.is_some_and(|b| b > rigkit::recognise::FITS);
                assert!(
                    p < AUTO_CONFIDENCE || best == BodyClass::Other || refused,
                    "{rel}: {p}"
                );
                if p < AUTO_CONFIDENCE {
                    assert_eq!(recognised.class, BodyClass::Other, "{rel}");
                }
                assert!(
                    names(skeleton).iter().any(|n| n == "root"),
                    "{rel}: not free-form"
                );
            }
        }
        assert!(
            skeleton.joints.iter().all(|j| j.position().is_finite()),
            "{rel}"
        );
        let skin = c.skin.as_ref().unwrap();
        assert!(
            (0..skin.vertex_count()).all(|v| !skin.influences(v).is_empty()),
            "{rel}"
        );
    }
    assert!(
        templated > 0 && free > 0,
        "{templated} templated, {free} free-form"
    );
}

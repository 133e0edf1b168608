//! A user's skeleton (BVH or rigged GLB) adapted to another body: names, hierarchy and joint
//! count kept, joints moved inside the new body to where its parts are — part by part for a
//! humanoid, by the bounds for any other creature.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{data, load};
use rigkit::Limits;
use rigkit::io::bvh::Bvh;
use rigkit::io::{ImportError, import_skeleton};
use rigkit::mesh::winding_number;
use rigkit::rig::Skeleton;
use rigkit::skeleton::{AutoOptions, SkeletonSource, skeleton_for};
use rigkit::skin::is_end_tip;

fn cmu_skeleton() -> Skeleton {
    let text = std::fs::read_to_string(data("motion/cmu/01_01.bvh")).unwrap();
    Bvh::parse(&text, "01_01.bvh").unwrap().to_skeleton()
}

fn assert_same_hierarchy(a: &Skeleton, b: &Skeleton) {
    assert_eq!(a.joints.len(), b.joints.len());
    for (x, y) in a.joints.iter().zip(&b.joints) {
        assert_eq!(x.name, y.name);
        assert_eq!(x.parent, y.parent, "parent of {}", x.name);
    }
}

fn position(s: &Skeleton, name: &str) -> glam::Vec3 {
    s.joints.iter().find(|j| j.name == name).unwrap().position()
}

#[test]
fn a_cmu_bvh_skeleton_lands_inside_the_mannequin_with_its_names() {
    let mannequin = load("eval/mannequiny.glb");
    let template = cmu_skeleton();
    let source = SkeletonSource::Given(template.clone());
    let adapted = skeleton_for(&mannequin.mesh, &source, &AutoOptions::default()).unwrap();
    assert_same_hierarchy(&adapted, &template);
    let artist = mannequin.skeleton.as_ref().unwrap();
    let height = mannequin.mesh.bounds().longest_side();
    for (theirs, ours) in [
        ("hand.l", "LeftHand"),
        ("lowerarm.r", "RightForeArm"),
        ("calf.l", "LeftLeg"),
        ("foot.r", "RightFoot"),
        ("pelvis", "Hips"),
    ] {
        let d = position(artist, theirs).distance(position(&adapted, ours));
        assert!(
            d < 0.08 * height,
            "{ours} is {d} from the artist's {theirs}"
        );
    }
    let joints: Vec<_> = adapted
        .joints
        .iter()
        .filter(|j| !is_end_tip(&j.name))
        .collect();
    let inside = joints
        .iter()
        .filter(|j| {
            winding_number(
                &mannequin.mesh.positions,
                &mannequin.mesh.triangles,
                j.position(),
            ) > 0.5
        })
        .count();
    assert!(
        inside * 10 >= joints.len() * 9,
        "{inside} of {} joints inside",
        joints.len()
    );
}

#[test]
fn a_skeleton_only_glb_template_is_adapted_too() {
    let mannequin = load("eval/mannequiny.glb");
    let bytes = common::read("templates/mesh2motion/rig-human.glb");
    let template = import_skeleton(&bytes, "rig-human.glb", &Limits::default()).unwrap();
    assert!(template.joints.len() > 40);
    let adapted = skeleton_for(
        &mannequin.mesh,
        &SkeletonSource::Given(template.clone()),
        &AutoOptions::default(),
    )
    .unwrap();
    assert_same_hierarchy(&adapted, &template);
    let artist = mannequin.skeleton.as_ref().unwrap();
    let d = position(artist, "hand.l").distance(position(&adapted, "hand_l"));
    assert!(
        d < 0.08 * mannequin.mesh.bounds().longest_side(),
        "hand_l is {d} away"
    );
}

/// A creature skeleton fitted to the eval Fox: head, hips and tail tip within `share` of the
/// body's length of the artist's, names and hierarchy kept, 90 % of the joints inside.
fn assert_fits_the_fox(template: &Skeleton, names: [&str; 3], share: f32) {
    let fox = load("eval/Fox.glb");
    let adapted = skeleton_for(
        &fox.mesh,
        &SkeletonSource::Given(template.clone()),
        &AutoOptions::default(),
    )
    .unwrap();
    assert_same_hierarchy(&adapted, template);
    let artist = fox.skeleton.as_ref().unwrap();
    let size = fox.mesh.bounds().longest_side();
    for (ours, theirs) in names
        .into_iter()
        .zip(["b_Head_05", "b_Hip_01", "b_Tail03_014"])
    {
        let d = position(&adapted, ours).distance(position(artist, theirs));
        assert!(
            d < share * size,
            "{ours} is {d} from the artist's {theirs} (size {size})"
        );
    }
    let inside = adapted
        .joints
        .iter()
        .filter(|j| winding_number(&fox.mesh.positions, &fox.mesh.triangles, j.position()) > 0.5)
        .count();
    assert!(
        inside * 10 >= adapted.joints.len() * 9,
        "{inside} of {} inside",
        adapted.joints.len()
    );
}

#[test]
fn a_skeleton_only_library_template_is_carried_on_the_library_bodies() {
    // Mesh2Motion's fox rig template (no mesh of its own) names the library's rig-fox.
    let bytes = common::read("templates/mesh2motion/rig-fox.glb");
    let template = import_skeleton(&bytes, "rig-fox.glb", &Limits::default()).unwrap();
    assert_fits_the_fox(&template, ["Head", "Hips", "Tail_End"], 0.1);
}

#[test]
fn a_creature_skeleton_no_template_names_is_stretched_onto_its_mesh() {
    // The Fox's own skeleton renamed: no library template has its names, and no mesh comes
    // with it, so it is stretched from its bounds onto the Fox's.
    let mut template = load("eval/Fox.glb").skeleton.unwrap();
    for j in &mut template.joints {
        j.name = format!("x_{}", j.name);
    }
    assert_fits_the_fox(
        &template,
        ["x_b_Head_05", "x_b_Hip_01", "x_b_Tail03_014"],
        0.15,
    );
}

#[test]
fn files_without_a_skeleton_are_refused_by_name() {
    let cube = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let error = import_skeleton(cube, "cube.obj", &Limits::default()).unwrap_err();
    assert!(matches!(error, ImportError::NoSkeleton { .. }), "{error}");
    assert!(error.to_string().contains("cube.obj"), "{error}");
}

//! Real motion capture files parse with their hierarchy, channels and frames.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use common::data;
use rigkit::io::bvh::Bvh;

fn parse(rel: &str) -> Result<Bvh, rigkit::io::bvh::BvhError> {
    parse_path(&data(rel), rel)
}

fn parse_path(path: &Path, rel: &str) -> Result<Bvh, rigkit::io::bvh::BvhError> {
    let text = std::fs::read_to_string(path).unwrap();
    Bvh::parse(&text, rel)
}

/// Parses every BVH under `root` (labelled `label/...`): each has frames and at least
/// `min_joints` joints, except empty files, which must be refused in so many words. Returns
/// how many parsed.
fn parse_every_clip(root: &Path, label: &str, min_joints: usize) -> usize {
    let mut count = 0;
    for rel in common::files_under(root, "bvh") {
        let path = root.join(&rel);
        let rel = format!("{label}/{rel}");
        if std::fs::metadata(&path).unwrap().len() == 0 {
            let err = parse_path(&path, &rel).unwrap_err();
            assert!(err.to_string().contains("the file is empty"), "{err}");
            continue;
        }
        let bvh = parse_path(&path, &rel).unwrap_or_else(|e| panic!("{e}"));
        assert!(bvh.frame_count() > 0, "{rel}");
        assert!(bvh.joints.len() >= min_joints, "{rel}");
        count += 1;
    }
    count
}

#[test]
fn cmu_walk_has_its_31_joints_and_2752_frames() {
    let bvh = parse("motion/cmu/01_01.bvh").unwrap();
    assert_eq!(bvh.joints.len(), 31);
    assert_eq!(bvh.frame_count(), 2752);
    assert!((bvh.frame_time - 0.008_333_3).abs() < 1e-7);
    assert_eq!(bvh.joints[0].name, "Hips");
    let skeleton = bvh.to_skeleton();
    assert!(skeleton.joints.len() > 31, "end sites become tip joints");
    // Every frame poses every joint to a finite place.
    for frame in (0..bvh.frame_count()).step_by(97) {
        let world = bvh.world_transforms(frame).unwrap();
        assert!(world.iter().all(|m| m.is_finite()), "frame {frame}");
    }
}

#[test]
fn every_clip_of_the_test_data_parses_and_an_empty_one_is_refused() {
    let count = parse_every_clip(&data("motion"), "motion", 20);
    assert!(count >= 1, "{count} clips parsed");
    // The Bandai Namco set (not in the repository: CC BY-NC) holds an empty clip; an empty
    // file must be refused in so many words.
    let err = Bvh::parse("", "empty.bvh").unwrap_err();
    assert!(err.to_string().contains("the file is empty"), "{err}");
}

#[test]
#[ignore = "needs ../shared/data (or RIGKIT_DATA): run with --ignored"]
fn every_bandai_clip_parses() {
    let count = parse_every_clip(
        &common::shared("motion/bandai-namco-1"),
        "motion/bandai-namco-1",
        20,
    );
    assert!(count >= 28, "{count} clips parsed");
}

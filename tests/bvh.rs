//! Real motion capture files parse with their hierarchy, channels and frames.

// Helpers outside #[test] functions panic on failure too; that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::data;
use rigkit::io::bvh::Bvh;

fn parse(rel: &str) -> Result<Bvh, rigkit::io::bvh::BvhError> {
    let text = std::fs::read_to_string(data(rel)).unwrap();
    Bvh::parse(&text, rel)
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
fn every_bandai_clip_parses() {
    let dir = data("motion/bandai-namco-1");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bvh") {
            let rel = format!(
                "motion/bandai-namco-1/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            // One clip of the set is an empty file: it must be refused in so many words.
            if std::fs::metadata(&path).unwrap().len() == 0 {
                let err = parse(&rel).unwrap_err();
                assert!(err.to_string().contains("the file is empty"), "{err}");
                continue;
            }
            let bvh = parse(&rel).unwrap_or_else(|e| panic!("{e}"));
            assert!(bvh.frame_count() > 0, "{rel}");
            assert!(bvh.joints.len() >= 20, "{rel}");
            count += 1;
        }
    }
    assert!(count >= 28, "{count} clips parsed");
}

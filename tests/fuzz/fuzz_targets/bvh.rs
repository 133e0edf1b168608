//! Any text as a BVH file: parsing and posing every frame must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rigkit::io::bvh::Bvh;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(bvh) = Bvh::parse(&text, "fuzz.bvh") {
        let _ = bvh.to_skeleton();
        for frame in 0..bvh.frame_count().min(8) {
            let _ = bvh.world_transforms(frame);
        }
    }
});

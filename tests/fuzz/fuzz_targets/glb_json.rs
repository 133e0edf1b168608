//! A valid GLB container around mutated contents: the input is a glTF JSON text, a zero byte
//! and the binary chunk. Plain byte mutation of whole GLBs mostly breaks the header and chunk
//! lengths; here every input reaches the JSON parser and, through it, the accessors, skins,
//! animations and morph targets the document describes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rigkit::Limits;

fuzz_target!(|data: &[u8]| {
    let (json, bin) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let limits = Limits {
        max_vertices: 100_000,
        max_triangles: 200_000,
        ..Limits::default()
    };
    let glb = rigkit::export::write_glb(json, bin);
    let _ = rigkit::io::import(&glb, "fuzz.glb", &limits);
});

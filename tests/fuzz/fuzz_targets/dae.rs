//! Any bytes as a COLLADA document: import must return, never panic or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rigkit::Limits;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_vertices: 100_000,
        max_triangles: 200_000,
        ..Limits::default()
    };
    let _ = rigkit::io::import(data, "fuzz.dae", &limits);
});

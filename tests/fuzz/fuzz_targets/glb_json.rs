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
    let _ = rigkit::io::import(&container(json, bin), "fuzz.glb", &limits);
});

/// A GLB 2.0 file of `json` (padded with spaces) and, when not empty, `bin` (padded with
/// zeros), with every length right.
fn container(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let padded = |len: usize| len.div_ceil(4) * 4;
    let chunk = |out: &mut Vec<u8>, kind: &[u8; 4], bytes: &[u8], pad: u8| {
        out.extend_from_slice(&(padded(bytes.len()) as u32).to_le_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(bytes);
        out.resize(out.len() + padded(bytes.len()) - bytes.len(), pad);
    };
    let mut out = Vec::with_capacity(28 + json.len() + bin.len() + 8);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    chunk(&mut out, b"JSON", json, b' ');
    if !bin.is_empty() {
        chunk(&mut out, b"BIN\0", bin, 0);
    }
    let total = out.len() as u32;
    out[8..12].copy_from_slice(&total.to_le_bytes());
    out
}

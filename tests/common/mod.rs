//! Helpers shared by the integration tests: where the test data lives and how to load it.
//!
//! Two places: `tests/data` in the repository, small CC0/CC-BY files that every default test
//! reads (see its README), and the full shared set (`$RIGKIT_DATA`, else `../shared/data` beside
//! the repository), read only by the `#[ignore]`d sweeps, so that a clone alone passes.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use glam::Vec3;
use rigkit::mesh::Mesh;
use rigkit::{Character, Limits};

/// `rel` in the repository's own test data, `tests/data`.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// `rel` in the full shared data set: `$RIGKIT_DATA`, else `../shared/data` beside the
/// repository. Only for the ignored sweeps. Panics, naming the directory, when it is missing:
/// a sweep over nothing must fail, not pass.
pub fn shared(rel: &str) -> PathBuf {
    let root = std::env::var_os("RIGKIT_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    );
    let path = root.join(rel);
    assert!(
        path.exists(),
        "{} does not exist: this test needs the shared data set (set RIGKIT_DATA to it, or put it at ../shared/data)",
        path.display()
    );
    path
}

/// The bytes of `rel` in `tests/data`.
pub fn read(rel: &str) -> Vec<u8> {
    read_path(&data(rel))
}

pub fn read_path(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Imports `rel` from `tests/data` with the default limits.
pub fn load(rel: &str) -> Character {
    load_path(&data(rel), rel)
}

/// Imports the file at `path` with the default limits; `name` labels it in errors.
pub fn load_path(path: &Path, name: &str) -> Character {
    rigkit::io::import(&read_path(path), name, &Limits::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every file ending in `extension` under `root`, recursively, as sorted paths relative to
/// `root` with `/` separators (so they read like the paths the tests name).
pub fn files_under(root: &Path, extension: &str) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, extension: &str, out: &mut Vec<String>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if entry.path().is_dir() {
                walk(&entry.path(), &rel, extension, out);
            } else if Path::new(&name).extension().is_some_and(|e| e == extension) {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, "", extension, &mut out);
    out.sort();
    out
}

/// Appends a closed axis-aligned box from `lo` to `hi` (12 outward-facing triangles) to `mesh`.
pub fn add_box(mesh: &mut Mesh, lo: Vec3, hi: Vec3) {
    rigkit::mesh::add_box(mesh, lo, hi);
}

/// A GLB's JSON chunk, parsed.
pub fn glb_json(glb: &[u8]) -> serde_json::Value {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + json_len]).unwrap()
}

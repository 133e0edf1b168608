//! Helpers shared by the integration tests: where the shared data lives and how to load it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use glam::Vec3;
use rigkit::mesh::Mesh;
use rigkit::{Character, Limits};

/// `../shared/data` beside the repository, or `$RIGKIT_DATA`.
pub fn data(rel: &str) -> PathBuf {
    std::env::var_os("RIGKIT_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
        .join(rel)
}

pub fn read(rel: &str) -> Vec<u8> {
    let path = data(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Imports a shared data file with the default limits.
pub fn load(rel: &str) -> Character {
    rigkit::io::import(&read(rel), rel, &Limits::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Appends a closed axis-aligned box from `lo` to `hi` (12 outward-facing triangles) to `mesh`.
pub fn add_box(mesh: &mut Mesh, lo: Vec3, hi: Vec3) {
    let base = mesh.positions.len() as u32;
    for i in 0..8u32 {
        mesh.positions.push(Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        ));
    }
    for t in [
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ] {
        mesh.triangles.push(t.map(|i: u32| i + base));
    }
}

//! Helpers shared by the integration tests: where the shared data lives and how to load it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

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

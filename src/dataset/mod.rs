//! Training and evaluation data: procedural creatures with exact ground truth, MakeHuman bodies,
//! the real rigged characters on disk, augmentations, point samples for the networks, and the
//! explicit splits between training, validation and evaluation.

pub mod anny;
pub mod augment;
pub mod body_plans;
pub mod creature;
pub mod points;
pub mod split;
pub mod stats;
pub mod zero_ad;

pub use split::Split;
pub use stats::SourceStats;

/// The data sources `rigkit lab dataset stats` knows, by the name it takes.
pub const SOURCES: [(&str, &str); 5] = [
    ("quaternius-glb", "train/quaternius-glb"),
    ("quaternius-fbx", "train/quaternius-fbx"),
    ("mesh2motion", "train/mesh2motion-variations"),
    ("anny", ""),
    ("procedural", ""),
];

/// Every `.glb` file under `root`, sorted.
///
/// # Errors
/// A message naming a folder that cannot be listed.
pub fn glb_files(root: &std::path::Path) -> Result<Vec<std::path::PathBuf>, String> {
    files_under(root, |path| {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("glb"))
    })
}

/// Every file under `root` that `keep` accepts, sorted.
///
/// # Errors
/// A message naming a folder that cannot be listed.
pub fn files_under(
    root: &std::path::Path,
    keep: impl Fn(&std::path::Path) -> bool,
) -> Result<Vec<std::path::PathBuf>, String> {
    let mut files = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list '{}': {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if keep(&path) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

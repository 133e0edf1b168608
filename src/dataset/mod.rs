//! Training and evaluation data: procedural creatures with exact ground truth, MakeHuman bodies,
//! the real rigged characters on disk, augmentations, point samples for the networks, and the
//! explicit splits between training, validation and evaluation.

pub mod anny;
pub mod augment;
pub mod creature;
pub mod points;
pub mod split;
pub mod stats;

pub use split::Split;
pub use stats::SourceStats;

/// The data sources `rigkit dataset stats` knows, by the name it takes.
pub const SOURCES: [(&str, &str); 5] = [
    ("quaternius-glb", "train/quaternius-glb"),
    ("quaternius-fbx", "train/quaternius-fbx"),
    ("mesh2motion", "train/mesh2motion-variations"),
    ("anny", ""),
    ("procedural", ""),
];

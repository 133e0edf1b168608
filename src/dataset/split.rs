//! Which data trains and which validates, fixed in code so that no run can mix them.
//!
//! Real characters split by pack or skeleton family, never by file: the Quaternius packs share
//! skeletons, and a validation file whose skeleton was seen in training makes the score lie.
//! Generated data splits by seed range. `../shared/data/eval` is neither: it is only ever
//! scored, never trained or tuned on.

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    Train,
    Validation,
    /// The public evaluation set: scored, never trained or tuned on.
    Eval,
}

impl Split {
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Eval => "eval",
        }
    }
}

/// Folders (relative to the data root) held out for validation: a Quaternius pack of each
/// format with skeletons of its own (platformer characters, monsters), and the Mesh2Motion fox
/// family (the fox, the dog and the horse rigged with one quadruped template).
pub const VALIDATION_FOLDERS: [&str; 3] = [
    "train/quaternius-glb/platformer_game_pack",
    "train/quaternius-fbx/Monster_Pack_Animated_-_Aug_2018",
    "train/mesh2motion-variations/fox-",
];

/// 0 A.D. characters (converted by `rigkit lab dataset 0ad`, read from the folder given to
/// `rigkit lab train --zero-ad`, named `0ad/<path>`) held out by skeleton family: the biped people
/// (one rig for all 35), the crocodile, camels, giraffes, African elephants, the crow and the
/// hawk. The other families (horses, cattle, deer, dogs, pigs, fish, …) train.
pub const ZERO_AD_VALIDATION: [&str; 8] = [
    "0ad/new/",
    "0ad/campaigns/",
    "0ad/Croc",
    "0ad/camel",
    "0ad/giraffe",
    "0ad/elephant_african",
    "0ad/crow",
    "0ad/hawk",
];

/// Procedural creature seeds for training, and the disjoint range for validation.
pub const PROCEDURAL_TRAIN: Range<u64> = 0..1_000_000_000;
pub const PROCEDURAL_VALIDATION: Range<u64> = 1_000_000_000..1_000_100_000;

/// MakeHuman body seeds, likewise.
pub const ANNY_TRAIN: Range<u64> = 0..1_000_000_000;
pub const ANNY_VALIDATION: Range<u64> = 1_000_000_000..1_000_100_000;

/// The split of a real file from its path relative to the data root (`/`-separated).
pub fn split_of_path(relative: &str) -> Split {
    if relative.starts_with("eval/") {
        Split::Eval
    } else if VALIDATION_FOLDERS
        .iter()
        .chain(&ZERO_AD_VALIDATION)
        .any(|f| relative.starts_with(f))
    {
        Split::Validation
    } else {
        Split::Train
    }
}

/// The split of a generated sample from its seed; seeds outside both ranges are neither.
pub fn split_of_seed(seed: u64, train: &Range<u64>, validation: &Range<u64>) -> Option<Split> {
    if train.contains(&seed) {
        Some(Split::Train)
    } else if validation.contains(&seed) {
        Some(Split::Validation)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_are_disjoint_and_eval_is_never_training() {
        const {
            assert!(PROCEDURAL_TRAIN.end <= PROCEDURAL_VALIDATION.start);
            assert!(ANNY_TRAIN.end <= ANNY_VALIDATION.start);
        }
        assert_eq!(split_of_path("eval/Fox.glb"), Split::Eval);
        assert_eq!(
            split_of_path("train/mesh2motion-variations/fox-dog.glb"),
            Split::Validation
        );
        assert_eq!(
            split_of_path("train/quaternius-glb/modular_men/a.glb"),
            Split::Train
        );
        assert_eq!(split_of_path("0ad/new/m_naked.glb"), Split::Validation);
        assert_eq!(split_of_path("0ad/horse.glb"), Split::Train);
        assert_eq!(
            split_of_seed(1_000_000_005, &PROCEDURAL_TRAIN, &PROCEDURAL_VALIDATION),
            Some(Split::Validation)
        );
    }
}

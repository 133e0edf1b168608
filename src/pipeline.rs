//! The whole rig of a character, stage by stage, as the CLI and the browser both run it:
//! fit a skeleton, then skin it, reporting each stage as it starts.

use crate::Character;
use crate::skeleton::{AutoOptions, RigError, SkeletonSource, skeleton_for};
use crate::skin::{SkinOptions, geodesic_skin};

/// The stages of [`rig_character`], in order, for progress displays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Voxelising the body and fitting the skeleton inside it.
    Skeleton,
    /// Geodesic skin weights for the new skeleton.
    Skin,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Self::Skeleton => "skeleton",
            Self::Skin => "skin",
        }
    }
}

/// Why a rig failed: the skeleton did not fit or the skin could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    Skeleton(#[from] RigError),
    #[error(transparent)]
    Skin(#[from] crate::skin::SkinError),
}

/// Rigs `character` in place: a new skeleton from `source` and geodesic skin weights
/// with at most `max_influences` per vertex. Animations and the humanoid bone map of any
/// previous skeleton no longer fit and are dropped. `progress` hears each stage as it begins.
/// On error the character is left exactly as it was.
///
/// # Errors
/// [`PipelineError`] when the skeleton does not fit or the mesh cannot be skinned.
pub fn rig_character(
    character: &mut Character,
    source: &SkeletonSource,
    max_influences: usize,
    mut progress: impl FnMut(Stage),
) -> Result<(), PipelineError> {
    progress(Stage::Skeleton);
    let skeleton = skeleton_for(&character.mesh, source, &AutoOptions::default())?;
    progress(Stage::Skin);
    let options = SkinOptions {
        max_influences,
        ..SkinOptions::default()
    };
    let skin = geodesic_skin(&character.mesh, &skeleton, &options)?;
    character.skeleton = Some(skeleton);
    character.skin = Some(skin);
    character.animations.clear();
    character.humanoid.clear();
    Ok(())
}

//! The whole rig of a character, stage by stage, as the CLI and the browser both run it:
//! fit a skeleton, then skin it, reporting each stage as it starts — geometrically, or with
//! the learned heads refining the geometric result.

use crate::Character;
use crate::skeleton::{AutoOptions, Body, RigError, SkeletonSource, Template, skeleton_in};
use crate::skin::{SkinOptions, geodesic_skin};

/// How one stage is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Skeleton: curve skeleton of the voxelised body; skin: geodesic (bone heat) weights.
    Geometric,
    /// The geometric result refined by a trained network (see [`crate::neural`]): joints of
    /// automatic skeletons moved by the skeleton head, weights from the skinning head.
    Neural,
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "geometric" => Ok(Self::Geometric),
            "neural" => Ok(Self::Neural),
            other => Err(format!(
                "unknown method '{other}'; available: geometric, neural"
            )),
        }
    }
}

/// The method of each stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Methods {
    pub skeleton: Method,
    pub skin: Method,
}

impl Methods {
    /// What measured better per stage on `../shared/data/eval` (models/README.md): the
    /// skeleton head's joints (CD-J2J 7.12 against 7.22), the geometric skin weights (the
    /// skinning head's L1 and deformation error are still higher).
    pub const BEST: Self = Self {
        skeleton: Method::Neural,
        skin: Method::Geometric,
    };

    /// Both stages by `method`.
    pub const fn all(method: Method) -> Self {
        Self {
            skeleton: method,
            skin: method,
        }
    }
}

impl Default for Methods {
    fn default() -> Self {
        Self::BEST
    }
}

/// `best` ([`Methods::BEST`]), `geometric` or `neural` (both stages).
impl std::str::FromStr for Methods {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "best" => Ok(Self::BEST),
            other => other.parse().map(Self::all).map_err(|_| {
                format!("unknown method '{other}'; available: best, geometric, neural")
            }),
        }
    }
}

/// The stages of [`rig_character`], in order, for progress displays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Voxelising the body the skeleton is fitted in.
    Voxelise,
    /// Fitting the skeleton inside the body (and refining its joints).
    Skeleton,
    /// Geodesic skin weights for the new skeleton.
    Skin,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Self::Voxelise => "voxelise",
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
    #[error("the learned rigger failed: {0}")]
    Neural(String),
}

/// Rigs `character` in place by `methods`: a new skeleton from `source` and skin weights
/// with at most `max_influences` per vertex. The skeleton head only refines automatic
/// skeletons (see [`refines`]). Animations and the humanoid bone map of any
/// previous skeleton no longer fit and are dropped. `progress` hears each stage as it begins.
/// On error the character is left exactly as it was.
///
/// # Errors
/// [`PipelineError`] when the skeleton does not fit or the mesh cannot be skinned.
pub fn rig_character(
    character: &mut Character,
    source: &SkeletonSource,
    max_influences: usize,
    methods: Methods,
    mut progress: impl FnMut(Stage),
) -> Result<(), PipelineError> {
    let options = AutoOptions::default();
    progress(Stage::Voxelise);
    let body = Body::of(&character.mesh, &options)?;
    progress(Stage::Skeleton);
    let mut skeleton = skeleton_in(&character.mesh, &body, source, &options)?;
    // The models are loaded once per rig, by the first stage that needs them.
    let mut networks = None;
    if methods.skeleton == Method::Neural && refines(source) {
        skeleton = neural::refine_skeleton(&mut networks, &character.mesh, &skeleton)?;
    }
    progress(Stage::Skin);
    let skin = if methods.skin == Method::Neural {
        neural::skin(&mut networks, &character.mesh, &skeleton, max_influences)?
    } else {
        let options = SkinOptions {
            max_influences,
            ..SkinOptions::default()
        };
        geodesic_skin(&character.mesh, &skeleton, &options)?
    };
    character.skeleton = Some(skeleton);
    character.skin = Some(skin);
    character.animations.clear();
    character.humanoid.clear();
    Ok(())
}

/// Whether the skeleton head refines skeletons from `source`: automatic ones only, what it
/// was trained on; templates and given skeletons keep their fit.
pub fn refines(source: &SkeletonSource) -> bool {
    matches!(source, SkeletonSource::Template(Template::Auto))
}

/// The learned stages on the CPU backend, with the shipped models.
#[cfg(feature = "compute")]
mod neural {
    use super::PipelineError;
    use crate::compute::cpu_device;
    use crate::mesh::Mesh;
    use crate::neural::Networks;
    use crate::rig::{Skeleton, SkinWeights};

    /// The shipped models, loaded into `loaded` on first use.
    fn networks(loaded: &mut Option<Networks>) -> Result<&Networks, PipelineError> {
        if loaded.is_none() {
            let networks = Networks::bundled(&cpu_device())
                .map_err(|e| PipelineError::Neural(e.to_string()))?;
            *loaded = Some(networks);
        }
        loaded
            .as_ref()
            .ok_or_else(|| PipelineError::Neural("the models did not load".into()))
    }

    pub fn refine_skeleton(
        loaded: &mut Option<Networks>,
        mesh: &Mesh,
        proposal: &Skeleton,
    ) -> Result<Skeleton, PipelineError> {
        networks(loaded)?
            .refine_skeleton(mesh, proposal)
            .map_err(|e| PipelineError::Neural(e.to_string()))
    }

    pub fn skin(
        loaded: &mut Option<Networks>,
        mesh: &Mesh,
        skeleton: &Skeleton,
        max_influences: usize,
    ) -> Result<SkinWeights, PipelineError> {
        networks(loaded)?
            .skin(mesh, skeleton, max_influences)
            .map_err(|e| PipelineError::Neural(e.to_string()))
    }
}

/// Without the `compute` feature there are no networks to run.
#[cfg(not(feature = "compute"))]
mod neural {
    use super::PipelineError;
    use crate::mesh::Mesh;
    use crate::rig::{Skeleton, SkinWeights};

    const MISSING: &str = "this build has no neural models (the compute feature is off)";

    /// Stands in for the models this build cannot have.
    pub enum Networks {}

    pub fn refine_skeleton(
        _: &mut Option<Networks>,
        _: &Mesh,
        _: &Skeleton,
    ) -> Result<Skeleton, PipelineError> {
        Err(PipelineError::Neural(MISSING.into()))
    }

    pub fn skin(
        _: &mut Option<Networks>,
        _: &Mesh,
        _: &Skeleton,
        _: usize,
    ) -> Result<SkinWeights, PipelineError> {
        Err(PipelineError::Neural(MISSING.into()))
    }
}

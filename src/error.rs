//! The crate-wide error: one variant per module, each carrying that module's own error as its
//! source, so callers match on what failed and shells turn it into a message once.

use crate::anim::{MotionError, RetargetError};
#[cfg(feature = "compute")]
use crate::compute::ComputeError;
use crate::correctives::CorrectiveError;
use crate::edit::EditError;
use crate::export::ExportError;
use crate::io::ImportError;
use crate::pipeline::NeuralError;
use crate::skeleton::RigError;
use crate::skin::SkinError;

/// Anything that can go wrong between the bytes a user gives and the rig they get back.
///
/// Every message is a sentence a user can act on; the CLI prints it and the browser shows it in
/// its error banner.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Skeleton(#[from] RigError),
    #[error(transparent)]
    Skin(#[from] SkinError),
    /// A learned stage's own failure (a skeleton or skin error inside it is
    /// [`Error::Skeleton`] or [`Error::Skin`], as anywhere else).
    #[error(transparent)]
    Neural(NeuralError),
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Retarget(#[from] RetargetError),
    #[error(transparent)]
    Motion(#[from] MotionError),
    #[cfg(feature = "compute")]
    #[error(transparent)]
    Compute(#[from] ComputeError),
    #[error(transparent)]
    Corrective(#[from] CorrectiveError),
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A name of a template, method, format or convention that is none of those there are.
    #[error(transparent)]
    Unknown(#[from] crate::UnknownName),
    /// A request the document cannot carry out in its current state (nothing loaded, no
    /// such joint or clip), in words.
    #[error("{0}")]
    State(String),
}

/// Each kind of failure reaches the caller by one path: the skeleton and skin errors a learned
/// stage passes on are the same variants the geometric stages give.
impl From<NeuralError> for Error {
    fn from(e: NeuralError) -> Self {
        match e {
            #[cfg(feature = "compute")]
            NeuralError::Skeleton(e) => Self::Skeleton(e),
            #[cfg(feature = "compute")]
            NeuralError::Skin(e) => Self::Skin(e),
            other => Self::Neural(other),
        }
    }
}

#[cfg(all(test, feature = "compute"))]
mod tests {
    use super::*;

    #[test]
    fn a_skeleton_error_is_one_variant_however_it_came() {
        let direct = Error::from(RigError::EmptyMesh);
        let through_a_network = Error::from(NeuralError::Skeleton(RigError::EmptyMesh));
        assert_eq!(direct, through_a_network);
        assert!(matches!(direct, Error::Skeleton(RigError::EmptyMesh)));
        assert!(matches!(
            Error::from(NeuralError::NoJoints),
            Error::Neural(NeuralError::NoJoints)
        ));
    }
}

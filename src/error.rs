//! The crate-wide error: one variant per module, each carrying that module's own error as its
//! source, so callers match on what failed and shells turn it into a message once.

use crate::anim::{MotionError, RetargetError};
#[cfg(feature = "compute")]
use crate::compute::ComputeError;
use crate::edit::EditError;
use crate::export::ExportError;
use crate::io::ImportError;
use crate::pipeline::{NeuralError, PipelineError};
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
    #[error(transparent)]
    Neural(#[from] NeuralError),
    #[error(transparent)]
    Rig(#[from] PipelineError),
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
    Export(#[from] ExportError),
    /// A request the document cannot carry out in its current state (nothing loaded, no
    /// such joint or clip), in words.
    #[error("{0}")]
    State(String),
}

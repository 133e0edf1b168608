//! The crate-wide error: one variant per pipeline stage, each carrying that stage's own error.

#[cfg(feature = "compute")]
use crate::compute::ComputeError;
use crate::export::ExportError;
use crate::io::ImportError;

/// Anything that can go wrong between the bytes a user gives and the rig they get back.
///
/// Every message is a sentence a user can act on; the CLI prints it and the browser shows it in
/// its error banner.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Import(#[from] ImportError),
    #[cfg(feature = "compute")]
    #[error(transparent)]
    Compute(#[from] ComputeError),
    #[error(transparent)]
    Export(#[from] ExportError),
}

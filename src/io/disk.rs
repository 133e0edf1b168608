//! Reading a model from disk for the native shells (the CLI, the Python package): the file and
//! the files it refers to from beside it (a glTF's `.bin` buffers and images, an OBJ's
//! `.mtl`), each within the size limit, as [`super::import_files`] takes them.

use std::path::Path;

use super::{ImportError, external_references, file_name};
use crate::Limits;

/// The bytes of `path`, refused before reading when larger than `limits` allows.
///
/// # Errors
/// [`ImportError::Unreadable`] when the file cannot be read, [`ImportError::TooLarge`] when
/// it is over the limit.
pub fn read_capped(path: &Path, limits: &Limits) -> Result<Vec<u8>, ImportError> {
    let shown = path.display().to_string();
    let unreadable = |e: std::io::Error| ImportError::Unreadable {
        path: shown.clone(),
        reason: e.to_string(),
    };
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > limits.max_file_bytes as u64 {
        return Err(ImportError::TooLarge {
            name: shown,
            bytes: usize::try_from(size).unwrap_or(usize::MAX),
            limit: limits.max_file_bytes,
        });
    }
    std::fs::read(path).map_err(unreadable)
}

/// The model at `path` (named by its file name) followed by the files it refers to that lie
/// beside it. A reference that is missing is left out: the importer reports it by name.
///
/// # Errors
/// As [`read_capped`], for the model itself.
pub fn read_with_references(
    path: &Path,
    limits: &Limits,
) -> Result<Vec<(String, Vec<u8>)>, ImportError> {
    let bytes = read_capped(path, limits)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let dir = path.parent().unwrap_or(Path::new("."));
    let references: Vec<(String, Vec<u8>)> = external_references(&bytes, &name)
        .into_iter()
        .filter_map(|uri| {
            let file = file_name(&uri);
            let data = read_capped(&dir.join(&file), limits).ok()?;
            Some((file, data))
        })
        .collect();
    let mut files = vec![(name, bytes)];
    files.extend(references);
    Ok(files)
}

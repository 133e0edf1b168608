//! Bytes in: every input format becomes a [`Character`], validated once here so that later
//! stages can trust what they get.

mod accessor_check;
pub mod bvh;
mod error;
mod glb;
mod gltf_scene;

pub use error::ImportError;

use crate::{Character, Limits};

/// The formats [`import`] recognises, by content first and file name second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Glb,
    Gltf,
}

/// Reads a character from the bytes of one file named `name`.
///
/// # Errors
///
/// An [`ImportError`] naming the file and what is wrong with it: empty, too large, a format we
/// do not read, a malformed container or JSON, out-of-range data, non-finite positions, no
/// triangles, or more vertices or joints than `limits` allow.
pub fn import(bytes: &[u8], name: &str, limits: &Limits) -> Result<Character, ImportError> {
    if bytes.is_empty() {
        return Err(ImportError::Empty { name: name.into() });
    }
    if bytes.len() > limits.max_file_bytes {
        return Err(ImportError::TooLarge {
            name: name.into(),
            bytes: bytes.len(),
            limit: limits.max_file_bytes,
        });
    }
    match detect_format(bytes, name)? {
        Format::Glb => {
            let container = glb::split(bytes).map_err(|reason| ImportError::Malformed {
                name: name.into(),
                reason,
            })?;
            gltf_scene::import(container.json, container.bin, name, limits)
        }
        Format::Gltf => gltf_scene::import(bytes, None, name, limits),
    }
}

/// Content wins over the extension: a `.glb` that is really JSON is read as glTF.
pub fn detect_format(bytes: &[u8], name: &str) -> Result<Format, ImportError> {
    if bytes.starts_with(b"glTF") {
        return Ok(Format::Glb);
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        return Ok(Format::Gltf);
    }
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    Err(match extension.as_str() {
        "glb" => ImportError::Malformed {
            name: name.into(),
            reason: "it does not start with the GLB magic 'glTF'".into(),
        },
        "gltf" => ImportError::Malformed {
            name: name.into(),
            reason: "it is not a JSON document".into(),
        },
        _ => ImportError::UnsupportedFormat {
            name: name.into(),
            extension,
        },
    })
}

//! Bytes in: every input format becomes a [`Character`], validated once here so that later
//! stages can trust what they get.

mod accessor_check;
mod axes;
pub mod bvh;
mod collada;
#[cfg(not(target_arch = "wasm32"))]
mod disk;
mod error;
pub mod fbx;
mod glb;
mod gltf_scene;
mod mesh_builder;
mod obj;
mod resources;

#[cfg(not(target_arch = "wasm32"))]
pub use disk::{read_capped, read_with_references};
pub use error::ImportError;
pub use resources::{InputFile, file_name};

use crate::{Character, Limits};

/// The formats [`import`] recognises, by content first and file name second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Binary glTF, including VRM (a GLB with the VRM extension).
    Glb,
    Gltf,
    Obj,
    /// Autodesk FBX, binary or ASCII.
    Fbx,
    /// COLLADA (`.dae`).
    Collada,
    /// Motion capture: a skeleton and its motion, no mesh.
    Bvh,
}

impl Format {
    /// Whether files of this format can hold a mesh to rig (a BVH holds motion only).
    pub fn has_mesh(self) -> bool {
        !matches!(self, Self::Bvh)
    }
}

/// Reads a character from several files given together: a `.gltf` with its `.bin` buffers, an
/// `.obj` with its `.mtl`. The first file that is a model is the character; the others resolve
/// its references by file name.
///
/// # Errors
/// As [`import`]; also when no file is a model or the files together exceed the size limit.
pub fn import_files(files: &[InputFile<'_>], limits: &Limits) -> Result<Character, ImportError> {
    let total: usize = files.iter().map(|f| f.bytes.len()).sum();
    if total > limits.max_file_bytes {
        let name = files.iter().map(|f| f.name).collect::<Vec<_>>().join(", ");
        return Err(ImportError::TooLarge {
            name,
            bytes: total,
            limit: limits.max_file_bytes,
        });
    }
    let main = files
        .iter()
        .find(|f| detect_format(f.bytes, f.name).is_ok())
        .or_else(|| files.first())
        .ok_or_else(|| ImportError::Empty {
            name: "(no files)".into(),
        })?;
    import_with(main, files, limits)
}

/// Reads a character from the bytes of one file named `name`.
///
/// # Errors
///
/// An [`ImportError`] naming the file and what is wrong with it: empty, too large, a format we
/// do not read, a malformed container or JSON, out-of-range data, non-finite positions, no
/// triangles, or more vertices or joints than `limits` allow.
pub fn import(bytes: &[u8], name: &str, limits: &Limits) -> Result<Character, ImportError> {
    import_with(&InputFile { name, bytes }, &[], limits)
}

fn import_with(
    main: &InputFile<'_>,
    resources: &[InputFile<'_>],
    limits: &Limits,
) -> Result<Character, ImportError> {
    let InputFile { name, bytes } = *main;
    check_size(bytes, name, limits)?;
    match detect_format(bytes, name)? {
        Format::Glb => {
            let container = split_glb(bytes, name)?;
            gltf_scene::import(container.json, container.bin, name, resources, limits)
        }
        Format::Gltf => gltf_scene::import(bytes, None, name, resources, limits),
        Format::Obj => obj::import(&String::from_utf8_lossy(bytes), name, resources, limits),
        Format::Fbx => fbx::import(bytes, name, limits),
        Format::Collada => collada::import(bytes, name, limits),
        Format::Bvh => Err(ImportError::MotionOnly { name: name.into() }),
    }
}

/// Only the skeleton of a GLB/glTF/VRM file (which may have no mesh at all, like a rig
/// template), at the nodes' default pose.
///
/// # Errors
/// As [`import`], and [`ImportError::NoSkeleton`] for a file without joints; OBJ files never
/// have a skeleton.
pub fn import_skeleton(
    bytes: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<crate::rig::Skeleton, ImportError> {
    check_size(bytes, name, limits)?;
    match detect_format(bytes, name)? {
        Format::Glb => {
            let container = split_glb(bytes, name)?;
            gltf_scene::import_skeleton(container.json, name, limits)
        }
        Format::Gltf => gltf_scene::import_skeleton(bytes, name, limits),
        Format::Obj => Err(ImportError::NoSkeleton { name: name.into() }),
        Format::Fbx | Format::Collada => import(bytes, name, limits)?
            .skeleton
            .ok_or_else(|| ImportError::NoSkeleton { name: name.into() }),
        Format::Bvh => Ok(read_bvh(bytes, name)?.to_skeleton()),
    }
}

/// A BVH capture from its bytes, which must be UTF-8 text.
///
/// # Errors
/// [`ImportError::NotText`] for binary bytes, [`ImportError::Bvh`] for a malformed capture.
pub fn read_bvh(bytes: &[u8], name: &str) -> Result<bvh::Bvh, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ImportError::NotText {
        name: name.into(),
        format: "BVH",
    })?;
    Ok(bvh::Bvh::parse(text, name)?)
}

/// The JSON and binary chunks of a GLB; a broken container is a malformed file.
fn split_glb<'a>(bytes: &'a [u8], name: &str) -> Result<glb::GlbChunks<'a>, ImportError> {
    glb::split(bytes).map_err(|reason| ImportError::Malformed {
        name: name.into(),
        reason,
    })
}

/// An empty or oversized input is refused before anything is parsed.
pub(crate) fn check_size(bytes: &[u8], name: &str, limits: &Limits) -> Result<(), ImportError> {
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
    Ok(())
}

/// The other files a model refers to by name — a glTF document's external buffers and images,
/// an OBJ's material libraries — so that a caller with a file system can gather them for
/// [`import_files`]. Unreadable input gives an empty list; [`import`] reports the problem.
pub fn external_references(bytes: &[u8], name: &str) -> Vec<String> {
    match detect_format(bytes, name) {
        Ok(Format::Gltf) => gltf_scene::external_uris(bytes),
        Ok(Format::Glb) => glb::split(bytes)
            .map(|c| gltf_scene::external_uris(c.json))
            .unwrap_or_default(),
        Ok(Format::Obj) => String::from_utf8_lossy(bytes)
            .lines()
            .filter_map(|l| l.trim().strip_prefix("mtllib "))
            .map(|m| m.trim().to_owned())
            .collect(),
        // FBX embeds its textures; external ones are not read.
        Ok(Format::Fbx | Format::Collada | Format::Bvh) | Err(_) => Vec::new(),
    }
}

/// Content wins over the extension: a `.glb` that is really JSON is read as glTF.
pub fn detect_format(bytes: &[u8], name: &str) -> Result<Format, ImportError> {
    if bytes.starts_with(b"glTF") {
        return Ok(Format::Glb);
    }
    if fbx::is_fbx(bytes) {
        return Ok(Format::Fbx);
    }
    if collada::is_collada(bytes) {
        return Ok(Format::Collada);
    }
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let text = &bytes[start.unwrap_or(bytes.len())..];
    if text.starts_with(b"{") {
        return Ok(Format::Gltf);
    }
    if text.starts_with(b"HIERARCHY") {
        return Ok(Format::Bvh);
    }
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    Err(match extension.as_str() {
        "obj" => return Ok(Format::Obj),
        "fbx" => return Ok(Format::Fbx),
        "dae" => return Ok(Format::Collada),
        "bvh" => return Ok(Format::Bvh),
        "glb" | "vrm" => ImportError::Malformed {
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

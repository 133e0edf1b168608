//! Bytes out: a character and its rig as a binary glTF (GLB) that opens in Blender, Unity,
//! Unreal, Godot and three.js, or as a binary FBX for the tools that want FBX.

mod animation;
mod fbx;
mod glb_container;
mod gltf_buffers;
mod gltf_document;
mod vrm;

pub use fbx::export_fbx;
pub use glb_container::write as write_glb;
pub use gltf_document::{ExportError, ExportOptions, export_glb};

use crate::Character;

/// The file formats rigkit writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Binary glTF: the default, what every engine and the web read.
    Glb,
    /// Binary FBX 7.4, for pipelines built on FBX.
    Fbx,
    /// A GLB that is a VRM 1.0 avatar (or the VRM 0.x it came as): humanoid rigs only.
    Vrm,
}

impl OutputFormat {
    /// The format a file name's extension names (`.glb`, `.fbx`, any case); `None` for others.
    pub fn from_file_name(name: &str) -> Option<Self> {
        let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match extension.as_str() {
            "glb" => Some(Self::Glb),
            "fbx" => Some(Self::Fbx),
            "vrm" => Some(Self::Vrm),
            _ => None,
        }
    }

    /// A format by its name as the page and the JS API spell it (`glb`, `fbx`, `vrm`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::from_file_name(&format!(".{name}"))
    }
}

/// A format by name as the packages and the page's API take it, refused with the choices.
impl std::str::FromStr for OutputFormat {
    type Err = String;
    fn from_str(name: &str) -> Result<Self, String> {
        Self::from_name(name)
            .ok_or_else(|| format!("cannot export as '{name}': the formats are glb, fbx and vrm"))
    }
}

/// Writes `character` in `format`.
///
/// # Errors
/// As [`export_glb`] and [`export_fbx`]; for VRM, [`ExportError::NotHumanoid`] when the
/// skeleton lacks a bone VRM requires.
pub fn export(
    character: &Character,
    options: &ExportOptions,
    format: OutputFormat,
) -> Result<Vec<u8>, ExportError> {
    match format {
        OutputFormat::Glb => export_glb(character, options),
        OutputFormat::Fbx => export_fbx(character, options),
        OutputFormat::Vrm => export_glb(
            character,
            &ExportOptions {
                vrm: true,
                ..*options
            },
        ),
    }
}

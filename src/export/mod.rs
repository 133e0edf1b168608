//! Bytes out: a character and its rig as a binary glTF (GLB) that opens in Blender, Unity,
//! Unreal, Godot and three.js.

mod animation;
mod glb_container;
mod gltf_document;

pub use gltf_document::{ExportError, ExportOptions, export_glb};

//! The binary chunk of a glTF being written: data appended as buffer views, with the
//! accessors that describe them, for the document (`gltf_document`) and its clips
//! (`animation`) alike.

use glam::Vec3;
use serde_json::{Value, json};

// The component types and buffer targets, as glTF's JSON schema names them.
pub(super) use gltf::json::accessor::{FLOAT, UNSIGNED_INT, UNSIGNED_SHORT};
pub(super) use gltf::json::buffer::{ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER};

/// Collects the binary chunk and the accessors and views that describe it.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) bin: Vec<u8>,
    pub(super) views: Vec<Value>,
    pub(super) accessors: Vec<Value>,
}

impl Buffers {
    /// Appends `bytes` as a new buffer view; returns its index.
    pub(super) fn push_view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().div_ceil(4) * 4, 0);
        let mut view = json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() });
        if let Some(target) = target {
            view["target"] = json!(target);
        }
        self.views.push(view);
        self.views.len() - 1
    }

    /// Appends `bytes` as a new view and an accessor over it; returns the accessor index.
    pub(super) fn push(&mut self, bytes: &[u8], target: Option<u32>, mut accessor: Value) -> usize {
        accessor["bufferView"] = json!(self.push_view(bytes, target));
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    pub(super) fn push_vec3(&mut self, values: &[Vec3], with_bounds: bool) -> usize {
        let bytes: Vec<u8> = values
            .iter()
            .flat_map(|v| v.to_array())
            .flat_map(f32::to_le_bytes)
            .collect();
        let mut accessor = json!({ "componentType": FLOAT, "count": values.len(), "type": "VEC3" });
        if with_bounds {
            let b = crate::mesh::Aabb::from_points(values);
            accessor["min"] = json!(b.min.to_array());
            accessor["max"] = json!(b.max.to_array());
        }
        self.push(&bytes, Some(ARRAY_BUFFER), accessor)
    }
}

//! The binary chunk of a glTF being written: data appended as buffer views, with the
//! accessors that describe them, for the document (`gltf_document`) and its clips
//! (`animation`) alike.

use glam::Vec3;
use gltf::json::accessor::sparse::{self, Sparse};
use gltf::json::accessor::{ComponentType, GenericComponentType, IndexComponentType, Type};
use gltf::json::buffer::{Target, View};
use gltf::json::validation::{Checked::Valid, USize64};
use gltf::json::{Accessor, Index};
use serde_json::json;

/// Collects the binary chunk and the accessors and views that describe it.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) bin: Vec<u8>,
    pub(super) views: Vec<View>,
    pub(super) accessors: Vec<Accessor>,
}

impl Buffers {
    /// Appends `bytes` as a new buffer view.
    pub(super) fn push_view(&mut self, bytes: &[u8], target: Option<Target>) -> Index<View> {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().div_ceil(4) * 4, 0);
        let view = View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        };
        Index::push(&mut self.views, view)
    }

    /// Appends `bytes` as a new view and `accessor` over it.
    pub(super) fn push(
        &mut self,
        bytes: &[u8],
        target: Option<Target>,
        mut accessor: Accessor,
    ) -> Index<Accessor> {
        accessor.buffer_view = Some(self.push_view(bytes, target));
        Index::push(&mut self.accessors, accessor)
    }

    /// Appends 32-bit floats, `kind` elements of them, with their bounds when given (glTF
    /// requires them of positions and animation key times).
    pub(super) fn push_floats(
        &mut self,
        values: impl IntoIterator<Item = f32>,
        kind: Type,
        target: Option<Target>,
        bounds: Option<(&[f32], &[f32])>,
    ) -> Index<Accessor> {
        let bytes: Vec<u8> = values.into_iter().flat_map(f32::to_le_bytes).collect();
        let count = bytes.len() / size_of::<f32>() / width(kind);
        let mut floats = accessor(ComponentType::F32, kind, count);
        if let Some((min, max)) = bounds {
            floats.min = Some(json!(min));
            floats.max = Some(json!(max));
        }
        self.push(&bytes, target, floats)
    }

    /// Appends offsets (morph target deltas), sparse — the moved elements and their indices —
    /// where that is smaller, as a face's shapes are (they move a few hundred vertices of
    /// thousands); with bounds when asked, over every element.
    pub(super) fn push_offsets(&mut self, values: &[Vec3], with_bounds: bool) -> Index<Accessor> {
        let moved: Vec<u32> = (0..values.len() as u32)
            .filter(|&i| values[i as usize] != Vec3::ZERO)
            .collect();
        // A sparse element costs its index (4 bytes) beside its 12.
        if moved.is_empty() || moved.len() * 16 >= values.len() * 12 {
            return self.push_vec3(values, with_bounds);
        }
        let mut offsets = accessor(ComponentType::F32, Type::Vec3, values.len());
        if with_bounds {
            let bounds = crate::mesh::Aabb::from_points(values);
            offsets.min = Some(json!(bounds.min.to_array()));
            offsets.max = Some(json!(bounds.max.to_array()));
        }
        let indices: Vec<u8> = moved.iter().flat_map(|i| i.to_le_bytes()).collect();
        let floats = moved.iter().flat_map(|&i| values[i as usize].to_array());
        let floats: Vec<u8> = floats.flat_map(f32::to_le_bytes).collect();
        offsets.sparse = Some(Sparse {
            count: USize64::from(moved.len()),
            indices: sparse::Indices {
                buffer_view: self.push_view(&indices, None),
                byte_offset: USize64(0),
                component_type: Valid(IndexComponentType(ComponentType::U32)),
                extensions: None,
                extras: Default::default(),
            },
            values: sparse::Values {
                buffer_view: self.push_view(&floats, None),
                byte_offset: USize64(0),
                extensions: None,
                extras: Default::default(),
            },
            extensions: None,
            extras: Default::default(),
        });
        Index::push(&mut self.accessors, offsets)
    }

    pub(super) fn push_vec3(&mut self, values: &[Vec3], with_bounds: bool) -> Index<Accessor> {
        let floats = values.iter().flat_map(|v| v.to_array());
        let bounds = (with_bounds.then(|| crate::mesh::Aabb::from_points(values)))
            .map(|b| (b.min.to_array(), b.max.to_array()));
        let bounds = bounds.as_ref().map(|(min, max)| (&min[..], &max[..]));
        self.push_floats(floats, Type::Vec3, Some(Target::ArrayBuffer), bounds)
    }
}

/// An accessor of `count` elements of `kind`, each of `component`s, over no view yet.
pub(super) fn accessor(component: ComponentType, kind: Type, count: usize) -> Accessor {
    Accessor {
        buffer_view: None,
        byte_offset: None,
        count: USize64::from(count),
        component_type: Valid(GenericComponentType(component)),
        extensions: None,
        extras: Default::default(),
        type_: Valid(kind),
        min: None,
        max: None,
        name: None,
        normalized: false,
        sparse: None,
    }
}

/// Components per element of `kind`.
fn width(kind: Type) -> usize {
    match kind {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

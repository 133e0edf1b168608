//! Bounds checks for accessors, which the `gltf` crate's validation does not do: an accessor
//! whose data runs past its buffer view (or a view past its buffer) would make its reader panic.

use gltf::Accessor;

/// Checks that every byte `accessor` reads lies inside its buffer views and buffers, including
/// the indices and values of a sparse accessor.
fn check(accessor: &Accessor<'_>, buffers: &[Vec<u8>]) -> Result<(), String> {
    let index = accessor.index();
    let count = accessor.count();
    let element = accessor.size();
    let Some(sparse) = accessor.sparse() else {
        let Some(view) = accessor.view() else {
            return Err(format!("accessor {index} has no buffer view"));
        };
        return check_range(&view, accessor.offset(), count, element, buffers, index);
    };
    if count == 0 || sparse.count() == 0 || sparse.count() > count {
        return Err(format!(
            "sparse accessor {index} replaces {} of its {count} elements",
            sparse.count()
        ));
    }
    if let Some(view) = accessor.view() {
        check_range(&view, accessor.offset(), count, element, buffers, index)?;
    }
    let indices = sparse.indices();
    check_range(
        &indices.view(),
        indices.offset(),
        sparse.count(),
        indices.index_type().size(),
        buffers,
        index,
    )?;
    let values = sparse.values();
    check_range(
        &values.view(),
        values.offset(),
        sparse.count(),
        element,
        buffers,
        index,
    )
}

/// `count` elements of `element` bytes from `offset` in `view` lie inside the view and its
/// buffer.
fn check_range(
    view: &gltf::buffer::View<'_>,
    offset: usize,
    count: usize,
    element: usize,
    buffers: &[Vec<u8>],
    index: usize,
) -> Result<(), String> {
    let buffer = view.buffer().index();
    let Some(data) = buffers.get(buffer) else {
        return Err(format!("accessor {index} uses missing buffer {buffer}"));
    };
    let view_end = view.offset().checked_add(view.length());
    if view_end.is_none_or(|end| end > data.len()) {
        return Err(format!(
            "buffer view {} (bytes {}..+{}) runs past the end of buffer {buffer} ({} bytes)",
            view.index(),
            view.offset(),
            view.length(),
            data.len()
        ));
    }
    if count == 0 {
        return Ok(());
    }
    let stride = view.stride().unwrap_or(element);
    if stride < element {
        return Err(format!(
            "buffer view {} has a stride of {stride} bytes, smaller than the {element}-byte elements of accessor {index}",
            view.index()
        ));
    }
    let needed = stride
        .checked_mul(count - 1)
        .and_then(|n| n.checked_add(element))
        .and_then(|n| n.checked_add(offset));
    match needed {
        Some(n) if n <= view.length() => Ok(()),
        _ => Err(format!(
            "accessor {index} ({count} elements) runs past the end of buffer view {} ({} bytes)",
            view.index(),
            view.length()
        )),
    }
}

/// Checks that `accessor` reads inside its buffers ([`check`]) and that its component type
/// and dimensions are what its semantic requires; the `gltf` crate's readers assume these and
/// panic otherwise.
pub fn check_kind(
    accessor: &Accessor<'_>,
    buffers: &[Vec<u8>],
    what: &str,
    types: &[gltf::accessor::DataType],
    dimensions: gltf::accessor::Dimensions,
) -> Result<(), String> {
    check(accessor, buffers)?;
    if !types.contains(&accessor.data_type()) || accessor.dimensions() != dimensions {
        return Err(format!(
            "{what} accessor {} is {:?} {:?}; expected {dimensions:?} of {types:?}",
            accessor.index(),
            accessor.dimensions(),
            accessor.data_type(),
        ));
    }
    Ok(())
}

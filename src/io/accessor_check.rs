//! Bounds checks for accessors, which the `gltf` crate's validation does not do: an accessor
//! whose data runs past its buffer view (or a view past its buffer) would make its reader panic.

use gltf::Accessor;

/// Checks that every byte `accessor` reads lies inside its buffer view and buffer.
pub fn check(accessor: &Accessor<'_>, buffers: &[Vec<u8>]) -> Result<(), String> {
    let index = accessor.index();
    if accessor.sparse().is_some() {
        return Err(format!(
            "accessor {index} is sparse, which is not supported here yet"
        ));
    }
    let Some(view) = accessor.view() else {
        return Err(format!("accessor {index} has no buffer view"));
    };
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
    let count = accessor.count();
    if count == 0 {
        return Ok(());
    }
    let element = accessor.size();
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
        .and_then(|n| n.checked_add(accessor.offset()));
    match needed {
        Some(n) if n <= view.length() => Ok(()),
        _ => Err(format!(
            "accessor {index} ({count} elements) runs past the end of buffer view {} ({} bytes)",
            view.index(),
            view.length()
        )),
    }
}

/// Checks an accessor's component type and dimensions against what its semantic requires; the
/// `gltf` crate's readers assume these and panic otherwise.
pub fn check_kind(
    accessor: &Accessor<'_>,
    what: &str,
    types: &[gltf::accessor::DataType],
    dimensions: gltf::accessor::Dimensions,
) -> Result<(), String> {
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

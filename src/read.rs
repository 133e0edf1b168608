//! The skeletons and motions a user gives as files, read into what the stages take: a rigged
//! file or a skeleton to fit ([`SkeletonSource`]), a capture or clip to retarget
//! ([`SourceMotion`]). The stages themselves receive parsed characters and never read bytes.

use crate::Limits;
use crate::anim::{RetargetError, SourceMotion};
use crate::io::{Format, ImportError, check_size, detect_format, file_name, import, read_bvh};
use crate::skeleton::{SkeletonSource, TemplateRig};

/// The skeleton of a file to fit onto a mesh: with the body it was rigged on where the file has
/// one (a rigged GLB, VRM, FBX or COLLADA file: [`SkeletonSource::Rigged`]), else alone (a BVH
/// capture, a skeleton-only GLB: [`SkeletonSource::Given`]).
///
/// # Errors
/// The file's [`ImportError`] when it holds no skeleton.
pub fn skeleton_source(
    bytes: &[u8],
    name: &str,
    limits: &Limits,
) -> Result<SkeletonSource, ImportError> {
    if let Ok(character) = import(bytes, name, limits)
        && let Some(skeleton) = character.skeleton
        && !character.mesh.triangles.is_empty()
    {
        let rig = TemplateRig::new(skeleton, character.mesh);
        return Ok(SkeletonSource::Rigged(Box::new(rig)));
    }
    Ok(SkeletonSource::Given(crate::io::import_skeleton(
        bytes, name, limits,
    )?))
}

/// The motion in the file `name`: a BVH capture (named after the file), or clip `clip` of a
/// rigged GLB/glTF/VRM/FBX/COLLADA file (named as in the file).
///
/// # Errors
/// [`RetargetError::Import`] for a file that cannot be read, [`RetargetError::NoClip`] or
/// [`RetargetError::NoSuchClip`] when it holds no such clip.
pub fn motion(
    bytes: &[u8],
    name: &str,
    clip: usize,
    limits: &Limits,
) -> Result<SourceMotion, RetargetError> {
    check_size(bytes, name, limits)?;
    if detect_format(bytes, name)? == Format::Bvh {
        let stem = file_name(name);
        let stem = stem.rsplit_once('.').map_or(stem.as_str(), |(s, _)| s);
        return SourceMotion::from_bvh(&read_bvh(bytes, name)?, stem);
    }
    SourceMotion::from_character(&import(bytes, name, limits)?, name, clip)
}

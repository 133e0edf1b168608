//! Operations on a file that is already rigged, as the packages and the page's embedding API
//! offer them beside the rig: add a motion, write it in another format. Each opens the file in
//! a [`Document`] of its own and does what the page's controls do.

use crate::Error;
use crate::correctives::add_correctives;
use crate::document::{Document, fit_options};
use crate::export::OutputFormat;
use crate::io::InputFile;
use crate::rig::BoneNames;

/// A motion to add to a rig.
#[derive(Debug, Clone, Copy)]
pub enum MotionSource<'a> {
    /// A generated motion by name (`walk`, `idle`, …: [`crate::anim::Motion`]).
    Named(&'a str),
    /// A capture to retarget: a BVH, or a rigged GLB/glTF/VRM whose first clip is used.
    File(InputFile<'a>),
}

/// The rigged files with `motion` added (replacing a clip of the same name), written as a GLB
/// with `max_influences` weights per vertex.
///
/// # Errors
/// When the files do not read or have no skeleton, there is no such motion, or the skeleton
/// lacks what the motion moves (e.g. a walk without legs).
pub fn animate_files(
    files: &[InputFile<'_>],
    motion: MotionSource<'_>,
    max_influences: usize,
) -> Result<Vec<u8>, Error> {
    let mut doc = opened(files)?;
    match motion {
        MotionSource::Named(name) => doc.animate(name)?,
        MotionSource::File(file) => doc.retarget_file(file.bytes, file.name)?,
    };
    doc.export_glb(max_influences)
}

/// The rigged files written as `format`, clips included, their humanoid joints renamed in the
/// file to `bone_names` where given, with corrective shapes keyed in every clip when
/// `correctives` (fitted to the skinning the file plays, `max_influences` per vertex).
///
/// # Errors
/// When the files do not read or have no skeleton, or the format cannot hold the rig (VRM
/// needs a humanoid).
pub fn convert_files(
    files: &[InputFile<'_>],
    format: OutputFormat,
    max_influences: usize,
    bone_names: Option<BoneNames>,
    correctives: bool,
) -> Result<Vec<u8>, Error> {
    let mut doc = opened(files)?;
    if correctives {
        let mut character = doc.loaded()?.clone();
        let options = fit_options(&character, max_influences);
        add_correctives(&mut character, &options)?;
        doc.load(character);
    }
    match bone_names {
        None => doc.export(format, max_influences),
        Some(names) => doc
            .export_named(format, max_influences, names)
            .map(|(bytes, _)| bytes),
    }
}

/// A document holding the rigged files.
fn opened(files: &[InputFile<'_>]) -> Result<Document, Error> {
    let mut doc = Document::new();
    doc.open(files)?;
    doc.rigged()?;
    Ok(doc)
}

//! Corrective shapes in the document: turned on, they are fitted once to the rig as it is,
//! shown in every pose and written into every export; a changed rig fits them again when
//! next needed.

use std::cell::OnceCell;

use glam::Vec3;

use super::{Change, Document};
use crate::correctives::{CorrectiveError, CorrectiveOptions, Correctives, fit_character};
use crate::{Character, Error};

/// Whether correctives are wanted, and their fit to the current rig once made.
#[derive(Debug, Default)]
pub(super) struct Correcting {
    wanted: bool,
    /// Fitted on first use after the rig last changed.
    fitted: OnceCell<Result<Correctives, CorrectiveError>>,
}

impl Correcting {
    /// For the next character: wanted as now, nothing fitted.
    pub(super) fn carried_over(&self) -> Self {
        Self {
            wanted: self.wanted,
            fitted: OnceCell::new(),
        }
    }

    /// The rig changed: what was fitted no longer fits it.
    pub(super) fn rig_changed(&mut self) {
        self.fitted = OnceCell::new();
    }
}

/// How correctives are fitted for a file of `character` with `max_influences` per vertex:
/// to the skinning that file plays, within the size budget of the GLB it makes without them.
pub fn fit_options(character: &Character, max_influences: usize) -> CorrectiveOptions {
    let export = crate::export::ExportOptions {
        max_influences,
        ..Default::default()
    };
    CorrectiveOptions {
        influences: max_influences,
        file_bytes: (crate::export::export_glb(character, &export).ok()).map(|f| f.len()),
        ..Default::default()
    }
}

impl Document {
    /// Turns correctives on (fitting them to the rig now) or off; returns how many shapes
    /// there are. They stay on across edits (fitted again when next shown or exported) and
    /// characters, like the mirror.
    ///
    /// # Errors
    /// When nothing rigged is loaded ([`CorrectiveError`]); they stay off then.
    pub fn set_correctives(&mut self, on: bool) -> Result<(usize, Change), Error> {
        self.correcting.wanted = on;
        if !on {
            return Ok((0, Change::Pose));
        }
        match self.correctives() {
            Ok(Some(correctives)) => Ok((correctives.shapes.len(), Change::Pose)),
            Ok(None) => Ok((0, Change::Pose)),
            Err(e) => {
                self.correcting.wanted = false;
                Err(e)
            }
        }
    }

    /// Whether correctives are on.
    pub fn correctives_on(&self) -> bool {
        self.correcting.wanted
    }

    /// The correctives fitted to the rig as it is, fitting them first if needed; `None` when
    /// they are off.
    ///
    /// # Errors
    /// When they are on but cannot be fitted (nothing rigged is loaded).
    pub fn correctives(&self) -> Result<Option<&Correctives>, Error> {
        if !self.correcting.wanted {
            return Ok(None);
        }
        let character = self.loaded()?;
        let fitted = (self.correcting.fitted).get_or_init(|| {
            let influences = crate::export::ExportOptions::default().max_influences;
            fit_character(character, &fit_options(character, influences))
        });
        match fitted {
            Ok(correctives) => Ok(Some(correctives)),
            Err(e) => Err(e.clone().into()),
        }
    }

    /// Each vertex's corrective offset (before skinning) in the pose shown; `None` at rest,
    /// with correctives off, or when they cannot be fitted.
    pub fn corrective_offsets(&self) -> Option<Vec<Vec3>> {
        let locals = self.posed_locals()?;
        let correctives = self.correctives().ok()??;
        let n = self.character.as_ref()?.mesh.vertex_count();
        Some(correctives.offsets(n, &locals))
    }
}

//! The shapes the character is shown with: its own morph targets (a face's expressions,
//! visemes) at their weights — as the clip playing keys them, else as set — and, in a pose,
//! its correctives.

use glam::Vec3;

use super::{Change, Document, Pose, missing};
use crate::Error;
use crate::correctives::CORRECTIVE_PREFIX;

impl Document {
    /// Each of the character's own morph targets' weight as shown: as the clip playing keys
    /// it, else its default (the weight downloads carry, set by [`Self::set_morph_weight`]).
    pub fn morph_weights(&self) -> Vec<f32> {
        let Some(c) = &self.character else {
            return Vec::new();
        };
        let targets = &c.mesh.morph_targets;
        let keyed = match &self.pose {
            Pose::Clip { index, time, .. } => c.animations.get(*index).and_then(|clip| {
                let start = clip.times.first().copied().unwrap_or(0.0);
                clip.morph_weights_at(start + time, targets.len())
            }),
            Pose::Rest | Pose::Turns(_) => None,
        };
        keyed.unwrap_or_else(|| targets.iter().map(|t| t.weight).collect())
    }

    /// Sets morph target `index`'s default weight, which the viewer shows (unless a clip
    /// keys it) and downloads carry.
    ///
    /// # Errors
    /// When nothing is loaded, there is no such target, or `weight` is not a number.
    pub fn set_morph_weight(&mut self, index: usize, weight: f32) -> Result<Change, Error> {
        if !weight.is_finite() {
            return Err(missing(&format!(
                "a morph target weight must be a number, not {weight}"
            )));
        }
        let c = (self.character.as_mut()).ok_or_else(|| missing("no character is loaded"))?;
        let count = c.mesh.morph_targets.len();
        let target = (c.mesh.morph_targets.get_mut(index)).ok_or_else(|| {
            missing(&format!(
                "there is no morph target {index} ({count} in all)"
            ))
        })?;
        target.weight = weight;
        Ok(Change::Pose)
    }

    /// Each vertex's offset before skinning as shown: the morph targets at
    /// [`Self::morph_weights`] plus the correctives in the pose shown (an earlier fit's
    /// `corrective_*` targets give way to them while they are on); `None` where nothing moves.
    pub fn shape_offsets(&self) -> Option<Vec<Vec3>> {
        let shapes = self.shapes();
        (!shapes.offsets.is_empty()).then_some(shapes.offsets)
    }

    /// What moves the surface before skinning in the pose shown: every shape together
    /// ([`Self::shape_offsets`]), and the correctives' part alone.
    pub fn shapes(&self) -> Shapes {
        let Some(c) = self.character.as_ref() else {
            return Shapes::default();
        };
        let n = c.mesh.vertex_count();
        let refitted = self.correctives_on();
        let correctives = self.corrective_offsets();
        let mut offsets = correctives.clone();
        for (target, w) in c.mesh.morph_targets.iter().zip(self.morph_weights()) {
            let replaced = refitted && target.name.starts_with(CORRECTIVE_PREFIX);
            if w == 0.0 || replaced || target.offsets.len() != n {
                continue;
            }
            let sum = offsets.get_or_insert_with(|| vec![Vec3::ZERO; n]);
            for (o, d) in sum.iter_mut().zip(&target.offsets) {
                *o += *d * w;
            }
        }
        Shapes {
            offsets: offsets.unwrap_or_default(),
            correctives: correctives.unwrap_or_default(),
        }
    }
}

/// The offsets the surface is shown with before skinning, one per vertex, each list empty
/// where it moves nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shapes {
    /// Every shape together: the character's morph targets at their weights and the
    /// correctives.
    pub offsets: Vec<Vec3>,
    /// The correctives alone: what the difference view paints, without the user's own
    /// targets (a smile is no correction).
    pub correctives: Vec<Vec3>,
}

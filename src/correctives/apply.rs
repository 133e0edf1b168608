//! Correctives written into a character: morph targets beside the user's own, and their
//! weights keyed in every clip, so an exported file plays the corrected deformation.

use glam::Vec3;

use super::{CorrectiveError, CorrectiveOptions, Correctives, SIZE_BUDGET, fit};
use crate::Character;
use crate::mesh::{Mesh, MorphTarget};
use crate::rig::Clip;

/// Names of the morph targets correctives add (`corrective_<joint>_<n>`); targets so named
/// are replaced when correctives are fitted again.
pub const CORRECTIVE_PREFIX: &str = "corrective_";

/// Fits correctives to `character` ([`fit`]) and adds them as morph targets
/// ([`write_correctives`]). Returns what was fitted.
///
/// # Errors
/// [`CorrectiveError`] for a character without a skeleton or skin weights; it is left as it
/// was.
pub fn add_correctives(
    character: &mut Character,
    options: &CorrectiveOptions,
) -> Result<Correctives, CorrectiveError> {
    let correctives = fit_character(character, options)?;
    write_correctives(character, &correctives);
    Ok(correctives)
}

/// Correctives for `character` as it is rigged ([`fit`]); with `options.file_bytes`, the
/// strongest that keep its GLB within [`SIZE_BUDGET`] ([`within_budget`]).
///
/// # Errors
/// [`CorrectiveError`] for a character without a skeleton or skin weights.
pub fn fit_character(
    character: &Character,
    options: &CorrectiveOptions,
) -> Result<Correctives, CorrectiveError> {
    let skeleton = (character.skeleton.as_ref()).ok_or(CorrectiveError::NoSkeleton)?;
    let skin = character.skin.as_ref().ok_or(CorrectiveError::NoSkin)?;
    let mut correctives = fit(&character.mesh.positions, skeleton, skin, options)?;
    if let Some(bytes) = options.file_bytes {
        let kept = within_budget(character, &correctives, bytes, SIZE_BUDGET);
        correctives.shapes.truncate(kept);
    }
    Ok(correctives)
}

/// Bytes a GLB spends on a target beside its data, at most: two accessors, four views, its
/// name.
const TARGET_OVERHEAD: usize = 1024;

/// How many of the strongest `correctives` (they come strongest first) keep the GLB of
/// `character`, `file_bytes` long without them, within `budget` times that. Counted without
/// writing the file, from what each shape adds at most: its offsets and normal changes (a
/// normal changes wherever a triangle around it moves) as sparse accessors or dense ones,
/// whichever is smaller, as the writer chooses; a weight per frame of every clip; and
/// [`TARGET_OVERHEAD`].
pub fn within_budget(
    character: &Character,
    correctives: &Correctives,
    file_bytes: usize,
    budget: f32,
) -> usize {
    let mesh = &character.mesh;
    let n = mesh.vertex_count();
    let allowed = (file_bytes as f64 * f64::from(budget - 1.0).max(0.0)) as usize;
    let frames: usize = character.animations.iter().map(Clip::frame_count).sum();
    // Clips that keyed no weights before get a weights channel: its key times.
    let mut spent = if mesh.morph_targets.is_empty() {
        frames * 4
    } else {
        0
    };
    let accessor = |count: usize| (count * 16).min(n * 12);
    for (kept, shape) in correctives.shapes.iter().enumerate() {
        let moves = |v: usize| shape.offsets.get(v).is_some_and(|o| *o != Vec3::ZERO);
        let moved = (0..n).filter(|&v| moves(v)).count();
        let mut touched = vec![false; n];
        for triangle in &mesh.triangles {
            if triangle.iter().any(|&v| moves(v as usize)) {
                for &v in triangle {
                    if let Some(flag) = touched.get_mut(v as usize) {
                        *flag = true;
                    }
                }
            }
        }
        let touched = touched.iter().filter(|&&t| t).count();
        spent += accessor(moved) + accessor(touched) + frames * 4 + TARGET_OVERHEAD;
        if spent > allowed {
            return kept;
        }
    }
    correctives.shapes.len()
}

/// Adds `correctives` (fitted to `character` as it is rigged) as morph targets named
/// `corrective_<joint>_<n>`, replacing any added before, with their weights keyed in every
/// clip that drives the skeleton (the user's own targets keep theirs). A character without
/// a skeleton is left as it was.
pub fn write_correctives(character: &mut Character, correctives: &Correctives) {
    let Character {
        mesh,
        skeleton,
        animations,
        ..
    } = character;
    let Some(skeleton) = skeleton.as_ref() else {
        return;
    };
    drop_correctives(mesh, animations);
    let kept = mesh.morph_targets.len();
    let at_rest: Vec<f32> = mesh.morph_targets.iter().map(|t| t.weight).collect();
    for clip in animations.iter_mut() {
        let drives = clip.fits(skeleton);
        let mut weights =
            Vec::with_capacity(clip.frame_count() * (kept + correctives.shapes.len()));
        for f in 0..clip.frame_count() {
            weights.extend_from_slice(clip.morph_frame(f, kept).unwrap_or(&at_rest));
            if drives {
                weights.extend(correctives.weights(clip.frame(f)));
            } else {
                weights.extend(std::iter::repeat_n(0.0, correctives.shapes.len()));
            }
        }
        clip.morph_weights = weights;
    }
    // One target per shape, so that the clips' weight columns stay in step.
    let mut per_joint = std::collections::BTreeMap::<usize, usize>::new();
    for shape in &correctives.shapes {
        let j = shape.joint.index();
        let n = per_joint.entry(j).or_default();
        *n += 1;
        let joint = skeleton.joints.get(j).map_or("joint", |joint| &joint.name);
        mesh.morph_targets.push(MorphTarget {
            name: format!("{CORRECTIVE_PREFIX}{joint}_{n}"),
            offsets: shape.offsets.clone(),
            weight: 0.0,
        });
    }
}

/// Removes targets added by an earlier [`add_correctives`], and their weights from clips.
fn drop_correctives(mesh: &mut Mesh, clips: &mut [Clip]) {
    let targets = &mesh.morph_targets;
    let keep: Vec<bool> = (targets.iter())
        .map(|t| !t.name.starts_with(CORRECTIVE_PREFIX))
        .collect();
    if keep.iter().all(|&k| k) {
        return;
    }
    for clip in clips {
        if clip.morph_frame(0, keep.len()).is_none() {
            continue;
        }
        let weights: Vec<f32> = (0..clip.frame_count())
            .filter_map(|f| clip.morph_frame(f, keep.len()))
            .flat_map(|frame| {
                frame
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(w, _)| *w)
                    .collect::<Vec<_>>()
            })
            .collect();
        clip.morph_weights = weights;
    }
    let mut keep = keep.into_iter();
    mesh.morph_targets.retain(|_| keep.next().unwrap_or(true));
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::correctives::CorrectiveError;
    use crate::correctives::tests::arm;
    use crate::rig::rest_locals;

    /// The arm with a user's own target ("flex") and a clip bending the elbow that keys it.
    fn flexing_arm() -> Character {
        let mut arm = arm();
        let n = arm.mesh.vertex_count();
        arm.mesh.morph_targets.push(MorphTarget {
            name: "flex".into(),
            offsets: vec![Vec3::Y * 0.01; n],
            weight: 0.25,
        });
        let skeleton = arm.skeleton.as_ref().unwrap();
        let rest = rest_locals(skeleton);
        let frames = 5;
        let mut locals = Vec::new();
        for f in 0..frames {
            let mut pose = rest.clone();
            let bend = Quat::from_rotation_y(-(f as f32) * 0.4);
            pose[2].rotation = rest[2].rotation * bend;
            locals.extend(pose);
        }
        arm.animations.push(Clip {
            name: "bend".into(),
            times: (0..frames).map(|f| f as f32 * 0.5).collect(),
            joint_count: skeleton.joints.len(),
            locals,
            morph_weights: (0..frames).map(|f| f as f32 * 0.1).collect(),
        });
        arm
    }

    #[test]
    fn correctives_join_the_users_targets_and_key_every_clip() {
        let mut arm = flexing_arm();
        let correctives = add_correctives(&mut arm, &CorrectiveOptions::default()).unwrap();
        let added = correctives.shapes.len();
        assert!(added > 0);
        let targets = &arm.mesh.morph_targets;
        assert_eq!(targets.len(), 1 + added);
        assert_eq!(targets[0].name, "flex");
        assert!(
            targets[1..]
                .iter()
                .all(|t| t.name.starts_with("corrective_LeftForeArm_"))
        );
        let clip = &arm.animations[0];
        let first = clip.morph_frame(0, targets.len()).unwrap().to_vec();
        let last = clip.morph_frame(4, targets.len()).unwrap().to_vec();
        // The user's weights as keyed; correctives still at rest, then moving with the bend.
        assert_eq!((first[0], last[0]), (0.0, 0.4));
        assert!(first[1..].iter().all(|w| w.abs() < 1e-4), "{first:?}");
        assert!(last[1..].iter().any(|w| w.abs() > 0.1), "{last:?}");

        // Fitting again replaces the correctives, never stacks them.
        add_correctives(&mut arm, &CorrectiveOptions::default()).unwrap();
        assert_eq!(arm.mesh.morph_targets.len(), 1 + added);
        let again = arm.animations[0].morph_frame(4, 1 + added).unwrap();
        assert_eq!(again, last);
    }

    #[test]
    fn a_character_without_a_rig_is_refused_and_kept() {
        let mut bare = arm();
        bare.skin = None;
        let before = bare.clone();
        let refused = add_correctives(&mut bare, &CorrectiveOptions::default());
        assert_eq!(refused.unwrap_err(), CorrectiveError::NoSkin);
        assert_eq!(bare.mesh, before.mesh);
        bare.skeleton = None;
        let refused = add_correctives(&mut bare, &CorrectiveOptions::default());
        assert_eq!(refused.unwrap_err(), CorrectiveError::NoSkeleton);

        let mut short = arm();
        short.mesh.positions.pop();
        let refused = add_correctives(&mut short, &CorrectiveOptions::default());
        assert!(matches!(refused, Err(CorrectiveError::SkinMismatch { .. })));
    }
}

//! `rigkit animate`: put a motion on a rigged character — a BVH capture or another file's glTF
//! clip retargeted onto its skeleton, or a procedural motion — and write it as a GLB.

use super::CliError;
use super::options;
use clap::Args;
use std::path::Path;

use rigkit::Limits;
use rigkit::anim::{Motion, RetargetOptions, joint_map, procedural_clip, retarget};
use rigkit::export::ExportOptions;
use rigkit::rig::{Clip, Skeleton};

/// Put a motion on a rigged character
///
/// Put a motion on a rigged character: a BVH capture or a clip of another rigged file
/// retargeted by joint names or hierarchy (rest poses aligned, root motion scaled by leg
/// length, feet kept above the ground), or a motion made for its skeleton (legs, wings and
/// tails found by shape)
#[derive(Args)]
pub struct AnimateArgs {
    /// A rigged character
    #[arg(value_name = "RIGGED")]
    input: String,
    /// A .bvh, .glb or .fbx file's motion, or idle, look, walk, flap or wave
    #[arg(long, value_name = "FILE|NAME")]
    motion: String,
    /// The file to write: .glb, .vrm or .fbx
    #[arg(short, long, value_name = "OUT", value_parser = options::output_file)]
    output: String,
    /// Which of the motion file's clips (from 0)
    #[arg(long = "clip", value_name = "N", default_value = "0")]
    clip_index: usize,
    /// Let feet go below the ground
    #[arg(long)]
    no_ground: bool,
    /// Keep the character's own clips after the new one
    #[arg(long)]
    keep_clips: bool,
    /// Add corrective morph targets (up to 32) that keep bent elbows and knees and twisted
    /// forearms from collapsing, their weights keyed in every clip
    #[arg(long)]
    correctives: bool,
}

pub fn animate(args: &AnimateArgs) -> Result<(), CliError> {
    let (input, motion, output) = (&args.input, &args.motion, &args.output);
    let options = RetargetOptions {
        keep_feet_above_ground: !args.no_ground,
    };
    let mut character = super::load(input)?;
    let skeleton = character
        .skeleton
        .clone()
        .ok_or_else(|| format!("'{input}' has no skeleton: rig it first (rigkit rig)"))?;
    let (clip, driven) = make_clip(motion, args.clip_index, &skeleton, &options)?;
    let summary = format!(
        "clip '{}', {} frames, {:.2} s, {driven} of {} joints driven",
        clip.name,
        clip.frame_count(),
        clip.duration(),
        skeleton.joints.len()
    );
    if !args.keep_clips {
        character.animations.clear();
    }
    character.animations.insert(0, clip);
    let export = ExportOptions::default();
    let correctives = options::correct(&mut character, args.correctives, export.max_influences)?;
    super::save(&character, &export, output)?;
    out!(
        "wrote {output}: {summary}{}",
        options::corrective_count(correctives)
    );
    Ok(())
}

/// The clip `motion` names, for `skeleton`, and how many of its joints the motion drives.
fn make_clip(
    motion: &str,
    clip_index: usize,
    skeleton: &Skeleton,
    options: &RetargetOptions,
) -> Result<(Clip, usize), CliError> {
    let path = Path::new(motion);
    let source = if motion.contains('.') || path.is_file() {
        let bytes = rigkit::io::read_capped(path, &Limits::default())?;
        rigkit::read::motion(&bytes, motion, clip_index, &Limits::default())?
    } else {
        let kind = Motion::from_name(motion).ok_or_else(|| {
            let names: Vec<&str> = Motion::ALL.iter().map(|m| m.name()).collect();
            format!(
                "--motion: '{motion}' is neither a .bvh/.glb file nor one of {}",
                names.join(", ")
            )
        })?;
        let clip = procedural_clip(skeleton, kind)?;
        let driven = moving_joints(skeleton, &clip);
        return Ok((clip, driven));
    };
    let clip = retarget(&source, skeleton, options)?;
    let driven = joint_map(&source.skeleton, skeleton)
        .iter()
        .flatten()
        .count();
    Ok((clip, driven))
}

/// Joints whose local rotation changes during `clip`.
fn moving_joints(skeleton: &Skeleton, clip: &Clip) -> usize {
    (0..skeleton.joints.len())
        .filter(|&j| {
            let first = clip.frame(0)[j].rotation;
            (1..clip.frame_count()).any(|f| clip.frame(f)[j].rotation.angle_between(first) > 1e-3)
        })
        .count()
}

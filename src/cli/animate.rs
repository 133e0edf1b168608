//! `rigkit animate`: put a motion on a rigged character — a BVH capture or another file's glTF
//! clip retargeted onto its skeleton, or a procedural motion — and write it as a GLB.

use super::CliError;
use std::path::Path;

use rigkit::Limits;
use rigkit::anim::{Motion, RetargetOptions, SourceMotion, joint_map, procedural_clip, retarget};
use rigkit::export::ExportOptions;
use rigkit::rig::{Clip, Skeleton};

pub fn animate(args: &[String]) -> Result<(), CliError> {
    let mut input = None;
    let mut motion = None;
    let mut output = None;
    let mut clip_index = 0usize;
    let mut options = RetargetOptions::default();
    let mut keep_clips = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--motion" => {
                motion = Some(it.next().ok_or("--motion needs a file or a name")?.clone())
            }
            "-o" | "--output" => output = Some(it.next().ok_or("-o needs a file")?.clone()),
            "--clip" => {
                let v = it.next().ok_or("--clip needs a number")?;
                clip_index = v
                    .parse()
                    .map_err(|_| format!("--clip: '{v}' is not a number"))?;
            }
            "--no-ground" => options.keep_feet_above_ground = false,
            "--keep-clips" => keep_clips = true,
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'").into()),
            file if input.is_none() => input = Some(file.to_owned()),
            extra => return Err(format!("unexpected argument '{extra}'").into()),
        }
    }
    let (Some(input), Some(motion), Some(output)) = (input, motion, output) else {
        return Err(
            "animate takes RIGGED.glb --motion FILE.bvh|FILE.glb|NAME -o OUT.glb|OUT.fbx".into(),
        );
    };
    super::output_format(&output)?;
    let mut character = super::load(&input)?;
    let skeleton = character
        .skeleton
        .clone()
        .ok_or_else(|| format!("'{input}' has no skeleton: rig it first (rigkit rig)"))?;
    let (clip, driven) = make_clip(&motion, clip_index, &skeleton, &options)?;
    let summary = format!(
        "clip '{}', {} frames, {:.2} s, {driven} of {} joints driven",
        clip.name,
        clip.frame_count(),
        clip.duration(),
        skeleton.joints.len()
    );
    if !keep_clips {
        character.animations.clear();
    }
    character.animations.insert(0, clip);
    super::save(&character, &ExportOptions::default(), &output)?;
    out!("wrote {output}: {summary}");
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
        SourceMotion::import(&bytes, motion, clip_index, &Limits::default())?
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

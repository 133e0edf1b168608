//! `rigkit animate`: put a motion on a rigged character — a BVH capture or another file's glTF
//! clip retargeted onto its skeleton, or a procedural motion — and write it as a GLB.

use std::path::Path;

use rigkit::anim::{
    Clip, Motion, RetargetOptions, SourceMotion, joint_map, procedural_clip, retarget,
};
use rigkit::export::{ExportOptions, export_glb};
use rigkit::io::bvh::Bvh;
use rigkit::rig::Skeleton;

pub fn animate(args: &[String]) -> Result<(), String> {
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
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'")),
            file if input.is_none() => input = Some(file.to_owned()),
            extra => return Err(format!("unexpected argument '{extra}'")),
        }
    }
    let (Some(input), Some(motion), Some(output)) = (input, motion, output) else {
        return Err("animate takes RIGGED.glb --motion FILE.bvh|FILE.glb|NAME -o OUT.glb".into());
    };
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
    let glb = export_glb(&character, &ExportOptions::default()).map_err(|e| e.to_string())?;
    std::fs::write(&output, glb).map_err(|e| format!("cannot write '{output}': {e}"))?;
    println!("wrote {output}: {summary}");
    Ok(())
}

/// The clip `motion` names, for `skeleton`, and how many of its joints the motion drives.
fn make_clip(
    motion: &str,
    clip_index: usize,
    skeleton: &Skeleton,
    options: &RetargetOptions,
) -> Result<(Clip, usize), String> {
    let lower = motion.to_ascii_lowercase();
    let source = if lower.ends_with(".bvh") {
        let text =
            std::fs::read_to_string(motion).map_err(|e| format!("cannot read '{motion}': {e}"))?;
        let bvh = Bvh::parse(&text, motion).map_err(|e| e.to_string())?;
        let name = Path::new(motion)
            .file_stem()
            .map_or_else(|| motion.to_owned(), |s| s.to_string_lossy().into_owned());
        SourceMotion::from_bvh(&bvh, &name).map_err(|e| e.to_string())?
    } else if [".glb", ".gltf", ".vrm"].iter().any(|e| lower.ends_with(e)) {
        let other = super::load(motion)?;
        let other_skeleton = other
            .skeleton
            .as_ref()
            .ok_or_else(|| format!("'{motion}' has no skeleton to take a clip from"))?;
        let clip = other.animations.get(clip_index).ok_or_else(|| {
            format!(
                "'{motion}' has {} clips; there is no clip {clip_index}",
                other.animations.len()
            )
        })?;
        SourceMotion::from_clip(other_skeleton, clip).map_err(|e| e.to_string())?
    } else {
        let kind = Motion::from_name(motion).ok_or_else(|| {
            let names: Vec<&str> = Motion::ALL.iter().map(|m| m.name()).collect();
            format!(
                "--motion: '{motion}' is neither a .bvh/.glb file nor one of {}",
                names.join(", ")
            )
        })?;
        let clip = procedural_clip(skeleton, kind).map_err(|e| e.to_string())?;
        let driven = moving_joints(skeleton, &clip);
        return Ok((clip, driven));
    };
    let clip = retarget(&source, skeleton, options).map_err(|e| e.to_string())?;
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

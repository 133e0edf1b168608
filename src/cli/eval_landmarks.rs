//! `rigkit lab eval-landmarks FILES|DIRS --template T`: carry a template (as `rig` takes it) onto
//! characters rigged with other skeletons, and score it by the parts both skeletons have —
//! the feet that their body plans find, and the head where both name one — since no joint
//! names are shared.

use std::path::Path;

use super::CliError;
use clap::Args;
use glam::Vec3;
use rigkit::anim::BodyPlan;
use rigkit::eval::random_placement;
use rigkit::random::Rng;
use rigkit::rig::Skeleton;
use rigkit::skeleton::{AutoOptions, skeleton_for};

/// Score template fits by feet and head
///
/// Carry a library template onto characters rigged with other skeletons (moved, scaled,
/// turned N times) and score the feet and head their body plans find against the artist's
/// (×10⁻² of the longest side)
#[derive(Args)]
pub struct EvalLandmarksArgs {
    /// Rigged characters: files or folders
    #[arg(value_name = "FILES|DIRS", required = true)]
    inputs: Vec<String>,
    /// The template, as `rig --template` takes it
    #[arg(long, value_name = "rig-NAME")]
    template: String,
    /// Placements per character
    #[arg(long, value_name = "N", default_value = "3")]
    placements: usize,
}

pub fn eval_landmarks(args: &EvalLandmarksArgs) -> Result<(), CliError> {
    let (inputs, template, placements) = (&args.inputs, &args.template, args.placements);
    // As `rig --template` reads it: a library name, or a rigged file or skeleton.
    let source = super::options::skeleton_source(template)?;
    out!(
        "{:<32} {:>5} {:>8} {:>8} {:>8}",
        "file",
        "feet",
        "feet",
        "head",
        "mean"
    );
    let mut means = Vec::new();
    for path in inputs
        .iter()
        .flat_map(|i| super::eval_fit::rigged_files(Path::new(i)))
    {
        let character = super::load(&path.to_string_lossy())?;
        let Some(truth) = character.skeleton.as_ref() else {
            continue;
        };
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let Some(theirs) = landmarks(truth) else {
            out!("{name:<32} its body plan has no legs and head");
            continue;
        };
        let size = character.mesh.bounds().longest_side();
        let mut rng = Rng::new(1);
        let (mut feet, mut head, mut count) = (0.0, None::<f32>, 0);
        for _ in 0..placements {
            let place = random_placement(&mut rng, size, (0.3, 4.0), false);
            let mut mesh = character.mesh.clone();
            for p in &mut mesh.positions {
                *p = place.transform_point3(*p);
            }
            let mut fitted = skeleton_for(&mesh, &source, &AutoOptions::default())?;
            let back = place.inverse();
            for j in &mut fitted.joints {
                j.world_bind = back * j.world_bind;
            }
            let Some(ours) = landmarks(&fitted) else {
                continue;
            };
            // Each of the artist's feet against the nearest fitted foot.
            let f = theirs.0.iter().map(|t| {
                ours.0
                    .iter()
                    .map(|o| o.distance(*t))
                    .fold(f32::INFINITY, f32::min)
            });
            feet += f.sum::<f32>() / theirs.0.len() as f32;
            if let (Some(o), Some(t)) = (ours.1, theirs.1) {
                *head.get_or_insert(0.0) += o.distance(t);
            }
            count += 1;
        }
        if count == 0 {
            out!("{name:<32} the fitted skeleton's body plan has no legs and head");
            continue;
        }
        let feet = 100.0 * feet / count as f32 / size;
        let head = head.map(|h| 100.0 * h / count as f32 / size);
        let legs = theirs.0.len() as f32;
        let mean = head.map_or(feet, |h| (feet * legs + h) / (legs + 1.0));
        means.push(mean);
        let head = head.map_or_else(|| "-".to_owned(), |h| format!("{h:.2}"));
        out!(
            "{name:<32} {:>5} {feet:>8.2} {head:>8} {mean:>8.2}",
            theirs.0.len()
        );
    }
    if !means.is_empty() {
        out!(
            "{:<32} {:>5} {:>8} {:>8} {:>8.2}",
            format!("mean of {}", means.len()),
            "",
            "",
            "",
            means.iter().sum::<f32>() / means.len() as f32
        );
    }
    Ok(())
}

/// The tips of a skeleton's legs, as its body plan finds them (up is +Y), and its head where a
/// joint is named so (the shallowest; a plan's highest spine tip may be a tail or an ear).
fn landmarks(skeleton: &Skeleton) -> Option<(Vec<Vec3>, Option<Vec3>)> {
    let plan = BodyPlan::of(skeleton)?;
    let pos = |j: rigkit::rig::JointId| skeleton.joints[j.index()].position();
    let feet: Vec<Vec3> = plan
        .legs
        .iter()
        .filter_map(|l| l.last().map(|&j| pos(j)))
        .collect();
    let depths = skeleton.depths();
    let head = (0..skeleton.joints.len())
        .filter(|&j| {
            skeleton.joints[j]
                .name
                .to_lowercase()
                .split(|c: char| !c.is_ascii_alphabetic())
                .any(|w| w == "head")
        })
        .min_by_key(|&j| depths[j])
        .map(|j| skeleton.joints[j].position());
    (!feet.is_empty()).then_some((feet, head))
}

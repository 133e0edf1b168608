//! `rigkit lab eval-correctives FILE…`: how much of linear blending's error against the
//! reference deformation the fitted correctives remove, pose by pose, on rigged characters.

use std::time::Instant;

use clap::Args;
use rigkit::correctives::{CorrectiveOptions, PoseError, fit, pose_error, test_poses};

use super::CliError;

/// Score correctives on rigged characters
///
/// Fits correctives to each rigged character (its own skeleton and weights) and prints, for the
/// standard test poses and random ones, linear blending's distance from the reference
/// (dual-quaternion skinning) without and with them, x1e-2 of the mesh's longest side, and
/// the volume change of each
#[derive(Args)]
pub struct EvalCorrectivesArgs {
    /// Rigged characters
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// At most this many corrective targets
    #[arg(long, default_value_t = 32)]
    targets: usize,
    /// Random rotations each joint is sampled at
    #[arg(long, default_value_t = CorrectiveOptions::default().samples)]
    samples: usize,
    /// Shapes per joint at most
    #[arg(long, default_value_t = CorrectiveOptions::default().per_joint)]
    per_joint: usize,
    /// Random poses besides the standard ones
    #[arg(long, default_value_t = 8)]
    random: usize,
    /// The largest turn of a joint in a random pose, in degrees
    #[arg(long, default_value_t = 45.0)]
    random_degrees: f32,
    /// Every pose's line, not only each character's summary
    #[arg(long)]
    poses: bool,
}

pub fn eval_correctives(args: &EvalCorrectivesArgs) -> Result<(), CliError> {
    let options = CorrectiveOptions {
        targets: args.targets,
        samples: args.samples,
        per_joint: args.per_joint,
        ..CorrectiveOptions::default()
    };
    let (mut standard_all, mut random_all) = (Vec::new(), Vec::new());
    for file in &args.files {
        let character = super::load(file)?;
        let (Some(skeleton), Some(skin)) = (&character.skeleton, &character.skin) else {
            out!("{file}: not rigged (no skeleton or skin weights), skipped");
            continue;
        };
        let start = Instant::now();
        let correctives = fit(&character.mesh.positions, skeleton, skin, &options)?;
        let seconds = start.elapsed().as_secs_f32();
        if args.poses {
            let names: Vec<&str> = (correctives.shapes.iter())
                .map(|s| skeleton.joints[s.joint.index()].name.as_str())
                .collect();
            out!("  targets on {}", names.join(", "));
        }
        let poses = test_poses(skeleton, args.random, args.random_degrees.to_radians(), 7);
        let (mut standard, mut random) = (Vec::new(), Vec::new());
        for pose in &poses {
            let error = pose_error(&character.mesh, skeleton, skin, &correctives, &pose.locals);
            if args.poses {
                out!(
                    "  {:<26} linear {:6.3}  corrected {:6.3}  removed {:5.1} %  volume {:+.2} % / {:+.2} % / {:+.2} %",
                    pose.name,
                    error.linear * 100.0,
                    error.corrected * 100.0,
                    error.removed() * 100.0,
                    error.volume[0] * 100.0,
                    error.volume[1] * 100.0,
                    error.volume[2] * 100.0,
                );
            }
            if pose.standard {
                standard.push(error);
            } else {
                random.push(error);
            }
        }
        out!(
            "{file}: {} targets in {seconds:.2} s; {}; {}",
            correctives.shapes.len(),
            removed(&standard, "standard"),
            removed(&random, "random"),
        );
        standard_all.extend(standard);
        random_all.extend(random);
    }
    let mean = |errors: &[PoseError]| {
        let (linear, corrected) = totals(errors);
        let n = errors.len().max(1) as f32;
        (linear / n * 100.0, corrected / n * 100.0)
    };
    let (sl, sc) = mean(&standard_all);
    let (rl, rc) = mean(&random_all);
    out!(
        "all: standard poses linear {sl:.3} -> corrected {sc:.3} ({} poses); random linear {rl:.3} -> {rc:.3} ({} poses)",
        standard_all.len(),
        random_all.len()
    );
    Ok(())
}

/// What share of linear blending's error over `errors` (summed) the correctives removed, in
/// words: "removed 72.1 % at 13 standard poses", "no standard poses" or "no error to remove at …".
fn removed(errors: &[PoseError], kind: &str) -> String {
    let (linear, corrected) = totals(errors);
    let n = errors.len();
    if n == 0 {
        format!("no {kind} poses")
    } else if linear <= 1e-6 * n as f32 {
        format!("no error to remove at {n} {kind} poses (rigid weights)")
    } else {
        format!(
            "removed {:.1} % at {n} {kind} poses",
            100.0 * (1.0 - corrected / linear)
        )
    }
}

/// Linear blending's error and the corrected one, summed over `errors`.
fn totals(errors: &[PoseError]) -> (f32, f32) {
    (
        errors.iter().map(|e| e.linear).sum(),
        errors.iter().map(|e| e.corrected).sum(),
    )
}

//! `rigkit skin`: new weights for an existing skeleton, written as a GLB that keeps the input's
//! joints, names, bind pose and animations.

use super::CliError;
use super::options::{self, Export, RigChoice};
use clap::Args;
use std::time::Instant;

use rigkit::compute::cpu_device;
use rigkit::neural::Networks;
use rigkit::pipeline::{Method, Stage, rig_character};
use rigkit::skin::{SkinOptions, geodesic_skin};

/// New skin weights for a rigged file's own skeleton
///
/// New skin weights for a rigged file's own skeleton (geodesic voxel binding, or the
/// skinning network); joints, names, bind pose and animations kept
#[derive(Args)]
pub struct SkinArgs {
    /// A rigged character
    #[arg(value_name = "RIGGED")]
    input: String,
    /// The file to write: .glb, .vrm or .fbx
    #[arg(short, long, value_name = "OUT", value_parser = options::output_file)]
    output: String,
    /// geometric, or neural: the skinning network over the geometric weights
    #[arg(long, default_value = "neural")]
    method: Method,
    /// Voxels along the longest side (geometric only), 16 to 512
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=512))]
    resolution: Option<u32>,
    #[command(flatten)]
    export: Export,
}

pub fn skin(args: &SkinArgs) -> Result<(), CliError> {
    let (input, output, method) = (&args.input, &args.output, args.method);
    let options = SkinOptions {
        max_influences: args.export.max_influences,
        resolution: args.resolution.unwrap_or(SkinOptions::default().resolution),
        ..SkinOptions::default()
    };
    if method == Method::Neural && args.resolution.is_some() {
        return Err(
            "--resolution applies to --method geometric: the skinning head reads \
                    geometric weights at the resolution it was trained with"
                .into(),
        );
    }
    let mut character = super::load(input)?;
    let skeleton = character.skeleton.as_ref().ok_or(format!(
        "'{input}' has no skeleton to skin to; use 'rigkit rig'"
    ))?;
    let started = Instant::now();
    let skin = match method {
        Method::Geometric => geodesic_skin(&character.mesh, skeleton, &options)?,
        Method::Neural => Networks::bundled(&cpu_device())?.skin(
            &character.mesh,
            skeleton,
            options.max_influences,
        )?,
    };
    let seconds = started.elapsed().as_secs_f32();
    let joints = skeleton.joints.len();
    character.skin = Some(skin);
    let correctives = args.export.prepare(&mut character)?;
    super::save(&character, &args.export.options(), output)?;
    out!(
        "wrote {output}: {} vertices skinned to {joints} joints in {seconds:.3} s{}",
        character.mesh.vertex_count(),
        options::corrective_count(correctives),
    );
    Ok(())
}

/// Fit a skeleton inside any mesh and skin it
///
/// Fit a skeleton to any mesh and skin it; the input's vertices and frame are kept
#[derive(Args)]
pub struct RigArgs {
    /// The character to rig (any rig it has is replaced)
    #[arg(value_name = "MESH")]
    input: String,
    /// The file to write: .glb, .vrm or .fbx
    #[arg(short, long, value_name = "OUT", value_parser = options::output_file)]
    output: String,
    #[command(flatten)]
    choice: RigChoice,
    #[command(flatten)]
    export: Export,
}

/// A skeleton fitted to the mesh (by default the library template of the body plan
/// recognised, else the free-form one) and skin weights for it, written in the input's frame.
pub fn rig(args: &RigArgs) -> Result<(), CliError> {
    let output = &args.output;
    let mut character = super::load(&args.input)?;
    let request = args.choice.request(args.export.max_influences)?;
    let started = Instant::now();
    let mut fitted = 0.0;
    let report = rig_character(&mut character, &request, |stage| {
        if stage == Stage::Skin {
            fitted = started.elapsed().as_secs_f32();
        }
    })?;
    if let Some(recognised) = &report.recognised {
        out!("{}", describe_choice(recognised));
    }
    let total = started.elapsed().as_secs_f32();
    let correctives = args.export.prepare(&mut character)?;
    let joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
    super::save(&character, &args.export.options(), output)?;
    out!(
        "wrote {output}: {} vertices, {joints} joints (skeleton {fitted:.3} s, total {total:.3} s){}",
        character.mesh.vertex_count(),
        options::corrective_count(correctives),
    );
    Ok(())
}

/// What `--template auto` chose, for the user: the plan, how sure, the runner-up and the
/// template fitted.
pub(super) fn describe_choice(recognised: &rigkit::pipeline::Recognised) -> String {
    use rigkit::recognise::BodyClass;
    let ranked = recognised.recognition.ranked();
    let (best, p) = ranked[0];
    let fitted = match (recognised.template, recognised.by_fit) {
        (Some(name), false) => format!("fitted {name}"),
        (Some(name), true) => format!(
            "less sure than {}, so the likeliest plans' templates were fitted: {name} as {}",
            rigkit::recognise::AUTO_CONFIDENCE,
            recognised.class.name()
        ),
        (None, true) if best != BodyClass::Other => format!(
            "free-form skeleton: less sure than {}, and no likely plan's template fitted",
            rigkit::recognise::AUTO_CONFIDENCE
        ),
        (None, false) if let (Some(name), Some(bend)) = (best.template(), recognised.bend) => {
            format!(
                "free-form skeleton: {name} bends {bend:.3} to fit, more than {}",
                rigkit::recognise::FITS
            )
        }
        (None, _) => "free-form skeleton".to_owned(),
    };
    format!(
        "recognised {} {p:.2} (then {} {:.2}); {fitted}",
        best.name(),
        ranked[1].0.name(),
        ranked[1].1
    )
}

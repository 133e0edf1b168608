//! The `rigkit` command line: the same pipeline as the browser app, for tests, benchmarks and
//! batch use. Only parses arguments and calls the library.

/// `println!` for the CLI's output: when the reader has gone (`rigkit info F | head -1`),
/// the command ends quietly instead of panicking on the closed pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_out(format_args!($($arg)*))
    };
}

mod animate;
mod batch;
mod bench;
mod dataset;
mod eval;
mod eval_correctives;
mod eval_fit;
mod eval_landmarks;
mod fit_costs;
mod options;
mod recognise;
mod rig;
mod train;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Any failure of a command: the core's typed errors and the CLI's own messages alike,
/// printed once, by `main`.
pub(crate) type CliError = Box<dyn std::error::Error + Send + Sync>;

use rigkit::io::InputFile;
use rigkit::{Character, Limits};

/// Automatic rigging: a skeleton fitted inside any character and skin weights for it, the same
/// engine as the web page.
#[derive(Parser)]
#[command(
    name = "rigkit",
    version,
    after_help = "Reads .glb, .vrm, .gltf (its .bin files beside it), .fbx, .dae, .obj and .bvh \
                  (skeletons and motion); writes .glb (glTF 2.0 binary), .vrm and .fbx \
                  (binary FBX 7.4, centimetres).\n\
                  The research and training harness: rigkit lab --help"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The product's commands; the research harness under `lab`.
#[derive(Subcommand)]
enum Command {
    Info(InfoArgs),
    Convert(ConvertArgs),
    Rig(rig::RigArgs),
    Skin(rig::SkinArgs),
    Animate(animate::AnimateArgs),
    Batch(batch::BatchArgs),
    #[command(subcommand)]
    Bench(bench::Bench),
    #[command(subcommand)]
    Lab(Lab),
    /// Print a completion script for a shell (e.g. `rigkit completions bash > rigkit.bash`)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Research and training: scores against artists' rigs, training data, the networks
#[derive(Subcommand)]
enum Lab {
    Eval(eval::EvalArgs),
    EvalFit(eval_fit::EvalFitArgs),
    EvalCorrectives(eval_correctives::EvalCorrectivesArgs),
    EvalLandmarks(eval_landmarks::EvalLandmarksArgs),
    Recognise(recognise::RecogniseArgs),
    FitCosts(fit_costs::FitCostsArgs),
    #[command(subcommand)]
    Dataset(dataset::Dataset),
    Train(train::TrainArgs),
    Quantize(train::QuantizeArgs),
}

/// Writes one line of output; a closed pipe ends the process successfully (the reader took
/// what it wanted), any other write error ends it with a message.
fn write_out(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Info(args) => info(&args),
        Command::Convert(args) => convert(&args),
        Command::Rig(args) => rig::rig(&args),
        Command::Skin(args) => rig::skin(&args),
        Command::Animate(args) => animate::animate(&args),
        Command::Batch(args) => batch::batch(&args),
        Command::Bench(stage) => bench::run(stage),
        Command::Completions { shell } => {
            let mut cli = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cli, "rigkit", &mut std::io::stdout());
            Ok(())
        }
        Command::Lab(command) => match command {
            Lab::Eval(args) => eval::eval(&args),
            Lab::EvalFit(args) => eval_fit::eval_fit(&args),
            Lab::EvalCorrectives(args) => eval_correctives::eval_correctives(&args),
            Lab::EvalLandmarks(args) => eval_landmarks::eval_landmarks(&args),
            Lab::Recognise(args) => recognise::recognise(&args),
            Lab::FitCosts(args) => fit_costs::fit_costs(&args),
            Lab::Dataset(command) => dataset::run(command),
            Lab::Train(args) => train::train(&args),
            Lab::Quantize(args) => train::quantize(&args),
        },
    }
}

/// The format of an output file, from its extension; checked before any work is done.
pub(crate) fn output_format(path: &str) -> Result<rigkit::export::OutputFormat, CliError> {
    rigkit::export::OutputFormat::from_file_name(path).ok_or_else(|| {
        format!("cannot write '{path}': rigkit writes .glb (the default), .fbx and .vrm files")
            .into()
    })
}

/// Writes `character` to `path` in the format its extension names; returns the bytes written.
pub(crate) fn save(
    character: &Character,
    options: &rigkit::export::ExportOptions,
    path: &str,
) -> Result<usize, CliError> {
    let bytes = rigkit::export::export(character, options, output_format(path)?)?;
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write '{path}': {e}"))?;
    Ok(bytes.len())
}

/// Reads a model and the files it refers to (a glTF's `.bin`, an OBJ's `.mtl`) from beside it.
pub(crate) fn load(path: &str) -> Result<Character, CliError> {
    let limits = Limits::default();
    let files = rigkit::io::read_with_references(std::path::Path::new(path), &limits)?;
    Ok(rigkit::io::import_files(&InputFile::list(&files), &limits)?)
}

/// Describe a character or a BVH clip
///
/// Describe a character (vertices, triangles, primitives, joints, skins, materials, textures,
/// animations, bounds) or a BVH clip (joints, frames, frame time)
#[derive(Args)]
struct InfoArgs {
    /// A character or a BVH clip
    file: String,
    /// As JSON
    #[arg(long)]
    json: bool,
}

fn info(args: &InfoArgs) -> Result<(), CliError> {
    let (path, json) = (&args.file, args.json);
    let bytes = rigkit::io::read_capped(std::path::Path::new(path), &Limits::default())?;
    if rigkit::io::detect_format(&bytes, path).ok() == Some(rigkit::io::Format::Bvh) {
        return bvh_info(&bytes, path, json);
    }
    let info = load(path)?.info();
    if json {
        let text = serde_json::to_string_pretty(&info)?;
        out!("{text}");
        return Ok(());
    }
    out!("file:             {}", info.name);
    out!("vertices:         {}", info.vertices);
    out!("triangles:        {}", info.triangles);
    out!("primitives:       {}", info.primitives);
    out!("joints:           {}", info.joints);
    out!("skinned vertices: {}", info.skinned_vertices);
    out!("skins:            {}", info.skins);
    out!("materials:        {}", info.materials);
    out!("textures:         {}", info.textures);
    out!("animations:       {}", info.animations);
    if !info.morph_targets.is_empty() {
        out!(
            "morph targets:    {} ({})",
            info.morph_targets.len(),
            info.morph_targets.join(", ")
        );
    }
    for clip in &info.clips {
        out!(
            "  clip:           '{}', {} keys, {:.2} s",
            clip.name,
            clip.keys,
            clip.duration
        );
    }
    out!("humanoid bones:   {}", info.humanoid_bones);
    let [x0, y0, z0] = info.bounds_min;
    let [x1, y1, z1] = info.bounds_max;
    out!("bounds:           ({x0:.4}, {y0:.4}, {z0:.4}) .. ({x1:.4}, {y1:.4}, {z1:.4})");
    for warning in &info.warnings {
        out!("warning:          {warning}");
    }
    Ok(())
}

/// Write a character as a GLB, VRM or FBX
///
/// Write a character as a GLB, VRM or FBX, keeping its rig and animations; weights normalised
#[derive(Args)]
struct ConvertArgs {
    /// The character
    input: String,
    /// The file to write: .glb, .vrm or .fbx
    #[arg(value_name = "OUT", value_parser = options::output_file)]
    output: String,
    #[command(flatten)]
    export: options::Export,
    /// Leave the animations out
    #[arg(long)]
    no_animations: bool,
    /// Split each triangle in four N times (weights blended), for heavy test meshes
    #[arg(long, value_name = "N", default_value = "0", value_parser = options::at_most::<4>)]
    subdivide: usize,
}

fn convert(args: &ConvertArgs) -> Result<(), CliError> {
    let (input, output) = (&args.input, &args.output);
    let options = rigkit::export::ExportOptions {
        animations: !args.no_animations,
        ..args.export.options()
    };
    let subdivisions = args.subdivide;
    let mut character = load(input)?;
    for _ in 0..subdivisions {
        let (mesh, parents) = rigkit::mesh::subdivide(&character.mesh);
        let too_many = rigkit::Limits::default().max_vertices;
        if mesh.vertex_count() > too_many {
            return Err(format!(
                "--subdivide: {} vertices would pass the limit of {too_many}",
                mesh.vertex_count()
            )
            .into());
        }
        character.skin = character.skin.map(|w| w.with_midpoints(&parents));
        character.mesh = mesh;
    }
    let correctives = args.export.prepare(&mut character)?;
    let written = save(&character, &options, output)?;
    let info = character.info();
    out!(
        "wrote {output}: {} vertices, {} joints, {written} bytes{}",
        info.vertices,
        info.joints,
        options::corrective_count(correctives),
    );
    Ok(())
}

fn bvh_info(bytes: &[u8], path: &str, json: bool) -> Result<(), CliError> {
    let bvh = rigkit::io::read_bvh(bytes, path)?;
    let frames = bvh.frame_count();
    let duration = frames as f32 * bvh.frame_time;
    if json {
        let value = serde_json::json!({
            "name": path,
            "joints": bvh.joints.len(),
            "channels": bvh.channel_count,
            "frames": frames,
            "frameTime": bvh.frame_time,
            "duration": duration,
        });
        out!("{value:#}");
        return Ok(());
    }
    out!("file:             {path}");
    out!("joints:           {}", bvh.joints.len());
    out!("channels:         {}", bvh.channel_count);
    out!("frames:           {frames}");
    out!(
        "frame time:       {:.6} s ({:.1} fps)",
        bvh.frame_time,
        1.0 / bvh.frame_time
    );
    out!("duration:         {duration:.2} s");
    Ok(())
}

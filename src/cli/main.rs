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
mod eval_fit;
mod eval_landmarks;
mod fit_costs;
mod recognise;
mod rig;
mod train;
mod usage;

use std::process::ExitCode;

/// Any failure of a command: the core's typed errors and the CLI's own messages alike,
/// printed once, by `main`.
pub(crate) type CliError = Box<dyn std::error::Error + Send + Sync>;

use rigkit::io::InputFile;
use rigkit::{Character, Limits};

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Err(format!("no command given\n\n{}", usage::product()).into());
    };
    // `rigkit COMMAND --help` anywhere among its arguments: that command's usage.
    if rest.iter().any(|a| a == "--help" || a == "-h")
        && let Some(usage) = usage::of(command)
    {
        out!("{usage}");
        return Ok(());
    }
    match command.as_str() {
        "info" => info(rest),
        "convert" => convert(rest),
        "skin" => rig::skin(rest),
        "rig" => rig::rig(rest),
        "batch" => batch::batch(rest),
        "eval" => eval::eval(rest),
        "eval-fit" => eval_fit::eval_fit(rest),
        "eval-landmarks" => eval_landmarks::eval_landmarks(rest),
        "animate" => animate::animate(rest),
        "recognise" => recognise::recognise(rest),
        "train" => train::train(rest),
        "quantize" => train::quantize_cmd(rest),
        "dataset" => match rest.split_first() {
            Some((what, args)) if what == "export" => dataset::export(args),
            Some((what, args)) if what == "stats" => dataset::stats(args),
            Some((what, args)) if what == "0ad" => dataset::zero_ad(args),
            _ => Err(format!(
                "dataset takes export, stats or 0ad\n\n{}",
                usage::for_error("dataset")
            )
            .into()),
        },
        "bench" => match rest.split_first() {
            Some((what, args)) if what == "import" => bench::import(args),
            Some((what, args)) if what == "skin" => bench::skin(args),
            Some((what, args)) if what == "rig" => bench::rig(args),
            Some((what, args)) if what == "dataset" => dataset::bench(args),
            Some((what, args)) if what == "edit" => bench::edit(args),
            Some((what, args)) if what == "pose" => bench::pose(args),
            _ => Err(format!(
                "bench takes a stage: import, skin, rig, edit, pose or dataset\n\n{}",
                usage::for_error("bench")
            )
            .into()),
        },
        "help" | "--help" | "-h" => {
            match rest.first().map(String::as_str) {
                Some("lab") => out!("{}", usage::lab()),
                Some(command) => out!(
                    "{}",
                    usage::of(command).ok_or(format!("no command '{command}'"))?
                ),
                None => out!("{}", usage::product()),
            }
            Ok(())
        }
        "--version" | "-V" => {
            out!("rigkit {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => Err(format!("unknown command '{other}'\n\n{}", usage::product()).into()),
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

fn info(args: &[String]) -> Result<(), CliError> {
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [path] = files.as_slice() else {
        return Err(format!("info takes one FILE\n\n{}", usage::for_error("info")).into());
    };
    let bytes = rigkit::io::read_capped(std::path::Path::new(path.as_str()), &Limits::default())?;
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

fn convert(args: &[String]) -> Result<(), CliError> {
    let mut options = rigkit::export::ExportOptions::default();
    let mut files = Vec::new();
    let mut subdivisions = 0usize;
    let mut bone_names: Option<rigkit::rig::BoneNames> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--subdivide" => {
                let value = it.next().ok_or("--subdivide needs a number from 0 to 4")?;
                subdivisions = value.parse().ok().filter(|n| *n <= 4).ok_or(format!(
                    "--subdivide: '{value}' is not a number from 0 to 4"
                ))?;
            }
            "--max-influences" => {
                let value = it.next().ok_or("--max-influences needs a value (4 or 8)")?;
                options.max_influences = value
                    .parse()
                    .map_err(|_| format!("--max-influences: '{value}' is not a number"))?;
            }
            "--no-animations" => options.animations = false,
            "--bone-names" => {
                let value = it
                    .next()
                    .ok_or("--bone-names needs mixamo, unity, unreal or vrm")?;
                bone_names = Some(value.parse()?);
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'").into()),
            file => files.push(file),
        }
    }
    let [input, output] = files.as_slice() else {
        return Err(format!(
            "convert takes IN and OUT.glb|OUT.fbx\n\n{}",
            usage::for_error("convert")
        )
        .into());
    };
    output_format(output)?;
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
    if let (Some(names), Some(skeleton)) = (bone_names, character.skeleton.as_mut()) {
        rigkit::rig::rename_humanoid(skeleton, names);
    }
    let written = save(&character, &options, output)?;
    let info = character.info();
    out!(
        "wrote {output}: {} vertices, {} joints, {written} bytes",
        info.vertices,
        info.joints,
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

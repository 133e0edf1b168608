//! The carry's two steps that run side by side (on threads natively, on the page's helper
//! workers through [`super::jobs`]): a template body's overlays on the mesh ranked, bent unless
//! it is a stance ([`ranked`]), and a stance bent the way the bodies agree on
//! ([`bent_turned`]). Each needs only surface samples, so it travels as numbers.

use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::register::POINTS;
use super::warp::WARP_POINTS;
use super::{register, warp};
use crate::parallel;

/// Overlays whose bending costs are within this ratio of the least are told apart by the
/// feet.
const TIE: f32 = 1.1;

/// How alike ([`register::lopsided_alike`]) the two bodies' lean front to back must be for
/// it to break a near tie.
const LEANS: f32 = 0.3;

/// An artist's body is bent only by the overlays that lie on the mesh, unbent, within this
/// ratio of its best: none farther ever bent least (the eight Mesh2Motion variations posed
/// and stretched, seeds 7 and 23: the overlays kept lay within 1.054 of the best; 88 of 285
/// bends saved).
const LIKELY: f32 = 1.3;

/// One overlay of a template's body on the mesh, and its bend onto the mesh's surface.
#[derive(Clone, Serialize, Deserialize)]
pub(in crate::skeleton) struct Fit {
    pub(super) overlay: register::Overlay,
    pub(super) warp: warp::Warp,
}

/// Overlays whose turns lie within this angle of each other stand and face the same way.
const ALIKE: f32 = 45.0;

pub(super) fn alike(a: Mat3, b: Mat3) -> bool {
    Quat::from_mat3(&a).angle_between(Quat::from_mat3(&b)) < ALIKE.to_radians()
}

/// The turn most bodies' preferred overlays (each with what it costs) agree on, ties to the
/// one that costs least; `None` when no body has one.
pub(super) fn agreed_turn(preferred: &[(Mat3, f32)]) -> Option<Mat3> {
    preferred
        .iter()
        .map(|&(turn, cost)| {
            let votes = preferred.iter().filter(|g| alike(turn, g.0)).count();
            (votes, turn, cost)
        })
        .max_by(|(va, _, a), (vb, _, b)| va.cmp(vb).then(b.total_cmp(a)))
        .map(|(_, turn, _)| turn)
}

/// A body's overlays on the mesh, the one it prefers first.
#[derive(Serialize, Deserialize)]
pub(in crate::skeleton) enum Ranked {
    /// An artist's body: every likely overlay bent onto the mesh.
    Bent(Vec<Fit>),
    /// A stance: its overlays by how far apart the surfaces stay, unbent (bending only the
    /// way the bodies agree on saves the most time: a humanoid has twelve stances), and its
    /// surface samples for that bend.
    Overlaid {
        overlays: Vec<(register::Overlay, f32)>,
        template: Vec<Vec3>,
    },
}

impl Ranked {
    /// How far apart the surfaces stay (as a share of the mesh's spread) when a stance lies
    /// on the mesh unbent, turned as `turn`; infinite for an artist's body (always bent).
    pub(super) fn unbent(&self, turn: Mat3) -> f32 {
        match self {
            Ranked::Bent(_) => f32::INFINITY,
            Ranked::Overlaid { overlays, .. } => (overlays.iter())
                .filter(|(overlay, _)| alike(overlay.turn, turn))
                .map(|&(_, apart)| apart)
                .fold(f32::INFINITY, f32::min),
        }
    }

    /// The turn of the preferred overlay and what it costs (a stance's at no say in ties).
    pub(super) fn preferred(&self) -> Option<(Mat3, f32)> {
        match self {
            Ranked::Bent(fits) => fits.first().map(|f| (f.overlay.turn, f.warp.cost)),
            Ranked::Overlaid { overlays, .. } => {
                overlays.first().map(|o| (o.0.turn, f32::INFINITY))
            }
        }
    }
}

/// A template body's overlays on the mesh (surface samples `template` and `target`; the
/// mesh's longest side `size`), bent unless it is a `stance`.
pub(in crate::skeleton) fn ranked(
    target: &[Vec3],
    template: Vec<Vec3>,
    stance: bool,
    size: f32,
) -> Ranked {
    // Samples come in a fixed order, so the first few hundred are a sparser sampling of the
    // same surface: the overlay search takes fewer than the bend.
    let overlays = register::overlays(&template[..POINTS], &target[..POINTS]);
    if stance {
        let overlays = prefer(overlays, |o| o.1, |o| &o.0, &template, target);
        return Ranked::Overlaid { overlays, template };
    }
    let template = template.as_slice();
    let reach = LIKELY * overlays.first().map_or(f32::INFINITY, |o| o.1);
    let likely: Vec<register::Overlay> = (overlays.into_iter())
        .filter(|&(_, apart)| apart <= reach)
        .map(|(overlay, _)| overlay)
        .collect();
    // Side by side: a body bends one to four overlays, and a template of one or two bodies
    // would otherwise leave cores waiting on the last.
    let fits = parallel::map(&likely, |overlay| bent(*overlay, template, target, size));
    Ranked::Bent(prefer(
        fits,
        |f| f.warp.cost,
        |f| &f.overlay,
        template,
        target,
    ))
}

/// `overlays` of a template body (its surface samples `template`) on the mesh (`target`),
/// each with what it `cost`s (its bend, or how far apart the surfaces stay), the preferred
/// first: of those that cost about as little as the least (within [`TIE`]), the ones whose
/// feet point the way the mesh's do and whose lean front to back is the mesh's; then the rest
/// by cost.
fn prefer<T>(
    mut overlays: Vec<T>,
    cost: impl Fn(&T) -> f32,
    overlay: impl Fn(&T) -> &register::Overlay,
    template: &[Vec3],
    target: &[Vec3],
) -> Vec<T> {
    // A body overlays nearly as well turned front to back (a human's back is as broad as its
    // front), and that mirrors left and right: where both bodies have feet that say which way
    // is forward, overlays that agree with them win a near tie.
    // An overlay upside down finds no feet at all (a head's top reaches out from nothing), so
    // overlays whose feet agree beat those where the feet say nothing, which beat those whose
    // feet disagree.
    let reference_toes = register::toe_direction(template, Vec3::Y);
    let feet = |overlay: &register::Overlay| -> u8 {
        let Some(from) = reference_toes else {
            return 1;
        };
        let up = (overlay.turn * Vec3::Y).normalize_or_zero();
        match register::toe_direction(target, up) {
            Some(to) if (overlay.turn * from).dot(to) > 0.0 => 2,
            Some(_) => 0,
            None => 1,
        }
    };
    // Where the feet say nothing (paws as wide as the legs, a posed foot), the body's lean
    // front to back, height by height, does.
    let reference_lean = register::lopsidedness(template, Vec3::Y, Vec3::Z);
    let lean = |overlay: &register::Overlay| -> f32 {
        let Some(from) = reference_lean else {
            return 0.0;
        };
        register::lopsidedness(target, overlay.turn * Vec3::Y, overlay.turn * Vec3::Z)
            .map_or(0.0, |to| register::lopsided_alike(&from, &to))
    };
    overlays.sort_by(|a, b| cost(a).total_cmp(&cost(b)));
    // The feet and the lean only break near ties: a posed or hoofed body's feet say little,
    // and an overlay that fits clearly better is right whatever they say.
    let least = overlays.first().map_or(f32::INFINITY, &cost);
    let tied = overlays
        .iter()
        .take_while(|o| cost(o) <= least * TIE)
        .count();
    // Each tied overlay's feet and lean, then the cheapest of those the cues keep.
    let mut preferred: Vec<(usize, u8, f32)> = (overlays[..tied].iter().enumerate())
        .map(|(i, o)| (i, feet(overlay(o)), lean(overlay(o))))
        .collect();
    let most = preferred.iter().map(|&(_, feet, _)| feet).max();
    preferred.retain(|&(_, feet, _)| Some(feet) == most);
    if preferred.iter().any(|&(_, _, lean)| lean > LEANS) {
        preferred.retain(|&(_, _, lean)| lean > 0.0);
    }
    if let Some(&(first, _, _)) = preferred.first() {
        overlays[..=first].rotate_right(1);
    }
    overlays
}

/// Of a stance's `overlays` on the mesh (whose longest side is `size` and surface samples
/// `target`; the stance's, `template`), those standing and facing as `turn` does, bent onto
/// the mesh: the one that bends least.
pub(in crate::skeleton) fn bent_turned(
    overlays: &[(register::Overlay, f32)],
    turn: Mat3,
    size: f32,
    target: &[Vec3],
    template: &[Vec3],
) -> Option<Fit> {
    let alike: Vec<register::Overlay> = (overlays.iter())
        .filter(|(overlay, _)| alike(overlay.turn, turn))
        .map(|(overlay, _)| *overlay)
        .collect();
    parallel::map(&alike, |overlay| bent(*overlay, template, target, size))
        .into_iter()
        .min_by(|a, b| a.warp.cost.total_cmp(&b.warp.cost))
}

/// `overlay` of a template body (its surface samples `template`) bent onto the target's
/// samples, on a body whose longest side is `size`.
fn bent(overlay: register::Overlay, template: &[Vec3], target: &[Vec3], size: f32) -> Fit {
    let points = template[..WARP_POINTS].iter().map(|p| overlay.apply(*p));
    let warp = warp::Warp::fit(points.collect(), &target[..WARP_POINTS], size);
    Fit { overlay, warp }
}

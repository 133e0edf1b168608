//! `--template auto`'s choice of template: the classifier proposes, and a template is kept
//! only where it fits; where the classifier is unsure, the likely plans' templates are fitted
//! and the human template (or the bird's, where bird is the likeliest) is kept if it fits best.

use super::{AUTO_CONFIDENCE, BodyClass, Recognition};
use crate::mesh::Mesh;
use crate::skeleton::{Body, Carried, Spread, TemplateRig, carry, carry_spread};

/// Plans whose templates are tried when the classifier is unsure: the likeliest this many…
pub const TRIED: usize = 3;
/// …that are at least this likely.
pub const PLAUSIBLE: f32 = 0.05;
/// A template whose body has to bend more than this to fit ([`Carried::cost`]) does not fit
/// the mesh, which gets the free-form skeleton (unless the classifier is sure of a plan whose
/// template is [`BodyClass::carried_however_it_bends`]). Chosen on the
/// training and validation characters of `train/` (`rigkit lab fit-costs`,
/// models/README.md: right minus wrong templates 110 of 153 placements; 0.075 scores 113
/// but takes a flat slab, 0.074, for a quadruped).
pub const FITS: f32 = 0.07;

/// The template `--template auto` fits, carried onto the mesh.
pub struct Choice {
    /// The plan rigged as: the plan the classifier is sure of (with or without its template),
    /// the plan whose template fitting chose, or [`BodyClass::Other`] for the free-form
    /// skeleton where the classifier was unsure.
    pub class: BodyClass,
    /// The plan's template carried onto the mesh; `None` for the free-form skeleton (or a
    /// plan without a template in the library given).
    pub carried: Option<Carried>,
    /// Whether the classifier was unsure, so that the plans' fits decided.
    pub by_fit: bool,
    /// How much the best template tried bent ([`Carried::cost`]), kept or not: the least
    /// bend fitted, where fitting stops as soon as the choice is known (a template that may
    /// be kept bends past [`FITS`], or another bends less); `None` where none was tried.
    pub bend: Option<f32>,
}

/// The plan and template to rig `mesh` (voxelised as `body`) as. When the classifier is at
/// least [`AUTO_CONFIDENCE`] sure of a plan (not "other"), that plan, with its template if it
/// bends no more than [`FITS`] or is [`BodyClass::carried_however_it_bends`], else the
/// free-form skeleton. When it is unsure: its [`TRIED`] likeliest plans other than "other"
/// that are at least [`PLAUSIBLE`] are considered, and the template of the one that bends
/// least is kept if it is [`BodyClass::kept_when_unsure`] (given whether it is the
/// likeliest) and bends no more than [`FITS`]; else the free-form skeleton. Templates are
/// only carried as far as that choice needs. `template` gives a plan's
/// library template; templates are carried here, or with their bodies ranked and bent by
/// `spread` (the page's helper workers).
pub async fn choose<'t>(
    recognition: &Recognition,
    mesh: &Mesh,
    body: &Body,
    template: impl Fn(BodyClass) -> Option<&'t TemplateRig>,
    spread: Option<&dyn Spread>,
) -> Choice {
    let carried = async |rig: &TemplateRig| match spread {
        Some(spread) => carry_spread(mesh, body, rig, spread).await,
        None => carry(mesh, body, rig),
    };
    let (best, p) = recognition.best();
    if p >= AUTO_CONFIDENCE {
        let fit = match template(best) {
            Some(rig) => Some(carried(rig).await),
            None => None,
        };
        let bend = fit.as_ref().map(|fit| fit.cost);
        return Choice {
            class: best,
            carried: fit.filter(|fit| best.carried_however_it_bends() || fit.cost <= FITS),
            by_fit: false,
            bend,
        };
    }
    // The likely plans with a template, likeliest first; of these only a template that may be
    // kept is worth bending for itself, the others only tell whether it bends least. So the
    // keepable ones are fitted first, and the rest only while the answer is still open: a
    // rig where no template may be kept, or the keepable one bends past FITS, or another
    // bends less, needs no more fits (the same choice as fitting all, in a fraction of the
    // time for unsure bodies).
    let tried: Vec<(usize, BodyClass, &TemplateRig)> = (recognition.ranked().into_iter())
        .filter(|&(class, p)| class != BodyClass::Other && p >= PLAUSIBLE)
        .take(TRIED)
        .enumerate()
        .filter_map(|(rank, (class, _))| Some((rank, class, template(class)?)))
        .collect();
    let keepable = |class: BodyClass| class.kept_when_unsure(class == best);
    let free_form = |bend: Option<f32>| Choice {
        class: BodyClass::Other,
        carried: None,
        by_fit: true,
        bend,
    };
    let mut kept: Option<(usize, BodyClass, Carried)> = None;
    for &(rank, class, rig) in tried.iter().filter(|(_, class, _)| keepable(*class)) {
        let fit = carried(rig).await;
        if (kept.as_ref()).is_none_or(|(_, _, best)| fit.cost.total_cmp(&best.cost).is_lt()) {
            kept = Some((rank, class, fit));
        }
    }
    let Some((kept_rank, class, fit)) = kept else {
        return free_form(None);
    };
    if fit.cost > FITS {
        return free_form(Some(fit.cost));
    }
    for &(rank, _, rig) in tried.iter().filter(|(_, class, _)| !keepable(*class)) {
        let other = carried(rig).await.cost;
        // Ties go to the likelier plan, as when every template is fitted.
        let bends_less = match other.total_cmp(&fit.cost) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => rank < kept_rank,
            std::cmp::Ordering::Greater => false,
        };
        if bends_less {
            return free_form(Some(other));
        }
    }
    Choice {
        class,
        bend: Some(fit.cost),
        carried: Some(fit),
        by_fit: true,
    }
}

//! `--template auto`'s choice of template: the classifier proposes, and where it is unsure,
//! fitting decides — the likeliest plans' templates are carried onto the mesh and the one whose
//! body bends least to fit is kept, if it fits at all.

use super::{AUTO_CONFIDENCE, BodyClass, Recognition};
use crate::mesh::Mesh;
use crate::skeleton::{Body, Carried, Spread, TemplateRig, carry, carry_spread};

/// Plans whose templates are tried when the classifier is unsure: the likeliest this many…
pub const TRIED: usize = 3;
/// …that are at least this likely.
pub const PLAUSIBLE: f32 = 0.05;
/// A template whose body has to bend more than this to fit ([`Carried::cost`]) does not fit
/// a mesh the classifier is unsure of; it gets the free-form skeleton. Chosen on the
/// training and validation characters of `train/` (`rigkit lab fit-costs`,
/// models/README.md: right minus wrong templates 110 of 153 placements; 0.075 scores 113
/// but takes a flat slab, 0.074, for a quadruped).
pub const FITS: f32 = 0.07;

/// The template `--template auto` fits, carried onto the mesh.
pub struct Choice {
    /// The plan rigged as: [`BodyClass::Other`] for the free-form skeleton.
    pub class: BodyClass,
    /// The plan's template carried onto the mesh; `None` for the free-form skeleton (or a
    /// plan without a template in the library given).
    pub carried: Option<Carried>,
    /// Whether the classifier was unsure, so that the plans' fits decided.
    pub by_fit: bool,
}

/// The plan and template to rig `mesh` (voxelised as `body`) as: the classifier's likeliest
/// plan when it is at least [`AUTO_CONFIDENCE`] sure (and not "other"); else, of its
/// [`TRIED`] likeliest plans other than "other" that are at least [`PLAUSIBLE`], the one whose
/// template bends least to fit, if that bends no more than [`FITS`]; else the free-form
/// skeleton. `template` gives a plan's library template; templates are carried here, or with
/// their bodies ranked and bent by `spread` (the page's helper workers).
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
        return Choice {
            class: best,
            carried: match template(best) {
                Some(rig) => Some(carried(rig).await),
                None => None,
            },
            by_fit: false,
        };
    }
    let mut fitted: Option<(BodyClass, Carried)> = None;
    let plausible = (recognition.ranked().into_iter())
        .filter(|&(class, p)| class != BodyClass::Other && p >= PLAUSIBLE)
        .take(TRIED);
    for (class, _) in plausible {
        let Some(rig) = template(class) else {
            continue;
        };
        let fit = carried(rig).await;
        if (fitted.as_ref()).is_none_or(|(_, best)| fit.cost.total_cmp(&best.cost).is_lt()) {
            fitted = Some((class, fit));
        }
    }
    match fitted {
        Some((class, carried)) if carried.cost <= FITS => Choice {
            class,
            carried: Some(carried),
            by_fit: true,
        },
        _ => Choice {
            class: BodyClass::Other,
            carried: None,
            by_fit: true,
        },
    }
}

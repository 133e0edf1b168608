//! The whole rig of a character, stage by stage, as the CLI and the browser both run it:
//! fit a skeleton, then skin it, reporting each stage as it starts — geometrically, or with
//! the learned heads refining the geometric result.

mod request;
mod rigged;
mod stages;

use std::borrow::Cow;
use std::ops::Deref;

use crate::Character;
use crate::export::{ExportOptions, export_glb};
use crate::io::InputFile;
#[cfg(feature = "compute")]
pub use crate::neural::{Networks, NeuralError};
#[cfg(doc)]
use crate::recognise::AUTO_CONFIDENCE;
use crate::recognise::{BodyClass, Recognition};
use crate::skeleton::{
    AutoOptions, Body, SkeletonSource, Spread, Template, TemplateRig, skeleton_in,
};
use crate::skin::{PROXY_VERTICES, Proxy, SkinOptions, geodesic_skin};
pub use request::{Method, Methods, RigRequest};
pub use rigged::{MotionSource, animate_files, convert_files};
pub use stages::{Stage, StageTimes};

/// What `--template auto` saw in the mesh and what it fitted.
#[derive(Debug, Clone, PartialEq)]
pub struct Recognised {
    pub recognition: Recognition,
    /// The plan rigged as: the likeliest when the classifier is at least [`AUTO_CONFIDENCE`]
    /// sure, else the plan whose template fitted best ([`crate::recognise::choose`]), or
    /// [`BodyClass::Other`] when none fitted.
    pub class: BodyClass,
    /// The library template fitted; `None` where the free-form skeleton was (an "other" plan,
    /// a template that bent too far to fit, or a build without the library).
    pub template: Option<&'static str>,
    /// Whether the classifier was unsure, so that fitting its likeliest plans' templates
    /// decided.
    pub by_fit: bool,
    /// How much the best template tried bent to fit ([`crate::skeleton::Carried::cost`]),
    /// kept or not (a template bending more than [`crate::recognise::FITS`] is not kept);
    /// `None` where none was tried. A catalog job can sort by it to review the worst fits.
    pub bend: Option<f32>,
}

/// What a rig did besides the skeleton and weights it left on the character.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RigReport {
    /// Set when the skeleton source was [`SkeletonSource::Recognise`] and the mesh could be
    /// described.
    pub recognised: Option<Recognised>,
}

/// A skeleton source with [`SkeletonSource::Recognise`] resolved: the skeleton, where
/// resolving it carried the chosen template onto the mesh, else the source to fit.
struct Resolved<'a> {
    source: Cow<'a, SkeletonSource>,
    recognised: Option<Recognised>,
    carried: Option<crate::rig::Skeleton>,
    /// The free-form skeleton, where recognising the body made it (the classifier reads the
    /// body's limbs from it): the answer when no template is kept.
    free_form: Option<crate::rig::Skeleton>,
}

/// `source` with [`SkeletonSource::Recognise`] resolved by the classifier in `networks`
/// ([`crate::recognise::choose`]): the library template of the plan it is sure of, or the
/// likely plan whose template fits best, else the free-form skeleton (also for a mesh it
/// cannot describe, whose later stages say why).
async fn resolve<'a>(
    source: &'a SkeletonSource,
    mesh: &crate::mesh::Mesh,
    body: &Body,
    options: &AutoOptions,
    networks: Option<&Networks>,
    spread: Option<&dyn Spread>,
) -> Result<Resolved<'a>, NeuralError> {
    let free_form = SkeletonSource::Template(Template::FreeForm);
    let (SkeletonSource::Recognise, Some(networks)) = (source, networks) else {
        return Ok(Resolved {
            source: Cow::Borrowed(source),
            recognised: None,
            carried: None,
            free_form: None,
        });
    };
    // Made once, in the body already voxelised: the classifier reads it, and it is the
    // answer when no template is kept.
    let made = skeleton_in(mesh, body, &free_form, options).ok();
    let free = |made| Resolved {
        source: Cow::Owned(free_form),
        recognised: None,
        carried: None,
        free_form: made,
    };
    let recognition = match networks.recognise_async(mesh, made.as_ref()).await {
        Ok(recognition) => recognition,
        #[cfg(feature = "compute")]
        Err(NeuralError::Describe(_)) => return Ok(free(made)),
        Err(e) => return Err(e),
    };
    let template = |class| library_template(class).map(|(_, rig)| rig);
    let choice = crate::recognise::choose(&recognition, mesh, body, template, spread).await;
    let template = choice
        .carried
        .as_ref()
        .and_then(|_| library_template(choice.class))
        .map(|(name, _)| name);
    let recognised = Recognised {
        recognition,
        class: choice.class,
        template,
        by_fit: choice.by_fit,
        bend: choice.bend,
    };
    Ok(match choice.carried {
        Some(carried) => Resolved {
            source: Cow::Borrowed(source),
            recognised: Some(recognised),
            carried: Some(carried.skeleton),
            free_form: None,
        },
        None => Resolved {
            recognised: Some(recognised),
            ..free(made)
        },
    })
}

/// The compiled-in library's template for `class`, with its name, where the default carries
/// it ([`BodyClass::carried_by_default`]).
fn library_template(class: BodyClass) -> Option<(&'static str, &'static TemplateRig)> {
    #[cfg(feature = "templates")]
    if let Some(name) = class.template().filter(|_| class.carried_by_default())
        && let Some(rig) = crate::skeleton::Library::shared().and_then(|l| l.get(name))
    {
        return Some((name, rig));
    }
    let _ = class;
    None
}

/// Rigs `character` in place as `request` says: a new skeleton and skin weights. Networks
/// come from `networks`, called at most once and only when a learned stage runs (the browser
/// hands over its GPU's copy, native callers the CPU's). Device read-backs are awaited, so
/// the browser stays responsive; native callers block on it with [`rig_character`].
/// Animations and the humanoid bone map of any previous skeleton no longer fit and are
/// dropped. `progress` hears each stage as it begins. A template is carried here, or with
/// its bodies ranked and bent by `spread` (the page's helper workers; the same rig). On error
/// the character is left exactly as it was.
///
/// # Errors
/// [`crate::Error`] when the skeleton does not fit, the mesh cannot be skinned or a learned
/// stage fails.
pub async fn rig_character_async<N: Deref<Target = Networks>>(
    character: &mut Character,
    request: &RigRequest,
    networks: impl FnOnce() -> Result<N, NeuralError>,
    spread: Option<&dyn Spread>,
    mut progress: impl FnMut(Stage),
) -> Result<RigReport, crate::Error> {
    let options = AutoOptions::default();
    let mesh = &character.mesh;
    progress(Stage::Voxelise);
    let body = Body::of(mesh, &options)?;
    progress(Stage::Skeleton);
    let networks = if request.runs_networks() {
        Some(networks()?)
    } else {
        None
    };
    let Resolved {
        source,
        recognised,
        carried,
        free_form,
    } = resolve(
        &request.source,
        mesh,
        &body,
        &options,
        networks.as_deref(),
        spread,
    )
    .await?;
    // A carried template is the library's, not the free-form skeleton the head refines.
    let refine = carried.is_none() && refines(&source);
    let mut skeleton = match (carried, free_form) {
        (Some(skeleton), _) => skeleton,
        (None, Some(free_form))
            if matches!(*source, SkeletonSource::Template(Template::FreeForm)) =>
        {
            free_form
        }
        _ => skeleton_in(mesh, &body, &source, &options)?,
    };
    if let Some(n) = &networks
        && request.methods.skeleton == Method::Neural
        && refine
    {
        skeleton = n.refine_skeleton_async(mesh, &skeleton).await?;
    }
    progress(Stage::Skin);
    let skin = skin_weights(
        mesh,
        &skeleton,
        request.methods.skin,
        request.max_influences,
        networks.as_deref(),
    )
    .await?;
    character.skeleton = Some(skeleton);
    character.skin = Some(skin);
    character.animations.clear();
    character.humanoid.clear();
    Ok(RigReport { recognised })
}

/// Skin weights for `skeleton` on `mesh` by `method` (the skinning head needs `networks`;
/// without them the weights are geometric), at most `max_influences` a vertex. A mesh over
/// [`PROXY_VERTICES`] is skinned on a proxy and each vertex takes its cluster's weights, so
/// the cost grows with the proxy, not the input.
async fn skin_weights(
    mesh: &crate::mesh::Mesh,
    skeleton: &crate::rig::Skeleton,
    method: Method,
    max_influences: usize,
    networks: Option<&Networks>,
) -> Result<crate::rig::SkinWeights, crate::Error> {
    let proxy = Proxy::of(mesh, PROXY_VERTICES);
    let skinned = proxy.as_ref().map_or(mesh, |p| &p.mesh);
    let skin = match networks {
        Some(n) if method == Method::Neural => {
            n.skin_async(skinned, skeleton, max_influences).await?
        }
        _ => {
            let options = SkinOptions {
                max_influences,
                ..SkinOptions::default()
            };
            geodesic_skin(skinned, skeleton, &options)?
        }
    };
    Ok(match &proxy {
        Some(proxy) => proxy.carry(&skin),
        None => skin,
    })
}

/// [`rig_character_async`] with the shipped networks on the CPU, blocking until done.
///
/// # Errors
/// As [`rig_character_async`].
#[cfg(not(target_arch = "wasm32"))]
pub fn rig_character(
    character: &mut Character,
    request: &RigRequest,
    progress: impl FnMut(Stage),
) -> Result<RigReport, crate::Error> {
    crate::blocking::block_on(rig_character_async(
        character,
        request,
        bundled_on_cpu,
        None,
        progress,
    ))
}

/// The shipped networks on the CPU backend.
///
/// # Errors
/// [`NeuralError::Model`] if a record does not load; without the `compute` feature, always.
pub fn bundled_on_cpu() -> Result<Box<Networks>, NeuralError> {
    #[cfg(feature = "compute")]
    return Networks::bundled(&crate::compute::cpu_device()).map(Box::new);
    #[cfg(not(feature = "compute"))]
    return Err(NeuralError::Unavailable);
}

/// What [`rig_files`] gives back: the rigged GLB, what the rig saw, and the rigged character
/// the GLB was written from (so callers read its skeleton without importing the GLB again).
#[derive(Debug)]
pub struct RiggedFiles {
    pub glb: Vec<u8>,
    pub report: RigReport,
    pub character: Character,
}

/// Files in, a rigged GLB out: what the page's worker, the CLI and the packages run. The
/// files are read as [`crate::io::import_files`] reads them (a `.gltf` with its `.bin`
/// files, an `.obj` with its `.mtl`), rigged as `request` says and exported with
/// `request.max_influences` weights per vertex. `progress` hears all five [`Stage`]s;
/// `spread` is as [`rig_character_async`] takes it.
///
/// # Errors
/// [`crate::Error`] naming the stage that failed: import, rig or export.
pub async fn rig_files<N: Deref<Target = Networks>>(
    files: &[InputFile<'_>],
    request: &RigRequest,
    networks: impl FnOnce() -> Result<N, NeuralError>,
    spread: Option<&dyn Spread>,
    mut progress: impl FnMut(Stage),
) -> Result<RiggedFiles, crate::Error> {
    progress(Stage::Parse);
    let mut character = crate::io::import_files(files, &crate::Limits::default())?;
    let report =
        rig_character_async(&mut character, request, networks, spread, &mut progress).await?;
    progress(Stage::Export);
    let options = ExportOptions {
        max_influences: request.max_influences,
        ..ExportOptions::default()
    };
    Ok(RiggedFiles {
        glb: export_glb(&character, &options)?,
        report,
        character,
    })
}

/// A rigged file in, the same rig with new skin weights out (`rigkit skin` in the page and
/// the packages): the skeleton, its names, bind pose and clips are kept; the weights are
/// computed by `method` (`networks` is called only for the skinning head) and exported with
/// `max_influences` per vertex. `progress` hears parse, skin and export.
///
/// # Errors
/// [`crate::Error`] when the files do not read, have no skeleton, or a stage fails.
pub async fn skin_files<N: Deref<Target = Networks>>(
    files: &[InputFile<'_>],
    method: Method,
    max_influences: usize,
    networks: impl FnOnce() -> Result<N, NeuralError>,
    mut progress: impl FnMut(Stage),
) -> Result<Vec<u8>, crate::Error> {
    progress(Stage::Parse);
    let mut character = crate::io::import_files(files, &crate::Limits::default())?;
    let skeleton = character.skeleton.take().ok_or_else(|| {
        crate::Error::State(format!(
            "'{}' has no skeleton to skin to: rig it instead",
            files.first().map_or("the file", |f| f.name)
        ))
    })?;
    progress(Stage::Skin);
    let networks = match method {
        Method::Neural => Some(networks()?),
        Method::Geometric => None,
    };
    let skin = skin_weights(
        &character.mesh,
        &skeleton,
        method,
        max_influences,
        networks.as_deref(),
    )
    .await?;
    character.skeleton = Some(skeleton);
    character.skin = Some(skin);
    progress(Stage::Export);
    let options = ExportOptions {
        max_influences,
        ..ExportOptions::default()
    };
    Ok(export_glb(&character, &options)?)
}

/// Whether the skeleton head refines skeletons from `source`: automatic ones only, what it
/// was trained on; templates and given skeletons keep their fit.
pub fn refines(source: &SkeletonSource) -> bool {
    matches!(
        source,
        SkeletonSource::Template(Template::FreeForm) | SkeletonSource::Recognise
    )
}

/// Without the `compute` feature there are no networks: requests for them fail with a reason.
#[cfg(not(feature = "compute"))]
mod no_networks {
    use crate::mesh::Mesh;
    use crate::recognise::Recognition;
    use crate::rig::{Skeleton, SkinWeights};

    /// Why a learned stage cannot run in this build.
    #[derive(Debug, Clone, PartialEq, thiserror::Error)]
    pub enum NeuralError {
        #[error("this build has no neural models (the compute feature is off)")]
        Unavailable,
    }

    /// Stands in for the models this build cannot have; it has no values.
    pub enum Networks {}

    impl Networks {
        pub async fn refine_skeleton_async(
            &self,
            _: &Mesh,
            _: &Skeleton,
        ) -> Result<Skeleton, NeuralError> {
            match *self {}
        }

        pub async fn recognise_async(
            &self,
            _: &Mesh,
            _: Option<&Skeleton>,
        ) -> Result<Recognition, NeuralError> {
            match *self {}
        }

        pub async fn skin_async(
            &self,
            _: &Mesh,
            _: &Skeleton,
            _: usize,
        ) -> Result<SkinWeights, NeuralError> {
            match *self {}
        }
    }
}

#[cfg(not(feature = "compute"))]
pub use no_networks::{Networks, NeuralError};

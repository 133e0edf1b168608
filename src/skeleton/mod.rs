//! Skeleton fitting: joints placed inside a mesh that has none.
//!
//! By concern: `curve` finds the curve skeleton of any body (level sets of geodesic
//! distance through the voxelised body, pruned and turned into a joint hierarchy rooted at
//! the thickest part); `templates` fits the humanoid, quadruped, bird and chain templates
//! along it; `carry` carries a rigged template onto the mesh on its own bodies; `adapt`
//! and `align` fit a skeleton the user gives. This module holds the types they share and
//! picks one for a [`SkeletonSource`].

mod adapt;
mod align;
mod carry;
mod curve;
mod templates;

pub use carry::carrying::{Carried, carry, carry_spread};
pub use carry::jobs::{Answers, JobError, Spread, answer};
pub use carry::library::{Library, stances};
use carry::prepared::Prepared;
pub use carry::register::{axis_turns, surface_points};
pub use curve::auto::{ChainOptions, Interior};
pub use curve::level_sets::{ShellGraph, depth_inside, shell_graph};
pub use templates::humanoid::MIXAMO_PREFIX;

use std::sync::OnceLock;

use crate::UnknownName;
use crate::mesh::{Mesh, WindingTree};
use crate::rig::Skeleton;
use crate::volume::{Solid, capped_solid};

/// Settings of the automatic skeleton.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AutoOptions {
    /// Voxels along the longest side of the mesh's bounds.
    pub resolution: u32,
    /// Most solid voxels; bulky shapes are voxelised more coarsely.
    pub max_solid_voxels: usize,
    /// Thickness of one distance shell, in voxels.
    pub shell_width: f32,
    pub chains: ChainOptions,
}

impl Default for AutoOptions {
    fn default() -> Self {
        Self {
            resolution: 96,
            max_solid_voxels: 300_000,
            shell_width: 2.0,
            chains: ChainOptions::default(),
        }
    }
}

/// Why no skeleton could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RigError {
    #[error("the mesh has no triangles to rig")]
    EmptyMesh,
    #[error("the mesh has no volume to place joints in")]
    NoVolume,
    #[error("the humanoid template does not fit this mesh: {reason}")]
    NotHumanoid { reason: String },
    #[error("the quadruped template does not fit this mesh: {reason}")]
    NotQuadruped { reason: String },
    #[error("the bird template does not fit this mesh: {reason}")]
    NotBird { reason: String },
}

/// Where a character's new skeleton comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum SkeletonSource {
    /// Fitted from the mesh's shape.
    Template(Template),
    /// The user's own skeleton (from a rigged file or a BVH clip), adapted to the mesh with
    /// its joints, names and hierarchy kept.
    Given(Skeleton),
    /// A skeleton on the body it was made for (a template's own character, or any rigged
    /// file): carried onto the mesh on that body ([`carry`]), with its joints, names and
    /// hierarchy kept, in any position, scale and facing.
    Rigged(Box<TemplateRig>),
    /// The library template of the body plan the classifier sees (`--template auto`),
    /// resolved by the pipeline ([`crate::pipeline`]) where the classifier runs; left
    /// unresolved it is the free-form skeleton, which fits any body.
    Recognise,
}

impl SkeletonSource {
    /// A source by the name shells give: `auto` (recognise the body plan), one of
    /// [`Template`]'s names, or a library template's (`rig-fox`, …) where the library is
    /// compiled in.
    ///
    /// # Errors
    /// [`UnknownName`] listing every name there is.
    pub fn named(name: &str) -> Result<Self, UnknownName> {
        if name == "auto" {
            return Ok(Self::Recognise);
        }
        #[cfg(feature = "templates")]
        if let Some(rig) = Library::shared().and_then(|l| l.get(name)) {
            return Ok(Self::Rigged(Box::new(rig.clone())));
        }
        if let Ok(template) = name.parse() {
            return Ok(Self::Template(template));
        }
        let mut available = vec!["auto"];
        available.extend(Template::NAMES);
        #[cfg(feature = "templates")]
        available.extend(Library::shared().into_iter().flat_map(|l| l.names()));
        Err(UnknownName::new("template", name, available))
    }
}

/// A template skeleton and the mesh it was rigged on, with any more bodies an artist rigged
/// with the same template. What carrying needs of its bodies that is the same every rig is
/// worked out on its first carry and kept with it (its fields are read-only, so that stays
/// true), so a page or a batch rigging many characters pays for it once.
#[derive(Debug, Clone)]
pub struct TemplateRig {
    skeleton: Skeleton,
    mesh: Mesh,
    bodies: Vec<TemplateBody>,
    prepared: OnceLock<Prepared>,
}

/// One more body rigged with a template ([`TemplateRig::bodies`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateBody {
    pub skeleton: Skeleton,
    pub mesh: Mesh,
    /// Baked from an artist's body into another stance ([`stances`]: arms lowered, a chibi)
    /// rather than rigged by the artist: it has no say in which way the mesh stands and is
    /// carried only that way.
    pub stance: bool,
}

impl TemplateRig {
    /// The template on its own body alone.
    pub fn new(skeleton: Skeleton, mesh: Mesh) -> Self {
        Self {
            skeleton,
            mesh,
            bodies: Vec::new(),
            prepared: OnceLock::new(),
        }
    }

    /// More bodies rigged with this template ([`Self::bodies`]).
    pub fn add_bodies(&mut self, bodies: impl IntoIterator<Item = TemplateBody>) {
        self.bodies.extend(bodies);
        self.prepared = OnceLock::new();
    }

    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The mesh the template's artist rigged it on.
    pub fn mesh(&self) -> &Mesh {
        &self.mesh
    }

    /// More bodies rigged with this template: each the artist's placement of the template's
    /// joints (by name; some may be missing) and the mesh. A fit carries every body and
    /// blends the placements of those that fit best.
    pub fn bodies(&self) -> &[TemplateBody] {
        &self.bodies
    }

    /// Every body carried: the template's own first, then [`Self::bodies`], each with whether
    /// it is a stance.
    fn every_body(&self) -> impl Iterator<Item = (&Skeleton, &Mesh, bool)> {
        std::iter::once((&self.skeleton, &self.mesh, false))
            .chain((self.bodies.iter()).map(|b| (&b.skeleton, &b.mesh, b.stance)))
    }

    /// What carrying needs of the bodies that is the same every rig, worked out once.
    fn prepared(&self) -> &Prepared {
        self.prepared.get_or_init(|| Prepared::of(self))
    }
}

impl PartialEq for TemplateRig {
    /// The same skeleton on the same bodies, whether or not either was carried yet.
    fn eq(&self, other: &Self) -> bool {
        (self.skeleton == other.skeleton)
            && (self.mesh == other.mesh)
            && (self.bodies == other.bodies)
    }
}

/// A skeleton for `mesh` from `source`: a template fitted to it, or the given skeleton adapted
/// to it — part by part when its joint names say it is a humanoid, else stretched from its
/// joints' bounds onto the mesh's (same up and forward axes assumed) with every joint moved
/// under the surface.
///
/// # Errors
/// [`RigError`] as [`fit_skeleton`].
pub fn skeleton_for(
    mesh: &Mesh,
    source: &SkeletonSource,
    options: &AutoOptions,
) -> Result<Skeleton, RigError> {
    skeleton_in(mesh, &Body::of(mesh, options)?, source, options)
}

/// [`skeleton_for`] in a body already voxelised by [`Body::of`] (so a progress display can
/// time the two apart).
///
/// # Errors
/// [`RigError`] as [`fit_skeleton`].
pub fn skeleton_in(
    mesh: &Mesh,
    body: &Body,
    source: &SkeletonSource,
    options: &AutoOptions,
) -> Result<Skeleton, RigError> {
    match source {
        SkeletonSource::Template(template) => fit_in(mesh, body, *template, options),
        SkeletonSource::Recognise => fit_in(mesh, body, Template::FreeForm, options),
        #[cfg(feature = "templates")]
        SkeletonSource::Given(skeleton)
            if let Some(rig) = Library::shared().and_then(|l| l.matching(skeleton)) =>
        {
            // A skeleton-only copy of a library template: carried on the library's bodies.
            Ok(keep_joints_of(skeleton, &carry(mesh, body, rig).skeleton))
        }
        SkeletonSource::Given(skeleton) if adapt::has_humanoid_names(skeleton) => {
            let fitted = fit_in(mesh, body, Template::Humanoid, options)?;
            adapt::adapt_humanoid(skeleton, &fitted)
        }
        SkeletonSource::Rigged(rig) => Ok(carry(mesh, body, rig).skeleton),
        SkeletonSource::Given(skeleton) => {
            let interior = body.interior(mesh);
            Ok(align::align_to_bounds(
                skeleton,
                &mesh.bounds(),
                JOINT_MARGIN,
                &|p| interior.inside(p),
            ))
        }
    }
}

/// `skeleton`'s joints (names, parents, order) where `placed` puts the joints of the same
/// names; a joint `placed` lacks keeps its offset from its parent.
#[cfg(feature = "templates")]
fn keep_joints_of(skeleton: &Skeleton, placed: &Skeleton) -> Skeleton {
    let mut joints = skeleton.joints.clone();
    for i in 0..joints.len() {
        match placed.joints.iter().find(|j| j.name == joints[i].name) {
            Some(there) => joints[i].world_bind = there.world_bind,
            None => {
                if let Some(p) = joints[i].parent {
                    let offset =
                        skeleton.joints[i].position() - skeleton.joints[p.index()].position();
                    let at = joints[p.index()].position() + offset;
                    joints[i].world_bind.w_axis = at.extend(1.0);
                }
            }
        }
    }
    Skeleton { joints }
}

/// How far inside its mesh's bounds a rig's joints usually stop, as a share of the joints'
/// own extent per side (feet joints above the soles, head joint inside the head).
const JOINT_MARGIN: f32 = 0.08;

/// The voxelised body of a mesh and how deep each voxel lies: what every fit works in.
pub struct Body {
    solid: Solid,
    depth: Vec<f32>,
    /// The mesh's winding numbers ([`Interior::encloses`]), arranged once however many fits
    /// (the templates an unsure plan tries) ask.
    winding: OnceLock<WindingTree>,
}

impl Body {
    /// Voxelises `mesh` at `options.resolution` (coarser past `options.max_solid_voxels`).
    ///
    /// # Errors
    /// [`RigError::EmptyMesh`] or [`RigError::NoVolume`].
    pub fn of(mesh: &Mesh, options: &AutoOptions) -> Result<Self, RigError> {
        let (solid, _) = capped_solid(mesh, options.resolution, options.max_solid_voxels)
            .ok_or(RigError::EmptyMesh)?;
        if solid.count() == 0 {
            return Err(RigError::NoVolume);
        }
        let depth = depth_inside(&solid);
        Ok(Self {
            solid,
            depth,
            winding: OnceLock::new(),
        })
    }

    /// Where joints may go in this body; `mesh` is the mesh it was voxelised from.
    fn interior<'a>(&'a self, mesh: &'a Mesh) -> Interior<'a> {
        Interior::new(&self.solid, &self.depth, mesh, &self.winding)
    }
}

/// Which skeleton to fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// Whatever the shape suggests: a chain per limb, tail, wing or horn.
    FreeForm,
    /// Mixamo-named biped: hips, three spine joints, neck, head, shoulders, arms, forearms,
    /// hands, legs, feet and toes.
    Humanoid,
    /// Four legs, spine, neck, head and tail.
    Quadruped,
    /// Two wings, two legs, spine, neck, head and tail.
    Bird,
    /// One chain from the thick end of a long body to the thin one (snake, fish, tentacle).
    Chain,
}

crate::choice::named_choice!(Template, "template", {
    FreeForm => "free",
    Humanoid => "humanoid",
    Quadruped => "quadruped",
    Bird => "bird",
    Chain => "chain",
});

/// A skeleton for `mesh` from its own shape, in the mesh's frame: joints at branch points and
/// along limbs, tips named `…_end`, the root at the thickest part of the body.
///
/// # Errors
/// [`RigError`] for a mesh without triangles or without any volume.
pub fn auto_skeleton(mesh: &Mesh, options: &AutoOptions) -> Result<Skeleton, RigError> {
    fit_skeleton(mesh, Template::FreeForm, options)
}

/// A skeleton of the kind `template` asks for, fitted inside `mesh` in its own frame.
///
/// # Errors
/// [`RigError`] for a mesh without triangles or volume, or one the template does not fit.
pub fn fit_skeleton(
    mesh: &Mesh,
    template: Template,
    options: &AutoOptions,
) -> Result<Skeleton, RigError> {
    fit_in(mesh, &Body::of(mesh, options)?, template, options)
}

fn fit_in(
    mesh: &Mesh,
    body: &Body,
    template: Template,
    options: &AutoOptions,
) -> Result<Skeleton, RigError> {
    let graph = shell_graph(&body.solid, &body.depth, options.shell_width.max(2.0));
    let longest = mesh.bounds().longest_side();
    let interior = body.interior(mesh);
    let auto = curve::auto::joints_from_graph(&graph, &interior, longest, &options.chains);
    if auto.joints.is_empty() {
        return Err(RigError::NoVolume);
    }
    let fit = templates::Fit {
        auto: &auto,
        size: longest,
        inside: &|p| interior.inside(p),
    };
    match template {
        Template::FreeForm => Ok(auto),
        Template::Humanoid => templates::humanoid::fit_humanoid(&fit),
        Template::Quadruped => templates::quadruped::fit_quadruped(&fit),
        Template::Chain => templates::chain::fit_chain(&fit),
        Template::Bird => templates::bird::fit_bird(&fit, &|p| interior.depth_at(p)),
    }
}

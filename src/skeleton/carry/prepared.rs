//! What carrying a template needs of its bodies that is the same whatever mesh it is carried
//! onto: their surface samples, which joints lie inside them, where the template's legs fork.
//! Worked out on a template's first carry and kept with it ([`TemplateRig`]), so that a page
//! or a batch rigging many characters pays for it once (in the page, summing the winding
//! numbers of every body's joints alone took some 60 ms a rig).

use glam::Vec3;

use super::carrying::SAMPLES;
use super::register;
use crate::mesh::{Mesh, winding_number};
use crate::parallel;
use crate::rig::Skeleton;
use crate::skeleton::templates::legs::{self, Fork};
use crate::skeleton::{AutoOptions, TemplateRig};
use crate::volume::capped_solid;

#[derive(Debug, Clone)]
pub(in crate::skeleton) struct Prepared {
    /// Per body (the template's own, then [`TemplateRig::bodies`]): its surface samples,
    /// none for a body without surface.
    pub samples: Vec<Option<Vec<Vec3>>>,
    /// Per body: which of its joints lie inside its mesh. A stance, baked from the body before
    /// it, keeps that body's answer: its joints are where they were.
    pub inside: Vec<Vec<bool>>,
    /// Where the legs of the template's own body fork, standing along +Y; none for a
    /// template without legs, or a body that does not stand on two.
    pub fork: Option<Fork>,
}

impl Prepared {
    pub fn of(rig: &TemplateRig) -> Self {
        let bodies: Vec<(&Skeleton, &Mesh, bool)> = rig.every_body().collect();
        // A stance with as many joints as the body before it keeps that body's answer.
        let keeps_previous = |i: usize| {
            let (skeleton, _, stance) = bodies[i];
            stance && i > 0 && bodies[i - 1].0.joints.len() == skeleton.joints.len()
        };
        let indices: Vec<usize> = (0..bodies.len()).collect();
        let ((samples, own), fork) = parallel::join(
            || {
                let samples = parallel::map(&bodies, |&(_, mesh, _)| {
                    register::surface_points(mesh, SAMPLES)
                });
                let own = parallel::map(&indices, |&i| {
                    let (skeleton, mesh, _) = bodies[i];
                    (!keeps_previous(i)).then(|| inside_body(skeleton, mesh))
                });
                (samples, own)
            },
            || own_fork(rig),
        );
        let mut inside: Vec<Vec<bool>> = Vec::with_capacity(own.len());
        for flags in own {
            // The first body always has its own.
            let flags = flags.or_else(|| inside.last().cloned()).unwrap_or_default();
            inside.push(flags);
        }
        Self {
            samples,
            inside,
            fork,
        }
    }
}

/// Where the legs of `rig`'s own body fork, standing along +Y.
fn own_fork(rig: &TemplateRig) -> Option<Fork> {
    if !legs::has_legs(rig.skeleton()) {
        return None;
    }
    let options = AutoOptions::default();
    let (solid, _) = capped_solid(rig.mesh(), options.resolution, options.max_solid_voxels)?;
    legs::fork(&solid, Vec3::Y)
}

/// Which of `skeleton`'s joints lie inside `mesh`.
fn inside_body(skeleton: &Skeleton, mesh: &Mesh) -> Vec<bool> {
    (skeleton.joints.iter())
        .map(|j| winding_number(&mesh.positions, &mesh.triangles, j.position()) > 0.5)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::probe_creature;
    use crate::skeleton::{SkeletonSource, Template, TemplateBody, skeleton_for};

    #[test]
    fn every_body_a_template_has_when_carried_is_prepared() {
        let mesh = probe_creature();
        let free = SkeletonSource::Template(Template::FreeForm);
        let skeleton = skeleton_for(&mesh, &free, &AutoOptions::default()).unwrap();
        let mut rig = TemplateRig::new(skeleton.clone(), mesh.clone());
        let own = rig.prepared().inside.clone();
        assert_eq!(own, [inside_body(&skeleton, &mesh)]);
        assert!(own[0].iter().filter(|&&inside| inside).count() > skeleton.joints.len() / 2);
        // Bodies added after a carry are prepared when next carried: one its joints lie
        // outside of, and a stance baked from it (which keeps its answer).
        let mut away = mesh.clone();
        for p in &mut away.positions {
            *p += Vec3::X * 5.0;
        }
        let body = |mesh: &Mesh, stance| TemplateBody {
            skeleton: skeleton.clone(),
            mesh: mesh.clone(),
            stance,
        };
        rig.add_bodies([body(&away, false), body(&mesh, true)]);
        let prepared = rig.prepared();
        let outside = vec![false; skeleton.joints.len()];
        assert_eq!(prepared.inside, [own[0].clone(), outside.clone(), outside]);
        assert_eq!(prepared.samples.len(), 3);
        assert!(
            prepared
                .samples
                .iter()
                .all(|s| s.as_ref().unwrap().len() == SAMPLES)
        );
        // What was prepared is no part of what a template is.
        let mut unprepared = TemplateRig::new(skeleton.clone(), mesh.clone());
        unprepared.add_bodies([body(&away, false), body(&mesh, true)]);
        assert_eq!(rig, unprepared);
    }
}

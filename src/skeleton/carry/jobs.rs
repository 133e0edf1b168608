//! The carry's pieces of work that need nothing but numbers: a body's overlays on the mesh
//! ranked (an artist's bent), and a stance bent the way the bodies agree on. Each carries
//! its surface samples with it, so the page, which has no threads, can hand them to helper
//! workers ([`Spread`]) and get the answers a thread here would give, bit for bit (encoded
//! with postcard, which writes every float as its four bytes).

use std::future::Future;
use std::pin::Pin;

use glam::{Mat3, Vec3};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::register::Overlay;
use super::steps::{Fit, Ranked, bent_turned, ranked};
use crate::parallel;

/// Runs encoded jobs elsewhere (the page's helper workers, each answering with
/// [`answer`]) and hands back each one's encoded answer, in order; an `Err` (a helper that
/// failed) has the jobs run here instead.
pub trait Spread {
    fn run<'a>(&'a self, jobs: Vec<Vec<u8>>) -> Pin<Box<dyn Future<Output = Answers> + 'a>>;
}

/// Each job's encoded answer, or why they could not be had.
pub type Answers = Result<Vec<Vec<u8>>, String>;

/// A piece of the carry that runs anywhere.
pub(in crate::skeleton) trait Job: Sync {
    type Answer: Serialize + DeserializeOwned + Send;
    fn run(&self) -> Self::Answer;
    /// The job as [`answer`] reads it.
    fn work(&self) -> WorkRef<'_>;
}

/// One body's overlays on the mesh, ranked; an artist's bent ([`ranked`]).
#[derive(Serialize, Deserialize)]
pub(in crate::skeleton) struct Rank {
    /// The mesh's surface samples and the template body's (none for a body without surface).
    pub target: Option<Vec<Vec3>>,
    pub template: Option<Vec<Vec3>>,
    pub stance: bool,
    /// The mesh's longest side.
    pub size: f32,
}

impl Job for Rank {
    type Answer = Ranked;
    fn run(&self) -> Ranked {
        match (&self.target, &self.template) {
            (Some(target), Some(template)) => {
                ranked(target, template.clone(), self.stance, self.size)
            }
            _ => Ranked::Bent(Vec::new()),
        }
    }
    fn work(&self) -> WorkRef<'_> {
        WorkRef::Rank(self)
    }
}

/// A stance's overlays that stand and face as `turn` does, bent onto the mesh: the one that
/// bends least ([`bent_turned`]).
#[derive(Serialize, Deserialize)]
pub(in crate::skeleton) struct Bend {
    pub overlays: Vec<(Overlay, f32)>,
    pub turn: Mat3,
    pub target: Vec<Vec3>,
    pub template: Vec<Vec3>,
    pub size: f32,
}

impl Job for Bend {
    type Answer = Option<Fit>;
    fn run(&self) -> Option<Fit> {
        bent_turned(
            &self.overlays,
            self.turn,
            self.size,
            &self.target,
            &self.template,
        )
    }
    fn work(&self) -> WorkRef<'_> {
        WorkRef::Bend(self)
    }
}

/// A job as it is sent (borrowed; encoded as [`Work`] is decoded).
#[derive(Serialize)]
pub(in crate::skeleton) enum WorkRef<'a> {
    Rank(&'a Rank),
    Bend(&'a Bend),
}

/// A job as a helper receives it.
#[derive(Deserialize)]
enum Work {
    Rank(Rank),
    Bend(Bend),
}

/// Why a helper could not answer a job.
#[derive(Debug, thiserror::Error)]
#[error("a carry job could not be read or answered: {0}")]
pub struct JobError(#[from] postcard::Error);

/// What a helper worker answers to an encoded job: its answer, encoded.
///
/// # Errors
/// [`JobError`] when the bytes are not a job this build encodes.
pub fn answer(job: &[u8]) -> Result<Vec<u8>, JobError> {
    Ok(match postcard::from_bytes::<Work>(job)? {
        Work::Rank(rank) => postcard::to_allocvec(&rank.run())?,
        Work::Bend(bend) => postcard::to_allocvec(&bend.run())?,
    })
}

/// Every job's answer, in order: encoded and answered by `spread`, or here side by side
/// ([`parallel::map`]) if that fails.
pub(in crate::skeleton) async fn run_all<J: Job>(
    jobs: &[J],
    spread: &dyn Spread,
) -> Vec<J::Answer> {
    if !jobs.is_empty()
        && let Some(answers) = run_spread(jobs, spread).await
    {
        return answers;
    }
    parallel::map(jobs, J::run)
}

async fn run_spread<J: Job>(jobs: &[J], spread: &dyn Spread) -> Option<Vec<J::Answer>> {
    let encoded: Vec<Vec<u8>> = (jobs.iter())
        .map(|job| postcard::to_allocvec(&job.work()))
        .collect::<Result<_, _>>()
        .ok()?;
    let answers = spread.run(encoded).await.ok()?;
    if answers.len() != jobs.len() {
        return None;
    }
    (answers.iter())
        .map(|a| postcard::from_bytes(a).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::probe_creature;
    use crate::skeleton::surface_points;

    /// Answers jobs as a helper worker would: each encoded, answered from its bytes.
    struct Encoded;

    impl Spread for Encoded {
        fn run<'a>(&'a self, jobs: Vec<Vec<u8>>) -> Pin<Box<dyn Future<Output = Answers> + 'a>> {
            Box::pin(async move {
                (jobs.iter())
                    .map(|job| answer(job).map_err(|e| e.to_string()))
                    .collect()
            })
        }
    }

    #[test]
    fn a_job_answered_from_its_bytes_is_the_job_run_here() {
        let creature = probe_creature();
        let mut posed = creature.clone();
        for p in &mut posed.positions {
            *p = glam::Quat::from_rotation_y(0.5) * (*p * Vec3::new(1.2, 0.9, 1.0));
        }
        let jobs: Vec<Rank> = [false, true]
            .into_iter()
            .map(|stance| Rank {
                target: surface_points(&posed, 2000),
                template: surface_points(&creature, 2000),
                stance,
                size: posed.bounds().longest_side(),
            })
            .collect();
        let here = parallel::map(&jobs, Rank::run);
        let there = crate::blocking::block_on(run_all(&jobs, &Encoded));
        assert_eq!(
            postcard::to_allocvec(&here).ok(),
            postcard::to_allocvec(&there).ok()
        );
        assert!(matches!(&there[0], Ranked::Bent(fits) if !fits.is_empty()));
        assert!(matches!(&there[1], Ranked::Overlaid { overlays, .. } if !overlays.is_empty()));
        // Bytes that are no job get an error, not a panic.
        assert!(answer(&[7, 1, 2]).is_err());
    }
}

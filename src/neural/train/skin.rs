//! Training the skinning head: every character is skinned geometrically with its artist's
//! skeleton, and the network learns the artist's weights from that and the shape. The loss is
//! the cross-entropy between the artist's weights (over each vertex's candidate bones) and the
//! predicted softmax, on random vertex subsets.

use std::path::Path;

use burn::tensor::{Device, Tensor, TensorData};

use super::corpus::{CorpusPlan, examples};
use super::log::LogEntry;
use super::run::{TrainOptions, train};
use crate::compute::cpu_device;
use crate::eval::skin_metrics;
use crate::neural::{CANDIDATES, SkinInputs, SkinNet, SkinTensors, skin_inputs, skin_weights_from};
use crate::rig::{Skeleton, SkinWeights};
use crate::skin::{SkinOptions, geodesic_skin};
use crate::{Character, mesh::Mesh};

/// Vertices per training step.
const VERTICES_PER_STEP: usize = 1024;
/// Share of steps drawn from real (artist-rigged) characters and their augmented copies.
const REAL_SHARE: f32 = 0.7;

fn is_generated(name: &str) -> bool {
    name.starts_with("procedural/") || name.starts_with("anny/")
}

/// One character ready for the skinning head: its inputs and the artist's weights over each
/// vertex's candidates.
pub struct SkinExample {
    pub name: String,
    pub inputs: SkinInputs,
    /// `[vertices * CANDIDATES]`, summing to 1 per vertex where `covered`.
    pub target: Vec<f32>,
    /// Vertices whose artist weights fall (mostly) on their candidates.
    pub covered: Vec<usize>,
    pub mesh: Mesh,
    pub skeleton: Skeleton,
    pub truth: SkinWeights,
}

/// The example of one rigged character; `None` when it cannot be skinned or no vertex's
/// artist weights fall on its candidate bones.
pub fn skin_example(name: &str, character: &Character) -> Option<SkinExample> {
    let (skeleton, truth) = (character.skeleton.as_ref()?, character.skin.as_ref()?);
    let inputs = skin_inputs(&character.mesh, skeleton).ok()?;
    let mut target = vec![0.0; inputs.vertex_count * CANDIDATES];
    let mut covered = Vec::new();
    for v in 0..inputs.vertex_count {
        let row = &mut target[v * CANDIDATES..(v + 1) * CANDIDATES];
        for (k, slot) in row.iter_mut().enumerate() {
            let i = v * CANDIDATES + k;
            if inputs.valid[i] > 0.0 {
                *slot = truth
                    .influences(v)
                    .iter()
                    .filter(|w| w.joint.0 == inputs.candidates[i])
                    .map(|w| w.weight)
                    .sum();
            }
        }
        let total: f32 = row.iter().sum();
        if total > 0.9 {
            row.iter_mut().for_each(|w| *w /= total);
            covered.push(v);
        }
    }
    if covered.is_empty() {
        return None;
    }
    Some(SkinExample {
        name: name.to_owned(),
        inputs,
        target,
        covered,
        mesh: character.mesh.clone(),
        skeleton: skeleton.clone(),
        truth: truth.clone(),
    })
}

/// Mean L1 weight error (Σ|Δw| per vertex) of `model` over `examples`.
pub fn skin_l1(model: &SkinNet, examples: &[SkinExample], device: &Device) -> f32 {
    let mut total = 0.0;
    for e in examples {
        let log = model.forward(SkinTensors::new(&e.inputs, None, device));
        let values = log.into_data().try_to_vec::<f32>().unwrap_or_default();
        let Ok(weights) = skin_weights_from(&e.inputs, &values, 4, 1.0) else {
            continue;
        };
        total += skin_metrics(&e.mesh, &e.skeleton, &weights, &e.truth, 0, 0).l1;
    }
    total / examples.len().max(1) as f32
}

/// Mean L1 of the geometric weights (the app's four strongest) over `examples`.
pub fn geometric_l1(examples: &[SkinExample]) -> f32 {
    let mut total = 0.0;
    for e in examples {
        let options = SkinOptions::default();
        if let Ok(weights) = geodesic_skin(&e.mesh, &e.skeleton, &options) {
            total += skin_metrics(&e.mesh, &e.skeleton, &weights, &e.truth, 0, 0).l1;
        }
    }
    total / examples.len().max(1) as f32
}

/// Trains the skinning head on the training split, scored on the validation split.
///
/// # Errors
/// A message when the data cannot be read or a checkpoint written.
pub fn train_skin(
    data: &Path,
    plan: &CorpusPlan,
    options: &TrainOptions,
) -> Result<(SkinNet, Vec<LogEntry>), String> {
    let started = std::time::Instant::now();
    let (examples, validation) = examples(data, plan, skin_example)?;
    eprintln!(
        "{} training and {} validation characters prepared in {:.0} s; geometric validation L1 {:.3}",
        examples.len(),
        validation.len(),
        started.elapsed().as_secs_f32(),
        geometric_l1(&validation)
    );
    // Real characters carry the artists' habits the generated ones lack: they make up most
    // steps however many generated characters there are.
    let (real, generated): (Vec<usize>, Vec<usize>) =
        (0..examples.len()).partition(|&i| !is_generated(&examples[i].name));
    train(
        SkinNet::new,
        options,
        |model, rng, device| {
            let pool = if generated.is_empty() || (!real.is_empty() && rng.unit() < REAL_SHARE) {
                &real
            } else {
                &generated
            };
            let e = &examples[pool[(rng.next_u64() % pool.len() as u64) as usize]];
            let rows: Vec<usize> = (0..VERTICES_PER_STEP.min(e.covered.len()))
                .map(|_| e.covered[(rng.next_u64() % e.covered.len() as u64) as usize])
                .collect();
            let x = SkinTensors::new(&e.inputs, Some(&rows), device);
            let target: Vec<f32> = rows
                .iter()
                .flat_map(|&v| {
                    e.target[v * CANDIDATES..(v + 1) * CANDIDATES]
                        .iter()
                        .copied()
                })
                .collect();
            let target =
                Tensor::<2>::from_data(TensorData::new(target, [rows.len(), CANDIDATES]), device);
            let log = model.forward(x);
            // Cross-entropy; padding slots have target 0 and drop out.
            (target * log).sum().neg().div_scalar(rows.len() as f32)
        },
        |model| skin_l1(model, &validation, &cpu_device()),
    )
}

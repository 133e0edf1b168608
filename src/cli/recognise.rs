//! `rigkit lab recognise FILE…`: the body plan the shipped classifier sees in each file, with
//! its confidence and the runner-up, as `--template auto` would choose.

use super::CliError;
use burn::tensor::Device;
use clap::Args;
use rigkit::compute::cpu_device;
use rigkit::dataset::Split;
use rigkit::neural::PlanNet;
use rigkit::neural::train::plans::{PlanExample, read_examples, recognitions, threshold_table};
use rigkit::recognise::{AUTO_CONFIDENCE, PLAUSIBLE};

/// The body plan the classifier sees in each mesh
///
/// The body plan the shipped classifier sees in each mesh (humanoid, quadruped, bird, fish,
/// snake, spider, tailed-biped, winged-quadruped, other), its confidence, the runner-up and
/// the library template it gets
#[derive(Args)]
pub struct RecogniseArgs {
    /// Meshes
    #[arg(value_name = "FILE", required_unless_present = "scores")]
    files: Vec<String>,
    /// Instead, what each confidence threshold does on a training run's described characters
    /// (the features.csv `lab train body-plan` writes)
    #[arg(long, value_name = "FEATURES.csv", conflicts_with = "files")]
    scores: Option<std::path::PathBuf>,
}

pub fn recognise(args: &RecogniseArgs) -> Result<(), CliError> {
    let device = cpu_device();
    let model = PlanNet::bundled(&device)?;
    if let Some(file) = &args.scores {
        return scores(&model, file, &device);
    }
    for file in &args.files {
        let character = super::load(file)?;
        let recognition = model.recognise_mesh(&character.mesh, &device)?;
        let ranked = recognition.ranked();
        let best = ranked[0].0;
        let carried = best.template().filter(|_| best.carried_by_default());
        let template = carried.unwrap_or("free-form skeleton");
        let likely: Vec<String> = (ranked.iter())
            .filter(|&&(_, p)| p >= PLAUSIBLE)
            .map(|(class, p)| format!("{} {p:.2}", class.name()))
            .collect();
        out!("{file}: {} (template {template})", likely.join(", "));
    }
    Ok(())
}

/// The shipped classifier on a training run's described characters (`features.csv` of
/// `rigkit lab train body-plan`): per split, what each confidence threshold of `--template auto`
/// would do — the validation split is where the shipped threshold is chosen.
fn scores(model: &PlanNet, file: &std::path::Path, device: &Device) -> Result<(), CliError> {
    let examples = read_examples(file).ok_or(format!(
        "'{}' is not a features.csv written by 'rigkit lab train body-plan'",
        file.display()
    ))?;
    let thresholds = [0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
    for split in [Split::Validation, Split::Eval] {
        let part: Vec<PlanExample> = examples
            .iter()
            .filter(|e| e.split == split)
            .cloned()
            .collect();
        let recognitions = recognitions(model, &part, device);
        out!(
            "\n{} ({} characters), shipped threshold {AUTO_CONFIDENCE}:\n\n{}",
            split.name(),
            part.len(),
            threshold_table(&part, &recognitions, &thresholds)
        );
    }
    Ok(())
}

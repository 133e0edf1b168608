//! `rigkit lab train skeleton|skin` and `rigkit lab quantize`: the networks trained from the data
//! root, resumable, and their int8 records for `models/`.

use std::path::{Path, PathBuf};

use super::CliError;
use super::options::positive;
use clap::{Args, ValueEnum};

use burn::module::Module;
use burn::tensor::Device;
use rigkit::compute::cpu_device;
use rigkit::dataset::Split;
use rigkit::neural::train::joints::train_joints;
use rigkit::neural::train::plans::{
    PlanCorpus, PlanExample, balanced_error, confusion, confusion_table, describe_corpus,
    describe_eval, predict, read_examples, train_plans, write_examples,
};
use rigkit::neural::train::quantize::quantize as quantize_model;
use rigkit::neural::train::skin::train_skin;
use rigkit::neural::train::{CorpusPlan, TrainOptions};
use rigkit::neural::{
    JointNetConfig, PlanNet, PlanNetConfig, SkinNetConfig, config_path, config_to_json,
    load_network,
};

/// The data root when `--data` is not given, as in the repository's sibling layout.
const DEFAULT_DATA: &str = "../shared/data";

/// The three networks rigkit ships.
#[derive(Clone, Copy, ValueEnum)]
pub enum Network {
    /// The skeleton head (joint offsets over the curve skeleton)
    Skeleton,
    /// The skinning head
    Skin,
    /// The body-plan classifier
    BodyPlan,
}

/// Train a network on the CPU, resumably
///
/// Train a network with burn on the CPU from the data root's train split (plus generated
/// characters, and 0 A.D.'s characters converted by `lab dataset 0ad`, split by skeleton
/// family), scored on its validation split; resumes from OUT's checkpoint; writes log.csv,
/// loss.png and model-f32.bpk there (body-plan: also features.csv, the labelled characters
/// described, and its confusion on the training, validation and eval characters)
#[derive(Args)]
pub struct TrainArgs {
    network: Network,
    /// The run's folder: checkpoints, log, loss curve, the trained record
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The data root
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DATA)]
    data: PathBuf,
    /// Optimiser steps (default 4000)
    #[arg(long, value_name = "N")]
    steps: Option<usize>,
    /// Learning rate (default 0.002)
    #[arg(long, value_name = "X")]
    lr: Option<f64>,
    /// Seed (default 1)
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Steps between validation scores and checkpoints (default 250)
    #[arg(long, value_name = "N", value_parser = positive)]
    validate_every: Option<usize>,
    /// Generated creatures added
    #[arg(long, value_name = "N", default_value = "120")]
    procedural: usize,
    /// MakeHuman bodies added
    #[arg(long, value_name = "N", default_value = "40")]
    anny: usize,
    /// Augmented copies of every training character
    #[arg(long, value_name = "N", default_value = "1")]
    augmented: usize,
    /// 0 A.D.'s characters converted by `lab dataset 0ad`
    #[arg(long, value_name = "DIR")]
    zero_ad: Option<PathBuf>,
    /// body-plan: mixup's Beta(α, α) (0: none)
    #[arg(long, value_name = "ALPHA", default_value = "0.4")]
    mixup: f32,
}

pub fn train(args: &TrainArgs) -> Result<(), CliError> {
    let data = &args.data;
    let defaults = TrainOptions::new(args.out.clone());
    let options = TrainOptions {
        steps: args.steps.unwrap_or(defaults.steps),
        learning_rate: args.lr.unwrap_or(defaults.learning_rate),
        seed: args.seed.unwrap_or(defaults.seed),
        validate_every: args.validate_every.unwrap_or(defaults.validate_every),
        out: defaults.out,
    };
    let plan = CorpusPlan {
        procedural: args.procedural,
        anny: args.anny,
        augmented: args.augmented,
        zero_ad: args.zero_ad.clone(),
    };
    let final_path = options.out.join("model-f32.bpk");
    // The networks train at their shipped shape; the record's config says which that was.
    let (saved, config) = match args.network {
        Network::Skin => (
            train_skin(data, &plan, &options)?.0.save_file(&final_path),
            config_to_json(&SkinNetConfig::default()),
        ),
        Network::Skeleton => (
            train_joints(data, &plan, &options)?
                .0
                .save_file(&final_path),
            config_to_json(&JointNetConfig::default()),
        ),
        Network::BodyPlan => (
            train_body_plan(data, &plan, &options, args.mixup)?.save_file(&final_path),
            config_to_json(&PlanNetConfig::default()),
        ),
    };
    saved.map_err(|e| format!("cannot write '{}': {e}", final_path.display()))?;
    let config_file = config_path(&final_path);
    std::fs::write(&config_file, config)
        .map_err(|e| format!("cannot write '{}': {e}", config_file.display()))?;
    out!("wrote {}", final_path.display());
    Ok(())
}

/// The body-plan classifier: the labelled characters described once (kept in
/// `OUT/features.csv`, so that a resumed run does not describe them again), trained, and its
/// confusion on the validation characters and on the eval set printed as Markdown.
fn train_body_plan(
    data: &Path,
    plan: &CorpusPlan,
    options: &TrainOptions,
    mixup: f32,
) -> Result<PlanNet, CliError> {
    let cache = options.out.join("features.csv");
    let examples = match read_examples(&cache) {
        Some(examples) => examples,
        None => {
            let started = std::time::Instant::now();
            let corpus = PlanCorpus {
                procedural: plan.procedural,
                anny: plan.anny,
                augmented: plan.augmented,
                zero_ad: plan.zero_ad.clone(),
            };
            let mut examples = describe_corpus(data, &corpus)?;
            examples.extend(describe_eval(data));
            std::fs::create_dir_all(&options.out)
                .map_err(|e| format!("cannot create '{}': {e}", options.out.display()))?;
            write_examples(&cache, &examples)?;
            eprintln!(
                "{} characters described in {:.0} s",
                examples.len(),
                started.elapsed().as_secs_f32()
            );
            examples
        }
    };
    let model = train_plans(&examples, options, mixup)?.0.valid();
    let device = cpu_device();
    for split in [Split::Train, Split::Validation, Split::Eval] {
        let part: Vec<PlanExample> = examples
            .iter()
            .filter(|e| e.split == split)
            .cloned()
            .collect();
        let predicted = predict(&model, &part, &device);
        let table = confusion(&part, &predicted);
        out!(
            "\n{} ({} characters): balanced error {:.3}\n\n{}",
            split.name(),
            part.len(),
            balanced_error(&table),
            confusion_table(&table)
        );
        if split == Split::Eval {
            for (e, p) in part.iter().zip(&predicted) {
                out!("{}: {} (true {})", e.name, p.name(), e.class.name());
            }
        }
    }
    Ok(model)
}

/// An int8 copy (Q8S, per block of 32) of a trained record
#[derive(Args)]
pub struct QuantizeArgs {
    network: Network,
    /// The trained record
    #[arg(value_name = "IN.bpk")]
    input: PathBuf,
    /// The quantized record to write
    #[arg(value_name = "OUT.bpk")]
    output: PathBuf,
}

pub fn quantize(args: &QuantizeArgs) -> Result<(), CliError> {
    let (input, output) = (&args.input, &args.output);
    let params = match args.network {
        Network::Skin => {
            quantize_record(input, output, SkinNetConfig::default(), SkinNetConfig::init)?
        }
        Network::Skeleton => quantize_record(
            input,
            output,
            JointNetConfig::default(),
            JointNetConfig::init,
        )?,
        Network::BodyPlan => {
            quantize_record(input, output, PlanNetConfig::default(), PlanNetConfig::init)?
        }
    };
    let size = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    out!(
        "{params} parameters: {} ({} bytes) -> {} ({} bytes)",
        input.display(),
        size(input),
        output.display(),
        size(output)
    );
    Ok(())
}

/// Quantizes the record `input` of a network built by `init` (with the config saved beside
/// it, or `default`) into `output`, and saves the config beside that; returns the parameter
/// count.
fn quantize_record<C, M>(
    input: &Path,
    output: &Path,
    default: C,
    init: fn(&C, &Device) -> M,
) -> Result<usize, CliError>
where
    C: serde::Serialize + serde::de::DeserializeOwned,
    M: Module,
{
    let (model, config) = load_network(input, default, init, &cpu_device())?;
    let params = model.num_params();
    (quantize_model(model).save_file(output))
        .map_err(|e| format!("cannot write '{}': {e}", output.display()))?;
    let beside = config_path(output);
    std::fs::write(&beside, config_to_json(&config))
        .map_err(|e| format!("cannot write '{}': {e}", beside.display()))?;
    Ok(params)
}

//! `rigkit train skeleton|skin` and `rigkit quantize`: the networks trained from the data
//! root, resumable, and their int8 records for `models/`.

use std::path::{Path, PathBuf};

use super::CliError;

use burn::module::Module;
use burn::tensor::Device;
use rigkit::compute::cpu_device;
use rigkit::dataset::Split;
use rigkit::neural::train::joints::train_joints;
use rigkit::neural::train::plans::{
    PlanCorpus, PlanExample, balanced_error, confusion, confusion_table, describe_corpus,
    describe_eval, predict, read_examples, train_plans, write_examples,
};
use rigkit::neural::train::quantize::quantize;
use rigkit::neural::train::skin::train_skin;
use rigkit::neural::train::{CorpusPlan, TrainOptions};
use rigkit::neural::{
    JointNetConfig, PlanNet, PlanNetConfig, SkinNetConfig, config_path, config_to_json,
    load_network,
};

/// The data root when `--data` is not given, as in the repository's sibling layout.
const DEFAULT_DATA: &str = "../shared/data";

pub fn train(args: &[String]) -> Result<(), CliError> {
    let (head, rest) = args
        .split_first()
        .ok_or("train takes skeleton, skin or body-plan")?;
    let mut data = PathBuf::from(DEFAULT_DATA);
    let mut out = None;
    let mut options = TrainOptions::new(PathBuf::new());
    let mut plan = CorpusPlan {
        procedural: 120,
        anny: 40,
        augmented: 1,
        zero_ad: None,
    };
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--data" => data = PathBuf::from(value("--data")?),
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--steps" => options.steps = parse(&value("--steps")?)?,
            "--lr" => options.learning_rate = parse(&value("--lr")?)?,
            "--seed" => options.seed = parse(&value("--seed")?)?,
            "--validate-every" => options.validate_every = parse(&value("--validate-every")?)?,
            "--procedural" => plan.procedural = parse(&value("--procedural")?)?,
            "--anny" => plan.anny = parse(&value("--anny")?)?,
            "--augmented" => plan.augmented = parse(&value("--augmented")?)?,
            "--zero-ad" => plan.zero_ad = Some(PathBuf::from(value("--zero-ad")?)),
            other => return Err(format!("unknown option '{other}'").into()),
        }
    }
    options.out = out.ok_or("train needs --out DIR (checkpoints, log, loss.png)")?;
    options.validate_every = options.validate_every.max(1);
    let final_path = options.out.join("model-f32.bpk");
    // The networks train at their shipped shape; the record's config says which that was.
    let (saved, config) = match head.as_str() {
        "skin" => (
            train_skin(&data, &plan, &options)?.0.save_file(&final_path),
            config_to_json(&SkinNetConfig::default()),
        ),
        "skeleton" => (
            train_joints(&data, &plan, &options)?
                .0
                .save_file(&final_path),
            config_to_json(&JointNetConfig::default()),
        ),
        "body-plan" => (
            train_body_plan(&data, &plan, &options)?.save_file(&final_path),
            config_to_json(&PlanNetConfig::default()),
        ),
        other => {
            return Err(
                format!("unknown network '{other}'; train skeleton, skin or body-plan").into(),
            );
        }
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
    let model = train_plans(&examples, options)?.0.valid();
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

/// `rigkit quantize skin|skeleton|body-plan IN.bpk OUT.bpk`.
pub fn quantize_cmd(args: &[String]) -> Result<(), CliError> {
    let [head, input, output] = args else {
        return Err("quantize takes skin|skeleton|body-plan IN.bpk OUT.bpk".into());
    };
    let (input, output) = (PathBuf::from(input), PathBuf::from(output));
    let params = match head.as_str() {
        "skin" => quantize_record(
            &input,
            &output,
            SkinNetConfig::default(),
            SkinNetConfig::init,
        )?,
        "skeleton" => quantize_record(
            &input,
            &output,
            JointNetConfig::default(),
            JointNetConfig::init,
        )?,
        "body-plan" => quantize_record(
            &input,
            &output,
            PlanNetConfig::default(),
            PlanNetConfig::init,
        )?,
        other => {
            return Err(
                format!("unknown network '{other}'; quantize skeleton, skin or body-plan").into(),
            );
        }
    };
    let size = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    out!(
        "{params} parameters: {} ({} bytes) -> {} ({} bytes)",
        input.display(),
        size(&input),
        output.display(),
        size(&output)
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
    (quantize(model).save_file(output))
        .map_err(|e| format!("cannot write '{}': {e}", output.display()))?;
    let beside = config_path(output);
    std::fs::write(&beside, config_to_json(&config))
        .map_err(|e| format!("cannot write '{}': {e}", beside.display()))?;
    Ok(params)
}

fn parse<T: std::str::FromStr>(s: &str) -> Result<T, CliError> {
    s.parse()
        .map_err(|_| format!("'{s}' is not a valid number").into())
}

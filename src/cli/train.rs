//! `rigkit train skeleton|skin` and `rigkit quantize`: the networks trained from the data
//! root, resumable, and their int8 records for `models/`.

use std::path::PathBuf;

use burn::module::Module;
use rigkit::compute::cpu_device;
use rigkit::neural::train::joints::train_joints;
use rigkit::neural::train::quantize::quantize;
use rigkit::neural::train::skin::train_skin;
use rigkit::neural::train::{CorpusPlan, TrainOptions};
use rigkit::neural::{JointNet, SkinNet, load_model};

/// The data root when `--data` is not given, as in the repository's sibling layout.
const DEFAULT_DATA: &str = "../shared/data";

pub fn train(args: &[String]) -> Result<(), String> {
    let (head, rest) = args.split_first().ok_or("train takes skeleton or skin")?;
    let mut data = PathBuf::from(DEFAULT_DATA);
    let mut out = None;
    let mut options = TrainOptions::new(PathBuf::new());
    let mut plan = CorpusPlan {
        procedural: 120,
        anny: 40,
        augmented: 1,
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
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    options.out = out.ok_or("train needs --out DIR (checkpoints, log, loss.png)")?;
    options.validate_every = options.validate_every.max(1);
    let final_path = options.out.join("model-f32.bpk");
    let saved = match head.as_str() {
        "skin" => train_skin(&data, &plan, &options)?.0.save_file(&final_path),
        "skeleton" => train_joints(&data, &plan, &options)?
            .0
            .save_file(&final_path),
        other => return Err(format!("unknown network '{other}'; train skeleton or skin")),
    };
    saved.map_err(|e| format!("cannot write '{}': {e}", final_path.display()))?;
    println!("wrote {}", final_path.display());
    Ok(())
}

/// `rigkit quantize skin|skeleton IN.bpk OUT.bpk`.
pub fn quantize_cmd(args: &[String]) -> Result<(), String> {
    let [head, input, output] = args else {
        return Err("quantize takes skin|skeleton IN.bpk OUT.bpk".into());
    };
    let device = cpu_device();
    let (input, output) = (PathBuf::from(input), PathBuf::from(output));
    let (saved, params) = match head.as_str() {
        "skin" => {
            let model = load_model(SkinNet::new, &input, &device).map_err(|e| e.to_string())?;
            let params = model.num_params();
            (quantize(model).save_file(&output), params)
        }
        "skeleton" => {
            let model = load_model(JointNet::new, &input, &device).map_err(|e| e.to_string())?;
            let params = model.num_params();
            (quantize(model).save_file(&output), params)
        }
        other => {
            return Err(format!(
                "unknown network '{other}'; quantize skeleton or skin"
            ));
        }
    };
    saved.map_err(|e| format!("cannot write '{}': {e}", output.display()))?;
    let size = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    println!(
        "{params} parameters: {} ({} bytes) -> {} ({} bytes)",
        input.display(),
        size(&input),
        output.display(),
        size(&output)
    );
    Ok(())
}

fn parse<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("'{s}' is not a valid number"))
}

//! The training loop both heads share: Adam with a cosine learning-rate decay, a validation
//! score at fixed intervals, and checkpoints of the model, the optimiser and the log, so that a
//! stopped run continues from its last checkpoint.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor};

use super::log::{LogEntry, read_log, to_csv};
use super::plot::plot_losses;
use crate::random::Rng;

/// How long and how a network trains, and where its files go.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    pub steps: usize,
    pub learning_rate: f64,
    pub seed: u64,
    /// Steps between validation scores (and checkpoints).
    pub validate_every: usize,
    pub out: PathBuf,
}

impl TrainOptions {
    pub fn new(out: PathBuf) -> Self {
        Self {
            steps: 4000,
            learning_rate: 2e-3,
            seed: 1,
            validate_every: 250,
            out,
        }
    }
}

/// The files of a run in `out`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    out.join("checkpoint.bpk")
}
fn optimizer_path(out: &Path) -> PathBuf {
    out.join("optimizer.bpk")
}
fn log_path(out: &Path) -> PathBuf {
    out.join("log.csv")
}

/// Trains a model made by `init` (on an autodiff CPU device, seeded by `options.seed`: the same
/// command trains the same model) for `options.steps` steps, resuming from the checkpoint in
/// `options.out` if one is there. `loss` gives the loss of one random training
/// example; `validate` scores the model on the validation split (lower is better). Returns
/// the trained model and the log.
///
/// # Errors
/// A message when a checkpoint cannot be read or written or the loss is not finite.
pub fn train<M: Module + Clone>(
    init: fn(&Device) -> M,
    options: &TrainOptions,
    mut loss: impl FnMut(&M, &mut Rng, &Device) -> Tensor<1>,
    mut validate: impl FnMut(&M) -> f32,
) -> Result<(M, Vec<LogEntry>), String> {
    let device = &crate::compute::cpu_device().autodiff();
    device.seed(options.seed);
    let mut model = init(device);
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create '{}': {e}", options.out.display()))?;
    let mut optimizer: ModuleOptimizer = AdamConfig::new().init();
    let mut log = read_log(&log_path(&options.out));
    let mut start = 0;
    if let Some(last) = log.last()
        && checkpoint_path(&options.out).exists()
    {
        model = model
            .try_load_file(checkpoint_path(&options.out))
            .map_err(|e| format!("cannot resume from the checkpoint: {e}"))?;
        optimizer = optimizer
            .load(optimizer_path(&options.out))
            .map_err(|e| format!("cannot resume the optimiser: {e}"))?;
        start = last.step;
        eprintln!("resuming at step {start}");
    } else {
        log.clear();
    }
    let mut rng = Rng::new(options.seed ^ (start as u64).wrapping_mul(0x9E37_79B9));
    let (mut sum, mut count) = (0.0f64, 0usize);
    let began = Instant::now();
    for step in start + 1..=options.steps {
        let progress = step as f64 / options.steps as f64;
        let lr = options.learning_rate
            * (0.02 + 0.98 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
        let value = loss(&model, &mut rng, device);
        let scalar: f32 = value.clone().into_scalar();
        if !scalar.is_finite() {
            return Err(format!("the loss became {scalar} at step {step}"));
        }
        let grads = GradientsParams::from_grads(value.backward(), &model);
        model = optimizer.step(lr, model, grads);
        sum += scalar as f64;
        count += 1;
        if step % options.validate_every == 0 || step == options.steps {
            let validation = validate(&model.valid());
            let entry = LogEntry {
                step,
                loss: (sum / count as f64) as f32,
                validation,
            };
            (sum, count) = (0.0, 0);
            eprintln!(
                "step {step:>6}  loss {:.4}  validation {:.4}  lr {lr:.2e}  {:.0} s",
                entry.loss,
                entry.validation,
                began.elapsed().as_secs_f32()
            );
            log.push(entry);
            save(&model, &optimizer, &log, &options.out)?;
        }
    }
    Ok((model, log))
}

fn save(
    model: &impl Module,
    optimizer: &ModuleOptimizer,
    log: &[LogEntry],
    out: &Path,
) -> Result<(), String> {
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        format!("cannot write the {what} in '{}': {e}", out.display())
    };
    // Model and optimiser first, the log last: a log entry promises a checkpoint.
    model
        .clone()
        .save_file(checkpoint_path(out))
        .map_err(|e| fail("checkpoint", &e))?;
    optimizer
        .save(optimizer_path(out))
        .map_err(|e| fail("optimiser state", &e))?;
    let mut file = std::fs::File::create(log_path(out)).map_err(|e| fail("log", &e))?;
    file.write_all(to_csv(log).as_bytes())
        .map_err(|e| fail("log", &e))?;
    plot_losses(log, &out.join("loss.png")).map_err(|e| fail("loss curve", &e))
}

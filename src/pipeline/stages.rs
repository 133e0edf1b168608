//! The stages of a rig, for progress displays and timings.

/// The stages of a rig, in order, for progress displays: [`super::rig_character_async`] reports the middle
/// three, [`super::rig_files`] all five.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the files given.
    Parse,
    /// Voxelising the body the skeleton is fitted in.
    Voxelise,
    /// Fitting the skeleton inside the body (and refining its joints).
    Skeleton,
    /// Skin weights for the new skeleton.
    Skin,
    /// Writing the rigged GLB.
    Export,
}

impl Stage {
    pub const ALL: [Self; 5] = [
        Self::Parse,
        Self::Voxelise,
        Self::Skeleton,
        Self::Skin,
        Self::Export,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Parse => "parse",
            Self::Voxelise => "voxelise",
            Self::Skeleton => "skeleton",
            Self::Skin => "skin",
            Self::Export => "export",
        }
    }
}

/// When each stage of a rig began, on any clock (the browser's has no `Instant`), and so how
/// long each took: a stage lasts until the next one that ran begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StageTimes {
    began: [Option<f64>; Stage::ALL.len()],
}

impl Default for StageTimes {
    fn default() -> Self {
        Self {
            began: [None; Stage::ALL.len()],
        }
    }
}

impl StageTimes {
    /// Notes that `stage` began at `now`.
    pub fn begin(&mut self, stage: Stage, now: f64) {
        self.began[stage as usize] = Some(now);
    }

    /// Each stage's duration if the rig ended at `now`, in [`Stage::ALL`]'s order (0 for a
    /// stage that did not run), in the clock's units.
    pub fn durations(&self, now: f64) -> [(Stage, f64); Stage::ALL.len()] {
        Stage::ALL.map(|stage| {
            let i = stage as usize;
            let end = self.began[i + 1..]
                .iter()
                .flatten()
                .next()
                .copied()
                .unwrap_or(now);
            (stage, self.began[i].map_or(0.0, |start| end - start))
        })
    }
}

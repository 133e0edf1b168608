//! Counts and histograms of a data source, for `rigkit lab dataset stats`.

use std::collections::BTreeMap;
use std::fmt;

use super::split::Split;
use crate::Character;

/// Upper bounds of the joint-count bins (the last bin is open).
const JOINT_BINS: [usize; 7] = [8, 16, 24, 32, 48, 64, 128];
/// Upper bounds of the vertex-count bins.
const VERTEX_BINS: [usize; 7] = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];

/// What one source holds.
#[derive(Debug, Clone, Default)]
pub struct SourceStats {
    pub source: String,
    pub per_split: BTreeMap<Split, usize>,
    /// Per joint-count bin (see [`JOINT_BINS`]), then the open bin.
    pub joints: [usize; 8],
    pub vertices: [usize; 8],
    pub skipped: Vec<String>,
}

impl SourceStats {
    pub fn new(source: &str) -> Self {
        Self {
            source: source.to_owned(),
            ..Self::default()
        }
    }

    pub fn add(&mut self, character: &Character, split: Split) {
        *self.per_split.entry(split).or_default() += 1;
        let joints = character.skeleton.as_ref().map_or(0, |s| s.joints.len());
        self.joints[bin(&JOINT_BINS, joints)] += 1;
        self.vertices[bin(&VERTEX_BINS, character.mesh.vertex_count())] += 1;
    }

    pub fn skip(&mut self, what: String) {
        self.skipped.push(what);
    }

    pub fn samples(&self) -> usize {
        self.per_split.values().sum()
    }
}

fn bin(bounds: &[usize], value: usize) -> usize {
    bounds
        .iter()
        .position(|&b| value < b)
        .unwrap_or(bounds.len())
}

fn histogram(
    f: &mut fmt::Formatter<'_>,
    title: &str,
    bounds: &[usize],
    counts: &[usize],
) -> fmt::Result {
    writeln!(f, "  {title}:")?;
    let mut lo = 0;
    for (k, count) in counts.iter().enumerate() {
        let label = match bounds.get(k) {
            Some(hi) => format!("{lo}–{}", hi - 1),
            None => format!("{lo}+"),
        };
        if *count > 0 {
            writeln!(
                f,
                "    {label:>14} {count:>6} {}",
                "#".repeat((*count).min(60))
            )?;
        }
        lo = bounds.get(k).copied().unwrap_or(lo);
    }
    Ok(())
}

impl fmt::Display for SourceStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let splits: Vec<String> = self
            .per_split
            .iter()
            .map(|(s, n)| format!("{} {n}", s.name()))
            .collect();
        writeln!(
            f,
            "{}: {} samples ({})",
            self.source,
            self.samples(),
            splits.join(", ")
        )?;
        histogram(f, "joints", &JOINT_BINS, &self.joints)?;
        histogram(f, "vertices", &VERTEX_BINS, &self.vertices)?;
        for s in &self.skipped {
            writeln!(f, "  skipped: {s}")?;
        }
        Ok(())
    }
}

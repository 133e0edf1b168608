//! A training run's log: one entry per validation, kept as CSV beside the checkpoint (what a
//! resumed run reads back) and drawn by [`super::plot`].

use std::path::Path;

/// One logged point: the mean training loss since the previous entry and the validation score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogEntry {
    pub step: usize,
    pub loss: f32,
    pub validation: f32,
}

/// `log` as the CSV a run keeps (`step,loss,validation`, a header and a row per entry).
pub(super) fn to_csv(log: &[LogEntry]) -> String {
    let mut text = String::from("step,loss,validation\n");
    for e in log {
        text.push_str(&format!("{},{},{}\n", e.step, e.loss, e.validation));
    }
    text
}

/// The entries of the log at `path`; none when it is missing, rows that do not parse skipped.
pub(super) fn read_log(path: &Path) -> Vec<LogEntry> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut it = line.split(',');
            Some(LogEntry {
                step: it.next()?.parse().ok()?,
                loss: it.next()?.parse().ok()?,
                validation: it.next()?.parse().ok()?,
            })
        })
        .collect()
}

//! The loss curve of a run as a PNG: training loss (blue) and validation score (orange)
//! against the step, each on its own logarithmic scale so both shapes show; grey lines mark
//! the decades.

use std::path::Path;

use image::{Rgb, RgbImage};

use super::log::LogEntry;

const WIDTH: u32 = 640;
const HEIGHT: u32 = 360;
const MARGIN: u32 = 24;

/// Writes the plot of `log` to `path`.
///
/// # Errors
/// The PNG encoder's error.
pub fn plot_losses(log: &[LogEntry], path: &Path) -> Result<(), image::ImageError> {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb([255, 255, 255]));
    let last_step = log.last().map_or(1, |e| e.step.max(1)) as f32;
    let (x0, x1) = (MARGIN as f32, (WIDTH - MARGIN) as f32);
    let (y0, y1) = ((HEIGHT - MARGIN) as f32, MARGIN as f32);
    for (values, colour) in [
        (
            log.iter().map(|e| e.loss).collect::<Vec<_>>(),
            Rgb([31, 119, 180]),
        ),
        (
            log.iter().map(|e| e.validation).collect(),
            Rgb([255, 127, 14]),
        ),
    ] {
        let logs: Vec<f32> = values.iter().map(|v| v.max(1e-6).log10()).collect();
        let lo = logs.iter().copied().fold(f32::INFINITY, f32::min).floor();
        let hi = logs
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max)
            .ceil()
            .max(lo + 1.0);
        let y_of = |l: f32| y0 + (y1 - y0) * (l - lo) / (hi - lo);
        let mut decade = lo;
        while decade <= hi {
            line(
                &mut img,
                (x0, y_of(decade)),
                (x1, y_of(decade)),
                Rgb([225, 225, 225]),
            );
            decade += 1.0;
        }
        let points: Vec<(f32, f32)> = log
            .iter()
            .zip(&logs)
            .map(|(e, &l)| (x0 + (x1 - x0) * e.step as f32 / last_step, y_of(l)))
            .collect();
        for pair in points.windows(2) {
            line(&mut img, pair[0], pair[1], colour);
        }
    }
    line(&mut img, (x0, y0), (x1, y0), Rgb([0, 0, 0]));
    line(&mut img, (x0, y0), (x0, y1), Rgb([0, 0, 0]));
    img.save(path)
}

/// A two-pixel-wide line by stepping along its longer axis.
fn line(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), colour: Rgb<u8>) {
    let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil().max(1.0) as usize;
    for i in 0..=steps {
        let t = i as f32 / steps as f32;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
            let (px, py) = ((x + dx) as i64, (y + dy) as i64);
            if px >= 0 && py >= 0 && (px as u32) < img.width() && (py as u32) < img.height() {
                img.put_pixel(px as u32, py as u32, colour);
            }
        }
    }
}

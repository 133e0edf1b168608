//! A small deterministic random generator (SplitMix64): the same seed gives the same poses,
//! samples and creatures on every machine and in the browser.

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and good enough for sampling.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// A uniformly distributed unit vector.
    pub fn direction(&mut self) -> glam::Vec3 {
        let z = self.range(-1.0, 1.0);
        let a = self.range(0.0, std::f32::consts::TAU);
        let r = (1.0 - z * z).max(0.0).sqrt();
        glam::Vec3::new(r * a.cos(), r * a.sin(), z)
    }

    /// A standard normal draw (Box–Muller).
    pub fn normal(&mut self) -> f32 {
        let u = 1.0 - self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * self.unit()).cos()
    }

    /// A Gamma(`shape`, 1) draw (Marsaglia & Tsang 2000; below shape 1 through
    /// Gamma(shape + 1) scaled by `U^(1/shape)`).
    pub fn gamma(&mut self, shape: f32) -> f32 {
        if shape < 1.0 {
            let u = 1.0 - self.unit();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = 1.0 - self.unit();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// A Beta(`a`, `b`) draw in `[0, 1]`.
    pub fn beta(&mut self, a: f32, b: f32) -> f32 {
        let x = self.gamma(a);
        let y = self.gamma(b);
        if x + y > 0.0 { x / (x + y) } else { 0.5 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_values_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.unit();
            assert_eq!(x, b.unit());
            assert!((0.0..1.0).contains(&x));
        }
        assert!((a.direction().length() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn beta_draws_have_their_mean_and_stay_in_range() {
        let mut rng = Rng::new(3);
        for (a, b) in [(0.2, 0.2), (2.0, 5.0)] {
            let draws: Vec<f32> = (0..20_000).map(|_| rng.beta(a, b)).collect();
            assert!(draws.iter().all(|x| (0.0..=1.0).contains(x)));
            let mean = draws.iter().sum::<f32>() / draws.len() as f32;
            assert!(
                (mean - a / (a + b)).abs() < 0.01,
                "Beta({a}, {b}) mean {mean}"
            );
        }
        // Beta(0.2, 0.2) puts most of its mass near 0 and 1: mixup mostly mixes a little.
        let near_ends = (0..10_000)
            .map(|_| rng.beta(0.2, 0.2))
            .filter(|x| *x < 0.1 || *x > 0.9)
            .count();
        assert!(near_ends > 5_000, "{near_ends}");
    }
}

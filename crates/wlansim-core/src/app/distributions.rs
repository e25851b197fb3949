//! Random quantities of the on/off (HTTP-like) workload: file sizes and think times
//! (miorandi2004 §4: Pareto or exponential sizes, exponential think times). Each is drawn
//! from `rand_distr` on the flow's own named stream ([`Rng::named`]); a fixed value draws
//! nothing. Values are in the unit of their parameters (bytes for sizes, nanoseconds for
//! think times).
use crate::sim::rng::Rng;
use rand_distr::{Distribution, Exp, LogNormal, Pareto, Uniform};

#[derive(Clone, Debug)]
pub enum Draw {
    Fixed(f64),
    Exponential {
        mean: f64,
        dist: Exp<f64>,
    },
    Pareto {
        shape: f64,
        scale: f64,
        dist: Pareto<f64>,
    },
    LogNormal {
        mean: f64,
        dist: LogNormal<f64>,
    },
    /// Uniform choice among the listed values (an empirical distribution).
    Empirical(Vec<f64>, Uniform<usize>),
}

impl Draw {
    /// Exponential with the given mean (> 0).
    pub fn exponential(mean: f64) -> Result<Draw, String> {
        Exp::new(1.0 / mean)
            .map(|dist| Draw::Exponential { mean, dist })
            .map_err(|e| format!("mean {mean}: {e}"))
    }

    /// Pareto with shape β and scale x_m (the least value): mean x_m·β/(β − 1) for β > 1.
    pub fn pareto(shape: f64, scale: f64) -> Result<Draw, String> {
        Pareto::new(scale, shape)
            .map(|dist| Draw::Pareto { shape, scale, dist })
            .map_err(|e| format!("shape {shape}, scale {scale}: {e}"))
    }

    /// Pareto scale x_m that gives `mean` for shape β > 1: x_m = mean·(β − 1)/β.
    pub fn pareto_scale(shape: f64, mean: f64) -> f64 {
        mean * (shape - 1.0) / shape
    }

    /// Log-normal with the given mean and σ of the logarithm: μ = ln(mean) − σ²/2.
    pub fn log_normal(mean: f64, sigma: f64) -> Result<Draw, String> {
        LogNormal::new(mean.ln() - sigma * sigma / 2.0, sigma)
            .map(|dist| Draw::LogNormal { mean, dist })
            .map_err(|e| format!("mean {mean}, sigma {sigma}: {e}"))
    }

    /// Uniform choice among `values` (at least one).
    pub fn empirical(values: Vec<f64>) -> Result<Draw, String> {
        let n = values.len();
        Uniform::new(0, n)
            .map(|u| Draw::Empirical(values, u))
            .map_err(|e| format!("{n} values: {e}"))
    }

    pub fn sample(&self, rng: &mut Rng) -> f64 {
        match self {
            Draw::Fixed(v) => *v,
            Draw::Exponential { dist, .. } => dist.sample(rng),
            Draw::Pareto { dist, .. } => dist.sample(rng),
            Draw::LogNormal { dist, .. } => dist.sample(rng),
            Draw::Empirical(v, u) => v[u.sample(rng)],
        }
    }

    /// A draw rounded to a whole number in [`min`, `max`]: a draw above `max` (a heavy
    /// tail, or an infinite one) is cut to `max`, one below `min` raised to it.
    pub fn sample_whole(&self, rng: &mut Rng, min: u64, max: u64) -> u64 {
        let x = self.sample(rng).round();
        if x.is_nan() {
            return min;
        }
        (x.min(max as f64) as u64).clamp(min, max)
    }

    /// The mean of the draws cut at `cap` (> 0), E[min(X, cap)]: what
    /// [`sample_whole`](Self::sample_whole) with `max = cap` gives on average, up to the
    /// rounding. Exact for every distribution but the log-normal, where it is the upper
    /// bound min(mean, cap). Finite even where E[X] is not (Pareto with β ≤ 1).
    pub fn mean_below(&self, cap: f64) -> f64 {
        match self {
            Draw::Fixed(v) => v.min(cap),
            // ∫₀^c e^(−x/m) dx
            Draw::Exponential { mean, .. } => mean * -(-cap / mean).exp_m1(),
            // x_m + ∫_{x_m}^c (x_m/x)^β dx, written so that neither a tiny nor a huge β
            // overflows: x_m + x_m·(1 − (x_m/c)^(β−1))/(β − 1), or x_m·(1 + ln(c/x_m)) at
            // β = 1.
            Draw::Pareto { shape, scale, .. } => {
                if *scale >= cap {
                    cap
                } else if *shape == 1.0 {
                    scale * (1.0 + (cap / scale).ln())
                } else {
                    let y = (shape - 1.0) * (scale / cap).ln();
                    scale - scale * y.exp_m1() / (shape - 1.0)
                }
            }
            Draw::LogNormal { mean, .. } => mean.min(cap),
            Draw::Empirical(v, _) => v.iter().map(|x| x.min(cap)).sum::<f64>() / v.len() as f64,
        }
    }
}

/// Values of an empirical distribution: numbers separated by commas, whitespace or
/// newlines (a one-column CSV, with an optional non-numeric header line); each finite
/// and ≥ 0, at least one.
pub fn parse_values(text: &str) -> Result<Vec<f64>, String> {
    let mut values = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for field in line.split([',', ' ', '\t', ';']).filter(|f| !f.is_empty()) {
            match field.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => values.push(v),
                Ok(v) => {
                    return Err(format!(
                        "line {}: {v} is not a finite value ≥ 0",
                        line_no + 1
                    ))
                }
                Err(_) if line_no == 0 && values.is_empty() => break, // a header
                Err(_) => return Err(format!("line {}: \"{field}\" is not a number", line_no + 1)),
            }
        }
    }
    if values.is_empty() {
        return Err("no values: give at least one number".into());
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::StreamKind;

    fn mean_of(d: &Draw, n: usize) -> f64 {
        let mut rng = Rng::named(7, StreamKind::Traffic, "t");
        (0..n).map(|_| d.sample(&mut rng)).sum::<f64>() / n as f64
    }

    #[test]
    fn pareto_scale_and_shape_hold() {
        // Shape 1.5 has infinite variance: the sample mean of 20,000 draws is often off by
        // 10-30 % (this stream gives 39,963 B for 30,000 B), so check the scale (the least
        // draw), the shape (tail P(X > x) = (x_m/x)^β and the Hill estimator), and the
        // mean of min(X, c) for c = 100·x_m, which has finite variance (standard error
        // ≈ 1.4 % here): E = x_m·β/(β−1) − x_m^β·c^(1−β)/(β−1) = 28,000 B.
        let (shape, mean) = (1.5, 30_000.0);
        let scale = Draw::pareto_scale(shape, mean);
        assert!((scale - 10_000.0).abs() < 1e-9);
        let d = Draw::pareto(shape, scale).unwrap();
        let mut rng = Rng::named(11, StreamKind::Traffic, "pareto");
        let xs: Vec<f64> = (0..20_000).map(|_| d.sample(&mut rng)).collect();
        assert!(xs.iter().all(|&x| x >= scale));
        let tail = xs.iter().filter(|&&x| x > 4.0 * scale).count() as f64 / xs.len() as f64;
        let expected = 0.25f64.powf(shape); // 0.125
        assert!((tail - expected).abs() < 0.01, "tail {tail} vs {expected}");
        // Hill estimator of the shape from the draws: n / Σ ln(x/x_m).
        let hill = xs.len() as f64 / xs.iter().map(|x| (x / scale).ln()).sum::<f64>();
        assert!((hill - shape).abs() / shape < 0.03, "shape {hill}");
        let c = 100.0 * scale;
        let m = xs.iter().map(|x| x.min(c)).sum::<f64>() / xs.len() as f64;
        let expected = mean - scale.powf(shape) * c.powf(1.0 - shape) / (shape - 1.0);
        assert!((expected - 28_000.0).abs() < 1e-6);
        assert!((m - expected).abs() / expected < 0.05, "truncated mean {m}");
    }

    #[test]
    fn exponential_log_normal_and_empirical_means() {
        let e = Draw::exponential(10.0).unwrap();
        assert!((mean_of(&e, 20_000) - 10.0).abs() < 0.3);
        let l = Draw::log_normal(30_000.0, 1.0).unwrap();
        assert!((mean_of(&l, 50_000) - 30_000.0).abs() / 30_000.0 < 0.03);
        let v = Draw::empirical(vec![1.0, 2.0, 6.0]).unwrap();
        assert!((mean_of(&v, 30_000) - 3.0).abs() < 0.05);
        assert!(Draw::exponential(0.0).is_err() || Draw::exponential(-1.0).is_err());
        assert!(Draw::pareto(1.5, -1.0).is_err());
    }

    #[test]
    fn mean_below_a_cap_matches_the_cut_draws() {
        // E[min(X, c)] in closed form against the mean of 200,000 cut draws (the cut
        // makes every variance finite: a few per cent at most).
        let cap = 1e6;
        for d in [
            Draw::exponential(3e5).unwrap(),
            Draw::pareto(0.5, 1e3).unwrap(),
            Draw::pareto(1.0, 1e3).unwrap(),
            Draw::pareto(1.5, 1e4).unwrap(),
            Draw::empirical(vec![1.0, 5e6]).unwrap(),
        ] {
            let mut rng = Rng::named(3, StreamKind::Traffic, "cut");
            let n = 200_000;
            let m = (0..n)
                .map(|_| d.sample_whole(&mut rng, 1, cap as u64) as f64)
                .sum::<f64>()
                / n as f64;
            let exact = d.mean_below(cap);
            assert!((m - exact).abs() / exact < 0.03, "{d:?}: {m} vs {exact}");
        }
        // Extreme shapes stay finite and within [x_m, cap].
        for (shape, scale) in [(1e-9, 1.0), (1e9, 10.0), (1e-300, 1.0), (1e300, 10.0)] {
            let m = Draw::pareto(shape, scale).unwrap().mean_below(cap);
            assert!(m.is_finite() && (scale..=cap).contains(&m), "{shape}: {m}");
        }
        assert_eq!(Draw::Fixed(5e6).mean_below(cap), cap);
    }

    #[test]
    fn whole_draws_stay_between_min_and_max() {
        let mut rng = Rng::named(3, StreamKind::Traffic, "whole");
        let tiny_shape = Draw::pareto(1e-9, 1.0).unwrap();
        assert_eq!(tiny_shape.sample_whole(&mut rng, 1, 1 << 20), 1 << 20);
        let wide = Draw::log_normal(1e3, 30.0).unwrap();
        for _ in 0..1000 {
            let x = wide.sample_whole(&mut rng, 1, 1 << 20);
            assert!((1..=1 << 20).contains(&x));
        }
    }

    #[test]
    fn values_parse_with_header_and_errors() {
        assert_eq!(
            parse_values("bytes\n10\n20, 30\n").unwrap(),
            vec![10.0, 20.0, 30.0]
        );
        assert!(parse_values("").unwrap_err().contains("no values"));
        assert!(parse_values("bytes\n").unwrap_err().contains("no values"));
        assert!(parse_values("10\nabc\n").unwrap_err().contains("line 2"));
        assert!(parse_values("10\n-5\n").unwrap_err().contains("-5"));
    }
}

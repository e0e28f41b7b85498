//! Statistics over a non-empty list of finite numbers (the caller checks emptiness).

/// Compensated (Neumaier) sum, so long lists of decimals do not drift.
pub(super) fn sum(values: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut compensation = 0.0;
    for &v in values {
        let t = total + v;
        if total.abs() >= v.abs() {
            compensation += (total - t) + v;
        } else {
            compensation += (v - t) + total;
        }
        total = t;
    }
    total + compensation
}

pub(super) fn mean(values: &[f64]) -> f64 {
    sum(values) / values.len() as f64
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

pub(super) fn median(values: &[f64]) -> f64 {
    percentile(values, 50.0)
}

/// The most frequent values (ascending) and how often each occurs.
pub(super) fn modes(values: &[f64]) -> (Vec<f64>, usize) {
    let sorted = sorted(values);
    let mut runs: Vec<(f64, usize)> = Vec::new();
    for v in sorted {
        match runs.last_mut() {
            Some((last, count)) if *last == v => *count += 1,
            _ => runs.push((v, 1)),
        }
    }
    let best = runs.iter().map(|(_, count)| *count).max().unwrap_or(0);
    let modes = runs
        .into_iter()
        .filter(|(_, count)| *count == best)
        .map(|(v, _)| v)
        .collect();
    (modes, best)
}

/// Sample variance (divides by n - 1); needs at least two values.
pub(super) fn sample_variance(values: &[f64]) -> f64 {
    let m = mean(values);
    let squares: Vec<f64> = values.iter().map(|v| (v - m) * (v - m)).collect();
    sum(&squares) / (values.len() - 1) as f64
}

pub(super) fn min(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

pub(super) fn max(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// The `p`th percentile (0..=100) with linear interpolation between closest ranks.
pub(super) fn percentile(values: &[f64], p: f64) -> f64 {
    let sorted = sorted(values);
    let rank = p.clamp(0.0, 100.0) / 100.0 * (sorted.len() - 1) as f64;
    let (lower, upper) = (rank.floor() as usize, rank.ceil() as usize);
    let fraction = rank - rank.floor();
    sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
}

/// `n!` exactly while it fits in a u64 (n ≤ 20).
pub(super) fn factorial_exact(n: u64) -> Option<u64> {
    (1..=n).try_fold(1u64, |acc, k| acc.checked_mul(k))
}

/// `n!` as a float (finite up to 170!).
pub(super) fn factorial_float(n: u64) -> f64 {
    (1..=n).fold(1.0, |acc, k| acc * k as f64)
}

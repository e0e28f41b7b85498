//! Percentiles of benchmark timings, shared by the store's bench binaries.

use std::time::Duration;

/// "p50 …, p95 …, max …" of some timings, in milliseconds.
pub fn summary(times: &mut [Duration]) -> String {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "p50 {:.3} ms, p95 {:.3} ms, max {:.3} ms",
        ms(at(0.5)),
        ms(at(0.95)),
        ms(times[times.len() - 1])
    )
}

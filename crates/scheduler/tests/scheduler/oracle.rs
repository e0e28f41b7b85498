//! Random cron expressions compared against an independent implementation, Python's `croniter`
//! (installed by scripts/setup.sh into target/cron-oracle). The test fails, never skips, when
//! the oracle is missing.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use chrono::{DateTime, Utc};
use hearth_scheduler::{parse_zone, Plan, Schedule};
use serde_json::{json, Value};

use crate::utc;

const SETUP: &str = "python3 -m venv target/cron-oracle && target/cron-oracle/bin/pip install \
                     croniter==7.0.0";

const ORACLE: &str = r#"
import datetime, json, sys
from zoneinfo import ZoneInfo
from croniter import croniter
out = []
for case in json.load(sys.stdin):
    start = datetime.datetime.fromtimestamp(case["start"], tz=ZoneInfo(case["tz"]))
    it = croniter(case["expr"], start, second_at_beginning=True)
    out.append([int(it.get_next(float)) for _ in range(case["n"])])
json.dump(out, sys.stdout)
"#;

fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("HEARTH_CRON_ORACLE_PYTHON") {
        return PathBuf::from(path);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/cron-oracle/bin/python")
}

/// Runs the oracle over `cases`; panics with the setup command when it is missing.
fn oracle(cases: &Value) -> Vec<Vec<i64>> {
    let python = python();
    let child = Command::new(&python)
        .args(["-c", ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => panic!(
            "the cron oracle ({}) cannot run: {e}. Install it from the workspace root with: {SETUP} \
             (scripts/setup.sh does this), or point HEARTH_CRON_ORACLE_PYTHON at a python3 that \
             has croniter",
            python.display()
        ),
    };
    if let Some(mut stdin) = child.stdin.take() {
        if let Err(e) = stdin.write_all(cases.to_string().as_bytes()) {
            panic!("writing to the oracle: {e}");
        }
    }
    let output = match child.wait_with_output() {
        Ok(output) => output,
        Err(e) => panic!("the oracle failed: {e}"),
    };
    if !output.status.success() {
        panic!(
            "the cron oracle failed (is croniter installed? {SETUP}): {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    match serde_json::from_slice(&output.stdout) {
        Ok(result) => result,
        Err(e) => panic!("oracle output: {e}"),
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
}

/// One cron field over `lo..=hi`: `*`, `n`, `a-b`, `*/s`, `a-b/s` or a list of those.
fn field(rng: &mut Rng, lo: u64, hi: u64, wildcard_weight: u64) -> String {
    if rng.below(10) < wildcard_weight {
        return "*".to_string();
    }
    let part = |rng: &mut Rng| -> String {
        match rng.below(4) {
            0 => rng.between(lo, hi).to_string(),
            // Ranges are proper (a < b): croniter reads a degenerate `a-a/s` as `*/s`.
            1 => {
                let a = rng.between(lo, hi - 1);
                let b = rng.between(a + 1, hi);
                format!("{a}-{b}")
            }
            2 => format!("*/{}", rng.between(2, (hi - lo).max(2))),
            _ => {
                let a = rng.between(lo, hi - 1);
                let b = rng.between(a + 1, hi);
                format!("{a}-{b}/{}", rng.between(1, (hi - lo).max(1)))
            }
        }
    };
    let count = if rng.below(4) == 0 {
        rng.between(2, 3)
    } else {
        1
    };
    (0..count).map(|_| part(rng)).collect::<Vec<_>>().join(",")
}

fn expression(rng: &mut Rng, seconds: bool) -> String {
    let mut fields = Vec::new();
    if seconds {
        fields.push(field(rng, 0, 59, 3));
    }
    fields.push(field(rng, 0, 59, 2));
    fields.push(field(rng, 0, 23, 4));
    // Day-of-month and day-of-week are combined with OR when both are restricted, as in Vixie
    // cron; croniter and croner agree on that, so both kinds are generated.
    fields.push(field(rng, 1, 31, 7));
    fields.push(field(rng, 1, 12, 7));
    fields.push(field(rng, 0, 6, 7));
    fields.join(" ")
}

fn ours(expr: &str, tz: &str, start: DateTime<Utc>, n: usize) -> Vec<i64> {
    let zone = match parse_zone(tz) {
        Ok(zone) => zone,
        Err(e) => panic!("{e}"),
    };
    let schedule = Schedule::Cron {
        expr: expr.to_string(),
        tz: None,
    };
    match Plan::new(&schedule, zone) {
        Ok(plan) => plan
            .next_runs(start, n)
            .iter()
            .map(|t| t.timestamp())
            .collect(),
        Err(e) => panic!("{expr}: {e}"),
    }
}

#[test]
fn random_expressions_agree_with_croniter() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let zones = ["UTC", "Asia/Shanghai", "Asia/Kolkata", "America/Sao_Paulo"];
    let base = utc(2024, 1, 1, 0, 0).timestamp();
    let mut cases = Vec::new();
    for i in 0..400 {
        let seconds = i % 4 == 0;
        let expr = expression(&mut rng, seconds);
        let tz = zones[usize::try_from(rng.below(4)).unwrap_or(0)];
        let offset = i64::try_from(rng.below(3 * 365 * 86_400)).unwrap_or(0);
        cases.push((expr, tz, base + offset));
    }
    let n = 12;
    let input: Value = cases
        .iter()
        .map(|(expr, tz, start)| json!({"expr": expr, "tz": tz, "start": start, "n": n}))
        .collect();
    let expected = oracle(&input);
    assert_eq!(expected.len(), cases.len());
    for ((expr, tz, start), expected) in cases.iter().zip(expected) {
        let start = match DateTime::from_timestamp(*start, 0) {
            Some(t) => t,
            None => panic!("start"),
        };
        assert_eq!(
            ours(expr, tz, start, n),
            expected,
            "`{expr}` in {tz} after {start}"
        );
    }
}

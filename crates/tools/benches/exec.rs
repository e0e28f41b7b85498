//! Benchmark: the round-trip overhead of `exec` through registry dispatch (argument checks,
//! workspace resolution, scrubbed environment, sandbox, process group, capture, group kill)
//! against running the same command with `bash -c` directly through std::process::Command, plus
//! medians over many interleaved runs of each and their difference; and the sandbox's own cost:
//! `exec` in the default sandbox (Landlock + network namespace) against `exec` with the sandbox
//! off, p50 and p95 over interleaved runs.
// A benchmark is test code: it reports on stderr and fails loudly on any error.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

use criterion::Criterion;
use hearth_tools::{builtin_registry, Dialect, Registry, ToolContext};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

const COMMANDS: [&str; 2] = ["true", "echo hi"];
/// Runs per command and path for the medians.
const RUNS: usize = 300;

struct Bench {
    runtime: Runtime,
    registry: Registry,
    ctx: ToolContext,
    /// The same context with the sandbox off (what `exec` did before the sandbox).
    unsandboxed: ToolContext,
    /// The same context with the network on: Landlock alone, no network namespace.
    networked: ToolContext,
    _dir: tempfile::TempDir,
}

impl Bench {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext {
            workspace: dir.path().join("workspace"),
            data_dir: dir.path().to_path_buf(),
            session_id: "bench:exec".to_string(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        };
        let mut unsandboxed = ctx.clone();
        unsandboxed.sandbox.mode = hearth_sandbox::Mode::Off;
        let mut networked = ctx.clone();
        networked.sandbox.network = true;
        Self {
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
            registry: builtin_registry(Dialect::Hearth),
            ctx,
            unsandboxed,
            networked,
            _dir: dir,
        }
    }

    fn via_registry(&self, args: &str) {
        self.exec(args, &self.ctx);
    }

    fn exec(&self, args: &str, ctx: &ToolContext) {
        let result = self
            .runtime
            .block_on(self.registry.dispatch("exec", args, ctx))
            .unwrap();
        assert_eq!(result["exit_code"], 0);
    }
}

fn direct(command: &str) {
    let output = Command::new("bash")
        .args(["-c", command])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
}

fn args(command: &str) -> String {
    serde_json::json!({ "command": command }).to_string()
}

/// Medians of `a` and `b` over [`RUNS`] runs each, interleaved so that load from other work on
/// the machine falls on both alike.
fn medians(a: impl FnMut(), b: impl FnMut()) -> (Duration, Duration) {
    let (a, b) = timings(a, b);
    (a[RUNS / 2], b[RUNS / 2])
}

/// The sorted times of [`RUNS`] interleaved runs of `a` and `b`.
fn timings(mut a: impl FnMut(), mut b: impl FnMut()) -> (Vec<Duration>, Vec<Duration>) {
    let time = |run: &mut dyn FnMut()| {
        let started = Instant::now();
        run();
        started.elapsed()
    };
    let (mut times_a, mut times_b): (Vec<Duration>, Vec<Duration>) =
        (0..RUNS).map(|_| (time(&mut a), time(&mut b))).unzip();
    times_a.sort();
    times_b.sort();
    (times_a, times_b)
}

fn millis(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

fn main() {
    let bench = Bench::new();
    let mut c = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    for command in COMMANDS {
        let dispatched = args(command);
        c.bench_function(&format!("exec/registry/{command}"), |b| {
            b.iter(|| bench.via_registry(&dispatched))
        });
        c.bench_function(&format!("exec/bash_direct/{command}"), |b| {
            b.iter(|| direct(command))
        });
    }
    c.final_summary();

    for command in COMMANDS {
        let dispatched = args(command);
        let (registry, plain) = medians(|| bench.via_registry(&dispatched), || direct(command));
        eprintln!(
            "median over {RUNS} runs of `{command}`: registry exec {:.2} ms, bash -c directly \
             {:.2} ms, overhead {:.2} ms",
            registry.as_secs_f64() * 1e3,
            plain.as_secs_f64() * 1e3,
            (registry.as_secs_f64() - plain.as_secs_f64()) * 1e3
        );
    }
    for command in COMMANDS {
        let dispatched = args(command);
        let (sandboxed, off) = timings(
            || bench.exec(&dispatched, &bench.ctx),
            || bench.exec(&dispatched, &bench.unsandboxed),
        );
        let (p50, p95) = (RUNS / 2, RUNS * 95 / 100);
        eprintln!(
            "over {RUNS} runs of `{command}`: exec sandboxed p50 {:.2} ms p95 {:.2} ms, \
             unsandboxed p50 {:.2} ms p95 {:.2} ms, added p50 {:.2} ms p95 {:.2} ms",
            millis(sandboxed[p50]),
            millis(sandboxed[p95]),
            millis(off[p50]),
            millis(off[p95]),
            millis(sandboxed[p50]) - millis(off[p50]),
            millis(sandboxed[p95]) - millis(off[p95]),
        );
        let (networked, off) = timings(
            || bench.exec(&dispatched, &bench.networked),
            || bench.exec(&dispatched, &bench.unsandboxed),
        );
        eprintln!(
            "over {RUNS} runs of `{command}` with the network on (Landlock alone): added p50 \
             {:.2} ms p95 {:.2} ms",
            millis(networked[p50]) - millis(off[p50]),
            millis(networked[p95]) - millis(off[p95]),
        );
    }
}

//! Benchmark: `search_files` against ripgrep on `~/.cargo/registry/src`, same regex, every
//! match (under the 1,000-result cap, so both scan the whole tree), same ignore rules.
#![allow(clippy::print_stdout)] // the figures are this benchmark's output

use criterion::{criterion_group, criterion_main, Criterion};
use hearth_tools::{builtin_registry, Dialect, Registry, ToolContext};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

/// A regex with a few hundred matching lines and a rarer, more complex one.
const PATTERNS: [&str; 2] = [r"TODO\(", r"fn [a-z_]+_utf16"];

/// The tree searched: `$CARGO_HOME/registry/src` (default `~/.cargo`).
fn tree() -> Option<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let tree = cargo_home.join("registry").join("src");
    tree.is_dir().then_some(tree)
}

/// ripgrep with the rules search_files uses: .gitignore without a git repository, no parent
/// or global ignore files, hidden files skipped, links not followed.
fn ripgrep(tree: &Path, pattern: &str) -> Option<usize> {
    let output = Command::new("rg")
        .args([
            "--no-config",
            "--no-require-git",
            "--no-ignore-parent",
            "--no-ignore-global",
        ])
        .args([
            "--line-number",
            "--no-heading",
            "--color",
            "never",
            "--",
            pattern,
        ])
        .arg(tree)
        .output()
        .ok()?;
    Some(output.stdout.iter().filter(|b| **b == b'\n').count())
}

/// search_files through the registry; the number of matching lines.
fn search(runtime: &Runtime, registry: &Registry, ctx: &ToolContext, pattern: &str) -> usize {
    let args = json!({"pattern": pattern, "max_results": 1000}).to_string();
    let result = match runtime.block_on(registry.dispatch("search_files", &args, ctx)) {
        Ok(result) => result,
        Err(error) => panic!("search_files failed: {error:?}"),
    };
    // Results over the model output cap come back as a spill envelope.
    let result = match result.get("spill_path").and_then(Value::as_str) {
        Some(path) => std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or(Value::Null),
        None => result,
    };
    assert_eq!(
        result["truncated"], false,
        "the pattern has over 1,000 matches"
    );
    result["count"].as_u64().unwrap_or(0) as usize
}

fn median(runs: usize, mut work: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn bench(c: &mut Criterion) {
    let Some(tree) = tree() else {
        println!("no ~/.cargo/registry/src on this machine: nothing to search, nothing measured");
        return;
    };
    let rg = ripgrep(&tree, "x").is_some();
    if !rg {
        println!("ripgrep (rg) is not installed: search_files is measured alone, no ratio");
    }
    let runtime = match Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => panic!("tokio runtime: {e}"),
    };
    let data = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    };
    let ctx = ToolContext {
        workspace: tree.clone(),
        data_dir: data.path().to_path_buf(),
        session_id: "bench:search".to_string(),
        cancel: tokio_util::sync::CancellationToken::new(),
        images: Default::default(),
        conversation: None,
        sandbox: Default::default(),
    };
    let registry = builtin_registry(Dialect::Hearth);
    println!("tree: {}", tree.display());
    for pattern in PATTERNS {
        let ours = search(&runtime, &registry, &ctx, pattern); // also warms the page cache
        let theirs = ripgrep(&tree, pattern);
        let ours_time = median(5, || {
            search(&runtime, &registry, &ctx, pattern);
        });
        match theirs {
            Some(lines) => {
                let rg_time = median(5, || {
                    ripgrep(&tree, pattern);
                });
                println!(
                    "/{pattern}/: search_files {ours} lines in {:.0} ms, rg {lines} lines in {:.0} ms, ratio {:.2} (target <= 1.5)",
                    ours_time.as_secs_f64() * 1000.0,
                    rg_time.as_secs_f64() * 1000.0,
                    ours_time.as_secs_f64() / rg_time.as_secs_f64()
                );
            }
            None => println!(
                "/{pattern}/: search_files {ours} lines in {:.0} ms (rg missing)",
                ours_time.as_secs_f64() * 1000.0
            ),
        }
        let mut group = c.benchmark_group(format!("search /{pattern}/"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(30));
        group.bench_function("search_files", |b| {
            b.iter(|| search(&runtime, &registry, &ctx, pattern))
        });
        if rg {
            group.bench_function("ripgrep", |b| b.iter(|| ripgrep(&tree, pattern)));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

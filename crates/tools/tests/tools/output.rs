//! The model output cap: spilling to `<data_dir>/spill/`, previews within the cap, the
//! registry applying it to every result, and cancellation of running calls.

use crate::tools::{context, temp};
use async_trait::async_trait;
use hearth_policy::{CanonicalTool, Capability, ToolProfile};
use hearth_tools::{
    spill_if_large, Dialect, ErrorKind, Registry, Tool, ToolContext, ToolError, MODEL_OUTPUT_CAP,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

async fn spilled(value: Value, data_dir: &Path) -> Value {
    match spill_if_large(value, data_dir).await {
        Ok(v) => v,
        Err(e) => panic!("spill failed: {e}"),
    }
}

/// Checks a truncated result: within the cap, its preview a prefix of the spilled text, and
/// the spill file holding the whole original JSON text.
fn check_spill(result: &Value, original: &Value, data_dir: &Path) {
    assert_eq!(result["truncated"], json!(true));
    assert!(result.to_string().chars().count() <= MODEL_OUTPUT_CAP);
    let text = original.to_string();
    assert_eq!(result["total_chars"], json!(text.chars().count()));
    let path = result["spill_path"].as_str().unwrap_or_default();
    assert!(
        Path::new(path).starts_with(data_dir.join("spill")),
        "{path}"
    );
    assert!(path.ends_with(".txt"));
    assert_eq!(std::fs::read_to_string(path).ok(), Some(text.clone()));
    let preview = result["preview"].as_str().unwrap_or_default();
    assert!(text.starts_with(preview));
    assert!(
        preview.chars().count() > MODEL_OUTPUT_CAP / 3,
        "preview too short"
    );
}

#[tokio::test]
async fn small_results_pass_unchanged() {
    let dir = temp();
    let value = json!({"content": "x".repeat(1000)});
    assert_eq!(spilled(value.clone(), dir.path()).await, value);
    // Exactly at the cap: {"a":"…"} is 8 characters of envelope.
    let exact = json!({"a": "y".repeat(MODEL_OUTPUT_CAP - 8)});
    assert_eq!(exact.to_string().chars().count(), MODEL_OUTPUT_CAP);
    assert_eq!(spilled(exact.clone(), dir.path()).await, exact);
    assert!(!dir.path().join("spill").exists());
}

#[tokio::test]
async fn large_results_spill_whole_and_keep_a_preview() {
    let dir = temp();
    let over = json!({"a": "y".repeat(MODEL_OUTPUT_CAP - 7)});
    let result = spilled(over.clone(), dir.path()).await;
    check_spill(&result, &over, dir.path());
    assert!(result["note"]
        .as_str()
        .is_some_and(|n| n.contains("read_spill")));
    for original in [
        json!({"quotes": "\"\\".repeat(40_000)}),
        json!({"lines": "line\n\t".repeat(20_000)}),
        json!({"cjk": "汉字".repeat(40_000)}),
        json!((0..20_000).collect::<Vec<_>>()),
    ] {
        let result = spilled(original.clone(), dir.path()).await;
        check_spill(&result, &original, dir.path());
    }
    let files = std::fs::read_dir(dir.path().join("spill")).map_or(0, Iterator::count);
    assert_eq!(files, 5, "one spill file per large result");
}

#[tokio::test]
async fn an_unwritable_spill_dir_is_an_error() {
    let dir = temp();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "x").unwrap_or_default();
    let result = spill_if_large(json!("z".repeat(MODEL_OUTPUT_CAP)), &not_a_dir).await;
    let error = result.err();
    assert_eq!(error.as_ref().map(|e| e.kind), Some(ErrorKind::Internal));
    assert!(error.is_some_and(|e| e.message.contains("could not be spilled")));
}

/// A fixture tool: repeats text, or sleeps, counting its runs.
struct Fixture {
    runs: Arc<AtomicUsize>,
}

#[derive(Deserialize, JsonSchema)]
struct FixtureArgs {
    /// Text to repeat.
    text: String,
    /// How many times.
    times: usize,
    /// Milliseconds to sleep first.
    sleep_ms: u64,
}

/// The fixture's own catalogue entry (it is no canonical tool).
const FIXTURE: CanonicalTool = CanonicalTool {
    name: "fixture",
    capabilities: &[Capability::FsRead],
    high_risk: false,
    mutates: false,
    profile: ToolProfile::Minimal,
};

#[async_trait]
impl Tool for Fixture {
    type Args = FixtureArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &FIXTURE
    }

    fn description(&self) -> &str {
        "Repeats text after a pause."
    }

    async fn run(&self, _ctx: &ToolContext, args: FixtureArgs) -> Result<Value, ToolError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(args.sleep_ms)).await;
        Ok(json!({"content": args.text.repeat(args.times)}))
    }
}

fn fixture_registry() -> (Registry, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut registry = Registry::new(Dialect::Hearth);
    let registered = registry.register(Fixture { runs: runs.clone() });
    assert_eq!(registered, Ok(()));
    (registry, runs)
}

#[tokio::test]
async fn the_registry_caps_every_result() {
    let dir = temp();
    let (registry, runs) = fixture_registry();
    let ctx = context(dir.path());
    let args = r#"{"text": "abc", "times": 30000, "sleep_ms": 0}"#;
    let result = registry.dispatch("fixture", args, &ctx).await;
    let expected = json!({"content": "abc".repeat(30_000)});
    match result {
        Ok(result) => check_spill(&result, &expected, dir.path()),
        Err(e) => panic!("{e}"),
    }
    let small = registry
        .dispatch(
            "fixture",
            r#"{"text": "hi", "times": 2, "sleep_ms": 0}"#,
            &ctx,
        )
        .await;
    assert_eq!(small, Ok(json!({"content": "hihi"})));
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn cancellation_abandons_the_call() {
    let dir = temp();
    let (registry, runs) = fixture_registry();
    let ctx = context(dir.path());
    let args = r#"{"text": "late", "times": 1, "sleep_ms": 30000}"#;
    let cancel = ctx.cancel.clone();
    let started_runs = runs.clone();
    tokio::spawn(async move {
        // Cancels once the handler has started (it then sleeps for 30 s).
        while started_runs.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        cancel.cancel();
    });
    let started = std::time::Instant::now();
    let result = registry.dispatch("fixture", args, &ctx).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(result.err().map(|e| e.kind), Some(ErrorKind::Cancelled));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // Already cancelled: the handler does not start at all.
    let result = registry.dispatch("fixture", args, &ctx).await;
    assert_eq!(
        result.err().map(|e| e.message),
        Some("fixture was cancelled".to_string())
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

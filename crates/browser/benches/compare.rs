//! Hearth's browser tool against Playwright (`playwright-core` on the same Chromium) on the
//! Debian python3-doc pages served on loopback: snapshot size (both uncut) and the interactive
//! elements each exposes, snapshot time p50/p95, and a fixed form script's wall time.
//! Run: `npm --prefix benches/browser ci && cargo bench -p hearth-browser --bench compare`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr
)]

use axum::extract::Path as UrlPath;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use hearth_browser::{register_browser, BrowserConfig, Browsers};
use hearth_tools::{Dialect, Registry, ToolContext};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

const DOCS: &str = "/usr/share/doc/python3-doc/html";
const PAGES: &[&str] = &[
    "library/stdtypes.html",
    "library/functions.html",
    "library/os.html",
    "tutorial/controlflow.html",
];
const RUNS: usize = 20;
const SCRIPT_RUNS: usize = 10;
const FORM: &str = r#"<!doctype html><title>Bench form</title>
<form id="f"><label>First name <input name="a"></label><label>Last name <input name="b"></label>
<button>Save</button></form><p id="o"></p>
<script>document.getElementById('f').onsubmit = (e) => { e.preventDefault();
document.getElementById('o').textContent = 'Saved ' + e.target.a.value + ' ' + e.target.b.value; };</script>"#;

async fn doc(UrlPath(path): UrlPath<String>) -> impl IntoResponse {
    let file = PathBuf::from(DOCS).join(&path);
    let kind = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css",
        Some("js") => "text/javascript",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    };
    match tokio::fs::read(&file).await {
        Ok(bytes) if !path.contains("..") => {
            ([(header::CONTENT_TYPE, kind)], bytes).into_response()
        }
        _ => axum::http::StatusCode::NOT_FOUND.into_response(),
    }
}

fn percentile(times: &mut [f64], p: f64) -> f64 {
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    times[((times.len() as f64 - 1.0) * p).round() as usize]
}

const INTERACTIVE: &[&str] = &[
    "link",
    "button",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "option",
    "tab",
    "menuitem",
    "switch",
    "slider",
    "spinbutton",
];

/// The interactive elements of an ai-grammar outline: `(role, name)`, links by the address they
/// go to (resolved against `page`) since the two sides name some links differently (Playwright
/// leaves a link around `<code>` nameless, Chrome names it by its text).
fn interactive(outline: &str, page: &url::Url) -> BTreeSet<(String, String)> {
    let lines: Vec<&str> = outline.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let rest = line.trim_start().strip_prefix("- ")?;
            let role: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if !INTERACTIVE.contains(&role.as_str()) {
                return None;
            }
            if role == "link" {
                let indent = line.len() - line.trim_start().len();
                let target = lines[i + 1..]
                    .iter()
                    .take_while(|l| l.len() - l.trim_start().len() > indent)
                    .find_map(|l| l.trim_start().strip_prefix("- /url: "))?;
                let resolved = page.join(target.trim_matches('"')).ok()?;
                return Some((role, resolved.to_string()));
            }
            let name = rest[role.len()..]
                .trim_start()
                .strip_prefix('"')
                .and_then(|n| n.split_once('"'))
                .map_or("", |(n, _)| n);
            Some((role, name.to_string()))
        })
        .collect()
}

/// The whole outline of a snapshot result: its text, or (when `max_chars` cut it) the spilled
/// whole, or (when the registry spilled the result for being over the output cap) the outline
/// in the spilled result — so both sides are compared uncut.
fn whole_outline(result: &Value) -> String {
    let spilled = result["spill_path"]
        .as_str()
        .map(|p| std::fs::read_to_string(p).unwrap());
    match (spilled, result["snapshot"].as_str()) {
        (Some(text), Some(_)) => text,
        (Some(json), None) => whole_outline(&serde_json::from_str(&json).unwrap()),
        (None, Some(text)) => text.to_string(),
        (None, None) => panic!("no outline in {result}"),
    }
}

struct Hearth {
    registry: Registry,
    ctx: ToolContext,
}

impl Hearth {
    async fn call(&self, args: Value) -> Value {
        self.registry
            .dispatch("browser", &args.to_string(), &self.ctx)
            .await
            .unwrap()
    }
}

#[tokio::main]
async fn main() {
    assert!(
        PathBuf::from(DOCS).is_dir(),
        "install python3-doc (apt-get install python3-doc)"
    );
    let app = Router::new()
        .route("/form", get(|| async { Html(FORM) }))
        .route("/docs/{*path}", get(doc));
    let socket = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(socket, app).await.unwrap() });
    let urls: Vec<String> = PAGES
        .iter()
        .map(|p| format!("http://127.0.0.1:{port}/docs/{p}"))
        .collect();
    let form_url = format!("http://127.0.0.1:{port}/form");

    let dir = tempfile::tempdir().unwrap();
    let browsers = Browsers::new(dir.path());
    let mut registry = Registry::new(Dialect::Hearth);
    let config = BrowserConfig {
        executable: String::new(),
        visible: false,
        idle: Duration::from_secs(600),
        allow_local: vec![format!("127.0.0.1:{port}")],
        cdp_url: String::new(),
        attach_allowed: true,
    };
    register_browser(&mut registry, &browsers, config).unwrap();
    let ctx = ToolContext {
        workspace: dir.path().join("workspace"),
        data_dir: dir.path().join("data"),
        session_id: "bench".into(),
        cancel: CancellationToken::new(),
        images: Default::default(),
        conversation: None,
        sandbox: Default::default(),
    };
    let hearth = Hearth { registry, ctx };

    let node_config = json!({"executable": "/usr/bin/chromium", "urls": urls, "runs": RUNS, "script_runs": SCRIPT_RUNS, "form_url": form_url});
    let benches = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/browser/playwright.mjs"
    );
    let output = std::process::Command::new("node")
        .arg(benches)
        .arg(node_config.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let playwright: Value = serde_json::from_slice(&output.stdout).unwrap();

    println!("| page | Hearth chars | Playwright ai chars | ratio | Playwright default chars | interactive (Hearth / Playwright / missing) | Hearth p50/p95 ms | Playwright p50/p95 ms |");
    println!("|---|---|---|---|---|---|---|---|");
    for (index, url) in urls.iter().enumerate() {
        hearth
            .call(json!({"action": "open", "url": url, "max_chars": 200000}))
            .await;
        let mut times = Vec::new();
        let mut text = String::new();
        for _ in 0..RUNS {
            let start = Instant::now();
            let result = hearth
                .call(json!({"action": "snapshot", "max_chars": 200000}))
                .await;
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            text = whole_outline(&result);
        }
        let theirs = &playwright["pages"][index];
        let ai = theirs["ai"].as_str().unwrap();
        let mut their_times: Vec<f64> = theirs["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        let page = url::Url::parse(url).unwrap();
        let (ours_set, theirs_set) = (interactive(&text, &page), interactive(ai, &page));
        let missing: Vec<_> = theirs_set.difference(&ours_set).collect();
        if !missing.is_empty() {
            eprintln!(
                "{}: missing {:?}",
                PAGES[index],
                missing.iter().take(10).collect::<Vec<_>>()
            );
        }
        let chars = text.chars().count();
        let ai_chars = theirs["ai_chars"].as_u64().unwrap();
        println!(
            "| {} | {chars} | {ai_chars} | {:.2}× | {} | {} / {} / {} | {:.0}/{:.0} | {:.0}/{:.0} |",
            PAGES[index],
            chars as f64 / ai_chars as f64,
            theirs["default_chars"],
            ours_set.len(),
            theirs_set.len(),
            missing.len(),
            percentile(&mut times, 0.5),
            percentile(&mut times, 0.95),
            percentile(&mut their_times, 0.5),
            percentile(&mut their_times, 0.95),
        );
    }

    let mut script = Vec::new();
    for _ in 0..SCRIPT_RUNS {
        let start = Instant::now();
        let opened = hearth
            .call(json!({"action": "open", "url": form_url}))
            .await;
        let outline = opened["snapshot"].as_str().unwrap().to_string();
        let find = |needle: &str| {
            let line = outline.lines().find(|l| l.contains(needle)).unwrap();
            let at = line.find("[ref=").unwrap() + 5;
            line[at..at + line[at..].find(']').unwrap()].to_string()
        };
        hearth
            .call(json!({"action": "fill", "ref": find("textbox \"First name\""), "text": "Ada"}))
            .await;
        hearth
            .call(
                json!({"action": "fill", "ref": find("textbox \"Last name\""), "text": "Lovelace"}),
            )
            .await;
        hearth
            .call(json!({"action": "click", "ref": find("button \"Save\"")}))
            .await;
        hearth
            .call(json!({"action": "wait", "text": "Saved Ada Lovelace"}))
            .await;
        let text = hearth.call(json!({"action": "get_text"})).await;
        assert!(text["text"]
            .as_str()
            .unwrap()
            .contains("Saved Ada Lovelace"));
        hearth.call(json!({"action": "screenshot"})).await;
        script.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let mut theirs: Vec<f64> = playwright["script_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    let (ours50, theirs50) = (percentile(&mut script, 0.5), percentile(&mut theirs, 0.5));
    println!(
        "\nfixed script (open, fill ×2, click, wait, get_text, screenshot) p50: Hearth {ours50:.0} ms, Playwright {theirs50:.0} ms ({:.2}×)",
        ours50 / theirs50
    );
    browsers.shutdown().await;
}

//! In-page timing for the latency benchmark: scripts timing input to the frame painted after it,
//! read back through WebDriver, and the percentiles of what they recorded.

use serde_json::{json, Value};

use crate::desktop::app::App;

/// Installs `window.__bench` once per page: each keystroke in the composer is timed from its
/// `keydown` to the end of the first frame rendered after its `input` (a `requestAnimationFrame`
/// callback runs just before that frame's style, layout and paint; a task queued from it runs
/// after them). The IPC fetches of `search_messages` are timed too (start, end).
const INSTALL: &str = r#"
const w = window;
if (!w.__bench) {
  const b = (w.__bench = { keys: [], pending: null, searches: [], renders: [], settings: null });
  const types = (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes) || [];
  b.eventTiming = types.includes('event');
  // The event's own time when it is on the page's clock (WebKit: high resolution), else now.
  b.start = (e) => {
    const now = performance.now();
    const t = e.timeStamp;
    return t > 0 && t <= now && now - t < 10000 ? t : now;
  };
  b.afterPaint = (f) => requestAnimationFrame(() => setTimeout(f, 0));
  const composer = (e) => e.target instanceof Element && e.target.matches('.composer textarea');
  document.addEventListener('keydown', (e) => { if (composer(e)) b.pending = b.start(e); }, true);
  document.addEventListener('input', (e) => {
    if (!composer(e) || b.pending === null) return;
    const t0 = b.pending;
    b.pending = null;
    b.afterPaint(() => b.keys.push([t0, performance.now()]));
  }, true);
  // When the streamed reply's DOM changes (one callback per rendering of a delta).
  new MutationObserver((records) => {
    const streaming = 'article.message.assistant[data-status="streaming"]';
    const node = records[0].target;
    const el = node instanceof Element ? node : node.parentElement;
    if (el && el.closest(streaming)) b.renders.push(performance.now());
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
  // Searches back to back (through the same IPC as the search box) while `b.searching`.
  b.searchLoop = async (queries) => {
    for (let i = 0; b.searching; i++) {
      await w.__TAURI_INTERNALS__.invoke('search_messages', { query: queries[i % queries.length] });
    }
  };
  // Tauri's IPC posts each command to `ipc://localhost/<command>` with fetch.
  const fetch = w.fetch;
  w.fetch = function (input, init) {
    const answer = fetch.call(this, input, init);
    if (String(input && input.url ? input.url : input).includes('search_messages')) {
      const s = { start: performance.now(), end: null };
      b.searches.push(s);
      const done = () => { s.end = performance.now(); };
      answer.then(done, done);
    }
    return answer;
  };
}
return w.__bench.eventTiming;
"#;

/// Arms a one-shot timer on the next click on `arguments[0]`: from the click to the end of the
/// first frame whose `requestAnimationFrame` callback finds `arguments[1]` (at least
/// `arguments[2]` elements) in the page, so that frame paints them.
const ARM_CLICK: &str = r#"
const b = window.__bench;
b.settings = null;
document.addEventListener('click', (e) => {
  if (!(e.target instanceof Element) || !e.target.closest(arguments[0])) return;
  const t0 = b.start(e);
  const check = () => {
    if (document.querySelectorAll(arguments[1]).length >= arguments[2]) {
      setTimeout(() => { b.settings = performance.now() - t0; }, 0);
    } else {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
}, { capture: true, once: true });
"#;

/// Installs the probe; whether the page has Event Timing (`PerformanceEventTiming`).
pub async fn install(app: &App) -> bool {
    app.js(INSTALL, vec![]).await.as_bool().unwrap_or(false)
}

/// The keystrokes recorded so far: (keydown, end of the frame after it) on the page's clock.
pub async fn keystrokes(app: &App) -> Vec<(f64, f64)> {
    let value = app.js("return window.__bench.keys;", vec![]).await;
    let keys = value.as_array().cloned().unwrap_or_default();
    keys.iter()
        .map(|k| (k[0].as_f64().unwrap(), k[1].as_f64().unwrap()))
        .collect()
}

/// Forgets the keystrokes and streamed renders recorded so far.
pub async fn reset(app: &App) {
    app.js(
        "window.__bench.keys = []; window.__bench.renders = [];",
        vec![],
    )
    .await;
}

/// When the streamed reply's DOM changed, on the page's clock.
pub async fn renders(app: &App) -> Vec<f64> {
    floats(&app.js("return window.__bench.renders;", vec![]).await)
}

/// Starts `search_messages` calls back to back, cycling through `queries`, until [`stop_searches`].
pub async fn start_searches(app: &App, queries: &[&str]) {
    let script = "window.__bench.searching = true; window.__bench.searchLoop(arguments[0]);";
    app.js(script, vec![json!(queries)]).await;
}

/// Ends the loop of [`start_searches`] (after the call in flight).
pub async fn stop_searches(app: &App) {
    app.js("window.__bench.searching = false;", vec![]).await;
}

/// Keystrokes typed whose frame has not been recorded yet.
pub async fn keys_in_flight(app: &App) -> bool {
    let pending = "return window.__bench.pending !== null;";
    app.js(pending, vec![]).await.as_bool().unwrap_or(true)
}

/// The `search_messages` calls seen: (start, end) on the page's clock, end None while running.
pub async fn searches(app: &App) -> Vec<(f64, Option<f64>)> {
    let value = app.js("return window.__bench.searches;", vec![]).await;
    let calls = value.as_array().cloned().unwrap_or_default();
    calls
        .iter()
        .map(|s| (s["start"].as_f64().unwrap(), s["end"].as_f64()))
        .collect()
}

/// The page's clock (`performance.now()`), in ms.
pub async fn now(app: &App) -> f64 {
    app.js("return performance.now();", vec![])
        .await
        .as_f64()
        .unwrap()
}

/// Arms the click timer: the next click on `target` until `content` (`count` of it) is painted.
pub async fn arm_click(app: &App, target: &str, content: &str, count: u64) {
    app.js(ARM_CLICK, vec![json!(target), json!(content), json!(count)])
        .await;
}

/// The armed click's time to paint, once it is known.
pub async fn click_to_paint(app: &App) -> Option<f64> {
    app.js("return window.__bench.settings;", vec![])
        .await
        .as_f64()
}

fn floats(value: &Value) -> Vec<f64> {
    let list = value.as_array().cloned().unwrap_or_default();
    list.iter().filter_map(Value::as_f64).collect()
}

/// Nearest-rank percentile `p` (0–100) of `values`.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// "p50 … ms, p95 … ms, max … ms (n = …)".
pub fn summary(values: &[f64]) -> String {
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (n = {})",
        percentile(values, 50.0),
        percentile(values, 95.0),
        percentile(values, 100.0),
        values.len()
    )
}

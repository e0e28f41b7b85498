//! Reading the page: waiting for a state or a text, evaluating script, console messages, text,
//! images and screenshots.

use super::element::{call_on, resolve, script_error};
use crate::cdp::call;
use crate::error;
use crate::tab::Tab;
use crate::tool::args::{BrowserArgs, LoadState};
use base64::Engine;
use hearth_tools::{ErrorKind, ToolError};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// Selects a field's content so typed text replaces it.
pub const SELECT_CONTENT: &str = "function() {
  if (typeof this.select === 'function') { this.select(); return; }
  if (this.isContentEditable) {
    const range = document.createRange(); range.selectNodeContents(this);
    const selection = getSelection(); selection.removeAllRanges(); selection.addRange(range);
  }
}";

/// Selects the options matching values or labels and fires input and change.
pub const SELECT_OPTIONS: &str = "function(values) {
  if (this.tagName !== 'SELECT') return { error: 'the element is not a select (use click or fill)' };
  const options = [...this.options];
  const wanted = (o) => values.some(v => v === o.value || v === o.label || v === o.text.trim());
  const matched = options.filter(wanted);
  if (!matched.length) return { error: 'no option matches ' + JSON.stringify(values) + '; the options are ' + JSON.stringify(options.map(o => o.label || o.value)) };
  if (!this.multiple && matched.length > 1) matched.length = 1;
  for (const o of options) o.selected = matched.includes(o);
  this.dispatchEvent(new Event('input', { bubbles: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: matched.map(o => o.label || o.value) };
}";

const POLL: Duration = Duration::from_millis(100);

async fn evaluate_value(tab: &Tab, expression: &str) -> Result<Value, ToolError> {
    let result = call(
        &tab.page,
        "Runtime.evaluate",
        json!({"expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true}),
    )
    .await
    .map_err(error::cdp)?;
    if let Some(details) = result.get("exceptionDetails") {
        return Err(script_error(details));
    }
    Ok(result["result"]["value"].clone())
}

/// `wait`: for a load state or for a text to appear, at most `timeout_sec` (default 30).
pub async fn wait(tab: &Tab, args: &BrowserArgs) -> Result<Value, ToolError> {
    let limit = Duration::from_secs(u64::from(args.timeout_sec.unwrap_or(30)));
    if let Some(state) = args.state {
        let name = match state {
            LoadState::Load => "load",
            LoadState::Domcontentloaded => "DOMContentLoaded",
            LoadState::Networkidle => "networkIdle",
        };
        if !tab.wait_until(limit, |s| s.lifecycle.contains(name)).await {
            return Err(ToolError::new(
                ErrorKind::Timeout,
                format!("the page did not reach {name} within {} s", limit.as_secs()),
            ));
        }
    }
    if let Some(text) = &args.text {
        let check = format!(
            "(document.body ? document.body.innerText : '').includes({})",
            json!(text)
        );
        let start = Instant::now();
        while evaluate_value(tab, &check).await? != json!(true) {
            if start.elapsed() >= limit {
                return Err(ToolError::new(
                    ErrorKind::Timeout,
                    format!("\"{text}\" did not appear within {} s", limit.as_secs()),
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    Ok(json!({"waited": true, "state": args.state.map(|_| "reached"), "text": args.text}))
}

/// `evaluate`: the expression's JSON value.
pub async fn evaluate(tab: &Tab, expression: &str) -> Result<Value, ToolError> {
    let value = evaluate_value(tab, expression).await?;
    Ok(json!({"value": value}))
}

/// `console`: the messages since the last call.
pub fn console(tab: &Tab) -> Value {
    let messages = std::mem::take(&mut tab.events.lock().console);
    json!({"messages": messages})
}

/// `get_text`: the visible text of the page or of `ref`, within `max_chars` (the rest spilled).
pub async fn text(
    tab: &mut Tab,
    args: &BrowserArgs,
    max_chars: usize,
    data_dir: &Path,
) -> Result<Value, ToolError> {
    let text = match args.reference.as_deref() {
        Some(reference) => {
            let target = resolve(tab, reference).await?;
            call_on(
                tab,
                target,
                reference,
                "function(){return this.innerText ?? this.textContent}",
                vec![],
            )
            .await?
        }
        None => evaluate_value(tab, "document.body ? document.body.innerText : ''").await?,
    };
    let text = text.as_str().unwrap_or("").to_string();
    let total = text.chars().count();
    if total <= max_chars {
        return Ok(json!({"text": text}));
    }
    let head: String = text.chars().take(max_chars).collect();
    let path = super::output::spill(data_dir, &text).await?;
    Ok(json!({
        "text": head,
        "truncated": true,
        "total_chars": total,
        "spill_path": path,
        "note": "the text is cut; the whole text is in spill_path (read it with read_spill)",
    }))
}

/// `get_images`: src, alt and size of the page's images (at most 200).
pub async fn images(tab: &Tab) -> Result<Value, ToolError> {
    let images = evaluate_value(
        tab,
        "[...document.images].slice(0, 200).map(i => ({src: i.currentSrc || i.src, alt: i.alt, \
         width: i.naturalWidth, height: i.naturalHeight, shown_width: i.width, shown_height: i.height}))",
    )
    .await?;
    let count = evaluate_value(tab, "document.images.length").await?;
    Ok(json!({"images": images, "count": count}))
}

/// A PNG of the viewport, or of the whole page.
pub async fn screenshot(tab: &Tab, full_page: bool) -> Result<Vec<u8>, ToolError> {
    let mut params = json!({"format": "png"});
    if full_page {
        let metrics = call(&tab.page, "Page.getLayoutMetrics", json!({}))
            .await
            .map_err(error::cdp)?;
        let size = &metrics["cssContentSize"];
        let width = size["width"].as_f64().unwrap_or(1280.0).ceil();
        let height = size["height"]
            .as_f64()
            .unwrap_or(800.0)
            .ceil()
            .min(16_384.0);
        params["captureBeyondViewport"] = json!(true);
        params["clip"] = json!({"x": 0, "y": 0, "width": width, "height": height, "scale": 1});
    }
    let shot = call(&tab.page, "Page.captureScreenshot", params)
        .await
        .map_err(error::cdp)?;
    base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap_or(""))
        .map_err(|e| ToolError::internal(format!("the screenshot was not base64: {e}")))
}

/// A PNG's width and height from its header.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&png[16..20]), be(&png[20..24])))
}

//! What actions return: the page header (URL, title, HTTP status when not 2xx, console error
//! counts, dialogs answered), the outline within `max_chars` (the whole text spilled for
//! `read_spill`), or only the lines an action changed.

use crate::capture::capture;
use crate::cdp::call;
use crate::error;
use crate::snapshot::{changed_lines, cut, find_lines, render};
use crate::tab::Tab;
use hearth_tools::ToolError;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The default `max_chars`.
pub const DEFAULT_MAX_CHARS: usize = 12_000;

/// The page's URL and title.
pub async fn location(tab: &Tab) -> Result<(String, String), ToolError> {
    let result = call(
        &tab.page,
        "Runtime.evaluate",
        json!({"expression": "[location.href, document.title]", "returnByValue": true}),
    )
    .await
    .map_err(error::cdp)?;
    let value = &result["result"]["value"];
    Ok((
        value[0].as_str().unwrap_or("").to_string(),
        value[1].as_str().unwrap_or("").to_string(),
    ))
}

/// The header lines and the fields every page result carries (`url`, `title`, `dialogs`).
pub async fn header(tab: &Tab) -> Result<(String, Map<String, Value>), ToolError> {
    let (url, title) = location(tab).await?;
    let (status, errors, warnings, dialogs) = {
        let state = tab.events.lock();
        (
            state.status,
            state.errors,
            state.warnings,
            state.dialogs.clone(),
        )
    };
    let mut lines = vec![
        format!("- Page URL: {url}"),
        format!("- Page Title: {title}"),
    ];
    if let Some(status) = status.filter(|s| !(200..300).contains(s)) {
        lines.push(format!("- HTTP status: {status}"));
    }
    if errors + warnings > 0 {
        lines.push(format!(
            "- Console: {errors} errors, {warnings} warnings (action console reads them)"
        ));
    }
    for dialog in &dialogs {
        lines.push(format!("- Dialog: {dialog}"));
    }
    let mut fields = Map::new();
    fields.insert("url".into(), json!(url));
    fields.insert("title".into(), json!(title));
    if !dialogs.is_empty() {
        fields.insert("dialogs".into(), json!(dialogs));
    }
    Ok((lines.join("\n"), fields))
}

/// Writes `text` to `<data_dir>/spill/` (where `read_spill` reads) and returns its path.
pub async fn spill(data_dir: &Path, text: &str) -> Result<String, ToolError> {
    let dir = data_dir.join("spill");
    let path = dir.join(format!("browser-{}.txt", uuid::Uuid::new_v4()));
    tokio::fs::create_dir_all(&dir)
        .await
        .and(tokio::fs::write(&path, text).await)
        .map_err(|e| {
            ToolError::internal(format!("the browser output could not be spilled: {e}"))
        })?;
    Ok(path.display().to_string())
}

/// `body` under the header within `max_chars`; when cut, the whole text is spilled.
async fn bounded(
    header: String,
    body: String,
    mut fields: Map<String, Value>,
    max_chars: usize,
    data_dir: &Path,
) -> Result<Value, ToolError> {
    let text = if body.is_empty() {
        header
    } else {
        format!("{header}\n{body}")
    };
    match cut(&text, max_chars) {
        None => {
            fields.insert("snapshot".into(), json!(text));
        }
        Some(head) => {
            let total = text.chars().count();
            let path = spill(data_dir, &text).await?;
            fields.insert("snapshot".into(), json!(head));
            fields.insert("truncated".into(), json!(true));
            fields.insert("total_chars".into(), json!(total));
            fields.insert("spill_path".into(), json!(path));
            fields.insert(
                "note".into(),
                json!(format!(
                    "the outline has {total} characters, cut at {max_chars}; the whole text is in \
                     spill_path (read it with read_spill), or use find to get only matching lines"
                )),
            );
        }
    }
    Ok(Value::Object(fields))
}

/// A fresh outline of the page (all of it, or the lines matching `find`).
pub async fn outline(
    tab: &mut Tab,
    find: Option<&str>,
    max_chars: usize,
    data_dir: &Path,
) -> Result<Value, ToolError> {
    let tree = capture(tab).await.map_err(error::cdp)?;
    let rendered = render(&tree, &mut tab.refs);
    tab.last_lines = rendered.lines.clone();
    let (header, mut fields) = header(tab).await?;
    fields.insert("refs".into(), json!(rendered.refs));
    let body = match find {
        Some(needle) => {
            let lines = find_lines(&rendered.lines, needle);
            if lines.is_empty() {
                format!("(no line contains \"{needle}\")")
            } else {
                lines.join("\n")
            }
        }
        None => rendered.text(),
    };
    bounded(header, body, fields, max_chars, data_dir).await
}

/// After an action: the whole outline if the document changed, else only the changed lines.
pub async fn changes(tab: &mut Tab, max_chars: usize, data_dir: &Path) -> Result<Value, ToolError> {
    let before_document = tab.document.clone();
    let before = std::mem::take(&mut tab.last_lines);
    let tree = capture(tab).await.map_err(error::cdp)?;
    if tab.document != before_document || before.is_empty() {
        let rendered = render(&tree, &mut tab.refs);
        tab.last_lines = rendered.lines.clone();
        let (header, mut fields) = header(tab).await?;
        fields.insert("refs".into(), json!(rendered.refs));
        return bounded(header, rendered.text(), fields, max_chars, data_dir).await;
    }
    let rendered = render(&tree, &mut tab.refs);
    let (changed, removed) = changed_lines(&before, &rendered.lines);
    tab.last_lines = rendered.lines;
    let (header, fields) = header(tab).await?;
    let mut body = if changed.is_empty() {
        "- (the outline did not change)".to_string()
    } else {
        format!("- Changed:\n{}", changed.join("\n"))
    };
    if removed > 0 {
        body.push_str(&format!(
            "\n- ({removed} lines of the previous outline are gone)"
        ));
    }
    bounded(header, body, fields, max_chars, data_dir).await
}

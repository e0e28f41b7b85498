//! Acting on elements by ref: checking a ref, finding its element again after a re-render
//! (role + name + index in a fresh tree), its on-screen point, functions run on it, and mouse
//! input.

use crate::capture::capture;
use crate::cdp::call;
use crate::error;
use crate::snapshot::{render::find_target, Target};
use crate::tab::Tab;
use chromiumoxide::Page;
use hearth_tools::ToolError;
use serde_json::{json, Value};

/// `e12`, `f1e3`, also written `[ref=e12]` or `ref=e12`.
fn normalize(reference: &str) -> Result<String, ToolError> {
    let r = reference
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_start_matches("ref=")
        .trim_start_matches('@');
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let valid = match r.strip_prefix('f') {
        Some(rest) => rest
            .split_once('e')
            .is_some_and(|(frame, n)| digits(frame) && digits(n)),
        None => r.strip_prefix('e').is_some_and(digits),
    };
    if valid {
        Ok(r.to_string())
    } else {
        Err(ToolError::invalid(
            "ref",
            format!(
                "`{reference}` is not a ref; refs look like e12 or f1e3 and come from a snapshot"
            ),
        ))
    }
}

/// Checks the form of a ref without resolving it.
pub fn check(reference: &str) -> Result<(), ToolError> {
    normalize(reference).map(|_| ())
}

/// The object id of a DOM node, or `None` when it is gone.
async fn object_id(page: &Page, target: Target) -> Option<String> {
    let resolved = call(
        page,
        "DOM.resolveNode",
        json!({"backendNodeId": target.backend_id}),
    )
    .await
    .ok()?;
    resolved["object"]["objectId"].as_str().map(str::to_string)
}

/// Whether the node is still in its document.
async fn connected(page: &Page, target: Target) -> bool {
    let Some(id) = object_id(page, target).await else {
        return false;
    };
    let result = call(
        page,
        "Runtime.callFunctionOn",
        json!({"objectId": id, "functionDeclaration": "function(){return this.isConnected}", "returnByValue": true}),
    )
    .await;
    result.is_ok_and(|r| r["result"]["value"] == json!(true))
}

/// The element `reference` points at: as issued, or found again by role, name and index.
pub async fn resolve(tab: &mut Tab, reference: &str) -> Result<Target, ToolError> {
    let reference = normalize(reference)?;
    tab.sync_document();
    let Some(issued) = tab.refs.lookup(&reference).cloned() else {
        return Err(ToolError::invalid(
            "ref",
            format!("ref {reference} was not in a snapshot of this page; take a snapshot and use one of its refs"),
        ));
    };
    if connected(&tab.page, issued.target).await {
        return Ok(issued.target);
    }
    let tree = capture(tab).await.map_err(error::cdp)?;
    let found = find_target(
        &tree,
        issued.target.frame,
        &issued.role,
        &issued.name,
        issued.nth,
    )
    .ok_or_else(|| error::gone(&reference))?;
    tab.refs.relocate(&reference, found);
    Ok(found)
}

/// Runs `function` (a JS function source) with `this` = the element; its JSON value.
pub async fn call_on(
    page: &Page,
    target: Target,
    reference: &str,
    function: &str,
    args: Vec<Value>,
) -> Result<Value, ToolError> {
    let id = object_id(page, target)
        .await
        .ok_or_else(|| error::gone(reference))?;
    let arguments: Vec<Value> = args.into_iter().map(|v| json!({"value": v})).collect();
    let result = call(
        page,
        "Runtime.callFunctionOn",
        json!({
            "objectId": id,
            "functionDeclaration": function,
            "arguments": arguments,
            "returnByValue": true,
            "awaitPromise": true,
            "userGesture": true,
        }),
    )
    .await
    .map_err(error::cdp)?;
    if let Some(details) = result.get("exceptionDetails") {
        return Err(script_error(details));
    }
    Ok(result["result"]["value"].clone())
}

/// A thrown script exception as a tool error.
pub fn script_error(details: &Value) -> ToolError {
    let text = details["exception"]["description"]
        .as_str()
        .or_else(|| details["text"].as_str())
        .unwrap_or("an exception");
    ToolError::new(
        hearth_tools::ErrorKind::Failed,
        format!("the script threw: {text}"),
    )
}

/// Scrolls the element into view and returns the centre of its first box.
pub async fn center(page: &Page, target: Target, reference: &str) -> Result<(f64, f64), ToolError> {
    let id = json!({"backendNodeId": target.backend_id});
    let _ = call(page, "DOM.scrollIntoViewIfNeeded", id.clone()).await;
    let quads = call(page, "DOM.getContentQuads", id)
        .await
        .map_err(|_| error::gone(reference))?;
    let quad: Vec<f64> = quads["quads"][0]
        .as_array()
        .map(|q| q.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    if quad.len() != 8 {
        return Err(ToolError::new(
            hearth_tools::ErrorKind::Failed,
            format!("{reference} has no box on the page (it is hidden or has no size)"),
        ));
    }
    let x = (quad[0] + quad[2] + quad[4] + quad[6]) / 4.0;
    let y = (quad[1] + quad[3] + quad[5] + quad[7]) / 4.0;
    Ok((x, y))
}

/// Moves the mouse to `x`, `y`.
pub async fn mouse_move(page: &Page, x: f64, y: f64) -> Result<(), ToolError> {
    call(
        page,
        "Input.dispatchMouseEvent",
        json!({"type": "mouseMoved", "x": x, "y": y}),
    )
    .await
    .map(|_| ())
    .map_err(error::cdp)
}

/// A left click at `x`, `y`.
pub async fn click(page: &Page, x: f64, y: f64) -> Result<(), ToolError> {
    mouse_move(page, x, y).await?;
    for kind in ["mousePressed", "mouseReleased"] {
        call(
            page,
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
        )
        .await
        .map_err(error::cdp)?;
    }
    Ok(())
}

/// A wheel turn of `dx`, `dy` pixels at `x`, `y`.
pub async fn wheel(page: &Page, x: f64, y: f64, dx: f64, dy: f64) -> Result<(), ToolError> {
    call(
        page,
        "Input.dispatchMouseEvent",
        json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy}),
    )
    .await
    .map(|_| ())
    .map_err(error::cdp)
}

/// Focuses the element.
pub async fn focus(page: &Page, target: Target, reference: &str) -> Result<(), ToolError> {
    call(
        page,
        "DOM.focus",
        json!({"backendNodeId": target.backend_id}),
    )
    .await
    .map(|_| ())
    .map_err(|e| {
        ToolError::new(
            hearth_tools::ErrorKind::Failed,
            format!("{reference} cannot take the focus ({e})"),
        )
    })
}

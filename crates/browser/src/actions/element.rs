//! Acting on elements by ref: checking a ref, finding its element again after a re-render
//! (role + name + index in a fresh tree), its on-screen point, functions run on it, and mouse
//! input.

use crate::capture::{capture, element, Element};
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
    if element(tab, issued.target).await.is_some() {
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

/// The element `target` points at (its frame's session and remote object); gone when it left
/// the page.
pub async fn object(tab: &Tab, target: Target, reference: &str) -> Result<Element, ToolError> {
    element(tab, target)
        .await
        .ok_or_else(|| error::gone(reference))
}

/// Sends `method` with `params` plus the element's `objectId` to the element's session.
pub async fn on_element(
    tab: &Tab,
    element: &Element,
    method: &'static str,
    mut params: Value,
) -> Result<Value, crate::cdp::CdpFailure> {
    params["objectId"] = json!(element.object);
    tab.wire
        .call_in(element.session.as_deref(), method, params)
        .await
}

/// Runs `function` (a JS function source) with `this` = the element; its JSON value.
pub async fn call_on(
    tab: &Tab,
    target: Target,
    reference: &str,
    function: &str,
    args: Vec<Value>,
) -> Result<Value, ToolError> {
    let element = object(tab, target, reference).await?;
    let arguments: Vec<Value> = args.into_iter().map(|v| json!({"value": v})).collect();
    let result = on_element(
        tab,
        &element,
        "Runtime.callFunctionOn",
        json!({
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

/// Where frame `frame`'s coordinates start on the page: (0, 0) for frames drawn by the page's
/// renderer (their boxes come in page coordinates); for an out-of-process iframe, the corner
/// of its iframe's content box (scrolled into view) in its parent, and so on up.
async fn frame_offset(tab: &Tab, frame: u32) -> (f64, f64) {
    let mut offset = (0.0, 0.0);
    let mut frame = frame;
    for _ in 0..32 {
        let Some(site) = tab.sites.get(&frame) else {
            break;
        };
        let Some(owner) = site.owner else {
            break;
        };
        let parent_session = tab.sites.get(&owner.frame).map(|p| p.session.clone());
        if parent_session.as_ref() != Some(&site.session) {
            if let Some(iframe) = element(tab, owner).await {
                let _ = on_element(tab, &iframe, "DOM.scrollIntoViewIfNeeded", json!({})).await;
                let model = on_element(tab, &iframe, "DOM.getBoxModel", json!({})).await;
                let content = model.map(|m| m["model"]["content"].clone());
                if let Ok(Value::Array(quad)) = content {
                    offset.0 += quad.first().and_then(Value::as_f64).unwrap_or(0.0);
                    offset.1 += quad.get(1).and_then(Value::as_f64).unwrap_or(0.0);
                }
            }
        }
        frame = owner.frame;
    }
    offset
}

/// Scrolls the element into view and returns the centre of its first box on the page.
pub async fn center(tab: &Tab, target: Target, reference: &str) -> Result<(f64, f64), ToolError> {
    let element = object(tab, target, reference).await?;
    let _ = on_element(tab, &element, "DOM.scrollIntoViewIfNeeded", json!({})).await;
    let (dx, dy) = frame_offset(tab, target.frame).await;
    let quads = on_element(tab, &element, "DOM.getContentQuads", json!({}))
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
    Ok((x + dx, y + dy))
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
pub async fn focus(tab: &Tab, target: Target, reference: &str) -> Result<(), ToolError> {
    let element = object(tab, target, reference).await?;
    on_element(tab, &element, "DOM.focus", json!({}))
        .await
        .map(|_| ())
        .map_err(|e| {
            ToolError::new(
                hearth_tools::ErrorKind::Failed,
                format!("{reference} cannot take the focus ({e})"),
            )
        })
}

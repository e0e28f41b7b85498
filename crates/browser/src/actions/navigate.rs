//! Navigation: only http and https URLs (a bare host gets `https://`), loading with the load
//! awaited (at most 10 s) and the page's own prompt redirects followed (a URL the server sends
//! as a download leaves the page as it was), and history steps.

use crate::cdp::call;
use crate::error;
use crate::journal::Outcome;
use crate::tab::Tab;
use hearth_tools::{ErrorKind, ToolError};
use serde_json::{json, Value};
use std::time::Duration;

const LOAD_LIMIT: Duration = Duration::from_secs(10);
/// How many times in a row a page may send the tab on by itself within one `open`.
const CLIENT_REDIRECTS: u64 = 5;
/// How long the document request of a navigation the page asked for may take to begin.
const REQUEST_LIMIT: Duration = Duration::from_secs(2);
/// Resolves after one turn of the page's task queue (a refresh due at once has begun by then).
const TASK_TURN: &str = "new Promise((done) => setTimeout(done, 0))";

/// Schemes that are never opened.
const REFUSED: &[&str] = &[
    "about",
    "blob",
    "chrome",
    "chrome-extension",
    "chrome-untrusted",
    "data",
    "devtools",
    "edge",
    "brave",
    "file",
    "filesystem",
    "ftp",
    "javascript",
    "mailto",
    "vbscript",
    "view-source",
    "ws",
    "wss",
];

/// `url` as an http(s) URL, or an error naming what is refused.
pub fn web_url(url: &str) -> Result<String, ToolError> {
    let trimmed = url.trim();
    let scheme = trimmed
        .split_once(':')
        .map(|(s, _)| s.to_ascii_lowercase())
        .unwrap_or_default();
    let candidate = if trimmed.contains("://") || REFUSED.contains(&scheme.as_str()) {
        trimmed.to_string()
    } else {
        format!("https://{trimmed}")
    };
    let parsed = url::Url::parse(&candidate)
        .map_err(|e| ToolError::invalid("url", format!("`{url}` is not a URL: {e}")))?;
    match parsed.scheme() {
        "http" | "https" if parsed.host_str().is_some() => Ok(parsed.to_string()),
        "http" | "https" => Err(ToolError::invalid("url", format!("`{url}` has no host"))),
        other => Err(ToolError::new(
            ErrorKind::NotPermitted,
            format!("the browser only opens http and https pages, not `{other}:` URLs"),
        )),
    }
}

/// Loads `url` in the tab and waits for it, and for where the page itself sends the tab at once.
pub async fn go(tab: &mut Tab, url: &str) -> Result<(), ToolError> {
    let mark = tab.mark();
    let (hops, asked) = {
        let journal = tab.wire.journal().lock();
        (journal.hop_count(), journal.requested)
    };
    // Through Hearth's own session: chromiumoxide answers its own `Page.navigate` only once
    // every frame it knows has loaded, and it never hears of out-of-process iframes loading.
    let result: Value = tab
        .wire
        .call("Page.navigate", json!({"url": url}))
        .await
        .map_err(error::cdp)?;
    // A file the server sends as an attachment: the page stays, the download is reported.
    if result["isDownload"] == Value::Bool(true) {
        return Ok(());
    }
    if let Some(problem) = result["errorText"].as_str().filter(|t| !t.is_empty()) {
        return Err(ToolError::new(
            ErrorKind::Network,
            format!("{url} could not be opened: {problem}"),
        ));
    }
    match result["loaderId"].as_str() {
        Some(loader) => {
            let loader = loader.to_string();
            let journal = tab.wire.journal();
            tab.wait_until(LOAD_LIMIT, |s| {
                let sent_on = journal.lock().requested > asked;
                (s.loader.as_deref() == Some(loader.as_str()) || sent_on)
                    && !s.loading
                    && s.lifecycle.contains("load")
            })
            .await;
        }
        None => tab.settle(mark).await,
    }
    follow_page_redirects(tab, hops, asked).await;
    Ok(())
}

/// Follows the page sending the tab on by itself at once (a meta refresh of a second or less,
/// `location` set by its script), up to [`CLIENT_REDIRECTS`] times: each such navigation's
/// document request (journaled since `hops`, beyond the one asked for) is awaited and then its
/// document's load. `asked` is the count of navigations the page had asked for before.
async fn follow_page_redirects(tab: &Tab, hops: u64, asked: u64) {
    let journal = tab.wire.journal();
    let mut followed = 0;
    while followed < CLIENT_REDIRECTS {
        // The page's events up to one task turn from now are journaled when this answers.
        let turn = json!({"expression": TASK_TURN, "awaitPromise": true});
        if tab
            .wire
            .call::<Value>("Runtime.evaluate", turn)
            .await
            .is_err()
        {
            return;
        }
        let sent_on = journal.lock().requested.saturating_sub(asked);
        if sent_on == followed {
            return;
        }
        followed = sent_on.min(CLIENT_REDIRECTS);
        let wanted = usize::try_from(followed + 1).unwrap_or(usize::MAX);
        journal
            .wait_until(REQUEST_LIMIT, |e| e.requests_since(hops).len() >= wanted)
            .await;
        let Some(newest) = journal.lock().requests_since(hops).pop() else {
            return;
        };
        tab.wait_until(LOAD_LIMIT, |s| {
            let failed = journal.lock().outcome(&newest) == Some(Outcome::Failed);
            failed
                || (s.loader.as_deref() == Some(newest.as_str())
                    && !s.loading
                    && s.lifecycle.contains("load"))
        })
        .await;
    }
}

/// Goes one step back (or forward) in the tab's history.
pub async fn history(tab: &Tab, forward: bool) -> Result<(), ToolError> {
    let history = call(&tab.page, "Page.getNavigationHistory", json!({}))
        .await
        .map_err(error::cdp)?;
    let current = history["currentIndex"].as_i64().unwrap_or(0);
    let entries = history["entries"].as_array().cloned().unwrap_or_default();
    let index = if forward { current + 1 } else { current - 1 };
    let entry: Option<&Value> = usize::try_from(index).ok().and_then(|i| entries.get(i));
    let Some(id) = entry.and_then(|e| e["id"].as_i64()) else {
        return Err(ToolError::invalid(
            "action",
            format!(
                "there is no {} page in this tab's history",
                if forward { "later" } else { "earlier" }
            ),
        ));
    };
    tab.wire
        .call::<Value>("Page.navigateToHistoryEntry", json!({"entryId": id}))
        .await
        .map_err(error::cdp)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_are_opened() {
        assert_eq!(web_url("example.com").unwrap(), "https://example.com/");
        assert_eq!(
            web_url("http://127.0.0.1:8080/a").unwrap(),
            "http://127.0.0.1:8080/a"
        );
        for refused in [
            "file:///etc/passwd",
            "javascript:alert(1)",
            "chrome://settings",
            "data:text/html,x",
        ] {
            let error = web_url(refused).unwrap_err();
            assert_eq!(error.kind, ErrorKind::NotPermitted, "{refused}: {error:?}");
        }
        assert_eq!(
            web_url("http://").unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
    }
}

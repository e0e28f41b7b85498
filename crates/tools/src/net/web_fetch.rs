//! `web_fetch` (Echo and PicoBot): a guarded GET returning the readable text of an
//! HTML page as Markdown, pretty JSON, or plain text, cut to `max_chars`.

use super::body::{decode, Decoded};
use super::client::{Fetched, Outgoing};
use super::http_request::DEFAULT_TIMEOUT_SECS;
use super::readable::readable;
use super::Network;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT};
use reqwest::Method;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Default `max_chars`.
const DEFAULT_MAX_CHARS: usize = 50_000;

const ACCEPTED: &str =
    "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5";

pub(crate) struct WebFetch(pub(crate) Arc<Network>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WebFetchArgs {
    /// The page to read (http or https). Local and private addresses are refused unless the
    /// user allowed them in settings.
    #[schemars(length(min = 1, max = 8192))]
    url: String,
    /// The most characters of text to return (default 50000).
    #[schemars(range(min = 1, max = 1_000_000))]
    max_chars: Option<usize>,
}

#[async_trait]
impl Tool for WebFetch {
    type Args = WebFetchArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::WEB_FETCH
    }

    fn description(&self) -> &str {
        "Reads a web page: the readable text of HTML as Markdown (navigation, scripts and other \
         boilerplate removed; links kept), JSON pretty-printed, plain text as is. Redirects are \
         reported, not followed. Local and private network addresses are refused unless the \
         user allowed them."
    }

    async fn run(&self, _ctx: &ToolContext, args: WebFetchArgs) -> Result<Value, ToolError> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static(ACCEPTED));
        let fetched = self
            .0
            .client
            .send(Outgoing {
                method: Method::GET,
                url: args.url,
                url_field: "url",
                headers,
                body: None,
                timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            })
            .await?;
        if fetched.status.is_redirection() {
            return Ok(json!({
                "url": fetched.url.as_str(),
                "status": fetched.status.as_u16(),
                "redirect_to": fetched.header("location"),
                "note": "redirects are not followed automatically; call web_fetch with \
                         redirect_to if you want that page",
            }));
        }
        let (title, text) = page_text(page_of(&fetched)).await?;
        let max_chars = args.max_chars.unwrap_or(DEFAULT_MAX_CHARS);
        let total_chars = text.chars().count();
        let content = match text.char_indices().nth(max_chars) {
            Some((cut, _)) => &text[..cut],
            None => text.as_str(),
        };
        let mut result = json!({
            "url": fetched.url.as_str(),
            "status": fetched.status.as_u16(),
            "content_type": fetched.media_type(),
            "title": title,
            "content": content,
            "total_chars": total_chars,
            "truncated": total_chars > max_chars || fetched.truncated,
        });
        if fetched.truncated {
            result["note"] = Value::String(format!(
                "the page is larger than {} bytes; only its start was read",
                super::MAX_BODY_BYTES
            ));
        }
        Ok(result)
    }
}

/// What the text extraction needs, owned, for the blocking pool.
struct Page {
    url: String,
    media_type: String,
    decoded: Decoded,
    bytes: usize,
}

fn page_of(fetched: &Fetched) -> Page {
    Page {
        url: fetched.url.to_string(),
        media_type: fetched.media_type(),
        decoded: decode(fetched),
        bytes: fetched.body.len(),
    }
}

/// `(title, text)` of the page; HTML extraction runs on the blocking pool (it is CPU work
/// over up to 5 MB).
async fn page_text(page: Page) -> Result<(String, String), ToolError> {
    match page.decoded {
        Decoded::Json(value) => Ok((
            String::new(),
            serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string()),
        )),
        Decoded::Text(text) if looks_like_html(&page.media_type, &text) => {
            let url = page.url;
            let extracted = tokio::task::spawn_blocking(move || readable(&text, &url))
                .await
                .map_err(|e| ToolError::internal(format!("text extraction failed: {e}")))?;
            Ok((extracted.title, extracted.text))
        }
        Decoded::Text(text) => Ok((String::new(), text)),
        Decoded::Binary => Err(ToolError::new(
            ErrorKind::Unavailable,
            format!(
                "web_fetch reads HTML, JSON and text; {} is {} ({} bytes). http_request \
                 returns such content as base64.",
                page.url,
                if page.media_type.is_empty() {
                    "binary content"
                } else {
                    &page.media_type
                },
                page.bytes
            ),
        )),
    }
}

fn looks_like_html(media_type: &str, text: &str) -> bool {
    match media_type {
        "text/html" | "application/xhtml+xml" => true,
        "" => {
            let start: String = text.trim_start().chars().take(14).collect();
            let start = start.to_ascii_lowercase();
            start.starts_with("<!doctype html") || start.starts_with("<html")
        }
        _ => false,
    }
}

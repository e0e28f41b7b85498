//! The search backends: how a query becomes a guarded request to SearXNG (`format=json`),
//! Brave Search or Tavily, and how each answer becomes `{title, url, snippet}` results.

use super::SearchBackend;
use crate::error::{ErrorKind, ToolError};
use crate::net::client::{Fetched, GuardedClient, Outgoing};
use crate::net::http_request::DEFAULT_TIMEOUT_SECS;
use dom_query::Document;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use url::Url;

/// A chosen backend with its settings.
pub(super) enum Backend<'a> {
    Searxng { url: &'a str },
    Brave { key: &'a str, endpoint: &'a str },
    Tavily { key: &'a str, endpoint: &'a str },
}

impl Backend<'_> {
    pub(super) fn kind(&self) -> SearchBackend {
        match self {
            Self::Searxng { .. } => SearchBackend::Searxng,
            Self::Brave { .. } => SearchBackend::Brave,
            Self::Tavily { .. } => SearchBackend::Tavily,
        }
    }

    fn label(&self) -> &'static str {
        match self {
            Self::Searxng { .. } => "SearXNG",
            Self::Brave { .. } => "Brave Search",
            Self::Tavily { .. } => "Tavily",
        }
    }

    /// Runs the query and returns at most `max_results` results.
    pub(super) async fn search(
        &self,
        client: &GuardedClient,
        query: &str,
        max_results: usize,
    ) -> Result<Vec<Value>, ToolError> {
        let outgoing = self.request(query, max_results)?;
        let fetched = client.send(outgoing).await.map_err(|error| {
            let message = format!(
                "the {} service in settings: {}",
                self.label(),
                error.message
            );
            match error.kind {
                ErrorKind::InvalidArguments => ToolError::new(ErrorKind::Unavailable, message),
                kind => ToolError::new(kind, message),
            }
        })?;
        self.check_status(&fetched)?;
        let answer: Value = serde_json::from_slice(&fetched.body).map_err(|e| {
            ToolError::new(
                ErrorKind::Network,
                format!("{} did not answer with JSON: {e}", self.label()),
            )
        })?;
        Ok(self.results(&answer, max_results))
    }

    fn request(&self, query: &str, max_results: usize) -> Result<Outgoing, ToolError> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        let (method, url, body) = match self {
            Self::Searxng { url } => {
                let mut url = self.parse_url(url)?;
                if !url.path().ends_with("/search") {
                    let path = format!("{}/search", url.path().trim_end_matches('/'));
                    url.set_path(&path);
                }
                url.query_pairs_mut()
                    .append_pair("q", query)
                    .append_pair("format", "json");
                (Method::GET, url, None)
            }
            Self::Brave { key, endpoint } => {
                let mut url = self.parse_url(endpoint)?;
                url.query_pairs_mut()
                    .append_pair("q", query)
                    .append_pair("count", &max_results.to_string());
                headers.insert(
                    HeaderName::from_static("x-subscription-token"),
                    self.key_header(key)?,
                );
                (Method::GET, url, None)
            }
            Self::Tavily { key, endpoint } => {
                let url = self.parse_url(endpoint)?;
                headers.insert(AUTHORIZATION, self.key_header(&format!("Bearer {key}"))?);
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                let body = json!({"query": query, "max_results": max_results});
                (Method::POST, url, Some(body.to_string().into_bytes()))
            }
        };
        Ok(Outgoing {
            method,
            url: url.into(),
            url_field: "url",
            headers,
            body,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
        })
    }

    fn parse_url(&self, text: &str) -> Result<Url, ToolError> {
        Url::parse(text).map_err(|e| {
            ToolError::new(
                ErrorKind::Unavailable,
                format!(
                    "the {} URL in settings (`{text}`) is not valid: {e}",
                    self.label()
                ),
            )
        })
    }

    fn key_header(&self, key: &str) -> Result<HeaderValue, ToolError> {
        let mut value = HeaderValue::from_str(key).map_err(|_| {
            ToolError::new(
                ErrorKind::Unavailable,
                format!(
                    "the {} API key in settings has characters a key cannot have",
                    self.label()
                ),
            )
        })?;
        value.set_sensitive(true);
        Ok(value)
    }

    fn check_status(&self, fetched: &Fetched) -> Result<(), ToolError> {
        let status = fetched.status;
        if status.is_success() {
            return Ok(());
        }
        let label = self.label();
        let (kind, message) = match (self, status.as_u16()) {
            (Self::Searxng { .. }, 403) => (
                ErrorKind::Unavailable,
                "SearXNG refused the JSON format (403): enable it with `search.formats: \
                 [html, json]` in the instance's settings.yml"
                    .to_string(),
            ),
            (_, 401 | 403) => (
                ErrorKind::Unavailable,
                format!("{label} refused the API key ({status}); check it in Settings → Network"),
            ),
            (_, 429) => (
                ErrorKind::RateLimited,
                format!("{label} is rate limiting requests (429); try again later"),
            ),
            _ => (
                ErrorKind::Network,
                format!(
                    "{label} answered {status}: {}",
                    String::from_utf8_lossy(&fetched.body)
                        .chars()
                        .take(300)
                        .collect::<String>()
                ),
            ),
        };
        Err(ToolError::new(kind, message))
    }

    /// `{title, url, snippet}` of each result, in the backend's order.
    fn results(&self, answer: &Value, max_results: usize) -> Vec<Value> {
        let (list, snippet) = match self {
            Self::Searxng { .. } => (&answer["results"], "content"),
            Self::Brave { .. } => (&answer["web"]["results"], "description"),
            Self::Tavily { .. } => (&answer["results"], "content"),
        };
        list.as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(|item| {
                let url = item["url"].as_str()?;
                Some(json!({
                    "title": plain(item["title"].as_str().unwrap_or_default()),
                    "url": url,
                    "snippet": plain(item[snippet].as_str().unwrap_or_default()),
                }))
            })
            .take(max_results)
            .collect()
    }
}

/// Text without the markup some backends put in titles and snippets (`<strong>`, entities).
fn plain(fragment: &str) -> String {
    if !fragment.contains(['<', '&']) {
        return fragment.trim().to_string();
    }
    Document::fragment(fragment)
        .root()
        .text()
        .trim()
        .to_string()
}

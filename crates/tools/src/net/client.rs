//! The guarded HTTP client: every request passes the guard, connects only to the addresses it
//! checked (pinned resolver, no proxy, no redirects), runs under one deadline and reads at most
//! [`MAX_BODY_BYTES`] of the body.

use super::pinned::{PinnedResolver, Pins};
use super::refusal::guard_error;
use crate::error::{ErrorKind, ToolError};
use hearth_net::{Guard, HostResolver};
use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use std::error::Error as _;
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// The most response-body bytes read; the rest is left unread and the result says so.
pub const MAX_BODY_BYTES: usize = 5 * 1024 * 1024;

/// A request a tool wants sent.
pub(crate) struct Outgoing {
    pub(crate) method: Method,
    pub(crate) url: String,
    /// The argument holding the URL, named when it is invalid.
    pub(crate) url_field: &'static str,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Option<Vec<u8>>,
    /// Guard (with resolution), connection and body reading all fit in it.
    pub(crate) timeout: Duration,
}

/// What came back.
pub(crate) struct Fetched {
    pub(crate) url: Url,
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
    /// More than [`MAX_BODY_BYTES`] were available.
    pub(crate) truncated: bool,
}

impl Fetched {
    /// The media type without parameters, lower case (`""` when absent).
    pub(crate) fn media_type(&self) -> String {
        self.header("content-type")
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    }

    /// A header's value as text (`""` when absent or not text).
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
    }
}

/// The client shared by the network tools, and by whatever else Hearth downloads.
pub struct GuardedClient {
    guard: Guard,
    pins: Arc<Pins>,
    http: reqwest::Client,
}

impl GuardedClient {
    /// A client allowing the `allow_local` entries (see [`super::NetworkConfig::allow_local`]).
    pub fn new(
        allow_local: &[String],
        resolver: Arc<dyn HostResolver>,
    ) -> Result<Self, reqwest::Error> {
        let pins = Arc::new(Pins::default());
        let http = hearth_net::http::client_builder()
            .dns_resolver(PinnedResolver(Arc::clone(&pins)))
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Hearth/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            guard: Guard::new(allow_local, resolver),
            pins,
            http,
        })
    }

    /// Sends `out`: guard, pinned connection, capped body, all within `out.timeout`.
    pub(crate) async fn send(&self, out: Outgoing) -> Result<Fetched, ToolError> {
        let seconds = out.timeout.as_secs();
        let url = out.url.clone();
        match tokio::time::timeout(out.timeout, self.send_unbounded(out)).await {
            Ok(result) => result,
            Err(_) => Err(ToolError::new(
                ErrorKind::Timeout,
                format!("no complete response from {url} within {seconds} s"),
            )),
        }
    }

    /// A guarded GET whose body the caller reads as it arrives (a large download): the same
    /// guard, pinned addresses, no proxy and no redirects, but no deadline and no body cap.
    pub async fn open(
        &self,
        url: &str,
        headers: HeaderMap,
    ) -> Result<reqwest::Response, ToolError> {
        let checked = self
            .guard
            .check(url)
            .await
            .map_err(|e| guard_error(e, "url"))?;
        let _pin = checked
            .domain()
            .map(|domain| self.pins.pin(domain, checked.addresses.clone()));
        self.http
            .get(checked.url.clone())
            .headers(headers)
            .send()
            .await
            .map_err(|e| network_error(&checked.url, &e))
    }

    async fn send_unbounded(&self, out: Outgoing) -> Result<Fetched, ToolError> {
        let checked = self
            .guard
            .check(&out.url)
            .await
            .map_err(|e| guard_error(e, out.url_field))?;
        let _pin = checked
            .domain()
            .map(|domain| self.pins.pin(domain, checked.addresses.clone()));
        let mut request = self
            .http
            .request(out.method, checked.url.clone())
            .headers(out.headers);
        if let Some(body) = out.body {
            request = request.body(body);
        }
        let mut response = request
            .send()
            .await
            .map_err(|e| network_error(&checked.url, &e))?;
        let status = response.status();
        let headers = response.headers().clone();
        let mut body = Vec::new();
        let mut truncated = false;
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| network_error(&checked.url, &e))?
        {
            let room = MAX_BODY_BYTES - body.len();
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break;
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Fetched {
            url: checked.url,
            status,
            headers,
            body,
            truncated,
        })
    }
}

/// A transport failure with its causes spelled out (reqwest's own text is terse).
fn network_error(url: &Url, error: &reqwest::Error) -> ToolError {
    let mut message = format!("request to {url} failed");
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    if error.source().is_none() {
        message.push_str(&format!(": {error}"));
    }
    ToolError::new(ErrorKind::Network, message)
}

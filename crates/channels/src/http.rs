//! POSTs through the SSRF guard: the base URL is checked (local and special-purpose addresses
//! only where `allow_local_hosts` allows them), the connection is pinned to the addresses the
//! guard checked, no proxy, no redirects, one deadline; errors never contain the URL's path
//! (a Telegram token lives there).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hearth_core::ChannelError;
use hearth_net::{Guard, GuardError, SystemResolver};
use reqwest::header::{HeaderMap, CONTENT_TYPE, RETRY_AFTER};

/// The most answer bytes read.
const MAX_ANSWER_BYTES: usize = 1024 * 1024;
/// How much of an unexpected answer a failure quotes.
pub(crate) const QUOTED_BYTES: usize = 300;

/// A request body.
pub(crate) enum Body {
    Json(Vec<u8>),
    /// A `multipart/form-data` body with its boundary.
    Multipart {
        boundary: String,
        bytes: Vec<u8>,
    },
}

/// An HTTP answer.
pub(crate) struct Answer {
    pub(crate) status: reqwest::StatusCode,
    pub(crate) body: Vec<u8>,
    /// The `Retry-After` header in seconds, when it gave some.
    pub(crate) retry_after: Option<u64>,
}

impl Answer {
    /// The first bytes of the body as text, for failure messages.
    pub(crate) fn quoted(&self) -> String {
        let cut = &self.body[..self.body.len().min(QUOTED_BYTES)];
        let text = String::from_utf8_lossy(cut).trim().replace('\n', " ");
        if text.is_empty() {
            "(empty body)".to_string()
        } else {
            text
        }
    }
}

/// The guarded poster of one channel.
pub(crate) struct Http {
    guard: Guard,
}

impl Http {
    pub(crate) fn new(allow_local: &[String]) -> Http {
        Http {
            guard: Guard::new(allow_local, Arc::new(SystemResolver)),
        }
    }

    /// Checks `base` with the guard and POSTs `body` to `base` + `path` within `timeout`.
    /// `path` is never shown in errors.
    pub(crate) async fn post(
        &self,
        base: &str,
        path: &str,
        headers: HeaderMap,
        body: Body,
        timeout: Duration,
    ) -> Result<Answer, ChannelError> {
        match tokio::time::timeout(timeout, self.post_unbounded(base, path, headers, body)).await {
            Ok(answer) => answer,
            Err(_) => Err(ChannelError::TimedOut {
                origin: shown(base),
                waited: timeout,
            }),
        }
    }

    async fn post_unbounded(
        &self,
        base: &str,
        path: &str,
        headers: HeaderMap,
        body: Body,
    ) -> Result<Answer, ChannelError> {
        let checked = self.guard.check(base).await.map_err(|e| match e {
            GuardError::InvalidUrl(why) => ChannelError::Misconfigured(why),
            GuardError::Blocked(refusal) => ChannelError::Blocked(refusal.to_string()),
            GuardError::Resolve(why) => ChannelError::Unreachable(why),
        })?;
        let url = if path.is_empty() {
            checked.url.clone()
        } else {
            let joined = format!("{}/{path}", checked.url.as_str().trim_end_matches('/'));
            url::Url::parse(&joined).map_err(|e| {
                ChannelError::Misconfigured(format!("bad URL under {}: {e}", shown(base)))
            })?
        };
        let mut client = hearth_net::http::client_builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Hearth/", env!("CARGO_PKG_VERSION")));
        if let Some(domain) = checked.domain() {
            let port = url.port_or_known_default().unwrap_or(443);
            let pinned: Vec<SocketAddr> = checked
                .addresses
                .iter()
                .map(|ip| SocketAddr::new(*ip, port))
                .collect();
            client = client.resolve_to_addrs(domain, &pinned);
        }
        let client = client
            .build()
            .map_err(|e| ChannelError::Local(format!("the HTTP client could not be built: {e}")))?;
        let (content_type, bytes) = match body {
            Body::Json(bytes) => ("application/json".to_string(), bytes),
            Body::Multipart { boundary, bytes } => {
                (format!("multipart/form-data; boundary={boundary}"), bytes)
            }
        };
        let mut response = client
            .post(url)
            .headers(headers)
            .header(CONTENT_TYPE, content_type)
            .body(bytes)
            .send()
            .await
            .map_err(|e| {
                ChannelError::Unreachable(format!(
                    "the request to {} failed: {}",
                    shown(base),
                    causes(e)
                ))
            })?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok());
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| {
            ChannelError::Unreachable(format!(
                "the answer from {} broke off: {}",
                shown(base),
                causes(e)
            ))
        })? {
            let room = MAX_ANSWER_BYTES.saturating_sub(body.len());
            body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if room <= chunk.len() {
                break;
            }
        }
        Ok(Answer {
            status,
            body,
            retry_after,
        })
    }
}

/// The scheme, host and port of `base`, for messages.
fn shown(base: &str) -> String {
    url::Url::parse(base)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_else(|_| "the server".to_string())
}

/// A reqwest error without its URL, with its causes.
fn causes(error: reqwest::Error) -> String {
    use std::error::Error as _;
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Builds `multipart/form-data` bodies.
pub(crate) struct Multipart {
    boundary: String,
    bytes: Vec<u8>,
}

impl Multipart {
    pub(crate) fn new() -> Multipart {
        Multipart {
            boundary: format!("hearth-{}", uuid::Uuid::new_v4().simple()),
            bytes: Vec::new(),
        }
    }

    /// A text field.
    pub(crate) fn text(mut self, name: &str, value: &str) -> Multipart {
        self.head(name, None, None);
        self.bytes.extend_from_slice(value.as_bytes());
        self.bytes.extend_from_slice(b"\r\n");
        self
    }

    /// A file field.
    pub(crate) fn file(
        mut self,
        name: &str,
        file_name: &str,
        mime: &str,
        data: &[u8],
    ) -> Multipart {
        self.head(name, Some(file_name), Some(mime));
        self.bytes.extend_from_slice(data);
        self.bytes.extend_from_slice(b"\r\n");
        self
    }

    fn head(&mut self, name: &str, file_name: Option<&str>, mime: Option<&str>) {
        let quote = |s: &str| s.replace(['"', '\r', '\n'], "_");
        let mut head = format!(
            "--{}\r\nContent-Disposition: form-data; name=\"{}\"",
            self.boundary,
            quote(name)
        );
        if let Some(file_name) = file_name {
            head.push_str(&format!("; filename=\"{}\"", quote(file_name)));
        }
        head.push_str("\r\n");
        if let Some(mime) = mime {
            head.push_str(&format!("Content-Type: {mime}\r\n"));
        }
        head.push_str("\r\n");
        self.bytes.extend_from_slice(head.as_bytes());
    }

    pub(crate) fn finish(mut self) -> Body {
        self.bytes
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        Body::Multipart {
            boundary: self.boundary,
            bytes: self.bytes,
        }
    }
}

//! The HTTP+SSE transport of protocol versions before 2025-03-26, for servers that refuse the
//! streamable HTTP `initialize` POST (`rmcp` 3 has no client for it): a `GET` opens the event
//! stream, whose first `endpoint` event names where to `POST` messages (on the same origin);
//! the server's messages come as `message` events on the stream.

use std::collections::BTreeMap;

use futures::stream::BoxStream;
use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use reqwest::Url;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleClient;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The largest event Hearth reads (a bigger one ends the stream).
const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// Why a message could not be posted.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SseError {
    #[error("POST {0}: {1}")]
    Post(String, String),
}

/// A connection over HTTP+SSE.
pub(crate) struct SseTransport {
    http: reqwest::Client,
    endpoint: Url,
    headers: HeaderMap,
    incoming: mpsc::Receiver<ServerJsonRpcMessage>,
    reader: JoinHandle<()>,
}

/// Opens the event stream at `url` and waits for its `endpoint` event.
pub(crate) async fn open(
    url: &str,
    headers: &BTreeMap<String, String>,
) -> Result<SseTransport, String> {
    let headers = header_map(headers)?;
    let base = Url::parse(url).map_err(|e| format!("url `{url}`: {e}"))?;
    let http = hearth_net::http::client_builder()
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let response = http
        .get(base.clone())
        .headers(headers.clone())
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?;
    let is_stream = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if !response.status().is_success() || !is_stream {
        return Err(format!(
            "GET {url} answered {} without an event stream",
            response.status()
        ));
    }
    let mut events = Events::new(response.bytes_stream().boxed());
    let endpoint = match events.next().await {
        Some(event) if event.kind == "endpoint" => base
            .join(event.data.trim())
            .map_err(|e| format!("endpoint `{}`: {e}", event.data))?,
        Some(event) => {
            return Err(format!(
                "the first event is `{}`, not `endpoint`",
                event.kind
            ))
        }
        None => return Err("the event stream ended before naming its endpoint".to_string()),
    };
    if endpoint.origin() != base.origin() {
        return Err(format!(
            "the endpoint {endpoint} is on another origin than {url}"
        ));
    }
    let (sender, incoming) = mpsc::channel(64);
    let reader = tokio::spawn(async move {
        while let Some(event) = events.next().await {
            if event.kind != "message" {
                continue;
            }
            match serde_json::from_str::<ServerJsonRpcMessage>(&event.data) {
                Ok(message) => {
                    if sender.send(message).await.is_err() {
                        return;
                    }
                }
                Err(error) => tracing::warn!(%error, "an SSE message that is not JSON-RPC"),
            }
        }
    });
    Ok(SseTransport {
        http,
        endpoint,
        headers,
        incoming,
        reader,
    })
}

fn header_map(headers: &BTreeMap<String, String>) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let header =
            HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("header `{name}`: {e}"))?;
        let value = HeaderValue::from_str(value).map_err(|e| format!("header `{name}`: {e}"))?;
        map.insert(header, value);
    }
    Ok(map)
}

impl Transport<RoleClient> for SseTransport {
    type Error = SseError;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl std::future::Future<Output = Result<(), SseError>> + Send + 'static {
        let http = self.http.clone();
        let endpoint = self.endpoint.clone();
        let headers = self.headers.clone();
        async move {
            let failed = |e: String| SseError::Post(endpoint.to_string(), e);
            let response = http
                .post(endpoint.clone())
                .headers(headers)
                .json(&item)
                .send()
                .await
                .map_err(|e| failed(e.to_string()))?;
            if response.status().is_success() {
                Ok(())
            } else {
                Err(failed(response.status().to_string()))
            }
        }
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), SseError> {
        self.reader.abort();
        Ok(())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// One server-sent event.
struct Event {
    kind: String,
    data: String,
}

/// The events of an SSE body (`event:` and `data:` lines up to a blank line; comments skipped).
struct Events {
    body: BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: Vec<u8>,
}

impl Events {
    fn new(body: BoxStream<'static, reqwest::Result<bytes::Bytes>>) -> Events {
        Events {
            body,
            buffer: Vec::new(),
        }
    }

    async fn next(&mut self) -> Option<Event> {
        let mut kind = String::new();
        let mut data: Vec<String> = Vec::new();
        loop {
            let Some(end) = self.buffer.iter().position(|b| *b == b'\n') else {
                if self.buffer.len() > MAX_EVENT_BYTES {
                    return None;
                }
                let chunk = self.body.next().await?.ok()?;
                self.buffer.extend_from_slice(&chunk);
                continue;
            };
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if data.is_empty() {
                    kind.clear();
                    continue;
                }
                let kind = if kind.is_empty() {
                    "message".to_string()
                } else {
                    kind
                };
                return Some(Event {
                    kind,
                    data: data.join("\n"),
                });
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => kind = value.to_string(),
                "data" => data.push(value.to_string()),
                _ => {}
            }
        }
    }
}

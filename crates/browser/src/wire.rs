//! A second, raw CDP connection to the browser with one flattened session per tab: the big
//! snapshot replies (the accessibility tree, the DOM snapshot) come back as text that the
//! caller decodes once into typed, borrowing structs instead of chromiumoxide's generic
//! JSON values (which decoded a 12 MB reply three times over).

use crate::cdp::CdpFailure;
use async_tungstenite::tungstenite::protocol::WebSocketConfig;
use async_tungstenite::tungstenite::Message;
use futures::StreamExt;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

type Waiters = Arc<Mutex<HashMap<u64, oneshot::Sender<String>>>>;

/// A raw connection and the session of one page target on it.
pub struct Wire {
    outgoing: mpsc::UnboundedSender<String>,
    waiters: Waiters,
    next: AtomicU64,
    session: String,
    tasks: [JoinHandle<()>; 2],
}

impl Drop for Wire {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Only the id of a message (the rest is skipped without being built).
#[derive(Deserialize)]
struct Head {
    id: Option<u64>,
}

/// A reply: its result (decoded as `T`) or Chrome's error.
#[derive(Deserialize)]
struct Reply<T> {
    result: Option<T>,
    error: Option<ReplyError>,
}

#[derive(Deserialize)]
struct ReplyError {
    message: String,
}

fn failure(method: &'static str, message: impl ToString) -> CdpFailure {
    CdpFailure {
        method,
        message: message.to_string(),
    }
}

impl Wire {
    /// Connects to the browser at `ws_url` and attaches to page target `target_id`.
    pub async fn attach(ws_url: &str, target_id: &str) -> Result<Wire, CdpFailure> {
        let config = WebSocketConfig::default()
            .max_message_size(None)
            .max_frame_size(None);
        let (socket, _) = async_tungstenite::tokio::connect_async_with_config(ws_url, Some(config))
            .await
            .map_err(|e| failure("connect", e))?;
        let (mut sink, mut stream) = socket.split();
        let (outgoing, mut queue) = mpsc::unbounded_channel::<String>();
        let writer = tokio::spawn(async move {
            while let Some(text) = queue.recv().await {
                if sink.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
        });
        let waiters: Waiters = Arc::default();
        let readers = Arc::clone(&waiters);
        let reader = tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let Ok(Head { id: Some(id) }) = serde_json::from_str::<Head>(text.as_str()) else {
                    continue;
                };
                let waiter = readers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&id);
                if let Some(waiter) = waiter {
                    let _ = waiter.send(text.as_str().to_string());
                }
            }
            // The connection is gone: every waiter learns it by its sender being dropped.
            readers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
        });
        let mut wire = Wire {
            outgoing,
            waiters,
            next: AtomicU64::new(1),
            session: String::new(),
            tasks: [writer, reader],
        };
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Attached {
            session_id: String,
        }
        let attached: Attached = wire
            .send(
                "Target.attachToTarget",
                json!({"targetId": target_id, "flatten": true}),
                None,
            )
            .await?;
        wire.session = attached.session_id;
        Ok(wire)
    }

    /// Sends `method` to the tab's session and decodes its result as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: &'static str,
        params: Value,
    ) -> Result<T, CdpFailure> {
        self.send(method, params, Some(&self.session)).await
    }

    /// Sends `method` and returns the reply's text, for a caller that decodes it borrowing
    /// (see [`decode`]).
    pub async fn call_text(
        &self,
        method: &'static str,
        params: Value,
    ) -> Result<String, CdpFailure> {
        self.raw(method, params, Some(&self.session)).await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        method: &'static str,
        params: Value,
        session: Option<&str>,
    ) -> Result<T, CdpFailure> {
        let text = self.raw(method, params, session).await?;
        let reply: Reply<T> = serde_json::from_str(&text).map_err(|e| failure(method, e))?;
        reply_result(method, reply)
    }

    async fn raw(
        &self,
        method: &'static str,
        params: Value,
        session: Option<&str>,
    ) -> Result<String, CdpFailure> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let (tell, answer) = oneshot::channel();
        self.waiters
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, tell);
        let gone = || failure(method, "the browser connection closed");
        self.outgoing
            .send(message.to_string())
            .map_err(|_| gone())?;
        answer.await.map_err(|_| gone())
    }
}

fn reply_result<T>(method: &'static str, reply: Reply<T>) -> Result<T, CdpFailure> {
    match (reply.result, reply.error) {
        (_, Some(error)) => Err(failure(method, error.message)),
        (Some(result), None) => Ok(result),
        (None, None) => Err(failure(method, "no result")),
    }
}

/// Decodes the reply `text` of `method` as `T`, borrowing its strings.
pub fn decode<'a, T: Deserialize<'a>>(
    method: &'static str,
    text: &'a str,
) -> Result<T, CdpFailure> {
    let reply: Reply<T> = serde_json::from_str(text).map_err(|e| failure(method, e))?;
    reply_result(method, reply)
}

//! A second, raw CDP connection to the browser with one flattened session per tab: replies are
//! decoded once, straight into the caller's types (chromiumoxide decodes every reply into
//! generic JSON first), any session on the connection can be addressed, and the tab's
//! navigations are journaled in the order Chrome reports them (see `journal`). A connection
//! without a tab follows browser-level events (the downloads, see `downloads`).

use crate::cdp::CdpFailure;
use crate::journal::{self, Journal};
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
/// The sessions of the tab's out-of-process iframes, by frame id.
type FrameSessions = Arc<Mutex<HashMap<String, String>>>;

/// A raw connection and the session of one page target on it, plus the sessions of the page's
/// out-of-process (cross-site) iframes, attached as Chrome makes them.
pub struct Wire {
    outgoing: mpsc::UnboundedSender<String>,
    waiters: Waiters,
    next: AtomicU64,
    session: String,
    frames: FrameSessions,
    journal: Arc<Journal>,
    tasks: [JoinHandle<()>; 2],
}

impl Drop for Wire {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Only the id or the event name of a message (the rest is skipped without being built).
#[derive(Deserialize)]
struct Head<'a> {
    id: Option<u64>,
    #[serde(borrow)]
    method: Option<std::borrow::Cow<'a, str>>,
}

/// The ids of the commands the reader sends itself (their replies are not waited for); CDP ids
/// are 32-bit.
const OWN_IDS: u64 = 1 << 30;

/// Follows an iframe target being attached or detached (`Target.attachedToTarget` and
/// `Target.detachedFromTarget` of auto-attach): records its session, and has Chrome attach the
/// frames inside it and run `init_script` in its documents.
fn follow_frames(
    text: &str,
    frames: &FrameSessions,
    outgoing: &mpsc::UnboundedSender<String>,
    own: &mut u64,
    init_script: &str,
) {
    let Ok(event) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let params = &event["params"];
    let mut sessions = frames.lock().unwrap_or_else(PoisonError::into_inner);
    if event["method"] == "Target.detachedFromTarget" {
        sessions.retain(|_, session| params["sessionId"] != json!(session));
        return;
    }
    let (Some(session), Some(frame)) = (
        params["sessionId"].as_str(),
        params["targetInfo"]["targetId"].as_str(),
    ) else {
        return;
    };
    if params["targetInfo"]["type"] != "iframe" {
        return;
    }
    sessions.insert(frame.to_string(), session.to_string());
    let setup = [
        ("Target.setAutoAttach", auto_attach()),
        ("Page.enable", json!({})),
        (
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": init_script}),
        ),
        ("Runtime.runIfWaitingForDebugger", json!({})),
        ("Runtime.evaluate", json!({"expression": init_script})),
    ];
    for (method, params) in setup {
        *own += 1;
        let message = json!({"id": *own, "method": method, "params": params, "sessionId": session});
        let _ = outgoing.send(message.to_string());
    }
}

/// Chrome attaches every iframe target of a session, paused until it is set up.
fn auto_attach() -> Value {
    json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
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

/// Browser-level events a connection hands on as they come (their names, and where to).
pub type Forward = (&'static [&'static str], mpsc::UnboundedSender<String>);

impl Wire {
    /// Connects to the browser at `ws_url` and attaches to page target `target_id` and (as they
    /// come) its iframe targets, running `init_script` in the iframes' documents.
    pub async fn attach(
        ws_url: &str,
        target_id: &str,
        init_script: &'static str,
    ) -> Result<Wire, CdpFailure> {
        let mut wire = Wire::connect(ws_url, target_id, init_script, None).await?;
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
        let _: Value = wire.call("Target.setAutoAttach", auto_attach()).await?;
        for domain in ["Network.enable", "Page.enable"] {
            let _: Value = wire.call(domain, json!({})).await?;
        }
        Ok(wire)
    }

    /// A connection to the browser itself (no tab) at `ws_url`, handing on the events of
    /// `forward`; its commands go through [`Wire::call_browser`].
    pub async fn browser(ws_url: &str, forward: Forward) -> Result<Wire, CdpFailure> {
        Wire::connect(ws_url, "", "", Some(forward)).await
    }

    /// Sends `method` to the browser target (no session) and decodes its result as `T`.
    pub async fn call_browser<T: DeserializeOwned>(
        &self,
        method: &'static str,
        params: Value,
    ) -> Result<T, CdpFailure> {
        self.send(method, params, None).await
    }

    async fn connect(
        ws_url: &str,
        target_id: &str,
        init_script: &'static str,
        forward: Option<Forward>,
    ) -> Result<Wire, CdpFailure> {
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
        let frames: FrameSessions = Arc::default();
        let followed = Arc::clone(&frames);
        let own_sender = outgoing.clone();
        let journal = Arc::new(Journal::new(target_id));
        let journaled = Arc::clone(&journal);
        let reader = tokio::spawn(async move {
            let mut own = OWN_IDS;
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let Ok(head) = serde_json::from_str::<Head>(text.as_str()) else {
                    continue;
                };
                let id = match (head.id, head.method.as_deref()) {
                    (Some(id), _) => id,
                    (None, Some("Target.attachedToTarget" | "Target.detachedFromTarget")) => {
                        follow_frames(&text, &followed, &own_sender, &mut own, init_script);
                        continue;
                    }
                    (None, Some(method)) if journal::EVENTS.contains(&method) => {
                        journaled.record(text.as_str());
                        continue;
                    }
                    (None, Some(method)) => {
                        if let Some((_, to)) = forward
                            .as_ref()
                            .filter(|(names, _)| names.contains(&method))
                        {
                            let _ = to.send(text.as_str().to_string());
                        }
                        continue;
                    }
                    _ => continue,
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
        Ok(Wire {
            outgoing,
            waiters,
            next: AtomicU64::new(1),
            session: String::new(),
            frames,
            journal,
            tasks: [writer, reader],
        })
    }

    /// The tab's navigation journal.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Returns once every event Chrome's browser process sent this session before now has been
    /// read (a command it answers itself: its answer comes after them).
    pub async fn caught_up(&self) -> Result<(), CdpFailure> {
        self.call::<Value>("Page.getNavigationHistory", json!({}))
            .await
            .map(drop)
    }

    /// The session of the out-of-process iframe showing frame `frame_id`, if it is one.
    pub fn frame_session(&self, frame_id: &str) -> Option<String> {
        self.frames
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(frame_id)
            .cloned()
    }

    /// The sessions of the page's out-of-process iframes.
    pub fn frame_sessions(&self) -> Vec<String> {
        let sessions = self.frames.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.values().cloned().collect()
    }

    /// Sends `method` to `session` (the tab's own when `None`) and decodes its result as `T`.
    pub async fn call_in<T: DeserializeOwned>(
        &self,
        session: Option<&str>,
        method: &'static str,
        params: Value,
    ) -> Result<T, CdpFailure> {
        self.send(method, params, Some(session.unwrap_or(&self.session)))
            .await
    }

    /// Sends `method` to the tab's session and decodes its result as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: &'static str,
        params: Value,
    ) -> Result<T, CdpFailure> {
        self.send(method, params, Some(&self.session)).await
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

//! A local Telegram Bot API server for tests: `getMe`, `getUpdates` (long polling over a queue
//! of updates the test pushes, with the API's offset semantics), `sendMessage`, `sendPhoto` and
//! `sendDocument` (JSON or multipart), each call kept in a journal; a method can be made to
//! answer 500 a number of times, 401 always, or never answer.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::{watch, Notify};

/// One call the server received.
#[derive(Debug, Clone)]
pub struct BotCall {
    pub method: String,
    /// The JSON body, or the multipart text fields as a JSON object.
    pub fields: Value,
    /// Multipart files: (field, file name, content type, bytes).
    pub files: Vec<(String, String, String, Vec<u8>)>,
}

impl BotCall {
    /// A text field (`chat_id` numbers as text).
    pub fn field(&self, name: &str) -> String {
        match &self.fields[name] {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        }
    }
}

/// How a method answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Answer 500 this many more times.
    Fail(usize),
    /// Never answer.
    Hang,
    /// Answer 401 `Unauthorized`, as Telegram does for a revoked token, every time.
    Unauthorized,
}

#[derive(Default)]
struct Inner {
    journal: Vec<BotCall>,
    updates: Vec<Value>,
    next_update: i64,
    next_message: i64,
    behaviour: HashMap<String, Behaviour>,
}

struct Shared {
    token: String,
    inner: Mutex<Inner>,
    /// Signalled on every journal entry and every pushed update.
    changed: watch::Sender<u64>,
    updates: Notify,
}

/// The running server; stops when dropped.
pub struct BotApiServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    _shutdown: watch::Sender<bool>,
}

impl BotApiServer {
    /// Serves the bot with `token` on 127.0.0.1 (a free port).
    pub async fn start(token: &str) -> BotApiServer {
        let shared = Arc::new(Shared {
            token: token.to_string(),
            inner: Mutex::new(Inner {
                next_update: 1,
                next_message: 1,
                ..Inner::default()
            }),
            changed: watch::channel(0).0,
            updates: Notify::new(),
        });
        let app = Router::new()
            .route("/{bot}/{method}", post(call))
            .with_state(shared.clone());
        let (addr, shutdown) = crate::webhook_receiver::serve(app).await;
        BotApiServer {
            addr,
            shared,
            _shutdown: shutdown,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The `allow_local_hosts` entry for this server.
    pub fn allow_entry(&self) -> String {
        self.addr.to_string()
    }

    /// Queues a text message from `chat_id`; returns its `update_id`.
    pub fn push_text(&self, chat_id: i64, text: &str) -> i64 {
        let mut inner = self.shared.inner.lock().unwrap();
        let id = inner.next_update;
        inner.next_update += 1;
        inner.updates.push(json!({
            "update_id": id,
            "message": {
                "message_id": id,
                "date": 1_700_000_000,
                "chat": {"id": chat_id, "type": "private"},
                "from": {"id": chat_id, "is_bot": false, "first_name": "Tester", "username": "tester"},
                "text": text,
            }
        }));
        drop(inner);
        self.shared.updates.notify_waiters();
        self.shared.changed.send_modify(|n| *n += 1);
        id
    }

    /// Makes `method` answer as `behaviour` says.
    pub fn set(&self, method: &str, behaviour: Behaviour) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.behaviour.insert(method.to_string(), behaviour);
    }

    /// Makes `method` answer normally again.
    pub fn answer_normally(&self, method: &str) {
        self.shared.inner.lock().unwrap().behaviour.remove(method);
    }

    /// Every call so far.
    pub fn journal(&self) -> Vec<BotCall> {
        self.shared.inner.lock().unwrap().journal.clone()
    }

    /// The calls of `method` so far.
    pub fn calls(&self, method: &str) -> Vec<BotCall> {
        self.journal()
            .into_iter()
            .filter(|c| c.method == method)
            .collect()
    }

    /// Waits (at most 30 s, then panics) until `ready` holds for the journal.
    pub async fn wait_for(&self, what: &str, ready: impl Fn(&[BotCall]) -> bool) {
        let mut changed = self.shared.changed.subscribe();
        let waited = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                if ready(&self.journal()) {
                    return;
                }
                let _ = changed.changed().await;
            }
        })
        .await;
        if waited.is_err() {
            panic!(
                "timed out waiting for {what}; journal: {:#?}",
                self.journal()
            );
        }
    }
}

fn api_error(status: StatusCode, description: &str) -> Response {
    let body = json!({"ok": false, "error_code": status.as_u16(), "description": description});
    (status, Json(body)).into_response()
}

async fn call(
    State(shared): State<Arc<Shared>>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if bot.strip_prefix("bot") != Some(shared.token.as_str()) {
        return api_error(StatusCode::UNAUTHORIZED, "Unauthorized");
    }
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let (fields, files) = match content_type.split_once("boundary=") {
        Some((_, boundary)) => multipart(&body, boundary),
        None => (
            serde_json::from_slice(&body).unwrap_or(Value::Null),
            Vec::new(),
        ),
    };
    let entry = BotCall {
        method: method.clone(),
        fields: fields.clone(),
        files,
    };
    let behaviour = {
        let mut inner = shared.inner.lock().unwrap();
        inner.journal.push(entry);
        let behaviour = inner.behaviour.get(&method).copied();
        if let Some(Behaviour::Fail(n)) = behaviour {
            if n <= 1 {
                inner.behaviour.remove(&method);
            } else {
                inner
                    .behaviour
                    .insert(method.clone(), Behaviour::Fail(n - 1));
            }
        }
        behaviour
    };
    shared.changed.send_modify(|n| *n += 1);
    match behaviour {
        Some(Behaviour::Fail(_)) => {
            return api_error(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error")
        }
        Some(Behaviour::Hang) => std::future::pending::<()>().await,
        Some(Behaviour::Unauthorized) => {
            return api_error(StatusCode::UNAUTHORIZED, "Unauthorized");
        }
        None => {}
    }
    match method.as_str() {
        "getMe" => Json(json!({"ok": true, "result": {
            "id": 1, "is_bot": true, "first_name": "Hearth test", "username": "hearth_test_bot"
        }}))
        .into_response(),
        "getUpdates" => updates(&shared, &fields).await,
        "sendMessage" | "sendPhoto" | "sendDocument" => sent(&shared, &method, &fields),
        _ => api_error(StatusCode::NOT_FOUND, "Not Found: method not found"),
    }
}

/// The updates from `offset` on (older ones are confirmed and dropped), waiting up to
/// `timeout` seconds for one.
async fn updates(shared: &Shared, fields: &Value) -> Response {
    let offset = fields["offset"].as_i64().unwrap_or(0);
    let timeout = fields["timeout"].as_u64().unwrap_or(0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let waiting = shared.updates.notified();
        let batch: Vec<Value> = {
            let mut inner = shared.inner.lock().unwrap();
            inner
                .updates
                .retain(|u| u["update_id"].as_i64().unwrap_or(0) >= offset);
            inner.updates.clone()
        };
        if !batch.is_empty() || tokio::time::Instant::now() >= deadline {
            return Json(json!({"ok": true, "result": batch})).into_response();
        }
        let _ = tokio::time::timeout_at(deadline, waiting).await;
    }
}

fn sent(shared: &Shared, method: &str, fields: &Value) -> Response {
    let chat = match &fields["chat_id"] {
        Value::String(s) => s.parse::<i64>().ok(),
        other => other.as_i64(),
    };
    let Some(chat) = chat else {
        return api_error(StatusCode::BAD_REQUEST, "Bad Request: chat not found");
    };
    if method == "sendMessage" {
        let length: usize = fields["text"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .map(char::len_utf16)
            .sum();
        if length == 0 || length > 4096 * 5 {
            return api_error(StatusCode::BAD_REQUEST, "Bad Request: message is too long");
        }
    }
    let id = {
        let mut inner = shared.inner.lock().unwrap();
        let id = inner.next_message;
        inner.next_message += 1;
        id
    };
    Json(json!({"ok": true, "result": {
        "message_id": id, "date": 1_700_000_000, "chat": {"id": chat, "type": "private"}
    }}))
    .into_response()
}

type Files = Vec<(String, String, String, Vec<u8>)>;

/// The text fields (as a JSON object) and files of a `multipart/form-data` body.
fn multipart(body: &[u8], boundary: &str) -> (Value, Files) {
    let boundary = boundary.trim_matches('"');
    let delimiter = format!("--{boundary}");
    let mut fields = serde_json::Map::new();
    let mut files = Vec::new();
    for part in split(body, delimiter.as_bytes()).into_iter().skip(1) {
        if part.starts_with(b"--") {
            break;
        }
        let part = part.strip_prefix(b"\r\n").unwrap_or(part);
        let Some(at) = find(part, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&part[..at]).to_string();
        let data = &part[at + 4..];
        let data = data.strip_suffix(b"\r\n").unwrap_or(data);
        let param = |key: &str| {
            head.split(';')
                .map(str::trim)
                .find_map(|p| p.strip_prefix(&format!("{key}=\"")))
                .map(|v| v.split('"').next().unwrap_or_default().to_string())
        };
        let name = param("name").unwrap_or_default();
        let mime = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Type: "))
            .unwrap_or_default()
            .to_string();
        match param("filename") {
            Some(file_name) => files.push((name, file_name, mime, data.to_vec())),
            None => {
                fields.insert(
                    name,
                    Value::String(String::from_utf8_lossy(data).to_string()),
                );
            }
        }
    }
    (Value::Object(fields), files)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(body: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = body;
    while let Some(at) = find(rest, delimiter) {
        parts.push(&rest[..at]);
        rest = &rest[at + delimiter.len()..];
    }
    parts.push(rest);
    parts
}

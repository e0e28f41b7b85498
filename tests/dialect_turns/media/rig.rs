//! What the media tests share: a registry built by the engine's builder from settings and an
//! in-memory keychain, a tool context over a temporary workspace, a stand-in HTTP server with
//! a journal, and PNG fixtures.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::any;
use axum::Router;
use hearth_core::{DataDir, SecretError, SecretStore};
use hearth_engine::{EngineBuilder, OsNotifier};
use hearth_protocol::Settings;
use hearth_store::Store;
use hearth_tools::{Dialect, Registry, ToolContext};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Keys in memory, by keychain account.
#[derive(Default)]
pub struct MemorySecrets(pub Mutex<HashMap<String, String>>);

impl SecretStore for MemorySecrets {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self.0.lock().unwrap().get(account).cloned())
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.0.lock().unwrap().insert(account.into(), secret.into());
        Ok(())
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.0.lock().unwrap().remove(account);
        Ok(())
    }
}

/// A data dir, its store and the registry the builder makes for `settings` with `keys`.
pub struct Home {
    pub dir: tempfile::TempDir,
    pub registry: Registry,
}

impl Home {
    pub fn new(settings: &Settings, keys: &[(&str, &str)]) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::at(dir.path().to_path_buf());
        data.ensure().unwrap();
        let store = Arc::new(Store::open(&data.database()).unwrap());
        let secrets = MemorySecrets::default();
        for (account, key) in keys {
            secrets.set(account, key).unwrap();
        }
        let builder = EngineBuilder::new(store, data, Arc::new(secrets), Arc::new(OsNotifier));
        let registry = builder.registry(Dialect::Hearth, settings);
        Home { dir, registry }
    }

    pub fn workspace(&self) -> std::path::PathBuf {
        self.dir.path().join("workspace")
    }

    pub fn context(&self) -> ToolContext {
        std::fs::create_dir_all(self.workspace()).unwrap();
        ToolContext {
            workspace: self.workspace(),
            data_dir: self.dir.path().to_path_buf(),
            session_id: "desktop:media-test".into(),
            cancel: CancellationToken::new(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        }
    }

    /// Calls `tool` with `args`: its result, or the error as the model reads it.
    pub async fn call(&self, tool: &str, args: Value) -> Result<Value, Value> {
        self.registry
            .dispatch(tool, &args.to_string(), &self.context())
            .await
            .map_err(|e| e.to_json())
    }
}

/// The error kind of a failed call.
pub fn kind(error: &Value) -> &str {
    error["error"]["kind"].as_str().unwrap_or_default()
}

/// A `width`×`height` PNG of a colour gradient (noise-free, so it compresses well).
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// Writes `bytes` at `name` in the workspace.
pub fn put(workspace: &Path, name: &str, bytes: &[u8]) {
    std::fs::create_dir_all(workspace).unwrap();
    std::fs::write(workspace.join(name), bytes).unwrap();
}

/// One request a stand-in received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub authorization: Option<String>,
    pub body: Value,
}

/// What a stand-in answers: status, content type and body, by request path.
pub type Answer = Arc<dyn Fn(&str) -> (StatusCode, &'static str, Vec<u8>) + Send + Sync>;

/// A stand-in HTTP server on 127.0.0.1 answering with `answer` and keeping a journal.
pub struct StandIn {
    pub port: u16,
    pub journal: Arc<Mutex<Vec<Seen>>>,
}

impl StandIn {
    pub async fn start(answer: Answer) -> StandIn {
        let journal: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let seen = journal.clone();
        let app = Router::new().fallback(any(
            move |uri: axum::http::Uri, headers: HeaderMap, body: Bytes| {
                let answer = answer.clone();
                let seen = seen.clone();
                async move {
                    seen.lock().unwrap().push(Seen {
                        path: uri.path().to_string(),
                        authorization: headers
                            .get("authorization")
                            .map(|v| v.to_str().unwrap().to_string()),
                        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
                    });
                    let (status, content_type, bytes) = answer(uri.path());
                    (status, [("content-type", content_type)], bytes).into_response()
                }
            },
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        StandIn { port, journal }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.journal.lock().unwrap().clone()
    }
}

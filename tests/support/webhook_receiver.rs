//! A local webhook receiver for tests: records each POST (headers and JSON body) and answers
//! with the status and body the test chose, or never.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// What the receiver answers.
#[derive(Debug, Clone)]
pub enum Answer {
    Status(u16, String),
    /// Never answer.
    Hang,
}

struct Shared {
    received: Mutex<Vec<(HeaderMap, Value)>>,
    answer: Mutex<Answer>,
}

/// The running receiver; stops when dropped.
pub struct WebhookReceiver {
    addr: SocketAddr,
    shared: Arc<Shared>,
    _shutdown: watch::Sender<bool>,
}

impl WebhookReceiver {
    /// Listens on 127.0.0.1 (a free port), answering 200 `{"id":"evt-1"}`.
    pub async fn start() -> WebhookReceiver {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            received: Mutex::new(Vec::new()),
            answer: Mutex::new(Answer::Status(200, r#"{"id":"evt-1"}"#.into())),
        });
        let app = Router::new()
            .route("/hook", post(receive))
            .with_state(shared.clone());
        let (shutdown, mut stop) = watch::channel(false);
        tokio::spawn(async move {
            let signal = async move {
                let _ = stop.wait_for(|s| *s).await;
            };
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(signal)
                .await;
        });
        WebhookReceiver {
            addr,
            shared,
            _shutdown: shutdown,
        }
    }

    /// `http://127.0.0.1:PORT/hook`.
    pub fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    /// The `allow_local_hosts` entry for this receiver.
    pub fn allow_entry(&self) -> String {
        self.addr.to_string()
    }

    pub fn answer(&self, answer: Answer) {
        *self.shared.answer.lock().unwrap() = answer;
    }

    /// Every request so far: headers and JSON body.
    pub fn received(&self) -> Vec<(HeaderMap, Value)> {
        self.shared.received.lock().unwrap().clone()
    }
}

/// Serves `app` on 127.0.0.1 (a free port) until the returned sender is dropped or set.
pub(crate) async fn serve(app: Router) -> (SocketAddr, watch::Sender<bool>) {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (shutdown, mut stop) = watch::channel(false);
    tokio::spawn(async move {
        let signal = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(signal)
            .await;
    });
    (addr, shutdown)
}

async fn receive(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let json = serde_json::from_slice(&body).unwrap_or(Value::Null);
    shared.received.lock().unwrap().push((headers, json));
    let answer = shared.answer.lock().unwrap().clone();
    match answer {
        Answer::Status(code, body) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            (status, body).into_response()
        }
        Answer::Hang => std::future::pending().await,
    }
}

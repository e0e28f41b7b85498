//! The scripted model server: a FIFO of replies served over the four providers' wire formats
//! on 127.0.0.1, with a request journal and fault injection.

mod anthropic;
mod client;
mod gemini;
mod journal;
mod ollama;
mod openai;
mod reply;
mod routes;
mod turn;
mod wire;

use std::collections::VecDeque;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::watch;

pub use journal::RecordedRequest;
pub use reply::{Reply, DEFAULT_USAGE};

use journal::Journal;
use wire::StreamContext;

/// Model ids listed by every format's model-listing endpoint.
pub const MODELS: &[&str] = &["scripted-small", "scripted-large"];

/// The context window every scripted model reports (llama.cpp `/props` `n_ctx`, Ollama
/// `/api/show`), the one of the local server in the issue that asked for it.
pub const CONTEXT_WINDOW: u64 = 8_192;

/// The context llama.cpp's listing says the model was trained for (`meta.n_ctx_train`): larger
/// than the one the server runs with, which is what limits a request.
pub const TRAINED_CONTEXT: u64 = 32_768;

/// How a chat-title request begins (the engine's `TITLE_PROMPT`): such requests take their
/// replies from their own queue ([`ScriptedServer::push_title`]), so a title written after a
/// first reply never takes a reply scripted for the next turn.
pub const TITLE_REQUEST_MARK: &str = "You name conversations";

/// Body of the 400 answered to a title request when no title is queued (not retried, so the
/// engine keeps the first words at once).
pub const NO_TITLE_QUEUED: &str = "scripted server: no title queued";

/// Body of the 500 answered to a model request when no reply is queued.
pub const NO_REPLY_QUEUED: &str = "scripted server: no reply queued";

/// `created` timestamp used in every response, so output is deterministic.
const CREATED: u64 = 1_700_000_000;

/// How to start a server; `Default` is what [`ScriptedServer::start`] uses.
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    /// Port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// Keep serving the last reply once the queue is down to it (instead of answering 500).
    pub repeat_last: bool,
    /// Also append every recorded request to this file as a JSON line.
    pub journal: Option<PathBuf>,
    /// Answer OpenAI-format requests that carry `stream_options` with a 400 naming the field,
    /// as some OpenAI-compatible servers do (no reply is used up by it).
    pub reject_stream_options: bool,
    /// Answer `GET /props` with 404, as servers other than llama.cpp do.
    pub without_props: bool,
}

/// State shared by the handlers.
#[derive(Debug)]
struct Shared {
    queue: Mutex<VecDeque<Reply>>,
    titles: Mutex<VecDeque<Reply>>,
    /// Replies for the conversations whose first user message contains a marker, by marker.
    scripts: Mutex<Vec<(String, VecDeque<Reply>)>>,
    repeat_last: bool,
    reject_stream_options: bool,
    without_props: bool,
    journal: Journal,
    /// Model responses started so far (for message ids).
    responses: AtomicUsize,
    /// Tool calls handed out so far (for `call_N` ids).
    calls: AtomicUsize,
    streams: StreamContext,
}

impl Shared {
    fn next_title(&self) -> Option<Reply> {
        self.titles.lock().unwrap().pop_front()
    }

    /// The reply for a request whose first user message is `first_user` (as JSON text): the
    /// next of the first script whose marker it contains, else the next of the FIFO.
    fn next_reply(&self, first_user: &str) -> Option<Reply> {
        {
            let mut scripts = self.scripts.lock().unwrap();
            if let Some((_, replies)) = scripts
                .iter_mut()
                .find(|(marker, _)| first_user.contains(marker.as_str()))
            {
                return replies.pop_front();
            }
        }
        let mut queue = self.queue.lock().unwrap();
        if self.repeat_last && queue.len() == 1 {
            return queue.front().cloned();
        }
        queue.pop_front()
    }
}

/// A model provider stand-in on 127.0.0.1. Dropping it stops the server and aborts its
/// in-flight streams.
#[derive(Debug)]
pub struct ScriptedServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: watch::Sender<bool>,
}

impl ScriptedServer {
    /// Binds 127.0.0.1 on a free port and starts serving (panics if binding fails).
    pub async fn start() -> ScriptedServer {
        ScriptedServer::start_with(ServerOptions::default())
            .await
            .expect("start the scripted model server")
    }

    /// Starts a server with explicit options.
    pub async fn start_with(options: ServerOptions) -> io::Result<ScriptedServer> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, options.port)).await?;
        let addr = listener.local_addr()?;
        let (shutdown, stop) = watch::channel(false);
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            titles: Mutex::new(VecDeque::new()),
            scripts: Mutex::new(Vec::new()),
            repeat_last: options.repeat_last,
            reject_stream_options: options.reject_stream_options,
            without_props: options.without_props,
            journal: Journal::open(options.journal.as_deref())?,
            responses: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
            streams: StreamContext {
                closed_early: Arc::new(AtomicUsize::new(0)),
                shutdown: stop.clone(),
            },
        });
        let app = routes::router(Arc::clone(&shared));
        let listener = listener.tap_io(|tcp| {
            // Small writes must leave at once, or Nagle's algorithm merges the split pieces.
            let _ = tcp.set_nodelay(true);
        });
        let mut stop = stop;
        tokio::spawn(async move {
            let signal = async move {
                let _ = stop.wait_for(|stopping| *stopping).await;
            };
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(signal)
                .await;
        });
        Ok(ScriptedServer {
            addr,
            shared,
            shutdown,
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Base URL for the OpenAI-compatible provider (`url + "/v1"`).
    pub fn openai_base(&self) -> String {
        format!("{}/v1", self.url())
    }

    /// Base URL for the Anthropic provider.
    pub fn anthropic_base(&self) -> String {
        self.url()
    }

    /// Base URL for the Ollama provider.
    pub fn ollama_base(&self) -> String {
        self.url()
    }

    /// Base URL for the Gemini provider (`url + "/v1beta"`).
    pub fn gemini_base(&self) -> String {
        format!("{}/v1beta", self.url())
    }

    /// Queues a reply; each model request takes the oldest one.
    pub fn push(&self, reply: Reply) {
        self.shared.queue.lock().unwrap().push_back(reply);
    }

    /// Queues the answer to a chat-title request (see [`TITLE_REQUEST_MARK`]).
    pub fn push_title(&self, reply: Reply) {
        self.shared.titles.lock().unwrap().push_back(reply);
    }

    /// Queues a reply for the conversations whose first user message contains `marker`: they
    /// are answered from their own script, in order, and never from the FIFO.
    pub fn push_for(&self, marker: &str, reply: Reply) {
        let mut scripts = self.shared.scripts.lock().unwrap();
        match scripts.iter_mut().find(|(m, _)| m == marker) {
            Some((_, replies)) => replies.push_back(reply),
            None => scripts.push((marker.to_string(), VecDeque::from([reply]))),
        }
    }

    /// Replies queued and not yet served.
    pub fn pending(&self) -> usize {
        self.shared.queue.lock().unwrap().len()
    }

    /// Every request received so far (model calls and listings), oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.journal.entries()
    }

    /// Only the model calls among [`ScriptedServer::requests`], title requests left out.
    pub fn model_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.is_model_call() && !r.is_title_request())
            .collect()
    }

    /// The chat-title requests among [`ScriptedServer::requests`].
    pub fn title_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(RecordedRequest::is_title_request)
            .collect()
    }

    /// Streams whose client went away before the scripted end.
    pub fn connections_closed_early(&self) -> usize {
        self.shared.streams.closed_early.load(Ordering::SeqCst)
    }

    /// Waits until at least `count` streams were closed early by their client; false on timeout.
    pub async fn wait_closed_early(&self, count: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.connections_closed_early() < count {
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.shutdown.send_replace(true);
    }
}

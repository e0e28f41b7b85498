//! A scripted HTTP/1.1 server on 127.0.0.1 writing raw responses: whole bodies, chunked streams
//! paced byte-group by byte-group, aborted streams, and streams held open to observe the client
//! closing the connection.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// How a streamed reply ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The terminating zero-length chunk is sent.
    Complete,
    /// The connection is closed mid-body.
    Abort,
    /// The connection stays open until the client closes it.
    Hold,
}

#[derive(Clone, Debug)]
pub enum Body {
    Full(Vec<u8>),
    Chunks { chunks: Vec<Vec<u8>>, end: End },
}

/// One scripted response.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

impl Reply {
    pub fn json(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: Body::Full(body.as_bytes().to_vec()),
        }
    }

    /// A chunked stream of `payload` cut into `piece`-byte chunks (splitting lines and UTF-8).
    pub fn stream(content_type: &str, payload: &[u8], piece: usize, end: End) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), content_type.into())],
            body: Body::Chunks {
                chunks: payload.chunks(piece).map(<[u8]>::to_vec).collect(),
                end,
            },
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// A request as the server received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub target: String,
    /// Lower-cased names.
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Recorded {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }
}

#[derive(Default)]
struct Shared {
    replies: Mutex<VecDeque<Reply>>,
    requests: Mutex<Vec<Recorded>>,
    client_closed: Notify,
}

pub struct TestServer {
    address: String,
    shared: Arc<Shared>,
}

impl TestServer {
    /// Starts serving `replies` in order, one per request, over any number of connections.
    pub async fn start(replies: Vec<Reply>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = format!("http://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            replies: Mutex::new(replies.into()),
            ..Shared::default()
        });
        let accept_shared = shared.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve_connection(socket, accept_shared.clone()));
            }
        });
        TestServer { address, shared }
    }

    /// `http://127.0.0.1:<port>`
    pub fn address(&self) -> &str {
        &self.address
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().expect("lock").clone()
    }

    /// Whether a client closed a held stream within `limit`.
    pub async fn client_closed_within(&self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.shared.client_closed.notified())
            .await
            .is_ok()
    }
}

async fn serve_connection(mut socket: TcpStream, shared: Arc<Shared>) {
    socket.set_nodelay(true).expect("nodelay");
    let mut buffer = Vec::new();
    while let Some(request) = read_request(&mut socket, &mut buffer).await {
        shared.requests.lock().expect("lock").push(request);
        let reply = shared.replies.lock().expect("lock").pop_front();
        let reply = reply.unwrap_or_else(|| Reply::json(500, r#"{"error":"no scripted reply"}"#));
        if !write_reply(&mut socket, reply, &shared).await {
            return;
        }
    }
}

/// Reads one request (head and `content-length` body); `None` once the client is gone.
async fn read_request(socket: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<Recorded> {
    let head_end = loop {
        if let Some(pos) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        let mut chunk = [0u8; 4096];
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_string();
    let target = request_line.next()?.to_string();
    let headers: HashMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let body_start = head_end + 4;
    while buffer.len() < body_start + length {
        let mut chunk = [0u8; 4096];
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
    let body = buffer[body_start..body_start + length].to_vec();
    buffer.drain(..body_start + length);
    Some(Recorded {
        method,
        target,
        headers,
        body,
        at: Instant::now(),
    })
}

/// Writes a reply; returns whether the connection can carry another request.
async fn write_reply(socket: &mut TcpStream, reply: Reply, shared: &Shared) -> bool {
    let mut head = format!("HTTP/1.1 {} Scripted\r\n", reply.status);
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    match reply.body {
        Body::Full(body) => {
            head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
            let mut bytes = head.into_bytes();
            bytes.extend_from_slice(&body);
            socket.write_all(&bytes).await.is_ok()
        }
        Body::Chunks { chunks, end } => {
            head.push_str("transfer-encoding: chunked\r\n\r\n");
            if socket.write_all(head.as_bytes()).await.is_err() {
                return false;
            }
            for chunk in chunks {
                let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
                framed.extend_from_slice(&chunk);
                framed.extend_from_slice(b"\r\n");
                if socket.write_all(&framed).await.is_err() || socket.flush().await.is_err() {
                    return false;
                }
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            match end {
                End::Complete => socket.write_all(b"0\r\n\r\n").await.is_ok(),
                End::Abort => {
                    let _ = socket.shutdown().await;
                    false
                }
                End::Hold => {
                    let mut sink = [0u8; 1024];
                    while let Ok(n) = socket.read(&mut sink).await {
                        if n == 0 {
                            break;
                        }
                    }
                    shared.client_closed.notify_one();
                    false
                }
            }
        }
    }
}

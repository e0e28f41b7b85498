//! The rig: a canary (TCP and UDP on one port of 127.0.0.1) counting what reaches it, a page
//! server on 127.0.0.1 reachable only as the allowed `pages.test:<port>`, a stub resolver
//! (`pages.test` and the "public" `rebind.test` both resolve to 127.0.0.1), and the proxy.

use axum::response::{Html, Redirect};
use axum::routing::{get, post};
use hearth_egress::EgressProxy;
use hearth_net::HostResolver;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, UdpSocket};
use tokio::sync::watch;

pub struct Rig {
    pub proxy: EgressProxy,
    pub canary: u16,
    pub pages: u16,
    hits: Arc<AtomicUsize>,
    reports: Reports,
}

/// What `/script` posts back: each line as it is written, then the whole output once every
/// attempt has settled.
#[derive(Clone)]
struct Reports {
    lines: Arc<Mutex<Vec<String>>>,
    done: watch::Sender<Option<String>>,
}

impl Rig {
    pub async fn start() -> Rig {
        let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let canary = tcp.local_addr().unwrap().port();
        let udp = UdpSocket::bind(("127.0.0.1", canary)).await.unwrap();
        let hits = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&hits);
        tokio::spawn(async move {
            while tcp.accept().await.is_ok() {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        });
        let counted = Arc::clone(&hits);
        tokio::spawn(async move {
            let mut buf = [0u8; 1500];
            while udp.recv_from(&mut buf).await.is_ok() {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        });
        let reports = Reports {
            lines: Arc::default(),
            done: watch::Sender::new(None),
        };
        let pages = serve_pages(canary, reports.clone()).await;
        let allow = vec![format!("pages.test:{pages}")];
        let proxy = EgressProxy::start_with_resolver(&allow, Arc::new(Stub))
            .await
            .unwrap();
        Rig {
            proxy,
            canary,
            pages,
            hits,
            reports,
        }
    }

    /// The output `/script` posts once all its attempts have settled (its page is open in a
    /// browser).
    pub async fn script_output(&self) -> String {
        let mut done = self.reports.done.subscribe();
        let output = done.wait_for(Option::is_some).await.unwrap();
        output.clone().unwrap_or_default()
    }

    /// The lines `/script` has posted so far.
    pub fn script_lines(&self) -> Vec<String> {
        self.reports.lines.lock().unwrap().clone()
    }

    /// Connections and datagrams that reached the canary.
    pub fn canary_hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    pub fn page(&self, path: &str) -> String {
        format!("http://pages.test:{}{path}", self.pages)
    }

    /// The hosts the proxy refused, in order.
    pub fn refused_hosts(&self) -> Vec<String> {
        self.proxy.refusals().into_iter().map(|r| r.host).collect()
    }
}

/// Resolves `pages.test` and `rebind.test` to 127.0.0.1, like a DNS server that rebinds.
struct Stub;

#[async_trait::async_trait]
impl HostResolver for Stub {
    async fn lookup(&self, host: &str) -> std::io::Result<Vec<IpAddr>> {
        match host.trim_end_matches('.') {
            "pages.test" | "rebind.test" => Ok(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]),
            other => Err(std::io::Error::other(format!("{other}: no such name"))),
        }
    }
}

/// The pages: `/` says hello, `/redirect` answers 302 to the canary, `/nav` sets
/// `location.href` to it, `/script` tries every way page script reaches out (and posts what
/// happened to `/line` and, when all has settled, `/done`), `/sw.js` is a service worker that
/// fetches the canary.
async fn serve_pages(canary: u16, reports: Reports) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let target = format!("http://127.0.0.1:{canary}/");
    let nav = format!("<p>leaving</p><script>location.href = {target:?};</script>");
    let script = SCRIPT.replace("CANARY", &canary.to_string());
    let worker = WORKER.replace("CANARY", &canary.to_string());
    let redirect = target.clone();
    let app = axum::Router::new()
        .route(
            "/",
            get(|| async { Html("<p id=hello>hello through the proxy</p>") }),
        )
        .route(
            "/redirect",
            get(move || async move { Redirect::to(&redirect) }),
        )
        .route("/nav", get(move || async move { Html(nav) }))
        .route("/script", get(move || async move { Html(script) }))
        .route(
            "/sw.js",
            get(move || async move { ([("content-type", "text/javascript")], worker) }),
        )
        .route(
            "/line",
            post({
                let lines = Arc::clone(&reports.lines);
                move |line: String| async move { lines.lock().unwrap().push(line) }
            }),
        )
        .route(
            "/done",
            post(move |output: String| async move {
                reports.done.send_replace(Some(output));
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    port
}

const SCRIPT: &str = r#"<pre id=out></pre><script>
const report = (path, body) => fetch(path, {method: 'POST', body});
const out = (line) => { document.getElementById('out').textContent += line + '\n'; report('/line', line); };
const settled = [];
const targets = ['http://127.0.0.1:CANARY/', 'http://rebind.test:CANARY/', 'http://localhost.:CANARY/',
  'http://2130706433:CANARY/', 'http://[::ffff:127.0.0.1]:CANARY/', 'http://0x7f.1:CANARY/'];
for (const t of targets) {
  settled.push(fetch(t).then((r) => out('fetch answered ' + r.status + ' ' + t), () => out('fetch failed ' + t)));
}
settled.push(new Promise((done) => {
  const ws = new WebSocket('ws://127.0.0.1:CANARY/');
  ws.onerror = () => { out('websocket failed'); done(); };
  ws.onopen = () => { out('websocket opened'); done(); };
}));
settled.push(new Promise((done) => {
  const img = new Image();
  img.onerror = () => { out('img failed'); done(); };
  img.onload = () => { out('img loaded'); done(); };
  img.src = 'http://rebind.test:CANARY/pixel.png';
  document.body.appendChild(img);
}));
const popup = window.open('http://127.0.0.1:CANARY/popup');
out('window.open ' + (popup ? 'opened' : 'blocked'));
try {
  const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:CANARY'},
    {urls: 'turn:127.0.0.1:CANARY?transport=tcp', username: 'u', credential: 'p'}]});
  pc.createDataChannel('x');
  settled.push(pc.createOffer().then((o) => pc.setLocalDescription(o))
    .then(() => out('webrtc offer set'), (e) => out('webrtc failed ' + e)));
} catch (e) { out('webrtc unavailable'); }
// `ready` resolves once the worker is active: after its install and activate events, which
// wait on fetches the proxy refuses.
settled.push(navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)
  .then(() => out('service worker active'), (e) => out('service worker failed ' + e)));
Promise.all(settled).then(() => report('/done', document.getElementById('out').textContent));
</script>"#;

const WORKER: &str = r#"
self.addEventListener('install', (e) => { e.waitUntil(fetch('http://127.0.0.1:CANARY/sw').catch(() => {})); self.skipWaiting(); });
self.addEventListener('activate', (e) => { e.waitUntil(fetch('http://rebind.test:CANARY/sw').catch(() => {})); });
"#;

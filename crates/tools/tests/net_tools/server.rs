//! The local HTTP test server (axum on 127.0.0.1, its own runtime thread): JSON, text, echo,
//! redirects, big, slow and binary bodies, an HTML page fixture and fake search backends.

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::OnceLock;
use std::time::Duration;

/// Bytes of `/big`: over the 5 MiB read cap.
pub const BIG_BYTES: usize = 6 * 1024 * 1024;

pub const PAGE: &str = include_str!("page.html");

fn app() -> Router {
    Router::new()
        .route(
            "/json",
            get(|| async { Json(json!({"hello": "world", "n": 1})) }),
        )
        .route("/text", get(|| async { "plain text\n" }))
        .route("/echo", any(echo))
        .route("/redirect/{code}", any(redirect))
        .route("/status/{code}", get(status))
        .route("/big", get(|| async { "a".repeat(BIG_BYTES) }))
        .route("/slow", get(slow))
        .route("/binary", get(binary))
        .route("/latin1", get(latin1))
        .route(
            "/untyped-json",
            get(|| async { Response::new(Body::from("[1, 2, 3]")) }),
        )
        .route("/bad-json", get(bad_json))
        .route("/page", get(page))
        .route("/tiny", get(tiny))
        .route("/searxng/search", get(searxng))
        .route("/brave", get(brave))
        .route("/tavily", post(tavily))
        .route("/skills/pico-weather.zip", get(skill_zip))
}

/// A zip of the pico-weather fixture skill, wrapped in its folder.
async fn skill_zip() -> Vec<u8> {
    use std::io::Write;
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../skills/tests/fixtures/pico-weather/SKILL.md");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file(
        "pico-weather/SKILL.md",
        zip::write::SimpleFileOptions::default(),
    )
    .expect("zip entry");
    zip.write_all(&std::fs::read(fixture).expect("fixture"))
        .expect("zip write");
    zip.finish().expect("zip").into_inner()
}

/// The server's address, started on first use.
pub fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
        listener.set_nonblocking(true).expect("non-blocking");
        let addr = listener.local_addr().expect("address");
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("server runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                axum::serve(listener, app()).await.expect("serve");
            });
        });
        addr
    })
}

/// `http://127.0.0.1:<port><path>` on the test server.
pub fn url(path: &str) -> String {
    format!("http://{}{path}", server())
}

/// The allow_local entry for the test server.
pub fn allow_entry() -> String {
    server().to_string()
}

async fn echo(method: Method, headers: HeaderMap, body: Bytes) -> Json<Value> {
    let headers: BTreeMap<String, String> = headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("?").to_string()))
        .collect();
    Json(json!({
        "method": method.as_str(),
        "headers": headers,
        "body": String::from_utf8_lossy(&body),
    }))
}

async fn redirect(Path(code): Path<u16>, Query(query): Query<HashMap<String, String>>) -> Response {
    let status = StatusCode::from_u16(code).expect("status");
    let to = query.get("to").cloned().unwrap_or_default();
    (status, [("location", to)], "moved").into_response()
}

async fn status(Path(code): Path<u16>) -> Response {
    let status = StatusCode::from_u16(code).expect("status");
    (status, format!("status {code}")).into_response()
}

async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_secs(10)).await;
    "too late"
}

async fn binary() -> Response {
    let bytes: Vec<u8> = vec![0x89, b'P', b'N', b'G', 0, 1, 2, 255];
    ([("content-type", "image/png")], bytes).into_response()
}

async fn latin1() -> Response {
    let bytes: Vec<u8> = b"caf\xe9".to_vec();
    ([("content-type", "text/plain; charset=iso-8859-1")], bytes).into_response()
}

async fn bad_json() -> Response {
    ([("content-type", "application/json")], "{not json").into_response()
}

async fn page() -> Response {
    ([("content-type", "text/html; charset=utf-8")], PAGE).into_response()
}

/// Too little text for a Readability extraction: the whole body (minus boilerplate) is used.
async fn tiny() -> Response {
    let html = "<html><head><title>Tiny</title></head><body><nav>NAV-tiny</nav>\
                <p>Hello <a href=\"/x\">there</a></p><footer>FOOTER-tiny</footer></body></html>";
    ([("content-type", "text/html")], html).into_response()
}

/// SearXNG: `format=json` or 403 (as an instance without the JSON format answers).
async fn searxng(Query(query): Query<HashMap<String, String>>) -> Response {
    if query.get("format").map(String::as_str) != Some("json") {
        return StatusCode::FORBIDDEN.into_response();
    }
    let q = query.get("q").cloned().unwrap_or_default();
    if q == "forbidden" {
        return StatusCode::FORBIDDEN.into_response();
    }
    let results: Vec<Value> = (1..=8)
        .map(|n| {
            json!({
                "title": format!("{q} result {n}"),
                "url": format!("https://example.org/{n}"),
                "content": format!("About {q} &amp; <b>more</b> ({n})"),
                "engine": "fake",
            })
        })
        .collect();
    Json(json!({"query": q, "results": results})).into_response()
}

/// Brave: needs `x-subscription-token: brave-key`.
async fn brave(headers: HeaderMap, Query(query): Query<HashMap<String, String>>) -> Response {
    if headers
        .get("x-subscription-token")
        .and_then(|v| v.to_str().ok())
        != Some("brave-key")
    {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let count: usize = query
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(20);
    let results: Vec<Value> = (1..=count)
        .map(|n| {
            json!({
                "title": format!("<strong>Brave</strong> {n}"),
                "url": format!("https://brave.example/{n}"),
                "description": format!("{} hit {n}", query.get("q").cloned().unwrap_or_default()),
            })
        })
        .collect();
    Json(json!({"web": {"results": results}})).into_response()
}

/// Tavily: needs `authorization: Bearer tavily-key`; 429 for the query `busy`.
async fn tavily(headers: HeaderMap, Json(body): Json<Value>) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer tavily-key") {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    if body["query"] == "busy" {
        return StatusCode::TOO_MANY_REQUESTS.into_response();
    }
    let max = body["max_results"].as_u64().unwrap_or(5);
    let results: Vec<Value> = (1..=max)
        .map(|n| json!({"title": format!("Tavily {n}"), "url": format!("https://t.example/{n}"), "content": body["query"]}))
        .collect();
    Json(json!({"results": results})).into_response()
}

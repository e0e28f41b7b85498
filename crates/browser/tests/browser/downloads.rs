//! Downloads a page starts — an `<a download>` click, a link to a `Content-Disposition:
//! attachment` answer, `open` of such a URL — land in the workspace's `downloads/` folder and
//! are listed in the result; one over the limit (announced by its `Content-Length`, or streamed
//! without one) is cancelled while the server is still sending, and nothing is kept of it, in
//! the workspace, the staging folder or `~/Downloads`.

use crate::browser::rig::{ref_of, snapshot, Rig};
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{Html, Response};
use axum::routing::get;
use axum::Router;
use hearth_browser::MAX_DOWNLOAD_BYTES;
use hearth_tools::Dialect;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::net::TcpListener;

const PAGE: &str = r#"<!doctype html><title>Files</title><h1>Files</h1>
<a href="/report.csv" download="report.csv">Get the report</a>
<a href="/attachment">Get the data</a>
<a href="/announced">Get the announced image</a>
<a href="/streamed">Get the endless log</a>"#;

const REPORT: &str = "region,sales\nnorth,12\nsouth,7\n";

/// 300 KB that are not all the same byte.
fn data() -> Vec<u8> {
    (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect()
}

fn attachment(name: &str) -> String {
    format!("attachment; filename=\"{name}\"")
}

/// The announced file's size: four times the limit.
const ANNOUNCED: u64 = 4 * MAX_DOWNLOAD_BYTES;
/// The streamed file's size, with no Content-Length: forty times the limit, so that a cancel
/// shows as the server stopping long before its end (over loopback on a loaded machine, Chrome
/// takes in hundreds of MiB between two progress events).
const ENDLESS: u64 = 40 * MAX_DOWNLOAD_BYTES;

/// A body of `total` zero bytes in 64 KiB chunks, counting in `sent` what was handed to the
/// connection (the server stops when the client goes away).
fn counted(total: u64, sent: Arc<AtomicU64>) -> Body {
    let chunk = Bytes::from(vec![0u8; 64 * 1024]);
    let stream = futures::stream::unfold(0u64, move |done| {
        let (chunk, sent) = (chunk.clone(), sent.clone());
        async move {
            if done >= total {
                return None;
            }
            let n = chunk.len().min(usize::try_from(total - done).unwrap());
            sent.fetch_add(n as u64, Ordering::SeqCst);
            Some((Ok::<_, std::io::Error>(chunk.slice(..n)), done + n as u64))
        }
    });
    Body::from_stream(stream)
}

/// The site, and the bytes it sent of the two large files.
async fn site() -> (u16, Arc<AtomicU64>, Arc<AtomicU64>) {
    let (announced, streamed) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (a, s) = (announced.clone(), streamed.clone());
    let router = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/report.csv",
            get(|| async { ([(header::CONTENT_TYPE, "text/csv")], REPORT) }),
        )
        .route(
            "/attachment",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                        (header::CONTENT_DISPOSITION, attachment("data.bin")),
                    ],
                    data(),
                )
            }),
        )
        .route(
            "/announced",
            get(move || async move {
                Response::builder()
                    .header(header::CONTENT_DISPOSITION, attachment("disk.img"))
                    .header(header::CONTENT_LENGTH, ANNOUNCED)
                    .body(counted(ANNOUNCED, a))
                    .unwrap()
            }),
        )
        .route(
            "/streamed",
            get(move || async move {
                Response::builder()
                    .header(header::CONTENT_DISPOSITION, attachment("endless.log"))
                    .body(counted(ENDLESS, s))
                    .unwrap()
            }),
        );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (port, announced, streamed)
}

fn home_downloads(name: &str) -> PathBuf {
    PathBuf::from(std::env::var("HOME").unwrap_or_default())
        .join("Downloads")
        .join(name)
}

/// The one download an action reports.
fn only(result: &Value) -> &Value {
    let listed = result["downloads"]
        .as_array()
        .unwrap_or_else(|| panic!("no downloads in {result}"));
    assert_eq!(listed.len(), 1, "{result}");
    &listed[0]
}

/// Calls `get_url` until the running download of the tab is reported ended (a later action
/// reports a download that outlasted its own).
async fn ended(rig: &Rig, mut result: Value) -> Value {
    for _ in 0..12 {
        if result["downloads"][0]["running"].is_null() {
            return result;
        }
        result = rig.call(json!({"action": "get_url"})).await;
    }
    panic!("the download never ended: {result}");
}

#[tokio::test]
async fn downloads_go_to_the_workspace_and_large_ones_are_cancelled() {
    let (port, announced, streamed) = site().await;
    let rig = Rig::configured(Dialect::Hearth, |config| {
        config.allow_local.push(format!("127.0.0.1:{port}"));
    })
    .await;
    for name in ["report.csv", "data.bin", "disk.img", "endless.log"] {
        assert!(!home_downloads(name).exists(), "{name} is already there");
    }
    let site = format!("http://127.0.0.1:{port}");
    let page = rig
        .call(json!({"action": "open", "url": format!("{site}/")}))
        .await;
    let outline = snapshot(&page);
    let workspace = rig.ctx.workspace.clone();

    // <a download>: saved under the name the page gave.
    let click = json!({"action": "click", "ref": ref_of(&outline, "Get the report")});
    let result = rig.call(click.clone()).await;
    let saved = only(&result);
    assert_eq!(saved["path"], "downloads/report.csv", "{result}");
    assert_eq!(saved["bytes"], REPORT.len());
    let on_disk = std::fs::read_to_string(workspace.join("downloads/report.csv")).unwrap();
    assert_eq!(on_disk, REPORT);
    // Again: a second name, the first file kept.
    let again = rig.call(click).await;
    assert_eq!(only(&again)["path"], "downloads/report (2).csv", "{again}");

    // A link to an attachment, and `open` of it: the page stays, the file is saved.
    let result = rig
        .call(json!({"action": "click", "ref": ref_of(&outline, "Get the data")}))
        .await;
    assert_eq!(only(&result)["path"], "downloads/data.bin", "{result}");
    let opened = rig
        .call(json!({"action": "open", "url": format!("{site}/attachment")}))
        .await;
    assert_eq!(only(&opened)["path"], "downloads/data (2).bin", "{opened}");
    assert_eq!(
        std::fs::read(workspace.join("downloads/data (2).bin")).unwrap(),
        data()
    );
    let url = rig.call(json!({"action": "get_url"})).await;
    assert_eq!(url["url"], format!("{site}/"), "{url}");

    // Too large, by its Content-Length and by what arrives: cancelled, nothing kept.
    for (link, name, sent, total) in [
        ("Get the announced image", "disk.img", &announced, ANNOUNCED),
        ("Get the endless log", "endless.log", &streamed, ENDLESS),
    ] {
        let result = rig
            .call(json!({"action": "click", "ref": ref_of(&outline, link), "timeout_sec": 60}))
            .await;
        let result = ended(&rig, result).await;
        let refused = only(&result);
        assert_eq!(refused["name"], name, "{result}");
        let reason = refused["refused"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} not refused: {result}"));
        assert!(reason.contains("100 MiB limit"), "{reason}");
        assert!(!workspace.join("downloads").join(name).exists());
        assert!(!home_downloads(name).exists());
        let sent = sent.load(Ordering::SeqCst);
        assert!(sent < total, "{name}: the server sent it all");
        println!(
            "{name}: the server had sent {} MiB when it was cancelled",
            sent >> 20
        );
    }
    let staging = rig.ctx.data_dir.join("browser/downloads");
    let left: Vec<_> = std::fs::read_dir(&staging).unwrap().flatten().collect();
    assert!(left.is_empty(), "left in the staging folder: {left:?}");
    for name in ["report.csv", "data.bin"] {
        assert!(!home_downloads(name).exists(), "{name} went to ~/Downloads");
    }
    rig.browsers.shutdown().await;
    assert!(!staging.exists());
}

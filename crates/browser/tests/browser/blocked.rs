//! Refused requests sorted by what they were: a page on an allowed host opens and lists what the
//! egress proxy refused for it (a `fetch()` and an image to another port of the same host, a
//! real page's trackers on `0.0.0.0`), while the tab itself being sent to a refused host (a 302,
//! a meta refresh, `location.href =`, a clicked link) fails `blocked_address` naming that host.
//! A canary on the refused port must see no connection at all.

use crate::browser::rig::{ref_of, snapshot, Rig};
use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::{Html, Response};
use axum::routing::get;
use axum::Router;
use hearth_tools::{Dialect, ErrorKind};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::net::TcpListener;

/// A real page nobody here wrote (Debian's Python policy, from the python3 package).
const REAL_PAGE: &str = "/usr/share/doc/python3/python-policy.html";

/// Listeners on 127.0.0.1 and ::1 on one port, counting the connections they get.
async fn canary() -> (u16, Arc<AtomicUsize>) {
    let v4 = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = v4.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let mut listeners = vec![v4];
    if let Ok(v6) = TcpListener::bind(("::1", port)).await {
        listeners.push(v6);
    }
    for socket in listeners {
        let seen = count.clone();
        tokio::spawn(async move {
            while let Ok((_stream, _)) = socket.accept().await {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        });
    }
    (port, count)
}

type To = Query<HashMap<String, String>>;

fn to(query: &To) -> String {
    query.0.get("to").cloned().unwrap_or_default()
}

/// The test site: pages reaching the canary on `canary`, and pages sending the tab to `?to=`.
async fn site(canary: u16) -> u16 {
    let leaky = format!(
        r#"<!doctype html><title>Leaky</title><h1>Dashboard</h1>
<img src="http://127.0.0.1:{canary}/pixel.gif" alt="">
<p id="out">waiting</p>
<script>
fetch('http://127.0.0.1:{canary}/leak').then(
  (r) => {{ document.getElementById('out').textContent = 'fetch answered ' + r.status; }},
  () => {{ document.getElementById('out').textContent = 'fetch refused'; }});
</script>"#
    );
    let real = std::fs::read_to_string(REAL_PAGE)
        .unwrap_or_else(|e| panic!("{REAL_PAGE} (Debian's python3 package) is needed: {e}"));
    // What a DNS blocker leaves of a page's trackers: their names answer 0.0.0.0.
    let trackers = format!(
        r#"<script async src="http://0.0.0.0:{canary}/gtag/js?id=G-TEST"></script>
<script src="http://0.0.0.0/analytics.js"></script>
<img src="http://0.0.0.0:{canary}/collect?v=1&t=pageview" width="1" height="1" alt="">
<iframe src="http://0.0.0.0:{canary}/ads/slot" width="1" height="1"></iframe>"#
    );
    let tracked = real.replacen("</head>", &format!("{trackers}</head>"), 1);
    let router = Router::new()
        .route("/leaky", get(move || async move { Html(leaky) }))
        .route("/real", get(move || async move { Html(real) }))
        .route("/tracked", get(move || async move { Html(tracked) }))
        .route(
            "/redirect",
            get(|q: To| async move {
                Response::builder()
                    .status(StatusCode::FOUND)
                    .header(header::LOCATION, to(&q))
                    .body(axum::body::Body::empty())
                    .unwrap()
            }),
        )
        .route(
            "/refresh",
            get(|q: To| async move {
                Html(format!(
                    r#"<!doctype html><title>Moved</title><meta http-equiv="refresh" content="0; url={}"><p>Moved.</p>"#,
                    to(&q)
                ))
            }),
        )
        .route(
            "/script",
            get(|q: To| async move {
                Html(format!(
                    r#"<!doctype html><title>Moving</title><p>Moving.</p><script>location.href = {:?};</script>"#,
                    to(&q)
                ))
            }),
        )
        .route(
            "/link",
            get(|q: To| async move {
                Html(format!(
                    r#"<!doctype html><title>Links</title><a href="{}">Onwards</a>"#,
                    to(&q)
                ))
            }),
        )
;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    port
}

/// A rig whose browser may also reach the test site (and nothing else on this computer).
async fn rig_with_site(canary: u16) -> (Rig, String) {
    let port = site(canary).await;
    let rig = Rig::configured(Dialect::Hearth, |config| {
        config.allow_local.push(format!("127.0.0.1:{port}"));
    })
    .await;
    (rig, format!("http://127.0.0.1:{port}"))
}

fn blocked_hosts(result: &Value) -> Vec<String> {
    result["blocked"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|b| format!("{}:{}", b["host"].as_str().unwrap(), b["port"]))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_refused_fetch_to_another_port_is_listed_and_the_page_opens() {
    let (port, connections) = canary().await;
    let (rig, site) = rig_with_site(port).await;
    let result = rig
        .try_call(json!({"action": "open", "url": format!("{site}/leaky")}))
        .await
        .unwrap_or_else(|e| panic!("the page on an allowed host did not open: {e:?}"));
    let outline = snapshot(&result);
    assert!(outline.contains("Dashboard"), "{outline}");
    assert_eq!(
        blocked_hosts(&result),
        [format!("127.0.0.1:{port}")],
        "{result}"
    );
    let reason = result["blocked"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("allow_local"), "{reason}");
    // The page's own script saw its fetch refused, and went on.
    rig.call(json!({"action": "wait", "text": "fetch "})).await;
    let text = rig.text().await;
    assert!(!text.contains("waiting"), "{text}");
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    rig.browsers.shutdown().await;
}

#[tokio::test]
async fn a_real_page_with_trackers_blocked_to_0_0_0_0_opens() {
    let (port, connections) = canary().await;
    let (rig, site) = rig_with_site(port).await;
    // Warm: the browser starts and the page is cached the same way for both timings.
    rig.call(json!({"action": "open", "url": format!("{site}/real")}))
        .await;
    let started = Instant::now();
    let plain = rig
        .call(json!({"action": "open", "url": format!("{site}/real")}))
        .await;
    let plain_ms = started.elapsed().as_millis();
    let started = Instant::now();
    let tracked = rig
        .try_call(json!({"action": "open", "url": format!("{site}/tracked")}))
        .await
        .unwrap_or_else(|e| panic!("the page with blocked trackers did not open: {e:?}"));
    let tracked_ms = started.elapsed().as_millis();
    println!("open of {REAL_PAGE}: {plain_ms} ms plain, {tracked_ms} ms with 4 blocked trackers");
    // The same page either way.
    assert_eq!(tracked["title"], plain["title"], "{tracked}");
    assert!(snapshot(&tracked).contains("heading"), "{tracked}");
    let mut hosts = blocked_hosts(&tracked);
    hosts.sort();
    let mut expected = ["0.0.0.0:80".to_string(), format!("0.0.0.0:{port}")];
    expected.sort();
    assert_eq!(hosts, expected);
    assert!(
        tracked["title"].as_str().unwrap().contains("Python Policy"),
        "{tracked}"
    );
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    rig.browsers.shutdown().await;
}

#[tokio::test]
async fn the_tab_sent_to_a_refused_host_fails_blocked_address_naming_it() {
    let (port, connections) = canary().await;
    let (rig, site) = rig_with_site(port).await;
    for (host, named) in [
        ("localhost", "localhost"),
        ("[::1]", "::1"),
        ("0.0.0.0", "0.0.0.0"),
    ] {
        let target = format!("http://{host}:{port}/inside");
        for how in ["redirect", "refresh", "script"] {
            let url = format!("{site}/{how}?to={target}");
            let error = rig
                .try_call(json!({"action": "open", "url": url}))
                .await
                .map(|ok| panic!("{how} to {target} answered {ok}"))
                .unwrap_err();
            assert_eq!(
                error.kind,
                ErrorKind::BlockedAddress,
                "{how} {target}: {error:?}"
            );
            assert!(
                error.message.contains(&format!("to {named}:")),
                "{how} {target}: {error:?}"
            );
        }
        let page = rig
            .call(json!({"action": "open", "url": format!("{site}/link?to={target}")}))
            .await;
        let onwards = ref_of(&snapshot(&page), "link \"Onwards\"");
        let clicked = rig
            .try_call(json!({"action": "click", "ref": onwards}))
            .await
            .map(|ok| panic!("a click to {target} answered {ok}"))
            .unwrap_err();
        assert_eq!(
            clicked.kind,
            ErrorKind::BlockedAddress,
            "{target}: {clicked:?}"
        );
        assert!(
            clicked.message.contains(&format!("to {named}:")),
            "{clicked:?}"
        );
    }
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    rig.browsers.shutdown().await;
}

//! The browser's traffic through the egress proxy: a local address the user did not allow is
//! refused before one byte reaches it, and the navigation says so.

use crate::browser::rig::{ref_of, Rig};
use hearth_browser::{register_browser, BrowserConfig};
use hearth_tools::{Dialect, ErrorKind, Registry};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// A listener on 127.0.0.1 counting the connections it gets.
async fn canary() -> (u16, Arc<AtomicUsize>) {
    let socket = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((_stream, _)) = socket.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    (port, count)
}

#[tokio::test]
async fn an_unallowed_local_address_is_blocked_and_never_reached() {
    let rig = Rig::new().await;
    let (port, connections) = canary().await;
    rig.open("/form").await;
    let error = rig
        .try_call(json!({"action": "open", "url": format!("http://127.0.0.1:{port}/")}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::BlockedAddress, "{error:?}");
    assert!(error.message.contains("127.0.0.1"), "{error:?}");
    assert!(error.message.contains("allow_local"), "{error:?}");
    let https = rig
        .try_call(json!({"action": "navigate", "url": format!("https://127.0.0.1:{port}/")}))
        .await
        .unwrap_err();
    assert_eq!(https.kind, ErrorKind::BlockedAddress, "{https:?}");
    let allowed = rig.open("/form").await;
    assert!(allowed.contains("textbox"), "{allowed}");
    let link = format!(
        "document.body.insertAdjacentHTML('beforeend', \
         '<a href=\"http://127.0.0.1:{port}/next\">Onwards</a>')"
    );
    rig.call(json!({"action": "evaluate", "expression": link}))
        .await;
    let outline = rig.snapshot().await;
    let onwards = ref_of(&outline, "link \"Onwards\"");
    // A click leading there is refused the same way.
    let clicked = rig
        .try_call(json!({"action": "click", "ref": onwards}))
        .await
        .unwrap_err();
    assert_eq!(clicked.kind, ErrorKind::BlockedAddress, "{clicked:?}");
    // The refusals were recorded before the calls returned; the proxy never connects then.
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    rig.browsers.shutdown().await;
}

#[tokio::test]
async fn a_changed_allow_list_restarts_the_browser_with_it() {
    let rig = Rig::new().await;
    rig.open("/a").await;
    let pid = rig.browsers.pid().await.unwrap();
    let mut narrower = Registry::new(Dialect::Hearth);
    let config = BrowserConfig {
        executable: String::new(),
        visible: false,
        idle: Duration::from_secs(600),
        allow_local: Vec::new(),
        cdp_url: String::new(),
        attach_allowed: true,
    };
    register_browser(&mut narrower, &rig.browsers, config).unwrap();
    let args = json!({"action": "open", "url": rig.url("/b")});
    let error = narrower
        .dispatch("browser", &args.to_string(), &rig.ctx)
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::BlockedAddress, "{error:?}");
    assert_ne!(rig.browsers.pid().await.unwrap(), pid);
    rig.browsers.shutdown().await;
}

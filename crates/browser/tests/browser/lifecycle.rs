//! Arguments checked per action, a missing Chrome, a killed browser, closing, and the picobot
//! dialect.

use crate::browser::rig::{ref_of, Rig};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::json;

#[tokio::test]
async fn malformed_arguments_are_invalid_for_every_action() {
    let rig = Rig::new().await;
    for args in [
        json!({}),
        json!({"action": "fly"}),
        json!({"action": "open"}),
        json!({"action": "navigate", "url": ""}),
        json!({"action": "click"}),
        json!({"action": "click", "ref": "button"}),
        json!({"action": "click_at", "x": 3}),
        json!({"action": "click_at", "x": -1, "y": 2}),
        json!({"action": "type"}),
        json!({"action": "fill", "ref": "e1"}),
        json!({"action": "press"}),
        json!({"action": "press", "key": "Hyper+Q"}),
        json!({"action": "scroll", "direction": "sideways"}),
        json!({"action": "scroll", "amount": -5}),
        json!({"action": "hover"}),
        json!({"action": "focus"}),
        json!({"action": "select", "ref": "e1"}),
        json!({"action": "select", "ref": "e1", "values": []}),
        json!({"action": "upload", "ref": "e1"}),
        json!({"action": "wait"}),
        json!({"action": "wait", "state": "idle"}),
        json!({"action": "evaluate"}),
        json!({"action": "snapshot", "max_chars": 5}),
        json!({"action": "get_text", "timeout_sec": 0}),
        json!({"action": "screenshot", "full_page": "yes"}),
        json!({"action": "open", "url": "x", "bogus": 1}),
        json!({"action": "open", "url": "a".repeat(9000)}),
    ] {
        let error = rig.try_call(args.clone()).await.unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}: {error:?}");
    }
    assert!(
        !rig.browsers.is_running().await,
        "no browser for bad arguments"
    );
    let error = rig
        .try_call(json!({"action": "snapshot"}))
        .await
        .unwrap_err();
    assert!(error.message.contains("open"), "{error:?}");
    for refused in [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "chrome://version",
    ] {
        let error = rig
            .try_call(json!({"action": "open", "url": refused}))
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotPermitted, "{refused}: {error:?}");
    }
}

#[tokio::test]
async fn a_missing_browser_is_unavailable_and_says_what_to_install() {
    let rig = Rig::with(Dialect::Hearth, "/nowhere/chrome").await;
    let error = rig
        .try_call(json!({"action": "open", "url": rig.url("/a")}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");
    assert!(error.message.contains("install"), "{error:?}");
}

#[tokio::test]
async fn a_killed_browser_is_restarted_on_the_next_call() {
    let rig = Rig::new().await;
    rig.open("/a").await;
    let pid = rig.browsers.pid().await.unwrap();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    while std::path::Path::new(&format!("/proc/{pid}/stat")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z")
    {
        tokio::task::yield_now().await;
    }
    let error = rig
        .try_call(json!({"action": "open", "url": rig.url("/b")}))
        .await
        .unwrap_err();
    assert!(error.message.contains("crashed or was killed"), "{error:?}");
    let outline = rig.open("/b").await;
    assert!(outline.contains("Page B"), "{outline}");
    assert_ne!(rig.browsers.pid().await.unwrap(), pid);
}

#[tokio::test]
async fn close_ends_the_tab_and_picobot_speaks_its_names() {
    let rig = Rig::with(Dialect::Picobot, "").await;
    let opened = rig
        .call(json!({"action": "open", "url": rig.url("/a")}))
        .await;
    let link = ref_of(opened["snapshot"].as_str().unwrap(), "link \"To B\"");
    rig.call(json!({"action": "click", "ref": link})).await;
    assert_eq!(
        rig.call(json!({"action": "get_url"})).await["url"],
        rig.url("/b")
    );
    let error = rig.try_call(json!({"action": "back"})).await.unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{error:?}");
    assert_eq!(rig.call(json!({"action": "close"})).await["closed"], true);
    let error = rig
        .try_call(json!({"action": "get_url"}))
        .await
        .unwrap_err();
    assert!(error.message.contains("open"), "{error:?}");
    rig.browsers.shutdown().await;
    assert!(!rig.browsers.is_running().await);
}

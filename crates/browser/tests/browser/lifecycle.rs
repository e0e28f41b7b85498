//! Arguments checked per action, a missing Chrome, a killed browser, closing, the picobot
//! dialect, the window Settings opens, and attaching to the user's own Chrome.

use crate::browser::rig::{ref_of, Rig};
use hearth_browser::{loopback_cdp_url, BrowserArgs, BrowserTool};
use hearth_tools::{Dialect, ErrorKind, Tool};
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

/// "The user's own Chrome": Debian's Chromium started with a DevTools port of its own; the
/// port it printed.
fn users_chrome(profile: &std::path::Path) -> (std::process::Child, u16) {
    use std::io::BufRead;
    let mut chrome = std::process::Command::new("/usr/bin/chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--no-first-run",
            "--remote-debugging-port=0",
            &format!("--user-data-dir={}", profile.display()),
            "about:blank",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(chrome.stderr.take().unwrap());
    let port = stderr
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            let rest = line.split("DevTools listening on ws://127.0.0.1:").nth(1)?;
            rest.split('/').next()?.parse::<u16>().ok()
        })
        .unwrap();
    (chrome, port)
}

#[tokio::test]
async fn your_own_chrome_is_attached_asked_about_refused_unattended_and_left_running() {
    let profile = tempfile::tempdir().unwrap();
    let (mut chrome, port) = users_chrome(profile.path());
    let cdp_url = format!("http://127.0.0.1:{port}");
    let rig = Rig::configured(Dialect::Hearth, |c| c.cdp_url = cdp_url.clone()).await;
    let outline = rig.open("/form").await;
    assert!(outline.contains("textbox"), "{outline}");
    assert_eq!(rig.browsers.pid().await, None, "nothing was launched");
    let tool = BrowserTool::new(rig.browsers.clone(), rig.config.clone());
    let snapshot: BrowserArgs = serde_json::from_value(json!({"action": "snapshot"})).unwrap();
    let facts = tool.call_facts(&snapshot).await;
    assert!(facts.high_risk, "{facts:?}");
    let confirmation = facts.confirmation.unwrap();
    assert!(
        matches!(&confirmation, hearth_protocol::Confirmation::OwnBrowser { action, cdp_url }
            if action == "snapshot" && *cdp_url == rig.config.cdp_url),
        "{confirmation:?}"
    );
    assert!(
        confirmation.to_string().contains("egress guard"),
        "the question says the guard does not cover it"
    );
    rig.browsers.shutdown().await;
    assert!(
        chrome.try_wait().unwrap().is_none(),
        "your Chrome keeps running"
    );

    let unattended = Rig::configured(Dialect::Hearth, |c| {
        c.cdp_url = cdp_url.clone();
        c.attach_allowed = false;
    })
    .await;
    let error = unattended
        .try_call(json!({"action": "open", "url": unattended.url("/a")}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");
    assert!(error.message.contains("daemon"), "{error:?}");
    for remote in [
        "http://192.168.1.5:9222",
        "http://example.com:9222",
        "file:///tmp/x",
    ] {
        let far = Rig::configured(Dialect::Hearth, |c| c.cdp_url = remote.to_string()).await;
        let error = far
            .try_call(json!({"action": "open", "url": far.url("/a")}))
            .await
            .unwrap_err();
        assert!(
            error.message.contains("on this computer"),
            "{remote}: {error:?}"
        );
    }
    assert!(loopback_cdp_url("ws://[::1]:9222/devtools/browser/x").is_ok());
    chrome.kill().unwrap();
    chrome.wait().unwrap();
}

#[tokio::test]
async fn open_window_shows_a_browser_the_agent_then_uses() {
    let rig = Rig::new().await;
    let tool = BrowserTool::new(rig.browsers.clone(), rig.config.clone());
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        // A shown window needs a display (CI runs this suite under Xvfb).
        let error = tool.open_window().await.unwrap_err();
        assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");
        return;
    }
    tool.open_window().await.unwrap();
    let pid = rig.browsers.pid().await.unwrap();
    let cmdline = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap();
    assert!(!cmdline.contains("--headless"), "{cmdline:?}");
    rig.open("/a").await;
    assert_eq!(
        rig.browsers.pid().await,
        Some(pid),
        "the shown browser serves the agent"
    );
    rig.browsers.clear_data().await.unwrap();
    assert!(!rig.browsers.is_running().await);
    assert!(!rig.browsers.profile().exists());
}

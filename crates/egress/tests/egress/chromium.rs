//! A real Debian Chromium, headless, launched with the proxy's flags: each page loads and runs
//! its script, and its DOM is read back after a few seconds of virtual time; the page-script
//! page instead posts what happened once every attempt has settled.

use crate::rig::Rig;
use std::process::Stdio;
use std::time::Duration;

/// A fresh headless Chromium routed through the proxy, opening `url`, with `flags` (the
/// profile lives as long as the command is run).
fn chromium(
    rig: &Rig,
    profile: &std::path::Path,
    url: &str,
    flags: &[&str],
) -> tokio::process::Command {
    let mut command = tokio::process::Command::new("chromium");
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            // Lets page script open a popup without a click.
            "--disable-popup-blocking",
        ])
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        // Service workers need a secure origin; the page origin is plain http.
        .arg(format!(
            "--unsafely-treat-insecure-origin-as-secure={}",
            rig.page("")
        ))
        .args(rig.proxy.chrome_flags())
        .arg(url)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    command
}

/// Loads `url`; returns the DOM after 5 s of virtual time.
async fn load(rig: &Rig, url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut command = chromium(
        rig,
        profile.path(),
        url,
        &["--virtual-time-budget=5000", "--dump-dom"],
    );
    let output = tokio::time::timeout(Duration::from_secs(90), command.output())
        .await
        .expect("chromium finished")
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Opens `/script` and waits (at most 90 s) for the output it posts once every attempt, the
/// service worker's activation included, has settled; then closes the browser.
async fn run_script_page(rig: &Rig) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut browser = chromium(rig, profile.path(), &rig.page("/script"), &[])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let output = tokio::select! {
        output = tokio::time::timeout(Duration::from_secs(90), rig.script_output()) => output,
        exit = browser.wait() => panic!("chromium exited ({exit:?}) before the page reported: {:?}", rig.script_lines()),
    };
    browser.kill().await.unwrap();
    output.unwrap_or_else(|_| panic!("the page did not settle in 90 s: {:?}", rig.script_lines()))
}

#[tokio::test]
async fn navigation_to_local_addresses_in_every_encoding_never_reaches_the_canary() {
    let rig = Rig::start().await;
    let c = rig.canary;
    let cases = [
        (format!("http://2130706433:{c}/"), "127.0.0.1"),
        (format!("http://[::ffff:127.0.0.1]:{c}/"), "::ffff:7f00:1"),
        (format!("http://localhost.:{c}/"), "localhost."),
        (format!("http://0x7f.1:{c}/"), "127.0.0.1"),
        (format!("http://rebind.test:{c}/"), "rebind.test"),
        (rig.page("/redirect"), "127.0.0.1"),
        (rig.page("/nav"), "127.0.0.1"),
    ];
    for (url, host) in cases {
        let before = rig.proxy.refusals().len();
        let dom = load(&rig, &url).await;
        let refused: Vec<String> = rig.refused_hosts().split_off(before);
        assert!(
            refused.iter().any(|h| h.eq_ignore_ascii_case(host)),
            "{url}: the proxy refused {refused:?}, not {host}; page: {dom}"
        );
        let refused = rig.proxy.refused(host).unwrap();
        assert!(refused.is(host), "{refused:?}");
        assert!(refused.reason.contains("allow_local"), "{refused:?}");
        assert_eq!(rig.canary_hits(), 0, "{url} reached the canary");
    }
}

#[tokio::test]
async fn page_script_fetch_websocket_img_popup_webrtc_and_service_worker_are_refused() {
    let rig = Rig::start().await;
    let dom = run_script_page(&rig).await;
    for line in [
        "fetch failed http://127.0.0.1:",
        "fetch failed http://rebind.test:",
        "fetch failed http://localhost.:",
        "websocket failed",
        "img failed",
        "window.open opened",
        "service worker active",
    ] {
        assert!(dom.contains(line), "missing `{line}` in {dom}");
    }
    assert!(!dom.contains("fetch answered"), "{dom}");
    assert!(!dom.contains("websocket opened") && !dom.contains("img loaded"));
    let refused = rig.refused_hosts();
    for host in ["127.0.0.1", "rebind.test", "localhost."] {
        assert!(
            refused.iter().any(|h| h == host),
            "{host} not refused: {refused:?}"
        );
    }
    assert_eq!(
        rig.canary_hits(),
        0,
        "page script reached the canary: {dom}"
    );
}

#[tokio::test]
async fn an_allowed_host_passes_through() {
    let rig = Rig::start().await;
    let dom = load(&rig, &rig.page("/")).await;
    assert!(dom.contains("hello through the proxy"), "{dom}");
    assert!(
        rig.proxy.refusals().is_empty(),
        "{:?}",
        rig.proxy.refusals()
    );
}

//! URLs through the guard and the tools: every encoding of a loopback or private address the
//! URL parser accepts, local names, bad schemes, and `allow_local` letting exactly one target
//! through — with the canary on 127.0.0.1 never reached.

use crate::net_tools::canary::canary;
use crate::net_tools::server::{server, url};
use crate::net_tools::{allowing, net, net_with};
use hearth_tools::net::{register_network, Guard, GuardError, SystemResolver};
use hearth_tools::{Dialect, ErrorKind, NetworkConfig, Registry, ToolContext};
use serde_json::json;
use std::sync::Arc;

/// Hosts that are 127.0.0.1 (or ::1) however they are written, with the address the refusal
/// must name.
fn loopback_spellings() -> Vec<(&'static str, &'static str)> {
    vec![
        ("127.0.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("%31%32%37.0.0.1", "127.0.0.1"),
        ("１２７.０.０.１", "127.0.0.1"),
        ("127.255.255.254", "127.255.255.254"),
        ("0", "0.0.0.0"),
        ("0.0.0.0", "0.0.0.0"),
        ("[::1]", "::1"),
        ("[0:0:0:0:0:0:0:1]", "::1"),
        ("[::]", "unspecified"),
        ("[::ffff:127.0.0.1]", "127.0.0.1"),
        ("[::ffff:7f00:1]", "127.0.0.1"),
        ("[::127.0.0.1]", "IPv4-compatible"),
        ("[64:ff9b::127.0.0.1]", "127.0.0.1"),
        ("[64:ff9b::7f00:1]", "127.0.0.1"),
        ("[2002:7f00:1::]", "127.0.0.1"),
    ]
}

#[tokio::test]
async fn every_spelling_of_loopback_is_refused_before_any_connection() {
    let net = net();
    let port = canary().port();
    for (host, named) in loopback_spellings() {
        let target = format!("http://{host}:{port}/");
        let message = net.blocked("http_request", json!({"url": target})).await;
        assert!(message.contains(named), "{target}: {message}");
        net.blocked(
            "web_fetch",
            json!({"url": format!("http://user:pw@{host}:{port}/x")}),
        )
        .await;
    }
    canary().assert_untouched();
}

#[tokio::test]
async fn private_metadata_and_other_special_targets_are_refused() {
    let net = net();
    let port = canary().port();
    let targets = [
        (
            "http://169.254.169.254/latest/meta-data/",
            "cloud metadata service",
        ),
        ("http://[fd00:ec2::254]/latest/meta-data/", "unique local"),
        ("http://10.0.0.1/", "private network"),
        ("http://172.31.255.255/", "private network"),
        ("https://192.168.1.1/admin", "private network"),
        ("http://100.100.100.200/", "carrier-grade NAT"),
        ("http://[fe80::1]/", "link-local"),
        ("http://224.0.0.1/", "multicast"),
        ("http://198.18.0.1/", "benchmarking"),
        ("http://192.0.2.1/", "TEST-NET-1"),
    ];
    for (target, named) in targets {
        let message = net.blocked("http_request", json!({"url": target})).await;
        assert!(message.contains(named), "{target}: {message}");
    }
    let hint = net
        .blocked(
            "http_request",
            json!({"url": format!("http://127.0.0.1:{port}/")}),
        )
        .await;
    assert!(
        hint.contains(&format!(
            "add \"127.0.0.1:{port}\" to allow_local in Settings → Network (config.toml \
             `allow_local_hosts`)"
        )),
        "{hint}"
    );
    let v6 = net
        .blocked(
            "http_request",
            json!({"url": format!("http://[::1]:{port}/")}),
        )
        .await;
    assert!(v6.contains(&format!("add \"[::1]:{port}\"")), "{v6}");
    canary().assert_untouched();
}

#[tokio::test]
async fn local_names_are_refused_without_resolving() {
    let net = net();
    let port = canary().port();
    for host in [
        "localhost",
        "LOCALHOST",
        "localhost.",
        "ⓛocalhost",
        "app.localhost",
        "printer.local",
        "metadata.google.internal",
        "internal",
        "router.home.arpa",
    ] {
        let target = format!("http://{host}:{port}/");
        let message = net.blocked("http_request", json!({"url": target})).await;
        assert!(message.contains("is a local name"), "{target}: {message}");
    }
    canary().assert_untouched();
}

#[tokio::test]
async fn only_http_and_https_urls_with_a_host_are_accepted() {
    let net = net();
    for bad in [
        "ftp://example.com/file",
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/",
        "javascript:alert(1)",
        "data:text/plain,hi",
        "not a url",
        "//example.com/",
        "http://",
        "http://[fe80::1%25eth0]/",
        "http://exa mple.com/",
    ] {
        net.invalid("http_request", json!({"url": bad}), "url")
            .await;
        net.invalid("web_fetch", json!({"url": bad}), "url").await;
    }
    canary().assert_untouched();
}

#[tokio::test]
async fn allow_local_lets_exactly_the_listed_target_through() {
    let target = url("/json");
    let port = server().port();
    // Refused by default, with the entry that would allow it.
    let message = net_with(Dialect::Hearth, NetworkConfig::default())
        .blocked("http_request", json!({"url": target}))
        .await;
    assert!(
        message.contains(&format!("\"127.0.0.1:{port}\"")),
        "{message}"
    );
    // The same address, another port: still refused.
    net_with(Dialect::Hearth, allowing(&["127.0.0.1:1"]))
        .blocked("http_request", json!({"url": target}))
        .await;
    // Listed with its port, listed without a port, or as [::ffff:127.0.0.1]: allowed, however
    // the URL spells the address.
    for entry in [
        format!("127.0.0.1:{port}"),
        "127.0.0.1".into(),
        format!("[::ffff:127.0.0.1]:{port}"),
    ] {
        let net = net_with(Dialect::Hearth, allowing(&[&entry]));
        for spelled in [target.clone(), format!("http://2130706433:{port}/json")] {
            let result = net.ok("http_request", json!({"url": spelled})).await;
            assert_eq!(result["body"], json!({"hello": "world", "n": 1}), "{entry}");
        }
        // Allowing one loopback port does not open the canary's.
        if entry.contains(':') {
            net.blocked(
                "http_request",
                json!({"url": format!("http://127.0.0.1:{}/", canary().port())}),
            )
            .await;
        }
    }
    canary().assert_untouched();
}

#[tokio::test]
async fn a_name_entry_allows_that_name_through_the_system_resolver() {
    let port = server().port();
    let mut registry = Registry::new(Dialect::Hearth);
    register_network(&mut registry, allowing(&[&format!("localhost:{port}")])).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ctx = ToolContext::new(
        dir.path().to_path_buf(),
        dir.path().to_path_buf(),
        "desktop:net",
    );
    let args = json!({"url": format!("http://localhost:{port}/json")}).to_string();
    let result = registry
        .dispatch("http_request", &args, &ctx)
        .await
        .unwrap();
    assert_eq!(result["status"], 200);
    let other = json!({"url": format!("http://localhost:{}/", canary().port())}).to_string();
    let refused = registry
        .dispatch("http_request", &other, &ctx)
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::BlockedAddress);
    canary().assert_untouched();
}

#[tokio::test]
async fn the_guard_alone_reports_checked_addresses() {
    let guard = Guard::new(&[], Arc::new(SystemResolver));
    let checked = guard
        .check("https://[2606:4700:4700::1111]/dns")
        .await
        .unwrap();
    assert_eq!(
        checked.addresses,
        vec!["2606:4700:4700::1111".parse::<std::net::IpAddr>().unwrap()]
    );
    assert_eq!(checked.domain(), None);
    let checked = guard.check("http://8.8.8.8:8080/").await.unwrap();
    assert_eq!(checked.url.port(), Some(8080));
    assert!(matches!(
        guard.check("http://localhost/").await,
        Err(GuardError::Blocked(_))
    ));
    assert!(matches!(
        guard.check("ftp://8.8.8.8/").await,
        Err(GuardError::InvalidUrl(_))
    ));
}

#[test]
fn invalid_allow_entries_are_reported() {
    let config = allowing(&[
        "127.0.0.1:11434",
        "[::1]:8080",
        "::1",
        "searx.lan",
        "LOCALHOST:80",
        "127.0.0.1:0",
        "host:99999",
        "[::1",
        "[::1]x",
        "a b",
        "http://x/",
        "",
    ]);
    let invalid: Vec<String> = config
        .invalid_allow_entries()
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(
        invalid,
        [
            "127.0.0.1:0",
            "host:99999",
            "[::1",
            "[::1]x",
            "a b",
            "http://x/",
            ""
        ]
    );
}

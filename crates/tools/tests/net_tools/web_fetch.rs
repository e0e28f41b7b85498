//! `web_fetch`: the readable text of a real HTML page fixture with navigation, scripts and
//! other boilerplate, pretty JSON, plain text, `max_chars`, binary content and bad arguments.

use crate::net_tools::canary::canary;
use crate::net_tools::server::{server, url};
use crate::net_tools::{allowing, net, net_with};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::json;

#[tokio::test]
async fn html_pages_become_readable_markdown_without_boilerplate() {
    let result = net().ok("web_fetch", json!({"url": url("/page")})).await;
    assert_eq!(result["status"], 200);
    assert_eq!(result["content_type"], "text/html");
    assert_eq!(result["truncated"], false);
    assert_eq!(result["title"], "Growing Tomatoes on a Balcony");
    let content = result["content"].as_str().unwrap();
    for kept in [
        "six hours of direct sun",
        "Choosing a variety",
        "Enjoy the harvest!",
        &format!("[watering guide](http://{}/guides/watering)", server()),
    ] {
        assert!(content.contains(kept), "missing {kept:?} in:\n{content}");
    }
    for dropped in [
        "NAV-",
        "SIDEBAR-",
        "FOOTER-",
        "HEADER-LOGO",
        "TRACKING-SCRIPT-TEXT",
        "INLINE-SCRIPT-TEXT",
        "font-family",
    ] {
        assert!(
            !content.contains(dropped),
            "{dropped:?} left in:\n{content}"
        );
    }
    assert_eq!(result["total_chars"], content.chars().count());
}

#[tokio::test]
async fn short_pages_fall_back_to_the_whole_body() {
    let result = net().ok("web_fetch", json!({"url": url("/tiny")})).await;
    assert_eq!(result["title"], "Tiny");
    let content = result["content"].as_str().unwrap();
    assert!(content.contains("Hello"), "{content}");
    assert!(content.contains("there"), "{content}");
    assert!(
        !content.contains("NAV-tiny") && !content.contains("FOOTER-tiny"),
        "{content}"
    );
}

#[tokio::test]
async fn max_chars_cuts_the_text() {
    let net = net();
    let result = net
        .ok("web_fetch", json!({"url": url("/page"), "max_chars": 100}))
        .await;
    assert_eq!(result["content"].as_str().unwrap().chars().count(), 100);
    assert_eq!(result["truncated"], true);
    assert!(result["total_chars"].as_u64().unwrap() > 100);
}

#[tokio::test]
async fn json_is_pretty_printed_and_text_kept() {
    let net = net();
    let result = net.ok("web_fetch", json!({"url": url("/json")})).await;
    assert_eq!(
        result["content"],
        "{\n  \"hello\": \"world\",\n  \"n\": 1\n}"
    );
    assert_eq!(result["title"], "");
    let text = net.ok("web_fetch", json!({"url": url("/text")})).await;
    assert_eq!(text["content"], "plain text\n");
    let missing = net
        .ok("web_fetch", json!({"url": url("/status/404")}))
        .await;
    assert_eq!(missing["status"], 404);
    assert_eq!(missing["content"], "status 404");
}

#[tokio::test]
async fn binary_content_is_unavailable_with_a_pointer_to_http_request() {
    let error = net().err("web_fetch", json!({"url": url("/binary")})).await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert!(error.message.contains("image/png (8 bytes)"), "{error:?}");
    assert!(error.message.contains("http_request"), "{error:?}");
}

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let net = net();
    let u = url("/page");
    for (args, field) in [
        (json!({}), "url"),
        (json!({"url": null}), "url"),
        (json!({"url": ["a"]}), "url"),
        (json!({"url": u, "max_chars": 0}), "max_chars"),
        (json!({"url": u, "max_chars": -5}), "max_chars"),
        (json!({"url": u, "max_chars": "10"}), "max_chars"),
        (json!({"url": u, "max_chars": 2_000_000}), "max_chars"),
        (json!({"url": u, "method": "POST"}), "method"),
        (json!({"url": "mailto:a@b.c"}), "url"),
    ] {
        net.invalid("web_fetch", args, field).await;
    }
}

#[tokio::test]
async fn picobot_and_echo_fetch_with_the_same_guard() {
    for dialect in [Dialect::Picobot, Dialect::Echo] {
        let net = net_with(
            dialect,
            allowing(&[&crate::net_tools::server::allow_entry()]),
        );
        let result = net.ok("web_fetch", json!({"url": url("/json")})).await;
        assert_eq!(result["status"], 200, "{dialect}");
        net.blocked(
            "web_fetch",
            json!({"url": format!("http://127.0.0.1:{}/", canary().port())}),
        )
        .await;
    }
    canary().assert_untouched();
}

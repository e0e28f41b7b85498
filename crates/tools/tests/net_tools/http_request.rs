//! `http_request` against the local test server: methods, headers, string and JSON bodies,
//! body decoding (JSON, text, charsets, binary), the size cap, the timeout, transport errors,
//! malformed arguments, and the PicoBot and CeeCore shapes.

use crate::net_tools::server::{url, BIG_BYTES};
use crate::net_tools::{allowing, net, net_with};
use hearth_tools::net::MAX_BODY_BYTES;
use hearth_tools::{Dialect, ErrorKind};
use serde_json::{json, Value};
use std::time::Instant;

#[tokio::test]
async fn get_parses_json_and_returns_text() {
    let net = net();
    let json_result = net.ok("http_request", json!({"url": url("/json")})).await;
    assert_eq!(json_result["status"], 200);
    assert_eq!(json_result["body"], json!({"hello": "world", "n": 1}));
    assert_eq!(json_result["headers"]["content-type"], "application/json");
    assert_eq!(json_result.get("note"), None);
    let text = net
        .ok(
            "http_request",
            json!({"url": url("/text"), "method": "GET"}),
        )
        .await;
    assert_eq!(text["body"], "plain text\n");
    let untyped = net
        .ok("http_request", json!({"url": url("/untyped-json")}))
        .await;
    assert_eq!(untyped["body"], json!([1, 2, 3]));
    let bad = net
        .ok("http_request", json!({"url": url("/bad-json")}))
        .await;
    assert_eq!(bad["body"], "{not json");
    let latin1 = net.ok("http_request", json!({"url": url("/latin1")})).await;
    assert_eq!(latin1["body"], "café");
    for code in [404, 500] {
        let result = net
            .ok(
                "http_request",
                json!({"url": url(&format!("/status/{code}"))}),
            )
            .await;
        assert_eq!(result["status"], code);
        assert_eq!(result["body"], format!("status {code}"));
    }
}

#[tokio::test]
async fn methods_headers_and_bodies_reach_the_server() {
    let net = net();
    let echo = url("/echo");
    for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
        let result = net
            .ok(
                "http_request",
                json!({"url": echo, "method": method, "headers": {"X-Test": "yes"}}),
            )
            .await;
        assert_eq!(result["body"]["method"], method);
        assert_eq!(result["body"]["headers"]["x-test"], "yes");
        assert!(result["body"]["headers"]["user-agent"]
            .as_str()
            .unwrap()
            .starts_with("Hearth/"));
    }
    let object = net
        .ok(
            "http_request",
            json!({"url": echo, "method": "POST", "body": {"a": [1, 2], "b": "c"}}),
        )
        .await;
    assert_eq!(
        object["body"]["headers"]["content-type"],
        "application/json"
    );
    let sent: Value = serde_json::from_str(object["body"]["body"].as_str().unwrap()).unwrap();
    assert_eq!(sent, json!({"a": [1, 2], "b": "c"}));
    let array = net
        .ok(
            "http_request",
            json!({"url": echo, "method": "PUT", "body": [1, "two"]}),
        )
        .await;
    assert_eq!(array["body"]["body"], "[1,\"two\"]");
    let typed = net
        .ok(
            "http_request",
            json!({"url": echo, "method": "POST", "body": {"k": 1},
            "headers": {"Content-Type": "application/vnd.api+json"}}),
        )
        .await;
    assert_eq!(
        typed["body"]["headers"]["content-type"],
        "application/vnd.api+json"
    );
    let text = net
        .ok(
            "http_request",
            json!({"url": echo, "method": "POST", "body": "a=1&b=2"}),
        )
        .await;
    assert_eq!(text["body"]["body"], "a=1&b=2");
    assert_eq!(text["body"]["headers"].get("content-type"), None);
}

#[tokio::test]
async fn head_returns_headers_and_no_body() {
    let result = net()
        .ok(
            "http_request",
            json!({"url": url("/json"), "method": "HEAD"}),
        )
        .await;
    assert_eq!(result["status"], 200);
    assert_eq!(result["body"], "");
    assert_eq!(result["headers"]["content-type"], "application/json");
}

#[tokio::test]
async fn binary_bodies_come_back_as_base64() {
    let result = net()
        .ok("http_request", json!({"url": url("/binary")}))
        .await;
    assert_eq!(result["body_encoding"], "base64");
    assert_eq!(result["body"], "iVBORwABAv8=");
    assert!(result["note"]
        .as_str()
        .unwrap()
        .contains("binary (image/png, 8 bytes)"));
}

#[tokio::test]
async fn big_bodies_are_cut_at_the_cap_and_spilled() {
    let net = net();
    let result = net.ok("http_request", json!({"url": url("/big")})).await;
    // Over the model output cap: the registry spilled the whole result to a file.
    assert_eq!(result["truncated"], true);
    let spilled = std::fs::read_to_string(result["spill_path"].as_str().unwrap()).unwrap();
    let full: Value = serde_json::from_str(&spilled).unwrap();
    assert_eq!(full["truncated"], true);
    assert_eq!(full["body"].as_str().unwrap().len(), MAX_BODY_BYTES);
    const { assert!(MAX_BODY_BYTES < BIG_BYTES) };
    assert!(full["note"]
        .as_str()
        .unwrap()
        .contains("only the first 5242880 were read"));
}

#[tokio::test]
async fn the_timeout_bounds_the_whole_request() {
    let started = Instant::now();
    let error = net()
        .err("http_request", json!({"url": url("/slow"), "timeout": 1}))
        .await;
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert!(error.message.contains("within 1 s"), "{error:?}");
    assert!(started.elapsed().as_secs_f64() < 5.0);
}

#[tokio::test]
async fn a_closed_port_is_a_network_error() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let net = net_with(Dialect::Hearth, allowing(&[&format!("127.0.0.1:{port}")]));
    let error = net
        .err(
            "http_request",
            json!({"url": format!("http://127.0.0.1:{port}/")}),
        )
        .await;
    assert_eq!(error.kind, ErrorKind::Network);
    assert!(error
        .message
        .contains(&format!("request to http://127.0.0.1:{port}/ failed")));
}

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let net = net();
    let u = url("/json");
    let cases = [
        (json!({}), "url"),
        (json!({"url": 5}), "url"),
        (json!({"url": ""}), "url"),
        (json!({"url": "x".repeat(9000)}), "url"),
        (json!({"url": u, "method": "get"}), "method"),
        (json!({"url": u, "method": "TRACE"}), "method"),
        (json!({"url": u, "timeout": 61}), "timeout"),
        (json!({"url": u, "timeout": 0}), "timeout"),
        (json!({"url": u, "timeout": -1}), "timeout"),
        (json!({"url": u, "timeout": 2.5}), "timeout"),
        (json!({"url": u, "timeout": "30"}), "timeout"),
        (json!({"url": u, "headers": ["a"]}), "headers"),
        (json!({"url": u, "headers": {"a": 1}}), "headers.a"),
        (
            json!({"url": u, "headers": {"bad header": "x"}}),
            "headers.bad header",
        ),
        (json!({"url": u, "headers": {"x": "a\nb"}}), "headers.x"),
        (json!({"url": u, "body": 5}), "body"),
        (json!({"url": u, "body": true}), "body"),
        (json!({"url": u, "follow": true}), "follow"),
    ];
    for (args, field) in cases {
        net.invalid("http_request", args, field).await;
    }
    let text = net.err("http_request", json!("not an object")).await;
    assert_eq!(text.kind, ErrorKind::InvalidArguments);
}

#[tokio::test]
async fn picobot_has_no_head_and_string_bodies_only() {
    let net = net_with(
        Dialect::Picobot,
        allowing(&[&crate::net_tools::server::allow_entry()]),
    );
    let echo = url("/echo");
    let result = net
        .ok(
            "http_request",
            json!({"url": echo, "method": "PATCH", "body": "raw", "headers": {"A": "b"}}),
        )
        .await;
    assert_eq!(result["body"]["method"], "PATCH");
    assert_eq!(result["body"]["body"], "raw");
    net.invalid(
        "http_request",
        json!({"url": echo, "method": "HEAD"}),
        "method",
    )
    .await;
    net.invalid(
        "http_request",
        json!({"url": echo, "body": {"a": 1}}),
        "body",
    )
    .await;
    net.invalid(
        "http_request",
        json!({"url": echo, "timeout": 5}),
        "timeout",
    )
    .await;
    net.blocked("http_request", json!({"url": "http://127.0.0.1:9/"}))
        .await;
}

#[tokio::test]
async fn ceecore_speaks_the_canonical_shape() {
    let net = net_with(
        Dialect::Ceecore,
        allowing(&[&crate::net_tools::server::allow_entry()]),
    );
    let result = net
        .ok(
            "http_request",
            json!({"url": url("/echo"), "method": "POST",
            "headers": {"Accept": "application/json"}, "body": {"city": "Paris"}, "timeout": 10}),
        )
        .await;
    assert_eq!(result["status"], 200);
    assert_eq!(result["body"]["body"], "{\"city\":\"Paris\"}");
    net.invalid(
        "http_request",
        json!({"url": url("/echo"), "timeout": 61}),
        "timeout",
    )
    .await;
}

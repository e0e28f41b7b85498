//! DNS rebinding: a stub answering a harmless address first and 127.0.0.1 after. The guard
//! resolves once per request and the connection uses exactly the checked answer, so the
//! second answer is never connected to; the canary on 127.0.0.1 sees nothing.

use crate::net_tools::canary::canary;
use crate::net_tools::dns::stub;
use crate::net_tools::{allowing, net, net_with};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::json;
use std::net::Ipv4Addr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const PUBLIC: Ipv4Addr = Ipv4Addr::new(93, 184, 215, 14);

#[tokio::test]
async fn public_first_then_loopback_never_reaches_loopback() {
    let name = "rebind-public.test";
    stub().script(name, &[&[PUBLIC], &[Ipv4Addr::LOCALHOST]]);
    let net = net();
    let port = canary().port();
    let target = format!("http://{name}:{port}/");
    // The first answer is public: the request goes there (this machine has no route, so it
    // fails or times out) — and only there.
    let first = net
        .err("http_request", json!({"url": target, "timeout": 2}))
        .await;
    assert!(
        matches!(first.kind, ErrorKind::Network | ErrorKind::Timeout),
        "{first:?}"
    );
    assert_eq!(stub().queries(name), 1, "one resolution per request");
    // Asked again, the name now points at loopback: refused before connecting.
    let message = net.blocked("http_request", json!({"url": target})).await;
    assert!(
        message.contains("rebind-public.test resolves to 127.0.0.1"),
        "{message}"
    );
    assert_eq!(stub().queries(name), 2);
    canary().assert_untouched();
}

/// A one-shot HTTP server on `ip:port` answering `200 ok-from-<ip>` to every request.
async fn stand_in(ip: Ipv4Addr, port: u16) -> Option<tokio::task::JoinHandle<()>> {
    let listener = TcpListener::bind((ip, port)).await.ok()?;
    Some(tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut buffer = [0u8; 4096];
            let _ = stream.read(&mut buffer).await;
            let body = format!("ok-from-{ip}");
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
        }
    }))
}

#[tokio::test]
async fn the_request_completes_against_the_checked_answer_while_dns_has_moved_on() {
    // 127.0.0.2 stands in for a public host (allowed for this test), on the canary's port;
    // the stub answers 127.0.0.2 once, then 127.0.0.1 (the canary) for every later query.
    let port = canary().port();
    let stand_in_ip = Ipv4Addr::new(127, 0, 0, 2);
    let Some(server) = stand_in(stand_in_ip, port).await else {
        eprintln!("127.0.0.2 cannot be bound here; the rebinding round trip is skipped");
        return;
    };
    let name = "rebind-local.test";
    stub().script(name, &[&[stand_in_ip], &[Ipv4Addr::LOCALHOST]]);
    let net = net_with(Dialect::Hearth, allowing(&["127.0.0.2"]));
    let target = format!("http://{name}:{port}/");
    let first = net.ok("http_request", json!({"url": target})).await;
    assert_eq!(first["body"], "ok-from-127.0.0.2");
    assert_eq!(
        stub().queries(name),
        1,
        "reqwest did not resolve the name again"
    );
    for _ in 0..3 {
        net.blocked("http_request", json!({"url": target})).await;
        net.blocked("web_fetch", json!({"url": target})).await;
    }
    assert_eq!(
        stub().queries(name),
        7,
        "each request resolves exactly once"
    );
    server.abort();
    canary().assert_untouched();
}

#[tokio::test]
async fn one_special_address_among_many_refuses_the_name() {
    let name = "mixed.test";
    stub().script(name, &[&[Ipv4Addr::new(8, 8, 8, 8), Ipv4Addr::LOCALHOST]]);
    let message = net()
        .blocked(
            "http_request",
            json!({"url": format!("http://{name}:{}/", canary().port())}),
        )
        .await;
    assert!(
        message.contains("mixed.test resolves to 2 addresses, one of them 127.0.0.1"),
        "{message}"
    );
    stub().script("private.test", &[&[Ipv4Addr::new(10, 1, 2, 3)]]);
    let message = net()
        .blocked("web_fetch", json!({"url": "http://private.test/"}))
        .await;
    assert!(message.contains("add \"10.1.2.3:80\""), "{message}");
    canary().assert_untouched();
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_a_network_error() {
    let error = net()
        .err("http_request", json!({"url": "http://nowhere.test/"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Network);
    assert!(
        error.message.contains("could not resolve nowhere.test"),
        "{error:?}"
    );
    stub().script("empty.test", &[&[]]);
    let error = net()
        .err("http_request", json!({"url": "http://empty.test/"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Network, "{error:?}");
}

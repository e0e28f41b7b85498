//! reqwest configured with the proxy: absolute-form requests and CONNECT tunnels to local
//! targets are refused with the guard's reason, an allowed host is served, and the latency
//! the proxy adds per request is measured.

use crate::rig::Rig;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn through(rig: &Rig) -> reqwest::Client {
    let proxy = reqwest::Proxy::all(format!("http://127.0.0.1:{}", rig.proxy.port())).unwrap();
    reqwest::Client::builder().proxy(proxy).build().unwrap()
}

#[tokio::test]
async fn local_targets_are_refused_and_an_allowed_host_is_served() {
    let rig = Rig::start().await;
    let client = through(&rig);
    let c = rig.canary;
    for url in [
        format!("http://127.0.0.1:{c}/"),
        format!("http://2130706433:{c}/"),
        format!("http://0x7f.1:{c}/"),
        format!("http://[::ffff:127.0.0.1]:{c}/"),
        format!("http://localhost.:{c}/"),
        format!("http://rebind.test:{c}/"),
        format!("http://pages.test:{c}/"),
    ] {
        let response = client.get(&url).send().await.unwrap();
        assert_eq!(response.status(), 403, "{url}");
        let reason = response.text().await.unwrap();
        assert!(reason.contains("allow_local"), "{url}: {reason}");
    }
    // https goes through CONNECT: refused before any TLS.
    let error = client
        .get(format!("https://rebind.test:{c}/"))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error:?}");
    let page = client.get(rig.page("/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("hello"));
    assert_eq!(rig.canary_hits(), 0);
    assert_eq!(
        rig.proxy.refused("rebind.test").unwrap().address,
        Some("127.0.0.1".parse().unwrap())
    );
}

#[tokio::test]
async fn a_connect_tunnel_to_an_allowed_host_carries_bytes_both_ways() {
    let rig = Rig::start().await;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", rig.proxy.port()))
        .await
        .unwrap();
    let authority = format!("pages.test:{}", rig.pages);
    stream
        .write_all(format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut head = vec![0u8; 1024];
    let n = stream.read(&mut head).await.unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: pages.test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).await.unwrap();
    assert!(page.contains("hello through the proxy"), "{page}");
}

/// Median of `runs` sequential GETs of the page with `client`.
async fn median(client: &reqwest::Client, url: &str, runs: usize) -> Duration {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        let body = client.get(url).send().await.unwrap().bytes().await.unwrap();
        assert!(!body.is_empty());
        times.push(started.elapsed());
    }
    times.sort();
    times[runs / 2]
}

#[tokio::test]
async fn the_proxy_adds_little_latency_per_request() {
    let rig = Rig::start().await;
    let direct = reqwest::Client::builder()
        .resolve("pages.test", ([127, 0, 0, 1], rig.pages).into())
        .no_proxy()
        .build()
        .unwrap();
    let proxied = through(&rig);
    let url = rig.page("/");
    median(&direct, &url, 20).await;
    median(&proxied, &url, 20).await;
    let direct = median(&direct, &url, 200).await;
    let proxied = median(&proxied, &url, 200).await;
    eprintln!("egress proxy: median GET direct {direct:?}, through the proxy {proxied:?}");
    assert!(
        proxied < direct + Duration::from_millis(20),
        "direct {direct:?}, proxied {proxied:?}"
    );
}

//! The shared TLS set-up against a real TLS server on 127.0.0.1 with a certificate made here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A server answering every connection with one HTTP 200 over TLS, with a certificate for
/// `localhost` alone; its port and the certificate.
async fn tls_server() -> (u16, CertificateDer<'static>) {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert = certified.cert.der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        certified.signing_key.serialize_der(),
    ));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::aws_lc_rs::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert.clone()], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A refused handshake (the client's check failed) ends here.
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return;
                };
                let mut request = [0u8; 1024];
                let _ = tls.read(&mut request).await;
                let answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (port, cert)
}

#[allow(clippy::disallowed_methods)] // the shared set-up with other roots
fn client(extra_roots: Vec<CertificateDer<'static>>) -> reqwest::Client {
    reqwest::Client::builder()
        .tls_backend_preconfigured(super::config(extra_roots).unwrap())
        .build()
        .unwrap()
}

/// The whole error chain, where rustls' reason is.
fn chain(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(next) = source {
        text.push_str(&format!(": {next}"));
        source = next.source();
    }
    text
}

#[tokio::test]
async fn a_trusted_certificate_for_the_name_connects() {
    let (port, cert) = tls_server().await;
    let client = client(vec![cert]);
    let body = client
        .get(format!("https://localhost:{port}/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(body, "ok");
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let (port, cert) = tls_server().await;
    let client = client(vec![cert]);
    let error = client
        .get(format!("https://127.0.0.1:{port}/"))
        .send()
        .await
        .unwrap_err();
    assert!(
        chain(&error).contains("not valid for name"),
        "{}",
        chain(&error)
    );
}

/// The process-wide builder's roots are the system's: a certificate made here is not one.
#[tokio::test]
async fn the_shared_client_refuses_a_certificate_no_system_root_signed() {
    let (port, _) = tls_server().await;
    let client = super::client_builder().build().unwrap();
    let error = client
        .get(format!("https://localhost:{port}/"))
        .send()
        .await
        .unwrap_err();
    assert!(chain(&error).contains("UnknownIssuer"), "{}", chain(&error));
}

//! The updater against a local update server on 127.0.0.1 serving a manifest in the plugin's
//! real format, signed with a minisign key pair made here (as `tauri signer` makes them): a
//! newer version is offered, its package verifies, and a tampered signature or package is
//! refused; the app's own version (0.1.0 in the mock app) is not offered again.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;

use base64::Engine as _;
use serde_json::json;
use tauri::test::{mock_builder, mock_context, noop_assets, MockRuntime};

use super::*;

const PACKAGE: &[u8] = b"the new Hearth, packaged";

/// A key pair in the updater's format: the public key and signatures are base64 of minisign's
/// text boxes.
struct Signer {
    public: String,
    secret: minisign::SecretKey,
    pk: minisign::PublicKey,
}

impl Signer {
    fn new() -> Signer {
        let pair = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let public = pair.pk.to_box().unwrap().to_string();
        Signer {
            public: base64::engine::general_purpose::STANDARD.encode(public),
            secret: pair.sk,
            pk: pair.pk,
        }
    }

    fn sign(&self, data: &[u8], version: &str) -> String {
        let trusted = format!("timestamp:1764547200\tfile:hearth.tar.gz\tversion:{version}");
        let signature = minisign::sign(
            Some(&self.pk),
            &self.secret,
            data,
            Some(&trusted),
            Some("signature from tauri secret key"),
        )
        .unwrap();
        base64::engine::general_purpose::STANDARD.encode(signature.to_string())
    }
}

/// Serves `manifest` at `/latest.json` and `package` at `/hearth.tar.gz` until the test ends.
fn serve(manifest: impl Fn(&str) -> String + Send + Sync + 'static, package: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let manifest = Arc::new(manifest);
    let own_base = base.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request_line
                .split(' ')
                .nth(1)
                .unwrap_or_default()
                .to_string();
            let (kind, body) = if path.starts_with("/latest.json") {
                ("application/json", manifest(&own_base).into_bytes())
            } else if path == "/hearth.tar.gz" {
                ("application/octet-stream", package.clone())
            } else {
                let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
                continue;
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    base
}

/// The static manifest `tauri build` users publish: one entry per `{os}-{arch}` target.
fn manifest(base: &str, version: &str, signature: &str) -> String {
    let target = tauri_plugin_updater::target().unwrap();
    json!({
        "version": version,
        "notes": "Faster start-up.",
        "pub_date": "2026-12-01T08:00:00Z",
        "platforms": { target: { "signature": signature, "url": format!("{base}/hearth.tar.gz") } }
    })
    .to_string()
}

/// Whether the plugin refused a package because its signature does not verify.
fn refused_by_signature<T>(result: Result<T, tauri_plugin_updater::Error>) -> bool {
    matches!(result, Err(tauri_plugin_updater::Error::Minisign(_)))
}

fn app() -> tauri::App<MockRuntime> {
    let mut context = mock_context(noop_assets());
    let config = json!({ "pubkey": "", "endpoints": [] });
    context
        .config_mut()
        .plugins
        .0
        .insert("updater".into(), config);
    mock_builder()
        .plugin(tauri_plugin_updater::Builder::new().build())
        .build(context)
        .unwrap()
}

fn settings(base: &str, signer: &Signer) -> UpdateSettings {
    UpdateSettings {
        endpoint: format!("{base}/latest.json?target={{{{target}}}}"),
        pubkey: signer.public.clone(),
    }
}

/// Serves a manifest offering `version` with `signature` and `package`, and checks it with
/// `key`'s public key.
async fn offered(version: &str, signature: String, package: &[u8], key: &Signer) -> Option<Update> {
    let version = version.to_string();
    let base = serve(
        move |base| manifest(base, &version, &signature),
        package.to_vec(),
    );
    check(app().handle(), &settings(&base, key)).await.unwrap()
}

/// The offered update's download fails its signature check.
async fn assert_refused(update: Option<Update>, what: &str) {
    let downloaded = update.unwrap().download(|_, _| {}, || {}).await;
    assert!(refused_by_signature(downloaded), "{what} was accepted");
}

#[tokio::test]
async fn a_signed_newer_version_is_offered_and_its_package_verifies() {
    let signer = Signer::new();
    let update = offered("0.2.0", signer.sign(PACKAGE, "0.2.0"), PACKAGE, &signer).await;
    let outcome = outcome("0.1.0".into(), update.as_ref());
    let available = outcome.available.unwrap();
    assert_eq!(available.version, "0.2.0");
    assert_eq!(available.notes.as_deref(), Some("Faster start-up."));
    assert_eq!(available.date.as_deref(), Some("2026-12-01T08:00:00Z"));
    let bytes = update.unwrap().download(|_, _| {}, || {}).await.unwrap();
    assert_eq!(bytes, PACKAGE);
}

#[tokio::test]
async fn a_tampered_signature_or_package_is_refused() {
    let signer = Signer::new();
    let good = signer.sign(PACKAGE, "0.2.0");
    // One character of the signature box changed: the signature no longer matches.
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(&good)
        .unwrap();
    let mut text = String::from_utf8(decoded).unwrap();
    let at = text.lines().next().unwrap().len() + 10;
    let flipped = if &text[at..at + 1] == "A" { "B" } else { "A" };
    text.replace_range(at..at + 1, flipped);
    let tampered = base64::engine::general_purpose::STANDARD.encode(text);
    let update = offered("0.2.0", tampered, PACKAGE, &signer).await;
    assert!(refused_by_signature(
        update.as_ref().unwrap().verify(PACKAGE)
    ));
    assert_refused(update, "a tampered signature").await;

    // A package swapped on the server, with the signature of the real one.
    let swapped = offered("0.2.0", good, b"something else entirely", &signer).await;
    assert_refused(swapped, "a swapped package").await;
}

#[tokio::test]
async fn a_package_signed_with_another_key_is_refused() {
    let (ours, theirs) = (Signer::new(), Signer::new());
    let update = offered("0.2.0", theirs.sign(PACKAGE, "0.2.0"), PACKAGE, &ours).await;
    assert_refused(update, "another key's signature").await;
}

#[tokio::test]
async fn the_running_version_is_not_offered_and_off_means_no_request() {
    let signer = Signer::new();
    let update = offered("0.1.0", signer.sign(PACKAGE, "0.1.0"), PACKAGE, &signer).await;
    assert!(update.is_none());
    let off = check(app().handle(), &UpdateSettings::default()).await;
    assert_eq!(off.err(), Some(AppError::UpdatesOff));
}

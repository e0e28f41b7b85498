//! The HTTP client builder every part of Hearth starts from: one TLS set-up per process.

use std::sync::{Arc, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use rustls_platform_verifier::Verifier;

/// A `reqwest` client builder whose TLS checks servers against the system's roots, like
/// reqwest's own, but shares them: reqwest reads and parses every root certificate of the system
/// each time a client is built (~7 ms on Linux), which the app did three times before its window
/// opened and once per local model server it probed. Here they are read once, at the process's
/// first secure connection, on whichever thread makes it.
#[allow(clippy::disallowed_methods)] // the one place reqwest's builder is called
pub fn client_builder() -> reqwest::ClientBuilder {
    match tls_config() {
        Some(config) => reqwest::Client::builder().tls_backend_preconfigured(config.clone()),
        // The provider refused its own default TLS versions (it does not): reqwest's own set-up.
        None => reqwest::Client::builder(),
    }
}

fn tls_config() -> Option<&'static ClientConfig> {
    static CONFIG: OnceLock<Option<ClientConfig>> = OnceLock::new();
    CONFIG.get_or_init(|| config(Vec::new())).as_ref()
}

/// A TLS configuration trusting the system's roots and `extra_roots`, read at its first
/// handshake; `None` only if the provider refused its own default TLS versions.
fn config(extra_roots: Vec<CertificateDer<'static>>) -> Option<ClientConfig> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let roots = Arc::new(SystemRoots {
        provider: provider.clone(),
        extra_roots,
        verifier: OnceLock::new(),
    });
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .ok()?
        .dangerous()
        .with_custom_certificate_verifier(roots)
        .with_no_client_auth();
    // HTTP/1.1, as reqwest offers it when built without its `http2` feature (the workspace's
    // build).
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Some(config)
}

/// The platform's verifier (the system's roots and WebPKI), built at its first use.
#[derive(Debug)]
struct SystemRoots {
    provider: Arc<CryptoProvider>,
    extra_roots: Vec<CertificateDer<'static>>,
    verifier: OnceLock<Result<Verifier, rustls::Error>>,
}

impl SystemRoots {
    fn verifier(&self) -> Result<&Verifier, rustls::Error> {
        self.verifier
            .get_or_init(|| {
                Verifier::new_with_extra_roots(self.extra_roots.clone(), self.provider.clone())
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl ServerCertVerifier for SystemRoots {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verifier()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls13_signature(message, cert, dss)
    }

    /// Asked before any certificate is seen: answered from the provider, as the platform's
    /// verifier does, so a system without roots still fails at the certificate, with its reason.
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;

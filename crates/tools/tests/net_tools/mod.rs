//! Integration tests of the network tools and the SSRF guard through hearth-tools' public API,
//! over real HTTP on 127.0.0.1 and a real DNS stub; every refused target is a canary listener
//! that must never see a connection.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod canary;
mod dns;
mod guard_urls;
mod http_request;
mod ranges;
mod rebinding;
mod redirects;
mod registration;
mod server;
mod skill_install;
mod web_fetch;
mod web_search;

use crate::support::{failed, succeeded};
use hearth_tools::net::register_network_with_resolver;
use hearth_tools::{Dialect, ErrorKind, NetworkConfig, Registry, ToolContext, ToolError};
use serde_json::Value;

/// A registry of one dialect with the network tools, resolving names through the DNS stub,
/// and the temporary data dir its calls spill into.
pub struct Net {
    pub registry: Registry,
    pub dir: tempfile::TempDir,
}

pub fn net_with(dialect: Dialect, config: NetworkConfig) -> Net {
    let mut registry = Registry::new(dialect);
    register_network_with_resolver(&mut registry, config, dns::stub().resolver())
        .expect("register the network tools");
    Net {
        registry,
        dir: tempfile::tempdir().expect("tempdir"),
    }
}

/// A hearth registry allowing the test server (and only it).
pub fn net() -> Net {
    net_with(Dialect::Hearth, allowing(&[&server::allow_entry()]))
}

/// A config whose allow_local holds `entries`.
pub fn allowing(entries: &[&str]) -> NetworkConfig {
    NetworkConfig {
        allow_local: entries.iter().map(|e| e.to_string()).collect(),
        ..NetworkConfig::default()
    }
}

impl Net {
    pub fn context(&self) -> ToolContext {
        ToolContext::new(
            self.dir.path().join("workspace"),
            self.dir.path().to_path_buf(),
            "desktop:net-test",
        )
    }

    pub async fn call(&self, tool: &str, args: Value) -> Result<Value, ToolError> {
        self.registry
            .dispatch(tool, &args.to_string(), &self.context())
            .await
    }

    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        succeeded(self.call(tool, args.clone()).await, tool, &args)
    }

    pub async fn err(&self, tool: &str, args: Value) -> ToolError {
        failed(self.call(tool, args.clone()).await, tool, &args)
    }

    /// Expects `invalid_arguments` naming `field`.
    pub async fn invalid(&self, tool: &str, args: Value, field: &str) {
        let error = self.err(tool, args.clone()).await;
        assert_eq!(
            error.kind,
            ErrorKind::InvalidArguments,
            "{tool} {args}: {error:?}"
        );
        assert_eq!(
            error.field.as_deref(),
            Some(field),
            "{tool} {args}: {error:?}"
        );
    }

    /// Expects `blocked_address` with the how-to-allow hint.
    pub async fn blocked(&self, tool: &str, args: Value) -> String {
        let error = self.err(tool, args.clone()).await;
        assert_eq!(
            error.kind,
            ErrorKind::BlockedAddress,
            "{tool} {args}: {error:?}"
        );
        assert!(
            error
                .message
                .contains("to allow_local in Settings → Network"),
            "{}",
            error.message
        );
        error.message
    }
}

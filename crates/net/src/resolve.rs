//! Name resolution for the guard: the injectable `HostResolver`, the system resolver in
//! production.

use async_trait::async_trait;
use std::io;
use std::net::IpAddr;

/// Resolves a host name to its addresses, once per request (the guard checks every address).
#[async_trait]
pub trait HostResolver: Send + Sync + 'static {
    async fn lookup(&self, host: &str) -> io::Result<Vec<IpAddr>>;
}

/// The operating system's resolver (`getaddrinfo` via tokio): hosts file, VPN and split DNS
/// behave as they do for every other program.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

#[async_trait]
impl HostResolver for SystemResolver {
    async fn lookup(&self, host: &str) -> io::Result<Vec<IpAddr>> {
        let addrs = tokio::net::lookup_host((host, 0)).await?;
        Ok(addrs.map(|addr| addr.ip()).collect())
    }
}

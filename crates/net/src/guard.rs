//! The SSRF guard: parses a URL with the `url` crate, refuses local names, resolves the host
//! once and refuses when any address is special-purpose, unless the user allowed that host or
//! address in `allow_local`. What passes carries the exact addresses to connect to.

use crate::allow::{normalize_name, suggestion_for_ip, suggestion_for_name, AllowEntry};
use crate::resolve::HostResolver;
use crate::special::special_purpose;
use std::net::IpAddr;
use std::sync::Arc;
use url::{Host, Url};

/// Name suffixes that only ever mean this machine or its network.
const LOCAL_SUFFIXES: [&str; 4] = ["localhost", "local", "internal", "home.arpa"];

/// Where a refusal tells the user to allow a target.
const HOW_TO_ALLOW: &str = "to allow_local in Settings → Network (config.toml `allow_local_hosts`)";

/// Why the guard refused a URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuardError {
    /// Not an http(s) URL with a host.
    #[error("{0}")]
    InvalidUrl(String),
    /// A local name, or an address in a special-purpose range.
    #[error("{0}")]
    Blocked(Refusal),
    /// The host did not resolve.
    #[error("{0}")]
    Resolve(String),
}

/// What the guard refused: the host as the URL names it, the address that made it refuse
/// (none for a local name), and the message the user and the model read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub host: String,
    pub address: Option<IpAddr>,
    pub message: String,
}

/// A URL that passed the guard and the only addresses it may be connected to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedUrl {
    pub url: Url,
    /// For an IP literal, that address; for a name, every address it resolved to.
    pub addresses: Vec<IpAddr>,
}

impl CheckedUrl {
    /// The host name to pin to `addresses`, or `None` for an IP literal.
    pub fn domain(&self) -> Option<&str> {
        self.url.domain()
    }
}

/// The guard every outbound tool request goes through.
pub struct Guard {
    allow: Vec<AllowEntry>,
    resolver: Arc<dyn HostResolver>,
}

impl Guard {
    /// A guard allowing the `allow_local` entries (`host` or `host:port`); entries that do not
    /// parse are left out with a warning (see [`check_allow_entry`](crate::check_allow_entry)).
    pub fn new(allow_local: &[String], resolver: Arc<dyn HostResolver>) -> Self {
        let allow = allow_local
            .iter()
            .filter_map(|entry| match AllowEntry::parse(entry) {
                Ok(parsed) => Some(parsed),
                Err(error) => {
                    tracing::warn!(%error, "allow_local entry ignored");
                    None
                }
            })
            .collect();
        Self { allow, resolver }
    }

    /// Checks `raw`: http(s) only; IP literals in any encoding the URL parser accepts are
    /// judged as the address they are; names are refused when local and otherwise resolved
    /// once, every address checked.
    pub async fn check(&self, raw: &str) -> Result<CheckedUrl, GuardError> {
        let url = Url::parse(raw.trim())
            .map_err(|e| GuardError::InvalidUrl(format!("`{raw}` is not a valid URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(GuardError::InvalidUrl(format!(
                "only http and https URLs can be requested, not `{}:`",
                url.scheme()
            )));
        }
        let port = url.port_or_known_default().unwrap_or(80);
        let addresses = match url.host() {
            None => {
                return Err(GuardError::InvalidUrl(format!("`{raw}` has no host")));
            }
            Some(Host::Ipv4(ip)) => self.literal(IpAddr::V4(ip), port, raw)?,
            Some(Host::Ipv6(ip)) => self.literal(IpAddr::V6(ip), port, raw)?,
            Some(Host::Domain(domain)) => self.domain(domain, port, raw).await?,
        };
        Ok(CheckedUrl { url, addresses })
    }

    fn literal(&self, ip: IpAddr, port: u16, raw: &str) -> Result<Vec<IpAddr>, GuardError> {
        self.check_address(ip, port, raw, None)?;
        Ok(vec![ip])
    }

    async fn domain(&self, domain: &str, port: u16, raw: &str) -> Result<Vec<IpAddr>, GuardError> {
        let name = normalize_name(domain);
        let name_allowed = self.allow.iter().any(|a| a.allows_name(&name, port));
        if !name_allowed && is_local_name(&name) {
            return Err(GuardError::Blocked(Refusal {
                message: format!(
                    "refused {raw}: `{name}` is a local name (localhost, *.localhost, *.local, \
                     *.internal, *.home.arpa). Local targets are blocked to protect this \
                     computer and its network; to allow this one, add \"{}\" {HOW_TO_ALLOW}.",
                    suggestion_for_name(&name, port)
                ),
                host: name,
                address: None,
            }));
        }
        let addresses = self
            .resolver
            .lookup(domain)
            .await
            .map_err(|e| GuardError::Resolve(format!("could not resolve {name}: {e}")))?;
        if addresses.is_empty() {
            return Err(GuardError::Resolve(format!("{name} has no addresses")));
        }
        if !name_allowed {
            let count = addresses.len();
            for ip in &addresses {
                self.check_address(*ip, port, raw, Some((&name, count)))?;
            }
        }
        Ok(addresses)
    }

    /// Refuses `ip` when special-purpose and not allowed; `via` is the name it came from and
    /// how many addresses that name has.
    fn check_address(
        &self,
        ip: IpAddr,
        port: u16,
        raw: &str,
        via: Option<(&str, usize)>,
    ) -> Result<(), GuardError> {
        let Some(special) = special_purpose(ip) else {
            return Ok(());
        };
        if self.allow.iter().any(|a| a.allows_ip(ip, port)) {
            return Ok(());
        }
        let source = match via {
            Some((name, 1)) => format!("{name} resolves to {ip}; "),
            Some((name, count)) => {
                format!("{name} resolves to {count} addresses, one of them {ip}; ")
            }
            None => String::new(),
        };
        Err(GuardError::Blocked(Refusal {
            host: via.map_or_else(|| ip.to_string(), |(name, _)| name.to_string()),
            address: Some(ip),
            message: format!(
                "refused {raw}: {source}{special}. Local and special-purpose addresses are \
                 blocked to protect this computer and its network; to allow this one, add \
                 \"{}\" {HOW_TO_ALLOW}.",
                suggestion_for_ip(ip, port)
            ),
        }))
    }
}

fn is_local_name(name: &str) -> bool {
    LOCAL_SUFFIXES.iter().any(|suffix| {
        name == *suffix
            || name
                .strip_suffix(suffix)
                .is_some_and(|rest| rest.ends_with('.'))
    })
}

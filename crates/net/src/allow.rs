//! The user's `allow_local` entries (`"host"` or `"host:port"`): parsing, and matching a
//! request's host name or resolved address against them.

use std::fmt;
use std::net::IpAddr;
use url::{Host, Url};

/// One parsed `allow_local` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AllowEntry {
    host: AllowHost,
    /// `None` allows every port.
    port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum AllowHost {
    Ip(IpAddr),
    /// Lower-case, without a trailing dot.
    Name(String),
}

impl AllowEntry {
    /// Parses `host`, `host:port`, `[ipv6]:port` or a bare IPv6 address.
    pub(crate) fn parse(entry: &str) -> Result<Self, String> {
        let entry = entry.trim();
        if entry.contains("://") {
            return Err(format!(
                "`{entry}` is a URL: give its `host` or `host:port` (e.g. `127.0.0.1:8080`)"
            ));
        }
        if entry.contains('*') {
            return Err(format!(
                "`{entry}` is a wildcard, which allows nothing: list each host (or `host:port`)"
            ));
        }
        if entry.contains('/') {
            return Err(format!(
                "`{entry}` is an address range, which allows nothing: list each address"
            ));
        }
        let (host, port) = split_port(entry)?;
        if host.is_empty() {
            return Err(format!("`{entry}` has no host"));
        }
        let host = match host.parse::<IpAddr>() {
            Ok(ip) => AllowHost::Ip(ip.to_canonical()),
            Err(_) => parse_name(host).map_err(|why| format!("`{entry}`: {why}"))?,
        };
        Ok(Self { host, port })
    }

    fn port_matches(&self, port: u16) -> bool {
        self.port.is_none_or(|allowed| allowed == port)
    }

    /// Whether this entry names `host` (a normalised URL host name) on `port`.
    pub(crate) fn allows_name(&self, host: &str, port: u16) -> bool {
        self.port_matches(port) && matches!(&self.host, AllowHost::Name(name) if name == host)
    }

    /// Whether this entry is the address `ip` on `port`.
    pub(crate) fn allows_ip(&self, ip: IpAddr, port: u16) -> bool {
        self.port_matches(port)
            && matches!(&self.host, AllowHost::Ip(allowed) if *allowed == ip.to_canonical())
    }
}

impl fmt::Display for AllowEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.host, self.port) {
            (AllowHost::Ip(IpAddr::V6(ip)), Some(port)) => write!(f, "[{ip}]:{port}"),
            (AllowHost::Ip(ip), Some(port)) => write!(f, "{ip}:{port}"),
            (AllowHost::Ip(ip), None) => write!(f, "{ip}"),
            (AllowHost::Name(name), Some(port)) => write!(f, "{name}:{port}"),
            (AllowHost::Name(name), None) => f.write_str(name),
        }
    }
}

/// The entry a user would add to allow `ip` on `port` (what refusals suggest).
pub(crate) fn suggestion_for_ip(ip: IpAddr, port: u16) -> String {
    AllowEntry {
        host: AllowHost::Ip(ip.to_canonical()),
        port: Some(port),
    }
    .to_string()
}

/// The entry a user would add to allow the name `host` on `port`.
pub(crate) fn suggestion_for_name(host: &str, port: u16) -> String {
    AllowEntry {
        host: AllowHost::Name(host.to_string()),
        port: Some(port),
    }
    .to_string()
}

fn split_port(entry: &str) -> Result<(&str, Option<u16>), String> {
    let parse_port = |text: &str| match text.parse::<u16>() {
        Ok(port) if port > 0 => Ok(Some(port)),
        _ => Err(format!(
            "`{entry}` has an invalid port `{text}` (1 to 65535)"
        )),
    };
    if let Some(rest) = entry.strip_prefix('[') {
        let Some((host, after)) = rest.split_once(']') else {
            return Err(format!("`{entry}` is missing the closing `]`"));
        };
        return match after {
            "" => Ok((host, None)),
            _ => match after.strip_prefix(':') {
                Some(port) => Ok((host, parse_port(port)?)),
                None => Err(format!("`{entry}` has text after `]` that is not `:port`")),
            },
        };
    }
    if entry.matches(':').count() > 1 {
        // A bare IPv6 address; a port needs the `[::1]:port` form.
        return Ok((entry, None));
    }
    match entry.split_once(':') {
        Some((host, port)) => Ok((host, parse_port(port)?)),
        None => Ok((entry, None)),
    }
}

/// A host name as the URL parser normalises it (lower case, IDNA, numeric forms as IPv4).
fn parse_name(host: &str) -> Result<AllowHost, String> {
    let valid = host
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if !valid {
        return Err("a host may only contain letters, digits, `.`, `-` and `_`".to_string());
    }
    let url = Url::parse(&format!("http://{host}/")).map_err(|e| e.to_string())?;
    match url.host() {
        Some(Host::Domain(name)) => Ok(AllowHost::Name(normalize_name(name))),
        Some(Host::Ipv4(ip)) => Ok(AllowHost::Ip(IpAddr::V4(ip))),
        Some(Host::Ipv6(ip)) => Ok(AllowHost::Ip(IpAddr::V6(ip).to_canonical())),
        None => Err("no host".to_string()),
    }
}

/// Lower case without the trailing dot of a fully qualified name.
pub(crate) fn normalize_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

//! The IANA IPv4 and IPv6 special-purpose address registries as prefix tables, and the check
//! that tells whether an address (or the IPv4 address embedded in it) is special-purpose.

use ipnet::{IpNet, Ipv4Net, Ipv6Net};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

const fn v4(a: u8, b: u8, c: u8, d: u8, len: u8) -> Ipv4Net {
    Ipv4Net::new_assert(Ipv4Addr::new(a, b, c, d), len)
}

/// Special-purpose IPv4 blocks, most specific first (the first match names the address).
const V4: &[(Ipv4Net, &str)] = &[
    (v4(255, 255, 255, 255, 32), "limited broadcast"),
    (v4(169, 254, 169, 254, 32), "cloud metadata service"),
    (v4(0, 0, 0, 0, 8), "\"this network\""),
    (v4(10, 0, 0, 0, 8), "private network"),
    (
        v4(100, 64, 0, 0, 10),
        "shared address space (carrier-grade NAT)",
    ),
    (v4(127, 0, 0, 0, 8), "loopback"),
    (v4(169, 254, 0, 0, 16), "link-local"),
    (v4(172, 16, 0, 0, 12), "private network"),
    (v4(192, 0, 0, 0, 24), "IETF protocol assignments"),
    (v4(192, 0, 2, 0, 24), "documentation (TEST-NET-1)"),
    (v4(192, 88, 99, 0, 24), "6to4 relay anycast"),
    (v4(192, 168, 0, 0, 16), "private network"),
    (v4(198, 18, 0, 0, 15), "benchmarking"),
    (v4(198, 51, 100, 0, 24), "documentation (TEST-NET-2)"),
    (v4(203, 0, 113, 0, 24), "documentation (TEST-NET-3)"),
    (v4(224, 0, 0, 0, 4), "multicast"),
    (v4(240, 0, 0, 0, 4), "reserved"),
];

/// How an IPv6 block is treated.
#[derive(Clone, Copy)]
enum V6Rule {
    /// Refused outright.
    Refuse,
    /// Carries an IPv4 address; refused when that address is special-purpose.
    Embeds(fn(Ipv6Addr) -> Ipv4Addr),
}

const fn v6(segments: [u16; 8], len: u8) -> Ipv6Net {
    let [a, b, c, d, e, f, g, h] = segments;
    Ipv6Net::new_assert(Ipv6Addr::new(a, b, c, d, e, f, g, h), len)
}

/// The IPv4 address in the last 32 bits (IPv4-mapped, RFC 6052 /96 NAT64).
fn low_32(ip: Ipv6Addr) -> Ipv4Addr {
    let [.., a, b, c, d] = ip.octets();
    Ipv4Addr::new(a, b, c, d)
}

/// The IPv4 address in bits 16..48 (6to4, RFC 3056).
fn six_to_four(ip: Ipv6Addr) -> Ipv4Addr {
    let [_, _, a, b, c, d, ..] = ip.octets();
    Ipv4Addr::new(a, b, c, d)
}

/// Special-purpose IPv6 blocks, most specific first.
const V6: &[(Ipv6Net, &str, V6Rule)] = &[
    (v6([0; 8], 128), "unspecified", V6Rule::Refuse),
    (
        v6([0, 0, 0, 0, 0, 0, 0, 1], 128),
        "loopback",
        V6Rule::Refuse,
    ),
    (
        v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96),
        "IPv4-mapped",
        V6Rule::Embeds(low_32),
    ),
    (
        v6([0; 8], 96),
        "IPv4-compatible (deprecated)",
        V6Rule::Refuse,
    ),
    (
        v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96),
        "NAT64 well-known prefix",
        V6Rule::Embeds(low_32),
    ),
    (
        v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48),
        "local-use NAT64",
        V6Rule::Refuse,
    ),
    (
        v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64),
        "discard-only",
        V6Rule::Refuse,
    ),
    (
        v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32),
        "Teredo",
        V6Rule::Refuse,
    ),
    (
        v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23),
        "IETF protocol assignments",
        V6Rule::Refuse,
    ),
    (
        v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32),
        "documentation",
        V6Rule::Refuse,
    ),
    (
        v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16),
        "6to4",
        V6Rule::Embeds(six_to_four),
    ),
    (
        v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20),
        "documentation",
        V6Rule::Refuse,
    ),
    (
        v6([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16),
        "segment routing (SRv6) SIDs",
        V6Rule::Refuse,
    ),
    (
        v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),
        "unique local",
        V6Rule::Refuse,
    ),
    (
        v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),
        "link-local",
        V6Rule::Refuse,
    ),
    (
        v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10),
        "site-local (deprecated)",
        V6Rule::Refuse,
    ),
    (
        v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),
        "multicast",
        V6Rule::Refuse,
    ),
];

/// Global unicast: IPv6 outside it (and outside the blocks above) is reserved by the IETF.
const GLOBAL_UNICAST: Ipv6Net = v6([0x2000, 0, 0, 0, 0, 0, 0, 0], 3);

/// Why an address is special-purpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialPurpose {
    /// The address that was checked.
    pub address: IpAddr,
    /// The registry block it falls in (for an embedded IPv4 address, the IPv4 block).
    pub range: IpNet,
    /// What the block is for, e.g. `loopback`.
    pub name: &'static str,
    /// For an IPv6 address carrying an IPv4 address (IPv4-mapped, NAT64, 6to4): that IPv4
    /// address and the kind of IPv6 block it was found in.
    pub embedded: Option<(Ipv4Addr, &'static str)>,
}

impl fmt::Display for SpecialPurpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.embedded {
            Some((inner, form)) => write!(
                f,
                "{} is the {form} form of {inner}, which is in {} ({})",
                self.address, self.range, self.name
            ),
            None => write!(f, "{} is in {} ({})", self.address, self.range, self.name),
        }
    }
}

/// The special-purpose block `ip` belongs to, or `None` for an ordinary public address.
/// IPv4-mapped, NAT64 (`64:ff9b::/96`) and 6to4 addresses are judged by the IPv4 address they
/// carry; IPv6 outside `2000::/3` that no other block names is refused as IETF-reserved.
pub fn special_purpose(ip: IpAddr) -> Option<SpecialPurpose> {
    match ip {
        IpAddr::V4(ip) => special_v4(ip),
        IpAddr::V6(ip) => special_v6(ip),
    }
}

fn special_v4(ip: Ipv4Addr) -> Option<SpecialPurpose> {
    V4.iter()
        .find(|(net, _)| net.contains(&ip))
        .map(|(net, name)| SpecialPurpose {
            address: IpAddr::V4(ip),
            range: IpNet::V4(*net),
            name,
            embedded: None,
        })
}

fn special_v6(ip: Ipv6Addr) -> Option<SpecialPurpose> {
    let Some((net, name, rule)) = V6.iter().find(|(net, ..)| net.contains(&ip)) else {
        return (!GLOBAL_UNICAST.contains(&ip)).then_some(SpecialPurpose {
            address: IpAddr::V6(ip),
            range: IpNet::V6(GLOBAL_UNICAST),
            name: "reserved by the IETF (outside global unicast)",
            embedded: None,
        });
    };
    match rule {
        V6Rule::Refuse => Some(SpecialPurpose {
            address: IpAddr::V6(ip),
            range: IpNet::V6(*net),
            name,
            embedded: None,
        }),
        V6Rule::Embeds(extract) => {
            let inner = extract(ip);
            special_v4(inner).map(|found| SpecialPurpose {
                address: IpAddr::V6(ip),
                embedded: Some((inner, *name)),
                ..found
            })
        }
    }
}

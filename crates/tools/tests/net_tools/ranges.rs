//! The special-purpose table, checked against an independent list of the IANA registries'
//! blocks: the first, middle and last address of each is refused, directly and in every
//! IPv6 form that carries an IPv4 address; the addresses just outside are not.

use hearth_tools::net::special_purpose;
use ipnet::{IpNet, Ipv4Net, Ipv6Net};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

const V4_BLOCKS: &[&str] = &[
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
    "255.255.255.255/32",
];

/// Refused outright, whatever they carry.
const V6_BLOCKS: &[&str] = &[
    "::/128",
    "::1/128",
    "::/96",
    "64:ff9b:1::/48",
    "100::/64",
    "2001::/23",
    "2001::/32",
    "2001:db8::/32",
    "3fff::/20",
    "5f00::/16",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
];

fn v4_blocks() -> Vec<Ipv4Net> {
    V4_BLOCKS.iter().map(|b| b.parse().unwrap()).collect()
}

fn v6_blocks() -> Vec<Ipv6Net> {
    V6_BLOCKS.iter().map(|b| b.parse().unwrap()).collect()
}

fn first_middle_last_v4(net: &Ipv4Net) -> [Ipv4Addr; 3] {
    let first = u32::from(net.network());
    let last = u32::from(net.broadcast());
    [first, first + (last - first) / 2, last].map(Ipv4Addr::from)
}

fn first_middle_last_v6(net: &Ipv6Net) -> [Ipv6Addr; 3] {
    let first = u128::from(net.network());
    let last = u128::from(net.broadcast());
    [first, first + (last - first) / 2, last].map(Ipv6Addr::from)
}

/// The IPv6 forms that carry `ip`: IPv4-mapped, NAT64 /96, 6to4, IPv4-compatible.
fn carriers(ip: Ipv4Addr) -> [(Ipv6Addr, &'static str); 4] {
    let [a, b, c, d] = ip.octets();
    let low = u32::from(ip) as u128;
    let six_to_four = (0x2002u128 << 112) | ((u32::from(ip) as u128) << 80) | 1;
    [
        (ip.to_ipv6_mapped(), "mapped"),
        (Ipv6Addr::from((0x64_ff9b_u128 << 96) | low), "nat64"),
        (Ipv6Addr::from(six_to_four), "6to4"),
        (
            Ipv6Addr::new(
                0,
                0,
                0,
                0,
                0,
                0,
                u16::from_be_bytes([a, b]),
                u16::from_be_bytes([c, d]),
            ),
            "compat",
        ),
    ]
}

fn refused(ip: IpAddr) {
    let found = special_purpose(ip);
    let Some(found) = found else {
        panic!("{ip} is special-purpose but was not refused");
    };
    assert_eq!(found.address, ip);
    let inner = found.embedded.map_or(ip, |(v4, _)| IpAddr::V4(v4));
    assert!(found.range.contains(&inner), "{found}");
    assert!(found.to_string().contains(&ip.to_string()), "{found}");
}

#[test]
fn every_ipv4_block_is_refused_at_its_first_middle_and_last_address() {
    for net in v4_blocks() {
        for ip in first_middle_last_v4(&net) {
            refused(IpAddr::V4(ip));
            for (carrier, form) in carriers(ip) {
                let found = special_purpose(IpAddr::V6(carrier));
                assert!(
                    found.is_some(),
                    "{ip} as {form} ({carrier}) was not refused"
                );
            }
        }
    }
}

#[test]
fn every_ipv6_block_is_refused_at_its_first_middle_and_last_address() {
    for net in v6_blocks() {
        for ip in first_middle_last_v6(&net) {
            refused(IpAddr::V6(ip));
        }
    }
}

#[test]
fn addresses_next_to_the_ipv4_blocks_are_public() {
    let blocks = v4_blocks();
    let mut checked = 0;
    for net in &blocks {
        let first = u32::from(net.network());
        let last = u32::from(net.broadcast());
        for neighbour in [first.checked_sub(1), last.checked_add(1)]
            .into_iter()
            .flatten()
        {
            let ip = Ipv4Addr::from(neighbour);
            if blocks.iter().any(|b| b.contains(&ip)) {
                continue;
            }
            assert_eq!(special_purpose(IpAddr::V4(ip)), None, "{ip} is public");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} neighbours checked");
}

#[test]
fn addresses_next_to_the_ipv6_blocks_are_public_inside_global_unicast() {
    let blocks = v6_blocks();
    let global: Ipv6Net = "2000::/3".parse().unwrap();
    for net in &blocks {
        let first = u128::from(net.network());
        let last = u128::from(net.broadcast());
        for neighbour in [first.checked_sub(1), last.checked_add(1)]
            .into_iter()
            .flatten()
        {
            let ip = Ipv6Addr::from(neighbour);
            let inside = blocks.iter().any(|b| b.contains(&ip))
                || ["::ffff:0:0/96", "64:ff9b::/96", "2002::/16"]
                    .iter()
                    .any(|b| b.parse::<Ipv6Net>().unwrap().contains(&ip));
            if inside {
                continue;
            }
            let expected_public = global.contains(&ip);
            assert_eq!(
                special_purpose(IpAddr::V6(ip)).is_none(),
                expected_public,
                "{ip}: outside 2000::/3 is IETF-reserved, inside is public"
            );
        }
    }
}

#[test]
fn public_ipv4_is_allowed_inside_mapped_nat64_and_6to4_but_never_as_compatible() {
    for ip in [
        "8.8.8.8",
        "1.1.1.1",
        "93.184.216.34",
        "11.0.0.0",
        "223.255.255.255",
    ] {
        let ip: Ipv4Addr = ip.parse().unwrap();
        assert_eq!(special_purpose(IpAddr::V4(ip)), None, "{ip}");
        for (carrier, form) in carriers(ip) {
            let found = special_purpose(IpAddr::V6(carrier));
            if form == "compat" {
                assert!(found.is_some(), "{carrier} (IPv4-compatible) is refused");
            } else {
                assert_eq!(found, None, "{ip} as {form} ({carrier}) is public");
            }
        }
    }
    for ip in [
        "2606:4700:4700::1111",
        "2a00:1450:4001:82b::200e",
        "2001:4860:4860::8888",
    ] {
        let ip: IpAddr = ip.parse().unwrap();
        assert_eq!(special_purpose(ip), None, "{ip}");
    }
}

#[test]
fn refusals_name_the_block_and_the_embedded_address() {
    let metadata = special_purpose("169.254.169.254".parse().unwrap()).unwrap();
    assert_eq!(metadata.name, "cloud metadata service");
    assert_eq!(
        metadata.to_string(),
        "169.254.169.254 is in 169.254.169.254/32 (cloud metadata service)"
    );
    let mapped = special_purpose("::ffff:127.0.0.1".parse().unwrap()).unwrap();
    assert_eq!(mapped.range, "127.0.0.0/8".parse::<IpNet>().unwrap());
    assert_eq!(
        mapped.to_string(),
        "::ffff:127.0.0.1 is the IPv4-mapped form of 127.0.0.1, which is in 127.0.0.0/8 (loopback)"
    );
    let nat64 = special_purpose("64:ff9b::a00:1".parse().unwrap()).unwrap();
    assert_eq!(
        nat64.embedded,
        Some(("10.0.0.1".parse().unwrap(), "NAT64 well-known prefix"))
    );
    let six_to_four = special_purpose("2002:c0a8:101::1".parse().unwrap()).unwrap();
    assert_eq!(
        six_to_four.embedded.map(|e| e.0.to_string()),
        Some("192.168.1.1".into())
    );
    let teredo = special_purpose("2001:0:4136:e378::1".parse().unwrap()).unwrap();
    assert_eq!(teredo.name, "Teredo");
    let broadcast = special_purpose("255.255.255.255".parse().unwrap()).unwrap();
    assert_eq!(broadcast.name, "limited broadcast");
}

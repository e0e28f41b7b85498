//! The browser launch flags that send every request through the egress proxy: one list, used
//! by whatever launches the managed browser.

/// Chromium flags for a proxy on `127.0.0.1:port`: every scheme through it, loopback included
/// (Chromium otherwise sends `localhost`, `127.0.0.0/8` and `169.254.0.0/16` direct);
/// WebRTC limited to proxied connections (no UDP of its own); no QUIC (it would not use the
/// proxy).
pub fn chrome_flags(port: u16) -> Vec<String> {
    vec![
        format!("--proxy-server=http://127.0.0.1:{port}"),
        "--proxy-bypass-list=<-loopback>".to_string(),
        // The switch Chromium reads (its `force-` twin let STUN to 127.0.0.1 through in tests).
        "--webrtc-ip-handling-policy=disable_non_proxied_udp".to_string(),
        "--enforce-webrtc-ip-permission-check".to_string(),
        "--disable-quic".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_names_the_proxy_or_closes_a_way_around_it() {
        let flags = chrome_flags(4242);
        assert_eq!(flags[0], "--proxy-server=http://127.0.0.1:4242");
        assert!(flags.contains(&"--proxy-bypass-list=<-loopback>".to_string()));
        assert!(flags.iter().all(|f| f.starts_with("--")));
    }
}

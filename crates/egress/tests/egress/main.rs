//! The egress proxy against a canary listener on 127.0.0.1 that must never be reached: through
//! reqwest, then through a real Debian Chromium launched with the proxy's flags (navigation in
//! every encoding of a local address, a name resolving to 127.0.0.1, a 302, page script), and
//! an allowed host passing through; plus the latency the proxy adds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]
// Tests talk to their servers with plain reqwest clients: `hearth_net::http::client_builder` is
// for the product's own clients (see clippy.toml).
#![allow(clippy::disallowed_methods)]

mod chromium;
mod client;
mod rig;

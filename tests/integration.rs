//! hearth-tests' integration suites that need no desktop app, one binary (each former suite is a
//! module; run one with `cargo test -p hearth-tests --test integration engine_turns`). Those that
//! own `org.freedesktop.Notifications` or use the keychain need a D-Bus session
//! (`scripts/with-headless-session.sh`) and take turns owning the name.
// Tests talk to their servers with plain reqwest clients: `hearth_net::http::client_builder` is
// for the product's own clients (see clippy.toml).
#![allow(clippy::disallowed_methods)]

mod dialect_file_turns;
mod dialect_turns;
mod engine_turns;
mod job_authorize;
mod job_notifications;
mod keychain;
mod model_server_selftest;
mod notifications;

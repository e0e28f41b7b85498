//! The real desktop app under tauri-driver, one binary: the main suite (`desktop_e2e`), scheduled
//! jobs (`desktop_jobs_e2e`), the high-risk tools (`desktop_tools_e2e`), the ignored latency
//! benchmark (`desktop_latency`) and their shared support (`desktop`). It needs a display and a D-Bus session
//! (`scripts/with-headless-session.sh`); the tests take turns (`desktop::turn`): the app is
//! single-instance per session bus. It is a binary of its own, apart from `integration`, because
//! its fake notification server owns `org.freedesktop.Notifications` for the whole process
//! (the `integration` suites own the name per test) and a desktop test must not share the two
//! cores with other suites' tests: its waits are timed for an app starting on an idle machine.
//!
//! Run: `bash scripts/with-headless-session.sh cargo test -p hearth-tests --test app_e2e` (after
//! `bash scripts/e2e-setup.sh` and `cargo build --workspace --bins`).

#[allow(dead_code)]
mod desktop;
mod desktop_e2e;
mod desktop_jobs_e2e;
mod desktop_latency;
mod desktop_tools_e2e;

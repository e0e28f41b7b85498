//! End-to-end tests of `hearth-cli daemon`, `jobs` and `memory` as real processes against the
//! scripted model server: a job firing under the daemon and delivering into its target session,
//! a missed run caught up exactly once after a real restart, an edited job losing its high-risk
//! tools until re-approved, `jobs authorize` asking on a terminal, a paused daemon firing nothing until the pause is lifted, memory
//! search in Chinese and English, malformed arguments, and a Telegram poller killed with SIGKILL
//! and started again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod authorize;
mod daemon;
mod failures;
mod malformed;
mod memory;
mod pause;
mod reapproval;
mod support;
mod telegram;

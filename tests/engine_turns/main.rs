//! The turn loop against the scripted model server: events and stored rows of a tool loop,
//! concurrent read-only calls, cancellation mid-stream, retry after 429, stalled streams, the
//! iteration limit, periodic flushing, one running turn per session, and compaction of a history that outgrows the window
//! (cancelled, stalled, empty or overflowing summaries).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod compaction;
mod concurrency;
mod context;
mod interruptions;
mod rig;
mod tool_loop;

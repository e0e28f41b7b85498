//! The turn loop against the scripted model server: events and stored rows of a tool loop,
//! concurrent read-only calls, cancellation mid-stream, retry after 429, stalled streams, the
//! iteration limit, periodic flushing, one running turn per session, messages stored before a
//! provider is looked at (and chats titled by them, then by the model), messages refused before
//! the model call when they cannot fit its window, compaction of a history that outgrows the window
//! (cancelled, stalled, empty or overflowing summaries), a tool's images in each provider's
//! request format, and sub-agents (bounds, cancellation, outcomes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod artifacts;
mod committed;
mod compaction;
mod concurrency;
mod context;
mod interruptions;
mod rig;
mod skill_messages;
mod subagents;
mod titles;
mod tool_images;
mod tool_loop;

//! Byte-stream framing: splitting chunked response bodies into complete lines, SSE events and NDJSON records.

mod lines;
mod ndjson;
mod sse;

pub use ndjson::NdjsonDecoder;
pub use sse::{SseDecoder, SseItem};

/// The longest line a decoder buffers before giving up (a runaway or hostile stream).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

#[cfg(test)]
#[path = "framing_tests.rs"]
mod tests;

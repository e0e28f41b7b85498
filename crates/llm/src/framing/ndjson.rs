//! Newline-delimited JSON framing (Ollama): one record per non-blank line.

use crate::LlmError;

use super::lines::LineBuffer;

/// Splits a chunked NDJSON body into whole records, whatever the chunk boundaries.
#[derive(Debug, Default)]
pub struct NdjsonDecoder {
    lines: LineBuffer,
}

impl NdjsonDecoder {
    pub fn new() -> NdjsonDecoder {
        NdjsonDecoder::default()
    }

    /// Feeds a chunk; returns the records it completed (blank lines skipped).
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<String>, LlmError> {
        Ok(self
            .lines
            .push(chunk)?
            .into_iter()
            .filter(|l| !l.trim().is_empty())
            .collect())
    }

    /// Ends the body: returns a last record that had no trailing newline.
    pub fn finish(&mut self) -> Result<Option<String>, LlmError> {
        Ok(self.lines.finish()?.filter(|l| !l.trim().is_empty()))
    }
}

//! Reassembles complete `\n`-terminated lines from arbitrarily split byte chunks.

use crate::LlmError;

use super::MAX_LINE_BYTES;

/// Buffers bytes until a newline arrives, so lines and multi-byte UTF-8 characters split across
/// chunks come out whole. A trailing `\r` is removed from every line.
#[derive(Debug, Default)]
pub(super) struct LineBuffer {
    pending: Vec<u8>,
}

impl LineBuffer {
    /// Appends a chunk and returns every line it completed.
    pub(super) fn push(&mut self, chunk: &[u8]) -> Result<Vec<String>, LlmError> {
        let mut lines = Vec::new();
        let mut rest = chunk;
        while let Some(pos) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..pos]);
            rest = &rest[pos + 1..];
            let line = std::mem::take(&mut self.pending);
            lines.push(to_line(line)?);
        }
        self.pending.extend_from_slice(rest);
        if self.pending.len() > MAX_LINE_BYTES {
            self.pending = Vec::new();
            return Err(LlmError::Protocol {
                detail: format!("a stream line exceeded {MAX_LINE_BYTES} bytes"),
            });
        }
        Ok(lines)
    }

    /// Returns the unterminated last line, if the body ended without a newline.
    pub(super) fn finish(&mut self) -> Result<Option<String>, LlmError> {
        if self.pending.is_empty() {
            return Ok(None);
        }
        to_line(std::mem::take(&mut self.pending)).map(Some)
    }
}

fn to_line(mut bytes: Vec<u8>) -> Result<String, LlmError> {
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes).map_err(|e| LlmError::Protocol {
        detail: format!("the stream is not valid UTF-8: {e}"),
    })
}

//! A stdio server's answers past the line limit rmcp reads (16 MiB): rmcp drops such a line and
//! the call would wait out its timeout, so the server's stdout passes through [`Oversize`], which
//! lets every byte through and, after a line past the limit, adds an error answer to the same
//! request (its `id` read from the line's first or last bytes) saying how large it was.

use std::io;
use std::iter::Peekable;
use std::pin::Pin;
use std::str::CharIndices;
use std::task::{Context, Poll};

use bytes::{Buf, BytesMut};
use rmcp::model::ErrorData;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, ReadBuf};

use crate::log::ServerLog;

/// The longest line read from a stdio server, newline included (rmcp's limit).
pub const MAX_ANSWER_BYTES: usize = DEFAULT_MAX_LINE_LENGTH;
/// How much of a line's start and end is kept to find its `id`.
const KEPT: usize = 4096;
/// The key of the added error's `data` that marks it as Hearth's (holding the line's size).
const MARK: &str = "hearth_answer_bytes";

/// The size of the answer `error` stands for, when it is the error [`Oversize`] added.
pub fn too_large(error: &ErrorData) -> Option<u64> {
    error.data.as_ref()?.get(MARK)?.as_u64()
}

/// A reader of a server's stdout that adds an error answer after each line too large to read.
pub struct Oversize<R> {
    inner: R,
    log: ServerLog,
    /// Bytes read and not yet handed on (with any added answer in place).
    out: BytesMut,
    /// The current line's length so far, and its first and last bytes.
    length: usize,
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl<R> Oversize<R> {
    pub fn new(inner: R, log: ServerLog) -> Oversize<R> {
        Oversize {
            inner,
            log,
            out: BytesMut::new(),
            length: 0,
            head: Vec::new(),
            tail: Vec::new(),
        }
    }

    /// Takes `read` in: every byte goes on; a too-large line is followed by its error answer.
    fn take_in(&mut self, read: &[u8]) {
        let mut rest = read;
        while !rest.is_empty() {
            let end = rest.iter().position(|b| *b == b'\n').map(|i| i + 1);
            let (piece, after) = rest.split_at(end.unwrap_or(rest.len()));
            self.out.extend_from_slice(piece);
            self.length += piece.len();
            if self.head.len() < KEPT {
                let room = KEPT - self.head.len();
                self.head.extend_from_slice(&piece[..piece.len().min(room)]);
            }
            self.tail.extend_from_slice(piece);
            if self.tail.len() > KEPT {
                self.tail.drain(..self.tail.len() - KEPT);
            }
            if end.is_some() {
                self.line_ended();
            }
            rest = after;
        }
    }

    fn line_ended(&mut self) {
        let length = std::mem::take(&mut self.length);
        let (head, tail) = (
            std::mem::take(&mut self.head),
            std::mem::take(&mut self.tail),
        );
        if length <= MAX_ANSWER_BYTES {
            return;
        }
        let id = leading_id(&head).or_else(|| trailing_id(&tail));
        self.log.line(&format!(
            "hearth: a message of {length} bytes was dropped: more than the {} MiB Hearth reads",
            MAX_ANSWER_BYTES / (1024 * 1024)
        ));
        let Some(id) = id else {
            return;
        };
        let answer = json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": format!(
                    "its answer was {length} bytes, more than the {} MiB Hearth reads",
                    MAX_ANSWER_BYTES / (1024 * 1024)
                ),
                "data": {MARK: length},
            },
        });
        self.out.extend_from_slice(answer.to_string().as_bytes());
        self.out.extend_from_slice(b"\n");
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Oversize<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        while this.out.is_empty() {
            let mut chunk = [0u8; 64 * 1024];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) if read.filled().is_empty() => return Poll::Ready(Ok(())),
                Poll::Ready(Ok(())) => this.take_in(read.filled()),
                other => return other,
            }
        }
        let n = this.out.len().min(buf.remaining());
        buf.put_slice(&this.out[..n]);
        this.out.advance(n);
        Poll::Ready(Ok(()))
    }
}

/// The `id` of the JSON object `head` begins (cut anywhere), when it comes before anything
/// the cut removed: the top-level keys are read in order up to `"id"`.
fn leading_id(head: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(head);
    let mut chars = text.char_indices().peekable();
    skip_space(&mut chars);
    if chars.next()?.1 != '{' {
        return None;
    }
    loop {
        skip_space(&mut chars);
        let (start, quote) = chars.next()?;
        if quote != '"' {
            return None;
        }
        let key_end = string_end(&text, start)?;
        let key: String = serde_json::from_str(&text[start..key_end]).ok()?;
        while chars.peek().is_some_and(|(i, _)| *i < key_end) {
            chars.next();
        }
        skip_space(&mut chars);
        if chars.next()?.1 != ':' {
            return None;
        }
        skip_space(&mut chars);
        let (value_start, _) = *chars.peek()?;
        let value_end = value_end(&text, value_start)?;
        if key == "id" {
            return serde_json::from_str(&text[value_start..value_end]).ok();
        }
        while chars.peek().is_some_and(|(i, _)| *i < value_end) {
            chars.next();
        }
        skip_space(&mut chars);
        if chars.next()?.1 != ',' {
            return None;
        }
    }
}

fn skip_space(chars: &mut Peekable<CharIndices<'_>>) {
    while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
        chars.next();
    }
}

/// The end (exclusive) of the JSON string starting with the quote at `start`.
fn string_end(text: &str, start: usize) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text[start + 1..].char_indices() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return Some(start + 1 + i + 1),
            _ => {}
        }
    }
    None
}

/// The end (exclusive) of the JSON value starting at `start` (strings, objects and arrays
/// nested to any depth, and plain numbers, `true`, `false`, `null`).
fn value_end(text: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    while i < text.len() {
        let c = text[i..].chars().next()?;
        match c {
            '"' => {
                i = string_end(text, i)?;
                if depth == 0 {
                    return Some(i);
                }
                continue;
            }
            '{' | '[' => depth += 1,
            '}' | ']' if depth == 0 => return Some(i),
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            ',' if depth == 0 => return Some(i),
            _ => {}
        }
        i += c.len_utf8();
    }
    None
}

/// The `id` of the JSON object `tail` ends (its last bytes, newline included) when `id` is
/// its last key, as the TypeScript SDK writes answers (`{"result":…,"jsonrpc":"2.0","id":3}`).
fn trailing_id(tail: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(tail);
    let body = text.trim_end().strip_suffix('}')?.trim_end();
    let value_start = if let Some(inner) = body.strip_suffix('"') {
        // The opening quote: the nearest one before the last that is not escaped.
        let mut at = inner.rfind('"')?;
        while (inner[..at].len() - inner[..at].trim_end_matches('\\').len()) % 2 == 1 {
            at = inner[..at].rfind('"')?;
        }
        at
    } else {
        body.rfind(|c: char| !(c.is_ascii_alphanumeric() || "-+.".contains(c)))? + 1
    };
    let value: Value = serde_json::from_str(&body[value_start..]).ok()?;
    let before = body[..value_start].trim_end().strip_suffix(':')?.trim_end();
    let before = before.strip_suffix("\"id\"")?.trim_end();
    before.ends_with(',').then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_found_before_the_result_or_after_it() {
        let head = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx"#;
        assert_eq!(leading_id(head), Some(json!(7)));
        let head =
            br#"{ "jsonrpc" : "2.0", "meta": {"id": 1, "a": [1, "}"]}, "id" : "a\"b", "result": {"#;
        assert_eq!(leading_id(head), Some(json!("a\"b")));
        assert_eq!(
            leading_id(br#"{"result":{"content":[{"id":3,"text":"xx"#),
            None
        );
        let tail = b"xxxx\"}]},\"jsonrpc\":\"2.0\",\"id\":12}\n";
        assert_eq!(trailing_id(tail), Some(json!(12)));
        assert_eq!(
            trailing_id(b"xx\"}]},\"id\":\"req-1\"}\r\n"),
            Some(json!("req-1"))
        );
        // An `id` closing a nested object is not the answer's.
        assert_eq!(trailing_id(b"xx\",\"id\":3}}\n"), None);
        assert_eq!(trailing_id(b"xx\"}]}}\n"), None);
    }
}

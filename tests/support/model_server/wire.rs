//! Turns a list of events into a streamed HTTP body: framing, awkward TCP splits, pauses,
//! injected faults, and counting clients that hang up early.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use tokio::sync::watch;

/// How events are delimited on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    /// `event: x\ndata: {..}\n\n` (the `event:` line only when the frame names one).
    Sse,
    /// `data: {..}\r\n\r\n`, as Gemini sends it.
    SseCrlf,
    /// One JSON object per `\n`-terminated line.
    Ndjson,
    /// A single non-streamed JSON document.
    Whole,
}

impl Framing {
    fn content_type(self) -> &'static str {
        match self {
            Framing::Sse | Framing::SseCrlf => "text/event-stream",
            Framing::Ndjson => "application/x-ndjson",
            Framing::Whole => "application/json",
        }
    }
}

/// One event: an optional SSE event name and its data.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Frame {
    pub(super) event: Option<&'static str>,
    pub(super) data: String,
}

impl Frame {
    pub(super) fn data(data: impl ToString) -> Frame {
        Frame {
            event: None,
            data: data.to_string(),
        }
    }

    pub(super) fn named(event: &'static str, data: impl ToString) -> Frame {
        Frame {
            event: Some(event),
            data: data.to_string(),
        }
    }

    fn encode(&self, framing: Framing) -> Vec<u8> {
        let text = match (framing, self.event) {
            (Framing::Sse, Some(event)) => format!("event: {event}\ndata: {}\n\n", self.data),
            (Framing::Sse, None) => format!("data: {}\n\n", self.data),
            (Framing::SseCrlf, _) => format!("data: {}\r\n\r\n", self.data),
            (Framing::Ndjson, _) => format!("{}\n", self.data),
            (Framing::Whole, _) => self.data.clone(),
        };
        text.into_bytes()
    }
}

/// Data of the event injected by `malformed_after`: not valid JSON.
const MALFORMED_DATA: &str = r#"{"scripted": "malformed"#;

/// Shared by every stream of one server.
#[derive(Debug, Clone)]
pub(super) struct StreamContext {
    pub(super) closed_early: Arc<AtomicUsize>,
    pub(super) shutdown: watch::Receiver<bool>,
}

/// Faults and pacing applied to one response.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Pacing {
    pub(super) delay: Duration,
    /// The whole stream in one write (see `Reply::at_once`).
    pub(super) at_once: bool,
    pub(super) disconnect_after: Option<usize>,
    pub(super) malformed_after: Option<usize>,
}

/// A 200 response streaming `frames` with the given pacing and faults.
pub(super) fn respond(
    frames: Vec<Frame>,
    framing: Framing,
    pacing: Pacing,
    ctx: StreamContext,
) -> Response {
    let mut frames = frames;
    if let Some(n) = pacing.malformed_after {
        let at = n.min(frames.len());
        let event = frames.get(at).or(frames.last()).and_then(|f| f.event);
        frames.insert(
            at,
            Frame {
                event,
                data: MALFORMED_DATA.to_string(),
            },
        );
    }
    let abort = match pacing.disconnect_after {
        Some(n) => {
            frames.truncate(n);
            true
        }
        None => false,
    };
    let encoded: Vec<Vec<u8>> = frames.iter().map(|f| f.encode(framing)).collect();
    let pieces = if pacing.at_once {
        vec![Piece {
            pause: Pause::Yield,
            bytes: Bytes::from(encoded.concat()),
        }]
    } else {
        pieces(&encoded, pacing.delay)
    };
    let body = Body::from_stream(body_stream(pieces, abort, ctx));
    let mut response = (StatusCode::OK, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(framing.content_type()),
    );
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    response
}

/// What happens before a piece is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pause {
    /// Return `Pending` once so hyper flushes the previous piece as its own write.
    Yield,
    Sleep(Duration),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    pause: Pause,
    bytes: Bytes,
}

/// At most this many multi-byte characters are cut in half, per frame.
const MAX_CHAR_CUTS: usize = 8;

/// Deterministic cut points inside one encoded frame: 3 bytes in (inside `data:`/`event:` or
/// the opening of a JSON line), one byte into every multi-byte UTF-8 character, a regular grid,
/// and one byte before the end (between the two newlines of an SSE terminator).
fn split_points(frame: &[u8]) -> Vec<usize> {
    let len = frame.len();
    let grid = 16.max(len / 32);
    let mut cuts = vec![3, len.saturating_sub(1)];
    let char_starts = frame.iter().enumerate().filter(|(_, b)| **b >= 0xC0);
    cuts.extend(char_starts.map(|(i, _)| i + 1).take(MAX_CHAR_CUTS));
    cuts.extend((1..).map(|k| k * grid).take_while(|c| *c < len));
    cuts.retain(|c| *c > 0 && *c < len);
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// Cuts every frame at its split points. Without a delay, the last byte of a frame travels
/// in the same write as the start of the next frame, so event boundaries fall mid-read too.
fn pieces(frames: &[Vec<u8>], delay: Duration) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut carry: Vec<u8> = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        let mut bounds = split_points(frame);
        bounds.push(frame.len());
        let mut start = 0;
        for (j, end) in bounds.iter().copied().enumerate() {
            let mut bytes = std::mem::take(&mut carry);
            bytes.extend_from_slice(&frame[start..end]);
            start = end;
            if j + 1 == bounds.len() && delay.is_zero() && i + 1 < frames.len() {
                carry = bytes;
                continue;
            }
            let pause = if j == 0 && i > 0 && !delay.is_zero() {
                Pause::Sleep(delay)
            } else {
                Pause::Yield
            };
            out.push(Piece {
                pause,
                bytes: Bytes::from(bytes),
            });
        }
    }
    out
}

/// Counts the stream as closed early when dropped before it reached its scripted end.
struct EarlyCloseGuard {
    counter: Arc<AtomicUsize>,
    finished: bool,
}

impl Drop for EarlyCloseGuard {
    fn drop(&mut self) {
        if !self.finished {
            self.counter.fetch_add(1, Ordering::SeqCst);
        }
    }
}

struct BodyState {
    pieces: std::vec::IntoIter<Piece>,
    abort: bool,
    shutdown: watch::Receiver<bool>,
    guard: EarlyCloseGuard,
}

/// Waits for `pause`; false when the server is shutting down.
async fn wait(pause: Pause, shutdown: &mut watch::Receiver<bool>) -> bool {
    match pause {
        Pause::Yield => {
            tokio::task::yield_now().await;
            !*shutdown.borrow()
        }
        // Only a timeout means the pause ran its course without a shutdown signal.
        Pause::Sleep(d) => tokio::time::timeout(d, shutdown.wait_for(|stop| *stop))
            .await
            .is_err(),
    }
}

fn body_stream(
    pieces: Vec<Piece>,
    abort: bool,
    ctx: StreamContext,
) -> impl futures::Stream<Item = Result<Bytes, io::Error>> + Send {
    let state = BodyState {
        pieces: pieces.into_iter(),
        abort,
        shutdown: ctx.shutdown,
        guard: EarlyCloseGuard {
            counter: ctx.closed_early,
            finished: false,
        },
    };
    futures::stream::unfold(Some(state), |state| async move {
        let mut state = state?;
        match state.pieces.next() {
            Some(piece) => {
                if wait(piece.pause, &mut state.shutdown).await {
                    Some((Ok(piece.bytes), Some(state)))
                } else {
                    state.guard.finished = true;
                    Some((Err(io::Error::other("scripted server shutting down")), None))
                }
            }
            None => {
                state.guard.finished = true;
                if state.abort {
                    // Let hyper flush what was written (headers included) before the abort.
                    tokio::task::yield_now().await;
                    Some((Err(io::Error::other("scripted disconnect")), None))
                } else {
                    None
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_inside_prefix_multibyte_chars_and_terminator() {
        let frame = Frame::data(r#"{"t":"é"}"#).encode(Framing::Sse);
        let cuts = split_points(&frame);
        assert!(cuts.contains(&3), "inside `data:`");
        assert!(
            cuts.contains(&(frame.len() - 1)),
            "between the two newlines"
        );
        let e_acute = frame.iter().position(|b| *b == 0xC3).unwrap();
        assert!(cuts.contains(&(e_acute + 1)), "inside é");
        assert!(std::str::from_utf8(&frame[..e_acute + 1]).is_err());
    }

    #[test]
    fn pieces_reassemble_and_carry_frame_tails() {
        let frames: Vec<Vec<u8>> = [
            "data: {\"a\":\"ünïcödé text that is long enough\"}\n\n",
            "data: [DONE]\n\n",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        let fast = pieces(&frames, Duration::ZERO);
        let joined: Vec<u8> = fast.iter().flat_map(|p| p.bytes.to_vec()).collect();
        assert_eq!(joined, frames.concat());
        assert!(
            fast.iter().any(|p| p.bytes.starts_with(b"\nda")),
            "tail carried into next frame"
        );
        assert!(fast.iter().all(|p| p.pause == Pause::Yield));
        let slow = pieces(&frames, Duration::from_millis(5));
        let sleeps = slow
            .iter()
            .filter(|p| p.pause == Pause::Sleep(Duration::from_millis(5)))
            .count();
        assert_eq!(sleeps, 1, "one pause between the two frames");
        assert_eq!(
            slow.last().unwrap().bytes.as_ref(),
            b"\n",
            "the terminator is split too"
        );
    }

    #[test]
    fn huge_frames_get_a_bounded_number_of_cuts() {
        let frame = "é".repeat(500_000).into_bytes();
        assert!(split_points(&frame).len() <= 50);
    }
}

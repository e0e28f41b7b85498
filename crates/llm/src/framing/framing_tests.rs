//! Tests for the SSE and NDJSON decoders, including every split point of real payloads.

use super::*;

/// An Anthropic-style stream with CRLF endings, a comment, multi-line data, multi-byte text and
/// an OpenAI-style terminator.
const SSE_PAYLOAD: &str = concat!(
    ": keep-alive comment\r\n",
    "event: message_start\r\n",
    "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7}}}\r\n",
    "\r\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":0,\n",
    "data: \"delta\":{\"type\":\"text_delta\",\"text\":\"héllo wörld 🌍 — ok\"}}\n",
    "\n",
    "id: 3\n",
    "retry: 1000\n",
    "data:{\"no_space\":true}\n",
    "\n",
    "data: [DONE]\n",
    "\n",
);

fn sse_expected() -> Vec<SseItem> {
    vec![
        SseItem::Event {
            event: Some("message_start".into()),
            data: "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7}}}".into(),
        },
        SseItem::Event {
            event: Some("content_block_delta".into()),
            data: "{\"type\":\"content_block_delta\",\"index\":0,\n\"delta\":{\"type\":\"text_delta\",\"text\":\"héllo wörld 🌍 — ok\"}}".into(),
        },
        SseItem::Event { event: None, data: "{\"no_space\":true}".into() },
        SseItem::Done,
    ]
}

fn decode_sse(chunks: &[&[u8]]) -> Vec<SseItem> {
    let mut decoder = SseDecoder::new();
    let mut items = Vec::new();
    for chunk in chunks {
        items.extend(decoder.push(chunk).unwrap());
    }
    items.extend(decoder.finish().unwrap());
    items
}

#[test]
fn sse_whole_payload() {
    assert_eq!(decode_sse(&[SSE_PAYLOAD.as_bytes()]), sse_expected());
}

#[test]
fn sse_every_split_point_gives_the_same_events() {
    let bytes = SSE_PAYLOAD.as_bytes();
    for i in 0..=bytes.len() {
        assert_eq!(
            decode_sse(&[&bytes[..i], &bytes[i..]]),
            sse_expected(),
            "split at {i}"
        );
    }
}

#[test]
fn sse_every_pair_of_split_points_gives_the_same_events() {
    let bytes = SSE_PAYLOAD.as_bytes();
    for i in 0..=bytes.len() {
        for j in (i..=bytes.len()).step_by(7) {
            let got = decode_sse(&[&bytes[..i], &bytes[i..j], &bytes[j..]]);
            assert_eq!(got, sse_expected(), "splits at {i} and {j}");
        }
    }
}

#[test]
fn sse_byte_by_byte() {
    let chunks: Vec<&[u8]> = SSE_PAYLOAD.as_bytes().chunks(1).collect();
    assert_eq!(decode_sse(&chunks), sse_expected());
}

#[test]
fn sse_event_without_final_blank_line_is_dispatched_at_end() {
    let items = decode_sse(&[b"data: {\"a\":1}"]);
    assert_eq!(
        items,
        vec![SseItem::Event {
            event: None,
            data: "{\"a\":1}".into()
        }]
    );
}

#[test]
fn sse_event_name_without_data_is_not_dispatched() {
    assert!(decode_sse(&[b"event: ping\n\n: just a comment\n\n"]).is_empty());
}

#[test]
fn sse_field_without_colon_and_empty_data() {
    let items = decode_sse(&[b"data\n\n"]);
    assert_eq!(
        items,
        vec![SseItem::Event {
            event: None,
            data: String::new()
        }]
    );
}

#[test]
fn sse_invalid_utf8_is_a_protocol_error() {
    let mut decoder = SseDecoder::new();
    let err = decoder.push(b"data: \xff\xfe\n\n").unwrap_err();
    assert!(matches!(err, crate::LlmError::Protocol { .. }), "{err:?}");
}

#[test]
fn sse_oversized_line_is_a_protocol_error() {
    let mut decoder = SseDecoder::new();
    let chunk = vec![b'a'; 1024 * 1024];
    let mut failed = false;
    for _ in 0..=(MAX_LINE_BYTES / chunk.len()) {
        if let Err(err) = decoder.push(&chunk) {
            assert!(err.to_string().contains("exceeded"), "{err}");
            failed = true;
            break;
        }
    }
    assert!(failed, "a line longer than the limit must be refused");
}

const NDJSON_PAYLOAD: &str = concat!(
    "{\"message\":{\"content\":\"Grüß \"},\"done\":false}\n",
    "\r\n",
    "{\"message\":{\"content\":\"dich 👋\"},\"done\":false}\r\n",
    "{\"done\":true,\"eval_count\":3}",
);

fn ndjson_expected() -> Vec<String> {
    vec![
        "{\"message\":{\"content\":\"Grüß \"},\"done\":false}".into(),
        "{\"message\":{\"content\":\"dich 👋\"},\"done\":false}".into(),
        "{\"done\":true,\"eval_count\":3}".into(),
    ]
}

fn decode_ndjson(chunks: &[&[u8]]) -> Vec<String> {
    let mut decoder = NdjsonDecoder::new();
    let mut lines = Vec::new();
    for chunk in chunks {
        lines.extend(decoder.push(chunk).unwrap());
    }
    lines.extend(decoder.finish().unwrap());
    lines
}

#[test]
fn ndjson_every_split_point_gives_the_same_records() {
    let bytes = NDJSON_PAYLOAD.as_bytes();
    for i in 0..=bytes.len() {
        assert_eq!(
            decode_ndjson(&[&bytes[..i], &bytes[i..]]),
            ndjson_expected(),
            "split at {i}"
        );
    }
}

#[test]
fn ndjson_byte_by_byte() {
    let chunks: Vec<&[u8]> = NDJSON_PAYLOAD.as_bytes().chunks(1).collect();
    assert_eq!(decode_ndjson(&chunks), ndjson_expected());
}

#[test]
fn ndjson_blank_body_has_no_records() {
    assert!(decode_ndjson(&[b"\n\r\n  \n"]).is_empty());
}

#[test]
fn ndjson_invalid_utf8_is_a_protocol_error() {
    let mut decoder = NdjsonDecoder::new();
    assert!(matches!(
        decoder.push(b"\xc3\n"),
        Err(crate::LlmError::Protocol { .. })
    ));
}

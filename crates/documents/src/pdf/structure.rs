//! A pass over a PDF's bytes before the parser sees them: how deep its arrays and dictionaries
//! nest (the parser recurses once per level), and where its streams are.

/// The deepest nesting of arrays and dictionaries accepted; real files stay under ten.
pub(crate) const MAX_NESTING: usize = 64;

/// One stream: its dictionary's text (from the `obj` before it) and its raw data.
pub(crate) struct Stream<'a> {
    pub dictionary: &'a [u8],
    pub data: &'a [u8],
}

/// What the pass found.
pub(crate) struct Structure<'a> {
    /// The deepest nesting seen, counted up to `MAX_NESTING + 1`.
    pub nesting: usize,
    pub streams: Vec<Stream<'a>>,
}

fn is_delimiter_or_space(byte: u8) -> bool {
    byte.is_ascii_whitespace() || b"()<>[]{}/%".contains(&byte)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| at + from)
}

/// Walks `bytes` as PDF tokens: comments, literal and hex strings and stream data are skipped,
/// `[`/`<<` open a level and `]`/`>>` close one. Stops early once the nesting passes
/// [`MAX_NESTING`].
pub(crate) fn scan(bytes: &[u8]) -> Structure<'_> {
    let mut depth = 0usize;
    let mut nesting = 0usize;
    let mut streams = Vec::new();
    let mut object_start = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'(' => {
                let mut open = 0usize;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'(' => open += 1,
                        b')' => {
                            open -= 1;
                            if open == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 1;
            }
            b'<' => {
                while i < bytes.len() && bytes[i] != b'>' {
                    i += 1;
                }
            }
            b'>' if bytes.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'o' if bytes[i..].starts_with(b"obj")
                && i > 0
                && is_delimiter_or_space(bytes[i - 1])
                && bytes.get(i + 3).is_none_or(|b| is_delimiter_or_space(*b)) =>
            {
                object_start = i + 3;
                i += 2;
            }
            b's' if bytes[i..].starts_with(b"stream")
                && i > 0
                && is_delimiter_or_space(bytes[i - 1]) =>
            {
                let mut start = i + 6;
                if bytes.get(start) == Some(&b'\r') {
                    start += 1;
                }
                if bytes.get(start) == Some(&b'\n') {
                    start += 1;
                }
                let end = find(bytes, b"endstream", start).unwrap_or(bytes.len());
                streams.push(Stream {
                    dictionary: &bytes[object_start.min(i)..i],
                    data: &bytes[start..end],
                });
                i = end + b"endstream".len();
                continue;
            }
            _ => {}
        }
        nesting = nesting.max(depth);
        if nesting > MAX_NESTING {
            break;
        }
        i += 1;
    }
    Structure { nesting, streams }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_arrays_and_dictionaries_but_not_strings_or_streams() {
        let pdf = b"1 0 obj << /A [ [ (a [[[ string) <5b5b> ] ] >> endobj\n\
                    2 0 obj << /Length 6 >> stream\n[[[[[[\nendstream endobj";
        let found = scan(pdf);
        assert_eq!(found.nesting, 3);
        assert_eq!(found.streams.len(), 1);
        assert_eq!(found.streams[0].data, b"[[[[[[\n");
        assert!(found.streams[0].dictionary.ends_with(b"<< /Length 6 >> "));
    }

    #[test]
    fn a_deep_file_is_stopped_past_the_limit() {
        let pdf = "[".repeat(5_000);
        assert_eq!(scan(pdf.as_bytes()).nesting, MAX_NESTING + 1);
    }
}

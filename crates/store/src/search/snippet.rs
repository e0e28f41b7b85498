//! Snippets: a one-line window of a message's text around the first match, matches in `[` `]`.
//! Built here rather than with FTS5's snippet()/highlight(), whose cost grows with the square of
//! the number of matches in a message (seconds for a large tool output full of one word).

use hearth_protocol::is_cjk_letter;

/// Characters of context kept before the first match.
const CONTEXT_BEFORE: usize = 30;
/// Characters a snippet shows at most (markers and ellipses aside).
const SNIPPET_CHARS: usize = 120;

/// How the pieces of a query are recognised in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MatchMode {
    /// Whole words, as the unicode61 index saw them (CJK characters need no boundary).
    Words,
    /// Anywhere, as the trigram index saw them.
    Substrings,
}

/// Finds and marks query pieces in text, ignoring case.
#[derive(Debug)]
pub(crate) struct Highlighter {
    mode: MatchMode,
    pieces: Vec<Vec<char>>,
}

fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Whether a match may start or end between `outside` and `inside` in `Words` mode.
fn boundary(outside: Option<char>, inside: char) -> bool {
    match outside {
        None => true,
        Some(o) => !o.is_alphanumeric() || is_cjk_letter(o) || is_cjk_letter(inside),
    }
}

impl Highlighter {
    /// In `Words` mode each run of letters and digits of a term is a piece (`read_file` marks
    /// `read` and `file`); in `Substrings` mode each term is one piece.
    pub(crate) fn new<'a>(mode: MatchMode, terms: impl IntoIterator<Item = &'a str>) -> Self {
        let mut pieces: Vec<Vec<char>> = Vec::new();
        for term in terms {
            let folded: Vec<char> = term.chars().map(fold).collect();
            match mode {
                MatchMode::Substrings => pieces.push(folded),
                MatchMode::Words => pieces.extend(
                    folded
                        .split(|c| !c.is_alphanumeric())
                        .filter(|run| !run.is_empty())
                        .map(<[char]>::to_vec),
                ),
            }
        }
        pieces.retain(|piece| !piece.is_empty());
        // Longest first, so a longer piece wins where two start at the same place.
        pieces.sort_by_key(|piece| std::cmp::Reverse(piece.len()));
        Highlighter { mode, pieces }
    }

    /// Length in chars of the piece matching `chars` at `at`, if any.
    fn match_at(&self, chars: &[char], at: usize) -> Option<usize> {
        self.pieces
            .iter()
            .find(|piece| self.piece_at(chars, at, piece))
            .map(Vec::len)
    }

    fn piece_at(&self, chars: &[char], at: usize, piece: &[char]) -> bool {
        let (Some(window), Some(&last)) = (chars.get(at..at + piece.len()), piece.last()) else {
            return false;
        };
        if !window.iter().map(|&c| fold(c)).eq(piece.iter().copied()) {
            return false;
        }
        let before = at.checked_sub(1).map(|i| chars[i]);
        let after = chars.get(at + piece.len()).copied();
        self.mode == MatchMode::Substrings || (boundary(before, window[0]) && boundary(after, last))
    }

    /// The snippet of `text`: up to [`SNIPPET_CHARS`] characters starting a little before the
    /// first match (or at the start when nothing matches), on one line, every match marked.
    pub(crate) fn snippet(&self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let first = (0..chars.len()).find(|&i| self.match_at(&chars, i).is_some());
        let start = first.map_or(0, |i| i.saturating_sub(CONTEXT_BEFORE));
        let end = (start + SNIPPET_CHARS).min(chars.len());
        let mut out = String::new();
        if start > 0 {
            out.push('…');
        }
        let mut i = start;
        while i < end {
            if let Some(len) = self.match_at(&chars, i) {
                out.push('[');
                out.extend(chars[i..i + len].iter().map(|&c| flatten(c)));
                out.push(']');
                i += len;
            } else {
                out.push(flatten(chars[i]));
                i += 1;
            }
        }
        if end < chars.len() {
            out.push('…');
        }
        collapse_spaces(&out)
    }
}

/// Line breaks and other control characters become spaces.
fn flatten(c: char) -> char {
    if c.is_control() {
        ' '
    } else {
        c
    }
}

fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
#[path = "snippet_tests.rs"]
mod tests;

//! A search hit as the citation the model and the window are shown: where it is, and a snippet.

use std::path::Path;

use hearth_protocol::Citation;
use hearth_store::KnowledgeHit;

/// Characters of a chunk a citation shows.
pub(crate) const SNIPPET_CHARS: usize = 480;

/// `hit` as a citation with a snippet around the first query word it holds.
pub(crate) fn citation(query: &str, hit: KnowledgeHit) -> Citation {
    let name = Path::new(&hit.path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| hit.path.clone());
    let chunk = hit.chunk;
    let place = match (chunk.unit.as_str(), chunk.first == chunk.last) {
        ("line", true) => format!("line {}", chunk.first),
        ("line", false) => format!("lines {}-{}", chunk.first, chunk.last),
        ("sheet", _) => match &chunk.label {
            Some(label) => format!("sheet {} ({label})", chunk.first),
            None => format!("sheet {}", chunk.first),
        },
        (unit, _) => format!("{unit} {}", chunk.first),
    };
    Citation {
        citation: format!("{name}, {place}"),
        snippet: snippet(&chunk.text, query),
        file: hit.path,
        unit: chunk.unit,
        first: chunk.first,
        last: chunk.last,
        label: chunk.label,
        score: hit.relevance,
    }
}

/// About [`SNIPPET_CHARS`] characters of `text` starting a little before the first query word.
pub(crate) fn snippet(text: &str, query: &str) -> String {
    let lower = text.to_lowercase();
    let at = query
        .split_whitespace()
        .filter_map(|word| lower.find(&word.to_lowercase()))
        .min()
        .unwrap_or(0);
    let chars: Vec<char> = text.chars().collect();
    let at_char = text.get(..at).map_or(0, |head| head.chars().count());
    let start = at_char.saturating_sub(SNIPPET_CHARS / 4);
    let end = (start + SNIPPET_CHARS).min(chars.len());
    let mut out: String = chars[start..end].iter().collect::<String>();
    out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    if start > 0 {
        out.insert(0, '…');
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

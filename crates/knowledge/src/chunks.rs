//! Cutting a read document into chunks for the index: a paged format (PDF pages, slides,
//! sheets) per unit, a long unit in several chunks of the same unit; a flowing text (Markdown,
//! plain text, CSV, HTML) by lines, each chunk knowing its line range.

use hearth_documents::{Document, UnitKind};
use hearth_store::KnowledgeChunk;

/// About how many characters a chunk holds (a chunk ends at a line break past this).
pub const CHUNK_CHARS: usize = 1200;

/// The chunks of `document`.
pub fn chunks(document: &Document) -> Vec<KnowledgeChunk> {
    let kind = document.unit_kind();
    let mut out = Vec::new();
    for unit in &document.units {
        let number = unit.number as u64;
        for piece in pieces(&unit.text) {
            if piece.text.trim().is_empty() {
                continue;
            }
            let (unit_name, first, last) = match kind {
                UnitKind::Page => ("page", number, number),
                UnitKind::Slide => ("slide", number, number),
                UnitKind::Sheet => ("sheet", number, number),
                UnitKind::Document => ("line", piece.first_line, piece.last_line),
            };
            out.push(KnowledgeChunk {
                unit: unit_name.to_string(),
                first,
                last,
                label: unit.name.clone(),
                text: piece.text,
            });
        }
    }
    out
}

/// Consecutive lines of a text.
struct Piece {
    first_line: u64,
    last_line: u64,
    text: String,
}

/// `text` in runs of whole lines of about [`CHUNK_CHARS`] characters (a longer line alone).
fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = 0;
    let mut first = 1;
    for (index, line) in text.lines().enumerate() {
        let number = index as u64 + 1;
        if chars > 0 && chars + line.chars().count() > CHUNK_CHARS {
            out.push(Piece {
                first_line: first,
                last_line: number - 1,
                text: std::mem::take(&mut current),
            });
            chars = 0;
        }
        if chars == 0 {
            first = number;
        }
        current.push_str(line);
        current.push('\n');
        chars += line.chars().count() + 1;
    }
    if chars > 0 {
        out.push(Piece {
            first_line: first,
            last_line: (text.lines().count() as u64).max(first),
            text: current,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use hearth_documents::parse;

    #[test]
    fn text_is_cut_by_lines_and_pages_keep_their_number() {
        let long: String = (1..=60)
            .map(|n| format!("line {n} {}\n", "x".repeat(40)))
            .collect();
        let doc = parse(long.as_bytes(), "notes.md", &Default::default()).unwrap();
        let cut = chunks(&doc);
        assert!(cut.len() >= 2, "{}", cut.len());
        assert_eq!((cut[0].unit.as_str(), cut[0].first), ("line", 1));
        assert_eq!(cut[1].first, cut[0].last + 1);
        assert_eq!(cut.last().unwrap().last, 60);
        assert!(cut[1].text.starts_with(&format!("line {} ", cut[1].first)));
    }
}

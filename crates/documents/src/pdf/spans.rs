//! A page's text runs straight from its content stream, through pdf_oxide's public extractor:
//! none of the document-wide passes its `extract_text` runs first (running headers), so a page
//! costs only itself and pages can be read on several threads at once.

use super::lines::{page_text, Run};
use super::pdf_error;
use crate::DocumentError;
use pdf_oxide::document::PdfDocument;
use pdf_oxide::extractors::TextExtractor;
use pdf_oxide::layout::TextSpan;
use pdf_oxide::pipeline::converters::{OutputConverter, PlainTextConverter};
use pdf_oxide::pipeline::{ReadingOrderContext, TextPipeline, TextPipelineConfig};

/// The text of the page at `index` (0-based).
pub(super) fn text(doc: &PdfDocument, index: usize) -> Result<String, DocumentError> {
    let spans = spans(doc, index)?;
    let vertical = spans.iter().filter(|span| span.wmode == 1).count();
    if vertical * 2 > spans.len() {
        return vertical_text(spans, index);
    }
    let (upright, turned): (Vec<TextSpan>, Vec<TextSpan>) = spans
        .into_iter()
        .partition(|span| span.rotation_degrees == 0.0);
    let mut text = page_text(upright.into_iter().map(run).collect());
    // Turned text (a margin stamp, an axis label) follows the page's text, a run a line.
    for span in turned.iter().filter(|span| !span.text.trim().is_empty()) {
        text.push('\n');
        text.push_str(span.text.trim());
    }
    Ok(text)
}

fn spans(doc: &PdfDocument, index: usize) -> Result<Vec<TextSpan>, DocumentError> {
    let page = doc.get_page(index).map_err(pdf_error)?;
    let Some(dictionary) = page.as_dict() else {
        return Err(DocumentError::corrupt(
            "pdf",
            format!("page {} is not a dictionary", index + 1),
        ));
    };
    let content = match doc.get_page_content_data(index) {
        Ok(content) => content,
        Err(error) => {
            // As pdf_oxide does: a page whose content cannot be decoded has no text.
            tracing::debug!(%error, page = index + 1, "page content unreadable");
            return Ok(Vec::new());
        }
    };
    if !PdfDocument::may_contain_text_public(&content) {
        return Ok(Vec::new());
    }
    let mut extractor = TextExtractor::new();
    extractor.set_page_index(u32::try_from(index).unwrap_or(u32::MAX));
    if let Some(resources) = dictionary.get("Resources") {
        extractor.set_resources(resources.clone());
        extractor.set_document(doc);
        if let Err(error) = doc.load_fonts_public(resources, &mut extractor) {
            tracing::debug!(%error, page = index + 1, "fonts not loaded, default widths used");
        }
    }
    extractor.extract_text_spans(&content).map_err(pdf_error)
}

/// A run as the line assembler takes it, with where each character starts.
fn run(span: TextSpan) -> Run {
    let count = span.text.chars().count();
    let starts = if span.char_x_offsets.len() == count {
        span.char_x_offsets
    } else if span.char_widths.len() == count {
        span.char_widths
            .iter()
            .scan(span.bbox.x, |at, width| {
                let start = *at;
                *at += width;
                Some(start)
            })
            .collect()
    } else {
        Vec::new()
    };
    Run {
        text: span.text,
        x: span.bbox.x,
        y: span.bbox.y,
        width: span.bbox.width,
        size: span.font_size,
        starts,
    }
}

/// A page written top to bottom (Chinese or Japanese set vertically), read column by column
/// by pdf_oxide's reading-order pipeline.
fn vertical_text(spans: Vec<TextSpan>, index: usize) -> Result<String, DocumentError> {
    let context = ReadingOrderContext::new().with_page(u32::try_from(index).unwrap_or(u32::MAX));
    let ordered = TextPipeline::new()
        .process(spans, context)
        .map_err(pdf_error)?;
    PlainTextConverter::new()
        .convert(&ordered, &TextPipelineConfig::default())
        .map_err(pdf_error)
}

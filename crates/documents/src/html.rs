//! HTML pages as Markdown-like text (headings, lists, links kept; scripts and styles dropped).

use dom_query::Document as Html;

pub(crate) fn text(source: &str) -> String {
    Html::from(source).md(None).to_string()
}

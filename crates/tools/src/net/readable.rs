//! Readable text of an HTML page: boilerplate removed (scripts, styles, navigation, page
//! headers and footers, asides, forms), then a Readability-style extraction (`dom_smoothie`)
//! rendered as Markdown with absolute links; the whole body as Markdown when that finds nothing.

use dom_query::Document;
use dom_smoothie::{Config, Readability, TextMode};

/// Elements that are never content.
const BOILERPLATE: &str = "script, style, noscript, template, iframe, svg, canvas, nav, aside, \
                           form, dialog, [role=navigation], [role=complementary], \
                           [role=search], [aria-hidden=true]";

/// Elements that are boilerplate unless they belong to an article (an article's own header
/// holds its title).
const PAGE_CHROME: &str = "header, footer, [role=banner], [role=contentinfo]";

/// The title and Markdown text of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Readable {
    pub(crate) title: String,
    pub(crate) text: String,
}

fn stripped(html: &str) -> Document {
    let document = Document::from(html);
    document.select(BOILERPLATE).remove();
    for node in document.select(PAGE_CHROME).nodes() {
        if !node.ancestors_it(None).any(|a| a.is("article, main")) {
            node.remove_from_parent();
        }
    }
    document
}

/// Extracts the readable part of `html`; `url` (absolute) makes relative links absolute.
pub(crate) fn readable(html: &str, url: &str) -> Readable {
    let config = Config {
        text_mode: TextMode::Markdown,
        ..Config::default()
    };
    let article = Readability::with_document(stripped(html), Some(url), Some(config))
        .and_then(|mut readability| readability.parse());
    match article {
        Ok(article) if !article.text_content.trim().is_empty() => Readable {
            title: article.title.trim().to_string(),
            text: tidy(&article.text_content),
        },
        _ => {
            let document = stripped(html);
            let title = document.select("title").text().trim().to_string();
            let text = match document.body() {
                Some(body) => body.md(None).to_string(),
                None => document.md(None).to_string(),
            };
            Readable {
                title,
                text: tidy(&text),
            }
        }
    }
}

/// Trims lines and collapses runs of blank lines to one.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = true;
    for line in text.lines().map(str::trim_end) {
        if line.trim().is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(line);
            out.push('\n');
            blank = false;
        }
    }
    out.trim_end().to_string()
}

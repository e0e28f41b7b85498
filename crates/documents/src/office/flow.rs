//! The running text of WordprocessingML and DrawingML parts: paragraphs as lines, table cells
//! separated by tabs, and (in slides) each shape's text with the title shape remembered.

use super::xml::{walk, Step};
use crate::DocumentError;

/// Placeholders whose text is furniture (slide numbers, dates, footers), not content.
const FURNITURE: [&str; 4] = ["sldNum", "dt", "ftr", "hdr"];

/// The text of a part and the text of its title placeholder, if it has one.
pub(crate) struct Flow {
    pub(crate) text: String,
    pub(crate) title: Option<String>,
}

#[derive(Default)]
struct State {
    text: String,
    title: Option<String>,
    in_run_text: bool,
    cells: usize,
    shape: Option<Shape>,
}

#[derive(Default)]
struct Shape {
    text: String,
    placeholder: Option<String>,
}

impl State {
    fn sink(&mut self) -> &mut String {
        match &mut self.shape {
            Some(shape) => &mut shape.text,
            None => &mut self.text,
        }
    }

    fn end_paragraph(&mut self) {
        let in_cell = self.cells > 0;
        let sink = self.sink();
        sink.push(if in_cell { ' ' } else { '\n' });
    }

    fn end_cell(&mut self) {
        self.cells = self.cells.saturating_sub(1);
        let sink = self.sink();
        while sink.ends_with(' ') {
            sink.pop();
        }
        sink.push('\t');
    }

    fn end_row(&mut self) {
        let sink = self.sink();
        if sink.ends_with('\t') {
            sink.pop();
        }
        sink.push('\n');
    }

    fn end_shape(&mut self) {
        let Some(shape) = self.shape.take() else {
            return;
        };
        let kind = shape.placeholder.as_deref().unwrap_or("");
        if FURNITURE.contains(&kind) {
            return;
        }
        if matches!(kind, "title" | "ctrTitle") && self.title.is_none() {
            let title = shape.text.split_whitespace().collect::<Vec<_>>().join(" ");
            self.title = (!title.is_empty()).then_some(title);
        }
        self.text.push_str(&shape.text);
    }
}

/// Reads the text of one XML part.
pub(crate) fn flow(xml: &str, format: &'static str) -> Result<Flow, DocumentError> {
    let mut state = State::default();
    walk(xml, format, |step| match step {
        Step::Open(element) => match element.name() {
            "t" => state.in_run_text = true,
            // A tab character, not a tab stop definition (`<w:tab w:pos=…>` in paragraph
            // properties).
            "tab" if element.attr(Some("w"), "pos").is_none() => state.sink().push('\t'),
            "br" | "cr" => state.sink().push('\n'),
            "tc" => state.cells += 1,
            "sp" if state.shape.is_none() => state.shape = Some(Shape::default()),
            "ph" => {
                if let Some(shape) = &mut state.shape {
                    shape.placeholder = Some(element.attr(None, "type").unwrap_or_default());
                }
            }
            _ => {}
        },
        Step::Close(name) => match name {
            "t" => state.in_run_text = false,
            "p" => state.end_paragraph(),
            "tc" => state.end_cell(),
            "tr" => state.end_row(),
            "sp" => state.end_shape(),
            _ => {}
        },
        Step::Text(text) => {
            if state.in_run_text {
                state.sink().push_str(text);
            }
        }
    })?;
    state.end_shape();
    Ok(Flow {
        text: state.text,
        title: state.title,
    })
}

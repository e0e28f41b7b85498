//! Hearth's document readers: the text of PDF, DOCX, PPTX, XLSX/XLS/ODS, CSV, plain text,
//! Markdown and HTML files, split into units (pages, slides, sheets), parsed off the async
//! threads with a time limit, panics caught and archive sizes bounded.

mod archive;
mod error;
mod format;
mod html;
mod office;
mod pdf;
mod render;
mod run;
mod sheets;
mod text;

pub use error::DocumentError;
pub use format::{Format, UnitKind};
pub use render::{Document, Extract, Unit, DEFAULT_MAX_CHARS};
pub use run::{parse, read, read_blocking, Limits};

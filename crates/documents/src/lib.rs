//! Hearth's document readers: the text of PDF, DOCX, PPTX, XLSX/XLS/ODS, CSV, plain text,
//! Markdown and HTML files, split into units (pages, slides, sheets), each parsed in a worker
//! process with time, memory and size limits, so no file can take the program down.

mod archive;
mod file;
mod format;
mod html;
mod office;
mod pdf;
mod render;
mod run;
mod sheets;
mod text;
mod worker;

pub use file::{load, read_limited};
pub use format::{Format, UnitKind};
pub use hearth_protocol::DocumentError;
pub use render::{Document, Extract, Unit, DEFAULT_MAX_CHARS};
pub use run::{parse, parse_unit, Limits};
pub use worker::{
    read, read_blocking, read_unit, serve_worker_if_asked, WORKER_ARG, WORKER_PROGRAM,
};

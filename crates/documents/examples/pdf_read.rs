//! Reads a document as `hearth-cli documents read PATH` does (in the worker) and prints its text.
#![allow(clippy::print_stdout, clippy::print_stderr)] // the text and the figures are its output

use hearth_documents::{load, read_blocking, serve_worker_if_asked, Limits};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    serve_worker_if_asked();
    let mut args = std::env::args().skip(1);
    let path = match (args.next(), args.next()) {
        (Some(path), None) => PathBuf::from(path),
        _ => {
            eprintln!("usage: pdf_read FILE");
            return ExitCode::FAILURE;
        }
    };
    let limits = Limits::default();
    let bytes = match load(&path, &limits) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let name = path.display().to_string();
    match read_blocking(bytes, name, limits).and_then(|doc| doc.extract(None, usize::MAX)) {
        Ok(extract) => {
            println!("{}", extract.text.trim_end());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

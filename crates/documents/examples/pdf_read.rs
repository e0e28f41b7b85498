//! Reads a document as `hearth-cli documents read PATH` does (in the worker) and prints its text.
//!
//! `--phases` times pdf_oxide's steps on a PDF instead, in this process: the first page (which
//! lays out every page to find running headers), then for the other pages their spans, their
//! text without and with table detection.
#![allow(clippy::print_stdout, clippy::print_stderr)] // the text and the figures are its output

use hearth_documents::{load, read_blocking, serve_worker_if_asked, Limits};
use pdf_oxide::document::PdfDocument;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    serve_worker_if_asked();
    let mut args = std::env::args().skip(1);
    let (phases, path) = match (args.next(), args.next()) {
        (Some(flag), Some(path)) if flag == "--phases" => (true, PathBuf::from(path)),
        (Some(path), None) => (false, PathBuf::from(path)),
        _ => {
            eprintln!("usage: pdf_read [--phases] FILE");
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
    if phases {
        return timed(bytes);
    }
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

/// Opening, the first page (which runs the running-header pass over every page), the rest.
fn timed(bytes: Vec<u8>) -> ExitCode {
    let started = Instant::now();
    let Ok(doc) = PdfDocument::from_bytes(bytes) else {
        return ExitCode::FAILURE;
    };
    let count = doc.page_count().unwrap_or(0);
    let opened = started.elapsed();
    let _ = doc.extract_text(0);
    let first = started.elapsed();
    let (mut spans, mut plain, mut tables) = (0.0, 0.0, 0.0);
    let options = pdf_oxide::converters::ConversionOptions::default();
    for page in 1..count {
        let t = Instant::now();
        let _ = doc.extract_spans(page);
        spans += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let _ = doc.extract_text_with_options(page, &options);
        plain += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let _ = doc.extract_text(page);
        tables += t.elapsed().as_secs_f64();
    }
    println!(
        "pages {count}: open {:.3}s, page 1 {:.3}s; other pages: spans {spans:.3}s, text without tables {plain:.3}s, text {tables:.3}s",
        opened.as_secs_f64(),
        (first - opened).as_secs_f64(),
    );
    ExitCode::SUCCESS
}

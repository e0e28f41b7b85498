//! Benchmark: PDF text extraction by the document readers against Debian's `pdftotext`
//! (poppler-utils) on the same 200-page English and Chinese PDF (written by fpdf2 through
//! tests/fixtures/make.py), side by side: pages per second, and on how many pages each one's
//! text is the text written (whitespace ignored). One generated file flatters the reader: real
//! files from many producers, through `hearth-cli` as users run it, are compared by
//! `scripts/perf/pdf_corpus.py`.
#![allow(clippy::print_stdout)] // the figures are this benchmark's output

use hearth_documents::{parse, Limits};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const PAGES: usize = 200;
const ROUNDS: usize = 5;

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Writes the PDF; returns its path and the text of each page as written.
fn corpus(dir: &Path) -> (PathBuf, Vec<String>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(root.join("../../target/doc-fixtures/bin/python"))
        .arg(root.join("tests/fixtures/make.py"))
        .arg(dir)
        .args(["--pages", &PAGES.to_string()])
        .output();
    match output {
        Ok(out) if out.status.success() => match serde_json::from_slice(&out.stdout) {
            Ok(pages) => (dir.join("long.pdf"), pages),
            Err(e) => panic!("make.py printed no page list: {e}"),
        },
        other => panic!("make.py failed ({other:?}); run scripts/setup.sh"),
    }
}

/// On how many pages `got` is the text written.
fn correct(got: &[String], written: &[String]) -> usize {
    got.iter()
        .zip(written)
        .filter(|(a, b)| squeeze(a) == squeeze(b))
        .count()
}

fn main() {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => panic!("tempdir: {e}"),
    };
    let (pdf, written) = corpus(dir.path());
    let bytes = match std::fs::read(&pdf) {
        Ok(bytes) => bytes,
        Err(e) => panic!("read {}: {e}", pdf.display()),
    };

    let started = Instant::now();
    let mut ours = Vec::new();
    for _ in 0..ROUNDS {
        ours = match parse(&bytes, "long.pdf", &Limits::default()) {
            Ok(doc) => doc.units.into_iter().map(|u| u.text).collect(),
            Err(e) => panic!("hearth-documents: {e}"),
        };
    }
    let ours_secs = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let mut theirs = Vec::new();
    for _ in 0..ROUNDS {
        let output = match Command::new("pdftotext").arg(&pdf).arg("-").output() {
            Ok(output) if output.status.success() => output.stdout,
            other => panic!("pdftotext (apt-get install poppler-utils): {other:?}"),
        };
        theirs = String::from_utf8_lossy(&output)
            .split('\u{c}')
            .map(str::to_string)
            .collect();
    }
    let theirs_secs = started.elapsed().as_secs_f64();

    let same = correct(&ours, &theirs);
    let rate = |secs: f64| (PAGES * ROUNDS) as f64 / secs;
    println!("pdf extraction, {PAGES} pages (English + Chinese), {ROUNDS} rounds");
    println!("  hearth-documents  {:>8.0} pages/s", rate(ours_secs));
    println!("  pdftotext         {:>8.0} pages/s", rate(theirs_secs));
    println!("  speed ratio       {:>8.2}x", theirs_secs / ours_secs);
    println!("  same text as each other   {same}/{PAGES} pages");
    println!(
        "  hearth-documents correct  {}/{PAGES} pages",
        correct(&ours, &written)
    );
    println!(
        "  pdftotext correct         {}/{PAGES} pages",
        correct(&theirs, &written)
    );
}

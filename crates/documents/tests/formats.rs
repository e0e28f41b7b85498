//! Every format read from files written by well-known libraries (the fixtures made by
//! `tests/fixtures/make.py` in the venv scripts/setup.sh installs into target/doc-fixtures):
//! English and Chinese text per unit, units by number and name, and each broken file's error.
//! The tests fail, never skip, when the fixture venv is missing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hearth_documents::{parse, read, read_blocking, Document, DocumentError, Format, Limits};

#[path = "formats/isolation.rs"]
mod isolation;
#[path = "formats/pages.rs"]
mod pages;
#[path = "formats/real.rs"]
mod real;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const SETUP: &str = "python3 -m venv target/doc-fixtures && target/doc-fixtures/bin/pip install \
                     fpdf2==2.8.9 python-docx==1.2.0 python-pptx==1.0.2 openpyxl==3.1.5 \
                     xlwt==1.3.0 odfpy==1.4.1 (and apt-get install fonts-droid-fallback)";

struct Fixtures {
    dir: tempfile::TempDir,
    expected: Value,
}

/// Makes the fixtures once for the whole binary.
fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let python = root.join("../../target/doc-fixtures/bin/python");
        let dir = tempfile::tempdir().unwrap();
        let output = Command::new(&python)
            .arg(root.join("tests/fixtures/make.py"))
            .arg(dir.path())
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "{} cannot run: {e}. Set it up with: {SETUP}",
                    python.display()
                )
            });
        assert!(
            output.status.success(),
            "make.py failed (set up with: {SETUP}): {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Fixtures {
            dir,
            expected: serde_json::from_slice(&output.stdout).unwrap(),
        }
    })
}

fn path(name: &str) -> PathBuf {
    fixtures().dir.path().join(name)
}

fn open(name: &str) -> Result<Document, DocumentError> {
    let bytes = std::fs::read(path(name)).unwrap();
    parse(&bytes, name, &Limits::default())
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .collect()
}

fn no_private_use(text: &str) {
    assert!(
        !text.chars().any(|c| ('\u{E000}'..='\u{F8FF}').contains(&c)),
        "private-use code points in {text:?}"
    );
}

#[test]
fn pdf_pages_come_back_exactly_in_english_and_chinese() {
    let doc = open("report.pdf").unwrap();
    assert_eq!(doc.format, Format::Pdf);
    let pages = strings(&fixtures().expected["pdf"]);
    assert_eq!(doc.units.len(), pages.len());
    for (unit, expected) in doc.units.iter().zip(&pages) {
        assert_eq!(unit.text.trim(), expected, "page {}", unit.number);
        no_private_use(&unit.text);
    }
    let second = doc.extract(Some("2"), 10_000).unwrap();
    assert_eq!(second.units_returned, vec![2]);
    assert_eq!(second.unit_count, 3);
    assert_eq!(second.text, format!("--- page 2 ---\n{}\n", pages[1]));
}

#[test]
fn slides_come_in_order_with_titles_and_notes() {
    let doc = open("deck.pptx").unwrap();
    let slides = fixtures().expected["slides"].as_array().unwrap();
    assert_eq!(doc.units.len(), slides.len());
    for (unit, slide) in doc.units.iter().zip(slides) {
        let (title, body) = (slide[0].as_str().unwrap(), slide[1].as_str().unwrap());
        assert_eq!(unit.name.as_deref(), Some(title));
        assert!(
            unit.text.starts_with(&format!("{title}\n{body}")),
            "{:?}",
            unit.text
        );
    }
    let notes = fixtures().expected["notes"]["1"].as_str().unwrap();
    assert!(
        doc.units[1].text.ends_with(&format!("[notes]\n{notes}\n")),
        "{:?}",
        doc.units[1].text
    );
    let by_name = doc.extract(Some("预算"), 10_000).unwrap();
    assert_eq!(by_name.units_returned, vec![2]);
    assert!(by_name
        .text
        .starts_with("--- slide 2: 预算 ---\n预算\n二零二六年预算"));
}

#[test]
fn every_workbook_format_gives_each_sheet_as_tab_separated_rows() {
    let sheets = fixtures().expected["sheets"].as_object().unwrap();
    for file in ["book.xlsx", "book.xls", "book.ods"] {
        let doc = open(file).unwrap();
        assert_eq!(doc.units.len(), sheets.len(), "{file}");
        for (unit, (name, rows)) in doc.units.iter().zip(sheets) {
            assert_eq!(unit.name.as_deref(), Some(name.as_str()), "{file}");
            let expected: String = rows
                .as_array()
                .unwrap()
                .iter()
                .map(|row| strings(row).join("\t") + "\n")
                .collect();
            assert_eq!(unit.text, expected, "{file} sheet {name}");
        }
        let people = doc.extract(Some("人员"), 10_000).unwrap();
        assert_eq!(people.units_returned, vec![2], "{file}");
        assert_eq!(
            people.text, "--- sheet 2: 人员 ---\n姓名\t部门\n张三\t研发\n",
            "{file}"
        );
    }
}

#[test]
fn a_word_document_gives_its_paragraphs_and_tables() {
    let doc = open("report.docx").unwrap();
    assert_eq!(doc.units.len(), 1);
    let lines = strings(&fixtures().expected["docx"]);
    let table: Vec<String> = fixtures().expected["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| strings(row).join("\t"))
        .collect();
    let expected = format!(
        "{}\n{}\n{}\n{}\n",
        lines[0],
        lines[1],
        table.join("\n"),
        lines[2]
    );
    assert_eq!(doc.units[0].text, expected);
    let whole = doc.extract(None, 10_000).unwrap();
    assert_eq!(whole.text, expected, "a single-unit document has no marker");
}

#[test]
fn text_markdown_csv_and_html_are_read_as_text() {
    assert_eq!(
        open("notes.md").unwrap().units[0].text,
        "# 笔记\n\n- first item\n- 第二项\n"
    );
    assert_eq!(
        open("data.csv").unwrap().units[0].text,
        "name,城市\nAda,北京\n"
    );
    assert_eq!(
        open("legacy.txt").unwrap().units[0].text,
        "简体中文 GBK 文本"
    );
    let html = &open("page.html").unwrap().units[0].text;
    assert!(
        html.contains("标题") && html.contains("Hello **world**."),
        "{html:?}"
    );
    assert!(!html.contains("x()") && !html.contains("p{}"), "{html:?}");
}

#[test]
fn broken_files_each_give_their_error() {
    type Check = fn(&DocumentError) -> bool;
    let cases: [(&str, Check); 6] = [
        ("scanned.pdf", |e| *e == DocumentError::NoTextLayer),
        ("encrypted.pdf", |e| *e == DocumentError::Encrypted),
        ("empty.pdf", |e| *e == DocumentError::Empty),
        ("truncated.pdf", |e| {
            matches!(e, DocumentError::Corrupt { format: "pdf", .. })
        }),
        ("truncated.docx", |e| {
            matches!(e, DocumentError::Corrupt { format: "docx", .. })
        }),
        ("bomb.docx", |e| matches!(e, DocumentError::ZipBomb { .. })),
    ];
    for (file, expected) in cases {
        let started = Instant::now();
        let error = open(file).unwrap_err();
        assert!(expected(&error), "{file}: {error:?}");
        // Within the reader's own time limit (a loaded 2-core CI machine is slow, not stuck).
        assert!(
            started.elapsed() < Limits::default().timeout,
            "{file} took {:?}",
            started.elapsed()
        );
    }
    assert_eq!(
        DocumentError::NoTextLayer.to_string(),
        "no text layer: this looks like a scanned document (OCR is not available)"
    );
}

// The guard only keeps the tests that count workers apart; nothing else awaits it.
#[allow(clippy::await_holding_lock)]
#[tokio::test]
async fn the_async_reader_enforces_its_time_limit_and_size_limit() {
    let _serial = isolation::one_at_a_time();
    let bytes = std::fs::read(path("report.pdf")).unwrap();
    let limits = Limits {
        timeout: Duration::ZERO,
        ..Limits::default()
    };
    let slow = read(bytes.clone(), "report.pdf".into(), limits).await;
    assert!(matches!(slow, Err(DocumentError::Timeout(_))), "{slow:?}");
    let small = Limits {
        max_file_bytes: 100,
        ..Limits::default()
    };
    let big = read(bytes.clone(), "report.pdf".into(), small).await;
    assert!(
        matches!(big, Err(DocumentError::TooLarge { limit: 100, .. })),
        "{big:?}"
    );
    let fine = read(bytes, "report.pdf".into(), Limits::default())
        .await
        .unwrap();
    assert_eq!(fine.units.len(), 3);
}

#[test]
fn unknown_formats_and_disguised_files_are_refused() {
    assert!(
        matches!(parse(b"x", "a.exe", &Limits::default()), Err(DocumentError::Unsupported(e)) if e == ".exe")
    );
    assert!(matches!(
        parse(b"plain text", "fake.docx", &Limits::default()),
        Err(DocumentError::Corrupt { format: "docx", .. })
    ));
}

#[test]
fn the_blocking_reader_has_the_same_limits() {
    let _serial = isolation::one_at_a_time();
    let bytes = std::fs::read(path("deck.pptx")).unwrap();
    let zero = Limits {
        timeout: Duration::ZERO,
        ..Limits::default()
    };
    let slow = read_blocking(bytes.clone(), "deck.pptx".into(), zero);
    assert!(matches!(slow, Err(DocumentError::Timeout(_))), "{slow:?}");
    let deck = read_blocking(bytes, "deck.pptx".into(), Limits::default()).unwrap();
    assert_eq!(deck.units.len(), 3);
}

#[test]
fn an_archive_whose_zip_headers_understate_its_size_is_refused() {
    use std::io::Write;
    let mut bytes = Vec::new();
    {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zip.start_file("word/document.xml", options).unwrap();
        zip.write_all(&vec![b' '; 3 * 1024 * 1024]).unwrap();
        zip.finish().unwrap();
    }
    // Say the entry unpacks to 10 bytes, in the local header and the central directory.
    let central = bytes.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    bytes[central + 24..central + 28].copy_from_slice(&10u32.to_le_bytes());
    bytes[22..26].copy_from_slice(&10u32.to_le_bytes());
    let limits = Limits {
        max_unpacked_bytes: 1024 * 1024,
        ..Limits::default()
    };
    // The zip crate (calamine reads through it too) stops inflating at the declared size.
    let error = parse(&bytes, "lying.docx", &limits).unwrap_err();
    assert!(
        matches!(&error, DocumentError::Corrupt { format: "docx", reason } if reason.contains("larger than its declared uncompressed size")),
        "{error:?}"
    );
}

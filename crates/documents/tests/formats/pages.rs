//! One page of a long PDF is read on its own: only that page comes back (its number and the
//! document's page count kept), a range is cut to the pages there are, a page past the end is
//! refused, and one page of 300 costs what a whole 3-page file costs.

use super::*;
use hearth_documents::{parse_unit, read_unit};

const PAGES: usize = 300;

/// An fpdf2 PDF of `pages` pages and the text written on each page.
fn written_pdf(pages: usize) -> (Vec<u8>, Vec<String>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(root.join("../../target/doc-fixtures/bin/python"))
        .arg(root.join("tests/fixtures/make.py"))
        .arg(dir.path())
        .args(["--pages", &pages.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("make.py cannot run: {e}. Set it up with: {SETUP}"));
    assert!(
        output.status.success(),
        "make.py failed (set up with: {SETUP})"
    );
    let written = strings(&serde_json::from_slice(&output.stdout).unwrap());
    (std::fs::read(dir.path().join("long.pdf")).unwrap(), written)
}

/// The 300-page one, made once.
fn long_pdf() -> &'static (Vec<u8>, Vec<String>) {
    static LONG: OnceLock<(Vec<u8>, Vec<String>)> = OnceLock::new();
    LONG.get_or_init(|| written_pdf(PAGES))
}

fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn one_page_of_a_long_pdf_comes_back_alone_with_the_page_count() {
    let (bytes, written) = long_pdf();
    let doc = parse_unit(bytes, "long.pdf", Some("150"), &Limits::default()).unwrap();
    assert_eq!(doc.unit_count, PAGES);
    assert_eq!(doc.units.len(), 1, "only the page asked for is read");
    assert_eq!(doc.units[0].number, 150);
    assert_eq!(squeezed(&doc.units[0].text), squeezed(&written[149]));
    let extract = doc.extract(Some("150"), usize::MAX).unwrap();
    assert_eq!(extract.unit_count, PAGES);
    assert!(
        extract.text.starts_with("--- page 150 ---\n"),
        "{}",
        extract.text
    );

    let tail = parse_unit(bytes, "long.pdf", Some("299-400"), &Limits::default()).unwrap();
    let numbers: Vec<usize> = tail.units.iter().map(|u| u.number).collect();
    assert_eq!(numbers, vec![299, 300]);

    let past = parse_unit(bytes, "long.pdf", Some("301"), &Limits::default()).unwrap();
    let refused = past
        .extract(Some("301"), usize::MAX)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("the document has 300 page(s)"),
        "{refused}"
    );
}

#[test]
fn one_page_of_a_long_pdf_costs_a_small_share_of_the_whole() {
    let (long, _) = long_pdf();
    // The fastest of three, so a pause of this machine counts against neither.
    let fastest = |unit: Option<&str>| {
        (0..3)
            .map(|_| {
                let started = Instant::now();
                parse_unit(long, "long.pdf", unit, &Limits::default()).unwrap();
                started.elapsed()
            })
            .min()
            .unwrap()
    };
    let one = fastest(Some("150"));
    let all = fastest(None);
    // Only the page asked for is laid out: the other 299 pages are not read (the whole file,
    // on the threads there are, takes many times longer).
    assert!(
        one * 3 < all,
        "page 150 of {PAGES}: {one:?}; all {PAGES} pages: {all:?}"
    );
}

// The guard only keeps the tests that count workers apart; nothing else awaits it.
#[allow(clippy::await_holding_lock)]
#[tokio::test]
async fn the_worker_reads_only_the_page_asked_for() {
    let _serial = isolation::one_at_a_time();
    let (bytes, written) = long_pdf();
    let doc = read_unit(
        bytes.clone(),
        "long.pdf".into(),
        Some("2".into()),
        Limits::default(),
    )
    .await
    .unwrap();
    assert_eq!((doc.unit_count, doc.units.len()), (PAGES, 1));
    assert_eq!(squeezed(&doc.units[0].text), squeezed(&written[1]));
    // A unit that is no page number reads the whole document.
    let whole = read_unit(
        bytes.clone(),
        "long.pdf".into(),
        Some("intro".into()),
        Limits::default(),
    )
    .await
    .unwrap();
    assert_eq!(whole.units.len(), PAGES);
}

//! read_document through the registry: pages and slides with markers, units by number and
//! name, the cut, each unreadable file's error kind, and the workspace sandbox. The documents
//! are written by fpdf2 and python-pptx (crates/documents/tests/fixtures/make.py, in the venv
//! scripts/setup.sh installs into target/doc-fixtures); the test fails when it is missing.

use crate::fs_tools::{assert_refused, env, put, read, Env, CANARY};
use hearth_tools::ErrorKind;
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

// read_document parses in a worker: this test binary started again.
hearth_documents::worker_test_host!();

const FILES: &str = "report.pdf,scanned.pdf,encrypted.pdf,deck.pptx";

/// The fixture folder, made once per binary.
fn fixtures() -> &'static tempfile::TempDir {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let status = Command::new(root.join("target/doc-fixtures/bin/python"))
            .arg(root.join("crates/documents/tests/fixtures/make.py"))
            .arg(dir.path())
            .args(["--only", FILES])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("the fixture venv is missing (run scripts/setup.sh): {e}"));
        assert!(status.success(), "make.py failed");
        dir
    })
}

fn with_documents() -> Env {
    let env = env();
    for name in FILES.split(',') {
        put(
            &env.ws(&format!("docs/{name}")),
            &read(&fixtures().path().join(name)),
        );
    }
    env
}

#[tokio::test]
async fn a_pdf_comes_back_page_by_page_with_markers() {
    let env = with_documents();
    let all = env
        .ok("read_document", json!({"path": "docs/report.pdf"}))
        .await;
    assert_eq!(all["format"], "pdf");
    assert_eq!(all["unit_kind"], "page");
    assert_eq!(all["unit_count"], 3);
    assert_eq!(all["units_returned"], json!([1, 2, 3]));
    assert_eq!(all["truncated"], false);
    let content = all["content"].as_str().unwrap();
    assert!(
        content.starts_with("--- page 1 ---\nQuarterly report"),
        "{content}"
    );
    assert!(
        content.contains("--- page 2 ---\n第二页：季度销售报告，收入增长百分之十二。\n"),
        "{content}"
    );
    let second = env
        .ok(
            "read_document",
            json!({"path": "docs/report.pdf", "unit": 2}),
        )
        .await;
    assert_eq!(second["units_returned"], json!([2]));
    assert_eq!(
        second["content"],
        "--- page 2 ---\n第二页：季度销售报告，收入增长百分之十二。\n"
    );
    let cut = env
        .ok(
            "read_document",
            json!({"path": "docs/report.pdf", "max_chars": 20}),
        )
        .await;
    assert_eq!(
        (cut["truncated"].as_bool(), cut["chars"].as_u64()),
        (Some(true), Some(20))
    );
    assert!(
        cut["note"].as_str().unwrap().contains("pass `unit`"),
        "{cut}"
    );
}

#[tokio::test]
async fn slides_are_picked_by_title_and_missing_units_are_named() {
    let env = with_documents();
    let slide = env
        .ok(
            "read_document",
            json!({"path": "docs/deck.pptx", "unit": "预算"}),
        )
        .await;
    assert_eq!(slide["units_returned"], json!([2]));
    assert_eq!(
        slide["content"],
        "--- slide 2: 预算 ---\n预算\n二零二六年预算\n\n[notes]\n演讲者备注：强调预算\n"
    );
    let missing = env
        .err(
            "read_document",
            json!({"path": "docs/deck.pptx", "unit": "7"}),
        )
        .await;
    assert_eq!(missing.kind, ErrorKind::InvalidArguments);
    assert_eq!(missing.field.as_deref(), Some("unit"));
    assert!(
        missing
            .message
            .contains("1 = Overview, 2 = 预算, 3 = Next steps"),
        "{missing:?}"
    );
}

#[tokio::test]
async fn unreadable_documents_say_why() {
    let env = with_documents();
    let scanned = env
        .err("read_document", json!({"path": "docs/scanned.pdf"}))
        .await;
    assert_refused(&scanned, ErrorKind::Unavailable, "docs/scanned.pdf");
    assert!(scanned
        .message
        .ends_with("no text layer: this looks like a scanned document (OCR is not available)"));
    let encrypted = env
        .err("read_document", json!({"path": "docs/encrypted.pdf"}))
        .await;
    assert_refused(&encrypted, ErrorKind::NotPermitted, "docs/encrypted.pdf");
    assert!(encrypted.message.contains("encrypted"), "{encrypted:?}");
    put(&env.ws("empty.docx"), b"");
    let empty = env
        .err("read_document", json!({"path": "empty.docx"}))
        .await;
    assert_refused(&empty, ErrorKind::InvalidArguments, "empty.docx");
    let missing = env.err("read_document", json!({"path": "nope.pdf"})).await;
    assert_refused(&missing, ErrorKind::NotFound, "nope.pdf");
}

#[tokio::test]
async fn documents_outside_the_workspace_stay_unread() {
    let env = env();
    put(&env.outside().join("secret.md"), CANARY.as_bytes());
    for path in [
        "../outside/secret.md".to_string(),
        env.outside().join("secret.md").display().to_string(),
    ] {
        let error = env.err("read_document", json!({"path": path})).await;
        assert!(!error.message.contains(CANARY), "{error:?}");
        assert_eq!(error.kind, ErrorKind::NotPermitted, "{error:?}");
    }
    env.assert_outside_untouched_but(&["secret.md"]);
}

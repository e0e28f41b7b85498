//! `hearth-cli documents read`: pages with markers, a sheet by name as JSON, the cut said on
//! stderr, and a scanned PDF's error, on files written by fpdf2 and openpyxl
//! (crates/documents/tests/fixtures/make.py in the target/doc-fixtures venv scripts/setup.sh makes).

use std::path::{Path, PathBuf};

use crate::cli::Cli;

fn fixtures(dir: &Path) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = std::process::Command::new(root.join("target/doc-fixtures/bin/python"))
        .arg(root.join("crates/documents/tests/fixtures/make.py"))
        .arg(dir)
        .args(["--only", "report.pdf,scanned.pdf,book.xlsx"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "make.py failed (run scripts/setup.sh)");
}

#[tokio::test]
async fn documents_read_prints_units_json_cuts_and_errors() {
    let cli = Cli::new();
    let dir = tempfile::tempdir().unwrap();
    fixtures(dir.path());
    let pdf = dir.path().join("report.pdf").display().to_string();
    let all = cli.run(&["documents", "read", &pdf]).await;
    assert!(all.status.success(), "{all:?}");
    let text = String::from_utf8(all.stdout).unwrap();
    assert!(
        text.starts_with("--- page 1 ---\nQuarterly report"),
        "{text}"
    );
    assert!(
        text.contains("--- page 2 ---\n第二页：季度销售报告，收入增长百分之十二。\n"),
        "{text}"
    );

    let book = dir.path().join("book.xlsx").display().to_string();
    let sheet = cli
        .run(&["documents", "read", &book, "--unit", "人员", "--json"])
        .await;
    let value: serde_json::Value = serde_json::from_slice(&sheet.stdout).unwrap();
    assert_eq!(
        value["result"]["text"],
        "--- sheet 2: 人员 ---\n姓名\t部门\n张三\t研发\n"
    );
    assert_eq!(value["result"]["unit_count"], 2);
    assert_eq!(value["result"]["units_returned"], serde_json::json!([2]));

    let cut = cli
        .run(&[
            "documents",
            "read",
            &pdf,
            "--unit",
            "1",
            "--max-chars",
            "10",
        ])
        .await;
    assert!(cut.status.success());
    assert_eq!(String::from_utf8_lossy(&cut.stdout), "--- page 1\n");
    assert!(String::from_utf8_lossy(&cut.stderr)
        .contains("cut at 10 characters (of 3 pages, 1 returned)"));

    let scanned = dir.path().join("scanned.pdf").display().to_string();
    let refused = cli.run(&["documents", "read", &scanned]).await;
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr)
        .contains("no text layer: this looks like a scanned document (OCR is not available)"));
}

#[tokio::test]
async fn documents_read_refuses_devices_and_fifos_at_once() {
    let cli = Cli::new();
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let fifo = dir.path().join("pipe.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (path, kind) in [(&zero, "device"), (&fifo, "FIFO (named pipe)")] {
        let started = std::time::Instant::now();
        let refused = cli
            .run(&["documents", "read", &path.display().to_string()])
            .await;
        assert!(!refused.status.success());
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(
            stderr.contains(&format!(
                "it is a {kind}, not a regular file; only regular files are read as documents"
            )),
            "{stderr}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }
}

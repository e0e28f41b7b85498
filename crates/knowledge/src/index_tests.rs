#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::citation::{snippet, SNIPPET_CHARS};
use hearth_store::Store;

// Documents are parsed in a worker: this test binary started again.
hearth_documents::worker_test_host!();

/// Documents written by fpdf2, python-pptx, openpyxl and python-docx (the documents crate's
/// fixture script, in the target/doc-fixtures venv the setup makes), plus Markdown, CSV, HTML
/// and GBK text, and a scanned PDF.
fn fixtures(dir: &Path) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = std::process::Command::new(root.join("target/doc-fixtures/bin/python"))
        .arg(root.join("crates/documents/tests/fixtures/make.py"))
        .arg(dir)
        .args([
            "--only",
            "report.pdf,deck.pptx,book.xlsx,report.docx,scanned.pdf",
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "make.py failed (run scripts/setup.sh)");
    std::fs::write(dir.join("notes.md"), "# 笔记\n\n- first item\n- 第二项\n").unwrap();
    std::fs::write(dir.join("data.csv"), "name,城市\nAda,北京\n").unwrap();
    std::fs::write(
        dir.join("page.html"),
        "<html><body><h1>标题</h1><p>Hello world.</p></body></html>",
    )
    .unwrap();
    std::fs::write(dir.join("plain.txt"), "Plain text about lighthouses.\n").unwrap();
    std::fs::create_dir_all(dir.join(".hidden")).unwrap();
    std::fs::write(dir.join(".hidden/secret.md"), "lighthouses\n").unwrap();
}

fn knowledge(dir: &Path) -> Knowledge {
    let store = Arc::new(Store::open(&dir.join("hearth.db")).unwrap());
    Knowledge::new(store)
}

async fn top(k: &Knowledge, query: &str) -> Option<Citation> {
    k.search(query, 5).await.unwrap().into_iter().next()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_of_mixed_documents_is_indexed_incrementally_and_cited() {
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("knowledge");
    fixtures(&folder);
    let k = knowledge(home.path());
    k.set_folders(vec![folder.clone()]);
    let first = k.index().await.unwrap();
    assert_eq!(
        (first.indexed, first.failed, first.removed),
        (8, 1, 0),
        "{first:?}"
    );
    let status = k.status().await.unwrap();
    assert_eq!(status.files, 9);
    assert_eq!(status.file_errors.len(), 1);
    assert!(status.file_errors[0].path.ends_with("scanned.pdf"));
    assert_eq!(
        status.file_errors[0].error,
        FileProblem::Document(DocumentError::NoTextLayer)
    );
    assert_eq!(status.progress.done, 9);
    assert!(!status.progress.running);

    let cite = |c: Option<Citation>| c.map(|c| c.citation).unwrap_or_default();
    assert_eq!(cite(top(&k, "售").await), "report.pdf, page 2");
    assert_eq!(cite(top(&k, "预算").await), "deck.pptx, slide 2");
    assert_eq!(cite(top(&k, "季度销售").await), "report.pdf, page 2");
    assert_eq!(cite(top(&k, "revenue").await), "report.pdf, page 1");
    assert_eq!(cite(top(&k, "张三").await), "book.xlsx, sheet 2 (人员)");
    assert_eq!(cite(top(&k, "小部件").await), "report.docx, lines 1-5");
    assert_eq!(cite(top(&k, "Ada").await), "data.csv, lines 1-2");
    assert_eq!(k.search("lighthouses", 5).await.unwrap().len(), 1);
    let hit = top(&k, "Shanghai").await.unwrap();
    assert_eq!((hit.unit.as_str(), hit.first), ("page", 3));
    assert!(hit.snippet.contains("Shanghai"), "{hit:?}");
    assert_eq!(hit.file, folder.join("report.pdf").display().to_string());

    // Only the changed file is read again; a touched but unchanged one is not.
    let filler: String = (1..=100)
        .map(|n| format!("filler line {n} {}\n", "x".repeat(30)))
        .collect();
    std::fs::write(
        folder.join("notes.md"),
        format!("{filler}新的内容：火星基地\n"),
    )
    .unwrap();
    let html = folder.join("page.html");
    let same = std::fs::read(&html).unwrap();
    std::fs::write(&html, same).unwrap();
    let second = k.index().await.unwrap();
    assert_eq!((second.indexed, second.unchanged), (1, 8), "{second:?}");
    let mars = top(&k, "火星").await.unwrap();
    assert_eq!((mars.unit.as_str(), mars.last), ("line", 101), "{mars:?}");
    assert!(mars.first > 1 && mars.citation == format!("notes.md, lines {}-101", mars.first));
    let old = k.search("第二项", 5).await.unwrap();
    assert!(old.iter().all(|c| !c.file.ends_with("notes.md")), "{old:?}");

    // A deleted file's chunks are gone.
    std::fs::remove_file(folder.join("data.csv")).unwrap();
    let third = k.index().await.unwrap();
    assert_eq!((third.removed, third.indexed), (1, 0), "{third:?}");
    assert!(top(&k, "Ada").await.is_none());
    assert_eq!(k.status().await.unwrap().files, 8);

    // A folder taken out of the settings leaves the index.
    k.set_folders(Vec::new());
    assert_eq!(k.index().await.unwrap().removed, 8);
    assert_eq!(k.status().await.unwrap().chunks, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn changes_are_followed_while_watching() {
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("notes");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("a.md"), "alpha\n").unwrap();
    let k = knowledge(home.path());
    k.set_folders(vec![folder.clone()]);
    k.index().await.unwrap();
    k.watch();
    assert!(k.status().await.unwrap().watching);
    std::fs::write(folder.join("b.md"), "斑马 zebra\n").unwrap();
    std::fs::remove_file(folder.join("a.md")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found = top(&k, "斑马").await.is_some() && top(&k, "alpha").await.is_none();
        if found {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the change was not followed: {:?}",
            k.status().await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Turned off and on again (the Knowledge page's switch): the new watch follows changes.
    k.set_watching(false);
    assert!(!k.status().await.unwrap().watching);
    k.set_watching(true);
    k.set_watching(true);
    assert!(k.status().await.unwrap().watching);
    std::fs::write(folder.join("c.md"), "长颈鹿 giraffe\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while top(&k, "长颈鹿").await.is_none() {
        assert!(
            Instant::now() < deadline,
            "the change was not followed after watching again: {:?}",
            k.status().await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn snippets_start_near_the_first_query_word() {
    let text = format!("{} needle {}", "a ".repeat(400), "b ".repeat(400));
    let cut = snippet(&text, "needle");
    assert!(cut.starts_with('…') && cut.ends_with('…'), "{cut}");
    assert!(cut.contains("needle"));
    assert!(cut.chars().count() <= SNIPPET_CHARS + 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn files_the_reader_refuses_are_recorded_and_the_pass_goes_on() {
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("knowledge");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy("/bin/ls", folder.join("program.txt")).unwrap();
    // Sparse: 200 MB on paper, refused before a byte is read.
    std::fs::File::create(folder.join("huge.txt"))
        .unwrap()
        .set_len(200 * 1024 * 1024)
        .unwrap();
    std::fs::write(folder.join("plain.txt"), "Plain text about lighthouses.\n").unwrap();
    let k = knowledge(home.path());
    k.set_folders(vec![folder.clone()]);
    let first = k.index().await.unwrap();
    assert_eq!((first.indexed, first.failed), (1, 2), "{first:?}");
    let errors: HashMap<String, FileProblem> = k
        .status()
        .await
        .unwrap()
        .file_errors
        .into_iter()
        .map(|e| (e.path.rsplit('/').next().unwrap().to_string(), e.error))
        .collect();
    // Kept typed, for the UI to word in its language.
    assert_eq!(
        errors["program.txt"],
        FileProblem::Document(DocumentError::Corrupt {
            format: "txt",
            reason: "it is a program (an ELF executable), not text".into()
        })
    );
    assert_eq!(
        errors["huge.txt"],
        FileProblem::Document(DocumentError::TooLarge {
            size: 200 * 1024 * 1024,
            limit: 104_857_600
        })
    );
    assert_eq!(
        errors["program.txt"].to_string(),
        "the txt file is damaged or not what its name says: it is a program (an ELF executable), not text"
    );
    assert_eq!(
        top(&k, "lighthouses").await.map(|c| c.citation),
        Some("plain.txt, line 1".into())
    );
    let second = k.index().await.unwrap();
    assert_eq!(second.unchanged, 3, "{second:?}");
}

/// A knowledge base whose progress changes arrive on the returned channel.
fn listened(dir: &Path) -> (Knowledge, tokio::sync::mpsc::UnboundedReceiver<Progress>) {
    let k = knowledge(dir);
    let (send, receive) = tokio::sync::mpsc::unbounded_channel();
    k.on_progress(Arc::new(move |progress: &Progress| {
        let _ = send.send(progress.clone());
    }));
    (k, receive)
}

/// The progress told until (and with) the first that says no pass is running.
async fn until_idle(receive: &mut tokio::sync::mpsc::UnboundedReceiver<Progress>) -> Vec<Progress> {
    let mut told = Vec::new();
    loop {
        let progress = tokio::time::timeout(Duration::from_secs(30), receive.recv())
            .await
            .expect("the pass ended within 30 s")
            .expect("the listener is kept");
        let running = progress.running;
        told.push(progress);
        if !running {
            return told;
        }
    }
}

fn notes(folder: &Path, names: &[&str]) {
    std::fs::create_dir_all(folder).unwrap();
    for name in names {
        std::fs::write(folder.join(name), format!("{name} lighthouse\n")).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_started_pass_says_running_at_once_then_each_file_done_of_the_total() {
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("notes");
    notes(&folder, &["a.md", "b.md", "c.md"]);
    let (k, mut receive) = listened(home.path());
    k.set_folders(vec![folder]);
    assert!(k.start_index());
    assert!(
        k.progress().running,
        "running from the call on, before the folder is even scanned"
    );

    let told = until_idle(&mut receive).await;
    assert!(told[0].running, "{told:?}");
    let steps: Vec<(u64, u64)> = told
        .iter()
        .filter(|p| p.running && p.total > 0)
        .map(|p| (p.done, p.total))
        .collect();
    assert_eq!(steps, [(0, 3), (1, 3), (2, 3), (3, 3)], "{told:?}");
    let last = told.last().unwrap();
    assert_eq!((last.done, last.total, last.current.clone()), (3, 3, None));
    assert_eq!(last.last.as_ref().map(|r| r.indexed), Some(3));
    assert_eq!(k.status().await.unwrap().files, 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_added_while_a_pass_runs_is_indexed_by_the_pass_that_follows() {
    let home = tempfile::tempdir().unwrap();
    let (first, added) = (home.path().join("first"), home.path().join("added"));
    notes(&first, &["a.md", "b.md"]);
    notes(&added, &["c.md", "d.md", "e.md"]);
    let (k, mut receive) = listened(home.path());
    k.set_folders(vec![first.clone()]);
    assert!(k.start_index());
    assert!(
        k.set_folders(vec![first.clone(), added]),
        "the folders changed"
    );
    assert!(k.start_index(), "asked again while the first pass runs");

    // The first "not running" comes once the added folder is indexed too.
    let told = until_idle(&mut receive).await;
    assert_eq!(k.status().await.unwrap().files, 5, "{told:?}");
    assert!(!k.set_folders(vec![first, home.path().join("added")]));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reason_an_older_version_stored_as_a_sentence_is_still_shown() {
    let home = tempfile::tempdir().unwrap();
    let k = knowledge(home.path());
    let stamp = FileStamp {
        folder: "/k".into(),
        path: "/k/empty.md".into(),
        size: 0,
        mtime: 1,
        sha256: String::new(),
    };
    k.db.write(move |s| s.index_knowledge_file(&stamp, &[], Some("the file is empty (0 bytes)")))
        .await
        .unwrap();
    let status = k.status().await.unwrap();
    assert_eq!(
        status.file_errors,
        vec![FileError {
            path: "/k/empty.md".into(),
            error: FileProblem::Text("the file is empty (0 bytes)".into())
        }]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_folder_fails_the_pass_for_good_and_keeps_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let notes = tmp.path().join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(notes.join("a.md"), "# lighthouses\n").unwrap();
    let k = knowledge(tmp.path());
    k.set_folders(vec![notes.clone()]);
    assert_eq!(k.index().await.unwrap().indexed, 1);
    std::fs::remove_dir_all(&notes).unwrap();
    let error = k.index().await.unwrap_err();
    assert!(
        matches!(&error, KnowledgeError::FolderMissing { folder } if folder == &notes.display().to_string()),
        "{error:?}"
    );
    assert!(!error.retryable());
    assert!(matches!(
        hearth_protocol::AppError::from(error),
        hearth_protocol::AppError::NotAFolder { .. }
    ));
    // The files of an unmounted drive are not dropped from the index.
    assert_eq!(k.status().await.unwrap().files, 1);
}

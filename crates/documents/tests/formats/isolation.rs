//! The worker process: a runaway parse stopped at its time limit with its worker gone, the
//! memory limit ending a parse that wants more (the worker aborts; the next parse is fine),
//! binary files named `.txt` and decks with broken slide links reported, the cost the
//! worker adds to a small file, and `hearth-document-worker` used where it is installed.

use super::*;
use hearth_documents::{WORKER_ARG, WORKER_PROGRAM};
use std::sync::Mutex;

hearth_documents::worker_test_host!();

/// Tests that count this process's workers run one at a time (with every test that starts one).
pub(crate) fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// This process's children that are document workers.
fn workers() -> Vec<u32> {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            after_name.split_whitespace().nth(1) == Some(me.as_str())
                && String::from_utf8_lossy(&cmdline).contains(WORKER_ARG)
        })
        .collect()
}

/// Threads of this process that parse (a parse left running here after its time limit).
fn parsing_threads() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .filter(|name| name == "document-reader" || name == "document-parse")
        .collect()
}

#[test]
fn a_runaway_parse_is_stopped_at_its_time_limit_and_its_worker_is_gone() {
    let _serial = one_at_a_time();
    // 100,000 nested elements: the HTML reader takes minutes (10,000 take seconds).
    let depth = 100_000;
    let html = format!("{}x{}", "<div>".repeat(depth), "</div>".repeat(depth));
    let limit = Duration::from_secs(2);
    let limits = Limits {
        timeout: limit,
        ..Limits::default()
    };
    let started = Instant::now();
    let result = read_blocking(html.into_bytes(), "deep.html".into(), limits);
    let took = started.elapsed();
    assert!(
        matches!(result, Err(DocumentError::Timeout(2))),
        "{result:?}"
    );
    assert!(took < limit + Duration::from_millis(500), "took {took:?}");
    assert_eq!(workers(), Vec::<u32>::new(), "a worker outlived its call");
    assert_eq!(
        parsing_threads(),
        Vec::<String>::new(),
        "a parse runs on here"
    );
}

#[test]
fn a_parse_past_the_memory_limit_is_stopped_and_the_next_one_works() {
    let _serial = one_at_a_time();
    let tight = Limits {
        max_memory_bytes: 16 * 1024 * 1024,
        ..Limits::default()
    };
    // 6 MiB is read within the budget and its decoded copy is not: the allocation fails and
    // the worker aborts (SIGABRT, "memory allocation of … failed" on its stderr). 40 MiB is
    // already refused while it is read.
    for megabytes in [6, 40] {
        let big = vec![b'a'; megabytes * 1024 * 1024];
        let started = Instant::now();
        let result = read_blocking(big.clone(), "big.txt".into(), tight.clone());
        assert!(
            matches!(result, Err(DocumentError::OutOfMemory { limit_mb: 16 })),
            "{megabytes} MiB: {result:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(workers(), Vec::<u32>::new());
        let fine = read_blocking(big, "big.txt".into(), Limits::default()).unwrap();
        assert_eq!(fine.units[0].text.len(), megabytes * 1024 * 1024);
    }
}

#[test]
fn a_program_named_txt_and_a_deck_with_a_missing_slide_are_reported() {
    let _serial = one_at_a_time();
    let program = std::fs::read("/bin/ls").unwrap();
    let error = read_blocking(program, "notes.txt".into(), Limits::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the txt file is damaged or not what its name says: it is a program (an ELF executable), not text"
    );

    // The deck written by python-pptx, its second slide's part left out.
    let deck = std::fs::read(path("deck.pptx")).unwrap();
    let mut source = zip::ZipArchive::new(std::io::Cursor::new(&deck)).unwrap();
    let mut broken = Vec::new();
    {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut broken));
        for index in 0..source.len() {
            let entry = source.by_index_raw(index).unwrap();
            if entry.name().unwrap() != "ppt/slides/slide2.xml" {
                zip.raw_copy_file(entry).unwrap();
            }
        }
        zip.finish().unwrap();
    }
    let error = read_blocking(broken, "deck.pptx".into(), Limits::default()).unwrap_err();
    assert_eq!(
        error,
        DocumentError::Corrupt {
            format: "pptx",
            reason: "slide 2 is ppt/slides/slide2.xml, which the file does not have".into()
        }
    );
}

#[test]
fn the_worker_costs_a_small_file_a_few_milliseconds() {
    let _serial = one_at_a_time();
    let text = b"A short note about lighthouses.\n".to_vec();
    let mut costs: Vec<Duration> = (0..15)
        .map(|_| {
            let started = Instant::now();
            read_blocking(text.clone(), "note.txt".into(), Limits::default()).unwrap();
            let isolated = started.elapsed();
            let started = Instant::now();
            parse(&text, "note.txt", &Limits::default()).unwrap();
            isolated.saturating_sub(started.elapsed())
        })
        .collect();
    costs.sort();
    let median = costs[costs.len() / 2];
    eprintln!(
        "worker cost per small document: median {median:?}, max {:?}",
        costs[14]
    );
    assert!(median < Duration::from_millis(200), "median {median:?}");
}

/// Set for this test binary started again from a folder holding `hearth-document-worker`.
const READ_BESIDE_THE_WORKER: &str = "HEARTH_TEST_READ_BESIDE_THE_WORKER";

/// libtest's name for [`reads_a_note_when_started_beside_the_worker`]: its path below the crate.
fn beside_the_worker_test() -> String {
    let module = module_path!();
    let below_crate = module.split_once("::").map_or("", |(_, path)| path);
    format!("{below_crate}::reads_a_note_when_started_beside_the_worker")
}

/// In the copy of this binary started by the test below: reads a note through the library.
#[test]
fn reads_a_note_when_started_beside_the_worker() {
    if std::env::var_os(READ_BESIDE_THE_WORKER).is_none() {
        return;
    }
    let text = b"A short note about lighthouses.\n".to_vec();
    let document = read_blocking(text, "note.txt".into(), Limits::default()).unwrap();
    assert_eq!(document.units[0].text, "A short note about lighthouses.\n");
}

#[test]
fn the_installed_worker_program_is_used_when_it_is_beside_the_executable() {
    let folder = tempfile::tempdir().unwrap();
    let host = folder.path().join("host");
    let this = std::env::current_exe().unwrap();
    if std::fs::hard_link(&this, &host).is_err() {
        std::fs::copy(&this, &host).unwrap();
    }
    // The installed worker: a wrapper that says it ran, then is the real executable.
    let ran = folder.path().join("worker-ran");
    let wrapper = folder.path().join(WORKER_PROGRAM);
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$@\" > '{}'\nexec '{}' \"$@\"\n",
            ran.display(),
            env!("CARGO_BIN_EXE_hearth-document-worker")
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let output = Command::new(&host)
        .args(["--exact", &beside_the_worker_test()])
        .env(READ_BESIDE_THE_WORKER, "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("1 passed"));
    assert_eq!(
        std::fs::read_to_string(&ran).unwrap().trim(),
        WORKER_ARG,
        "the copy beside the worker program read the note without it"
    );
}

#[test]
fn the_worker_program_started_by_hand_says_what_it_is() {
    let output = Command::new(env!("CARGO_BIN_EXE_hearth-document-worker"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("it is not run by hand"));
}

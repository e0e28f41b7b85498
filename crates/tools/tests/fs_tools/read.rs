//! read_file: lines, offsets, limits, the byte cap (never reading past it), binary refusal and
//! malformed arguments.

use crate::fs_tools::{env, put, unspill};
use hearth_tools::ErrorKind;
use serde_json::json;

const MIB: usize = 1024 * 1024;

#[tokio::test]
async fn reads_lines_with_offset_and_limit() {
    let env = env();
    put(&env.ws("notes/a.txt"), b"one\ntwo\nthree\nfour\n");
    let all = env.ok("read_file", json!({"path": "notes/a.txt"})).await;
    assert_eq!(
        all,
        json!({"path": "notes/a.txt", "content": "one\ntwo\nthree\nfour\n", "size": 19,
               "encoding": "utf-8", "lines": 4, "truncated": false})
    );
    let part = env
        .ok(
            "read_file",
            json!({"path": "notes/a.txt", "offset": 2, "limit": 2}),
        )
        .await;
    assert_eq!(part["content"], "two\nthree\n");
    assert_eq!(part["lines"], 2);
    assert_eq!(part["truncated"], true);
    assert_eq!(part["next_offset"], 4);
    let tail = env
        .ok(
            "read_file",
            json!({"path": "./notes/../notes/a.txt", "offset": 4}),
        )
        .await;
    assert_eq!(
        (tail["content"].as_str(), tail["truncated"].as_bool()),
        (Some("four\n"), Some(false))
    );
    let absolute = env.ws("notes/a.txt").display().to_string();
    let by_absolute = env
        .ok("read_file", json!({"path": absolute, "limit": 1}))
        .await;
    assert_eq!(by_absolute["content"], "one\n");
}

#[tokio::test]
async fn empty_files_and_offsets_past_the_end() {
    let env = env();
    put(&env.ws("empty.txt"), b"");
    let empty = env.ok("read_file", json!({"path": "empty.txt"})).await;
    assert_eq!(
        (empty["content"].as_str(), empty["lines"].as_u64()),
        (Some(""), Some(0))
    );
    put(&env.ws("two.txt"), b"a\nb");
    let error = env
        .err("read_file", json!({"path": "two.txt", "offset": 3}))
        .await;
    assert_eq!(error.field.as_deref(), Some("offset"));
    assert!(error.message.contains("has 2 line(s)"), "{error:?}");
    let huge = env
        .err("read_file", json!({"path": "two.txt", "offset": u64::MAX}))
        .await;
    assert_eq!(huge.field.as_deref(), Some("offset"));
}

#[tokio::test]
async fn the_byte_cap_at_ten_mebibytes() {
    let env = env();
    let line = "0123456789abcdef\n".repeat(64); // 1088 bytes of text per chunk
    let mut body = line.repeat(10 * MIB / line.len() + 1).into_bytes();
    body.truncate(10 * MIB);
    put(&env.ws("ten.txt"), &body);
    let exact = unspill(
        env.ok(
            "read_file",
            json!({"path": "ten.txt", "max_bytes": 10 * MIB}),
        )
        .await,
    );
    assert_eq!(exact["truncated"], false);
    assert_eq!(exact["content"].as_str().map(str::len), Some(10 * MIB));
    body.push(b'x');
    put(&env.ws("ten.txt"), &body);
    let over = unspill(
        env.ok(
            "read_file",
            json!({"path": "ten.txt", "max_bytes": 10 * MIB}),
        )
        .await,
    );
    assert_eq!(over["truncated"], true);
    assert_eq!(over["size"], 10 * MIB + 1);
    assert_eq!(over["content"].as_str().map(str::len), Some(10 * MIB));
    assert!(over["note"]
        .as_str()
        .is_some_and(|n| n.contains("max_bytes")));
    let minus_one = unspill(
        env.ok(
            "read_file",
            json!({"path": "ten.txt", "max_bytes": 10 * MIB - 1}),
        )
        .await,
    );
    assert_eq!(
        minus_one["content"].as_str().map(str::len),
        Some(10 * MIB - 1)
    );
    let error = env
        .err(
            "read_file",
            json!({"path": "ten.txt", "max_bytes": 10 * MIB + 1}),
        )
        .await;
    assert_eq!(
        (error.kind, error.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("max_bytes"))
    );
    let default = unspill(env.ok("read_file", json!({"path": "ten.txt"})).await);
    assert_eq!(default["content"].as_str().map(str::len), Some(MIB));
}

#[tokio::test]
async fn never_reads_past_the_cap_of_a_huge_sparse_file() {
    let env = env();
    let path = env.ws("huge.log");
    put(&path, "log line\n".repeat(2000).as_bytes());
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(64 * 1024 * 1024 * 1024).unwrap(); // 64 GiB, sparse
    let started = std::time::Instant::now();
    let result = env
        .ok(
            "read_file",
            json!({"path": "huge.log", "max_bytes": 4096, "limit": 3}),
        )
        .await;
    assert!(started.elapsed().as_secs() < 10, "read more than the cap");
    assert_eq!(result["content"], "log line\nlog line\nlog line\n");
    assert_eq!(result["size"], 64u64 * 1024 * 1024 * 1024);
    assert_eq!(result["truncated"], true);
}

#[tokio::test]
async fn a_cut_multibyte_character_is_dropped() {
    let env = env();
    put(&env.ws("cjk.txt"), "世界".as_bytes());
    let cut = env
        .ok("read_file", json!({"path": "cjk.txt", "max_bytes": 4}))
        .await;
    assert_eq!(
        (cut["content"].as_str(), cut["truncated"].as_bool()),
        (Some("世"), Some(true))
    );
}

#[tokio::test]
async fn binary_files_point_to_the_right_tool() {
    let env = env();
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "photo.png",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "vision_analyze",
        ),
        (
            "scan.jpg",
            b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00",
            "vision_analyze",
        ),
        (
            "paper.pdf",
            b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\x00",
            "read_document",
        ),
        (
            "sheet.xlsx",
            b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00",
            "read_document",
        ),
        ("a.out", b"\x7FELF\x02\x01\x01\x00\x00\x00", "binary file"),
    ];
    for (name, bytes, hint) in cases {
        put(&env.ws(name), bytes);
        let error = env.err("read_file", json!({"path": name})).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some("path")),
            "{name}"
        );
        assert!(error.message.contains(hint), "{name}: {error:?}");
        assert!(error.message.contains(&format!("`{name}`")), "{error:?}");
    }
    // A NUL after the first 8 KiB is text with a NUL in it, not a binary file.
    let mut late = b"x".repeat(9000);
    late.push(0);
    put(&env.ws("late.txt"), &late);
    let read = env.ok("read_file", json!({"path": "late.txt"})).await;
    assert_eq!(read["content"].as_str().map(str::len), Some(9001));
}

#[tokio::test]
async fn folders_and_missing_files() {
    let env = env();
    crate::fs_tools::mkdir(&env.ws("dir"));
    let folder = env.err("read_file", json!({"path": "dir"})).await;
    assert_eq!(folder.kind, ErrorKind::InvalidArguments);
    assert!(folder.message.contains("is a folder"), "{folder:?}");
    let root = env.err("read_file", json!({"path": "."})).await;
    assert_eq!(root.kind, ErrorKind::InvalidArguments);
    let missing = env.err("read_file", json!({"path": "nope/none.txt"})).await;
    crate::fs_tools::assert_refused(&missing, ErrorKind::NotFound, "nope/none.txt");
    put(&env.ws("file.txt"), b"x");
    let through_file = env
        .err("read_file", json!({"path": "file.txt/inner"}))
        .await;
    assert_eq!(through_file.kind, ErrorKind::NotFound, "{through_file:?}");
}

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let env = env();
    put(&env.ws("a.txt"), b"a");
    let long_path = "a/".repeat(2100);
    let cases = [
        (json!({}), "path"),
        (json!({"path": 7}), "path"),
        (json!({"path": ""}), "path"),
        (json!({"path": "   "}), "path"),
        (json!({"path": long_path}), "path"),
        (json!({"path": "a.txt", "offset": 0}), "offset"),
        (json!({"path": "a.txt", "offset": "2"}), "offset"),
        (json!({"path": "a.txt", "offset": -1}), "offset"),
        (json!({"path": "a.txt", "offset": 1.5}), "offset"),
        (json!({"path": "a.txt", "limit": 0}), "limit"),
        (json!({"path": "a.txt", "encoding": "ebcdic"}), "encoding"),
        (json!({"path": "a.txt", "encoding": "UTF-8"}), "encoding"),
        (json!({"path": "a.txt", "max_bytes": 0}), "max_bytes"),
        (json!({"path": "a.txt", "max_bytes": 1e12}), "max_bytes"),
        (json!({"path": "a.txt", "lines": 3}), "lines"),
        (json!({"path": "a\u{0}b"}), "path"),
    ];
    for (args, field) in cases {
        let error = env.err("read_file", args.clone()).await;
        assert_eq!(error.kind, ErrorKind::InvalidArguments, "{args}: {error:?}");
        assert_eq!(error.field.as_deref(), Some(field), "{args}: {error:?}");
    }
}

//! Non-UTF-8 text: GBK, UTF-16 and latin1 written and read back byte-exactly, wrong
//! encodings named, unrepresentable characters refused.

use crate::fs_tools::{env, put, read};
use hearth_tools::ErrorKind;
use serde_json::json;

#[tokio::test]
async fn gbk_utf16_and_latin1_round_trip() {
    let env = env();
    let cases: [(&str, &str, &[u8]); 3] = [
        ("gbk", "中文 ok", b"\xD6\xD0\xCE\xC4 ok"),
        ("utf-16", "hé中", b"\xFF\xFEh\x00\xE9\x00\x2D\x4E"),
        ("latin1", "café ÿ", b"caf\xE9 \xFF"),
    ];
    for (encoding, content, bytes) in cases {
        let name = format!("{encoding}.txt");
        let written = env
            .ok(
                "write_file",
                json!({"path": name, "content": content, "encoding": encoding}),
            )
            .await;
        assert_eq!(written["bytes_written"], bytes.len(), "{encoding}");
        assert_eq!(read(&env.ws(&name)), bytes, "{encoding} bytes on disk");
        let back = env
            .ok("read_file", json!({"path": name, "encoding": encoding}))
            .await;
        assert_eq!(back["content"], content, "{encoding}");
        assert_eq!(back["encoding"], encoding);
    }
}

#[tokio::test]
async fn utf16_reads_either_byte_order_and_appends_without_a_second_bom() {
    let env = env();
    put(&env.ws("be.txt"), b"\xFE\xFF\x00h\x00i");
    let be = env
        .ok("read_file", json!({"path": "be.txt", "encoding": "utf-16"}))
        .await;
    assert_eq!(be["content"], "hi");
    for part in ["ab", "cd"] {
        env.ok(
            "write_file",
            json!({"path": "log16.txt", "content": part, "encoding": "utf-16", "append": true}),
        )
        .await;
    }
    assert_eq!(read(&env.ws("log16.txt")), b"\xFF\xFEa\x00b\x00c\x00d\x00");
    let back = env
        .ok(
            "read_file",
            json!({"path": "log16.txt", "encoding": "utf-16"}),
        )
        .await;
    assert_eq!(back["content"], "abcd");
}

#[tokio::test]
async fn a_wrong_encoding_is_named() {
    let env = env();
    put(&env.ws("gbk.txt"), b"\xD6\xD0\xCE\xC4\n");
    let error = env.err("read_file", json!({"path": "gbk.txt"})).await;
    assert_eq!(
        (error.kind, error.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("encoding"))
    );
    assert!(
        error.message.contains("`gbk.txt` is not valid utf-8"),
        "{error:?}"
    );
    assert!(error.message.contains("offset 0"), "{error:?}");
    // latin1 reads any byte.
    let latin = env
        .ok(
            "read_file",
            json!({"path": "gbk.txt", "encoding": "latin1"}),
        )
        .await;
    assert_eq!(latin["content"], "ÖÐÎÄ\n");
    // A UTF-8 byte order mark wins over the requested encoding.
    put(&env.ws("bom.txt"), "\u{FEFF}中".as_bytes());
    let bom = env
        .ok("read_file", json!({"path": "bom.txt", "encoding": "gbk"}))
        .await;
    assert_eq!(
        (bom["content"].as_str(), bom["encoding"].as_str()),
        (Some("中"), Some("utf-8"))
    );
}

#[tokio::test]
async fn unrepresentable_characters_are_refused_before_writing() {
    let env = env();
    for (encoding, content, shown) in [("latin1", "a中b", "U+4E2D"), ("gbk", "a😀", "U+1F600")] {
        let error = env
            .err(
                "write_file",
                json!({"path": "x.txt", "content": content, "encoding": encoding}),
            )
            .await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some("content"))
        );
        assert!(error.message.contains(shown), "{error:?}");
    }
    assert!(!env.ws("x.txt").exists());
}

#[tokio::test]
async fn edits_refuse_non_utf8_files() {
    let env = env();
    put(&env.ws("gbk.txt"), b"\xD6\xD0\xCE\xC4");
    let error = env
        .err(
            "edit_file",
            json!({"path": "gbk.txt", "old_string": "a", "new_string": "b"}),
        )
        .await;
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert!(error.message.contains("not UTF-8"), "{error:?}");
    let patch = env
        .err(
            "patch",
            json!({"file_path": "gbk.txt", "patch": "@@ -1 +1 @@\n-a\n+b\n"}),
        )
        .await;
    assert!(patch.message.contains("not UTF-8"), "{patch:?}");
    assert_eq!(read(&env.ws("gbk.txt")), b"\xD6\xD0\xCE\xC4");
}

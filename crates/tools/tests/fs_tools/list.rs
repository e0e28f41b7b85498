//! list_dir: kinds, sizes, RFC 3339 times, folders first then by name, the 1,000 cap.

use crate::fs_tools::{env, mkdir, put, unspill};
use hearth_tools::ErrorKind;
use serde_json::{json, Value};

#[tokio::test]
async fn folders_first_then_names_with_kind_size_and_time() {
    let env = env();
    put(&env.ws("b.txt"), b"12345");
    put(&env.ws("A.md"), b"");
    mkdir(&env.ws("zeta"));
    mkdir(&env.ws("alpha"));
    put(&env.ws(".hidden"), b"h");
    #[cfg(unix)]
    crate::fs_tools::symlink("b.txt", &env.ws("link"));
    let listing = env.ok("list_dir", json!({"path": "."})).await;
    let names: Vec<&str> = listing["entries"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["name"].as_str()).collect())
        .unwrap_or_default();
    #[cfg(unix)]
    assert_eq!(names, ["alpha", "zeta", ".hidden", "A.md", "b.txt", "link"]);
    let entry = |name: &str| -> Value {
        listing["entries"]
            .as_array()
            .and_then(|e| e.iter().find(|x| x["name"] == name).cloned())
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        (
            entry("b.txt")["kind"].as_str(),
            entry("b.txt")["size"].as_u64()
        ),
        (Some("file"), Some(5))
    );
    assert_eq!(entry("alpha")["kind"], "dir");
    #[cfg(unix)]
    assert_eq!(entry("link")["kind"], "symlink");
    let modified = entry("b.txt")["modified"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        chrono::DateTime::parse_from_rfc3339(&modified).is_ok(),
        "{modified}"
    );
    assert_eq!(
        (listing["total"].as_u64(), listing["truncated"].as_bool()),
        (Some(names.len() as u64), Some(false))
    );
    assert!(listing.get("note").is_none());
}

#[tokio::test]
async fn caps_at_one_thousand_entries_with_a_note() {
    let env = env();
    for n in 0..1001 {
        put(&env.ws(&format!("many/f{n:04}")), b"");
    }
    mkdir(&env.ws("many/sub"));
    let listing = env.ok("list_dir", json!({"path": "many"})).await;
    assert_eq!(
        listing["truncated"], true,
        "a thousand entries are over the model output cap"
    );
    let listing = unspill(listing);
    let entries = listing["entries"].as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 1000);
    assert_eq!(entries[0]["name"], "sub");
    assert_eq!(entries[999]["name"], "f0998");
    assert_eq!(
        (listing["total"].as_u64(), listing["truncated"].as_bool()),
        (Some(1002), Some(true))
    );
    assert!(listing["note"]
        .as_str()
        .is_some_and(|n| n.contains("1002 entries")));
}

#[tokio::test]
async fn files_missing_folders_and_bad_arguments() {
    let env = env();
    put(&env.ws("f.txt"), b"x");
    let file = env.err("list_dir", json!({"path": "f.txt"})).await;
    assert_eq!(file.kind, ErrorKind::InvalidArguments);
    assert!(file.message.contains("is a file"), "{file:?}");
    let missing = env.err("list_dir", json!({"path": "nope"})).await;
    crate::fs_tools::assert_refused(&missing, ErrorKind::NotFound, "nope");
    for (args, field) in [
        (json!({}), "path"),
        (json!({"path": 1}), "path"),
        (json!({"path": ".", "all": true}), "all"),
    ] {
        let error = env.err("list_dir", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
    }
}

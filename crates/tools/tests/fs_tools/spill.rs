//! read_spill: slices and pattern matches of a real spilled output, confined to `spill/`.

use crate::fs_tools::{assert_refused, env, put};
use hearth_tools::{spill_if_large, ErrorKind};
use serde_json::{json, Value};

/// Spills a large result the way the registry does and returns the spill path.
async fn spilled(env: &crate::fs_tools::Env) -> String {
    let rows: Vec<Value> = (0..4000)
        .map(|n| json!({"row": n, "name": format!("item-{n}")}))
        .collect();
    let envelope = match spill_if_large(json!({"rows": rows}), &env.ctx.data_dir).await {
        Ok(envelope) => envelope,
        Err(e) => panic!("spill: {e:?}"),
    };
    envelope["spill_path"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn reads_slices_of_a_spilled_output() {
    let env = env();
    let path = spilled(&env).await;
    assert!(path.starts_with(&env.ctx.data_dir.join("spill").display().to_string()));
    let first = env.ok("read_spill", json!({"path": path})).await;
    let total = first["total_chars"].as_u64().unwrap_or_default();
    assert!(total > 50_000);
    assert_eq!(first["returned_chars"], 10_000);
    assert_eq!(first["next_offset"], 10_000);
    assert!(first["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("{\"rows\":[{")));
    let name = path.rsplit('/').next().unwrap_or_default();
    let tail = env
        .ok(
            "read_spill",
            json!({"path": name, "offset": total - 5, "limit": 20000}),
        )
        .await;
    let whole = crate::fs_tools::text(std::path::Path::new(&path));
    assert_eq!(tail["content"].as_str(), Some(&whole[whole.len() - 5..]));
    assert_eq!(total as usize, whole.chars().count());
    assert!(tail.get("next_offset").is_none());
    let past = env
        .err("read_spill", json!({"path": name, "offset": total + 1}))
        .await;
    assert_eq!(past.field.as_deref(), Some("offset"));
}

#[tokio::test]
async fn finds_pattern_matches_with_context() {
    let env = env();
    let path = spilled(&env).await;
    let found = env
        .ok(
            "read_spill",
            json!({"path": path, "pattern": "item-39(9|8)9"}),
        )
        .await;
    assert_eq!(found["count"], 2);
    assert_eq!(found["truncated"], false);
    let text = found["matches"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("\"name\":\"item-3989\""), "{text}");
    let offset = found["matches"][0]["offset"].as_u64().unwrap_or_default();
    let at = env
        .ok(
            "read_spill",
            json!({"path": path, "offset": offset, "limit": 9}),
        )
        .await;
    assert_eq!(at["content"], "item-3989");
    let many = env
        .ok("read_spill", json!({"path": path, "pattern": "item"}))
        .await;
    assert_eq!(
        (many["count"].as_u64(), many["truncated"].as_bool()),
        (Some(30), Some(true))
    );
}

#[tokio::test]
async fn only_the_spill_folder_is_readable() {
    let env = env();
    spilled(&env).await;
    put(&env.ctx.data_dir.join("config.toml"), b"secret = 1");
    put(&env.ws("notes.txt"), b"workspace file");
    let workspace_file = env.ws("notes.txt").display().to_string();
    let data_file = env.ctx.data_dir.join("config.toml").display().to_string();
    for path in [
        "../config.toml",
        "../ws/notes.txt",
        workspace_file.as_str(),
        data_file.as_str(),
        "/etc/passwd",
    ] {
        let error = env.err("read_spill", json!({"path": path})).await;
        assert_refused(&error, ErrorKind::NotPermitted, path);
        assert!(error.message.contains("spill folder"), "{error:?}");
    }
    let missing = env.err("read_spill", json!({"path": "nope.txt"})).await;
    assert_refused(&missing, ErrorKind::NotFound, "nope.txt");
    for (args, field) in [
        (json!({"path": "x", "limit": 20001}), "limit"),
        (json!({"path": "x", "limit": 0}), "limit"),
        (json!({"path": "x", "pattern": "(("}), "pattern"),
        (json!({"path": "x", "offset": -1}), "offset"),
        (json!({}), "path"),
    ] {
        let error = env.err("read_spill", args.clone()).await;
        assert_eq!(
            (error.kind, error.field.as_deref()),
            (ErrorKind::InvalidArguments, Some(field)),
            "{args}"
        );
    }
}

#[tokio::test]
async fn no_spill_folder_yet() {
    let env = env();
    let error = env.err("read_spill", json!({"path": "any.txt"})).await;
    assert_eq!(error.kind, ErrorKind::NotFound);
    assert!(error.message.contains("spilled"), "{error:?}");
}

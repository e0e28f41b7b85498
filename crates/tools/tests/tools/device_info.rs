//! get_device_info: every section, subsets, skills counting, and the absence of private data.

use crate::tools::{context, err, ok, registry, temp};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn number(value: &Value, key: &str) -> u64 {
    match value[key].as_u64() {
        Some(n) => n,
        None => panic!("{key} is not a count of bytes/seconds: {value}"),
    }
}

#[tokio::test]
async fn all_sections_by_default() {
    let info = ok("get_device_info", "{}").await;
    assert_eq!(
        keys(&info),
        set(&["memory", "network", "skills", "storage", "uptime", "version"])
    );
    assert_eq!(info["version"], json!(env!("CARGO_PKG_VERSION")));
    assert!(
        info["uptime"].as_u64().is_some_and(|s| s > 0),
        "{}",
        info["uptime"]
    );

    let memory = &info["memory"];
    assert_eq!(
        keys(memory),
        set(&["available", "swap_total", "swap_used", "total", "used"])
    );
    assert!(number(memory, "total") > 0);
    assert!(number(memory, "used") <= number(memory, "total"));
    assert!(number(memory, "swap_used") <= number(memory, "swap_total"));

    let network = &info["network"];
    assert_eq!(
        keys(network),
        set(&["interfaces", "total_received", "total_transmitted"])
    );
    number(network, "interfaces");
    number(network, "total_received");

    let storage = &info["storage"];
    assert_eq!(
        keys(storage),
        set(&["available", "mounts", "total", "used"])
    );
    assert_eq!(
        number(storage, "used"),
        number(storage, "total") - number(storage, "available")
    );
    let mounts = storage["mounts"].as_array().cloned().unwrap_or_default();
    assert!(!mounts.is_empty(), "no mounted volume seen");
    for mount in &mounts {
        assert_eq!(
            keys(mount),
            set(&[
                "available",
                "file_system",
                "kind",
                "mount_point",
                "removable",
                "total",
                "used"
            ])
        );
        assert!(number(mount, "available") <= number(mount, "total"));
        assert!(["ssd", "hdd", "unknown"].contains(&mount["kind"].as_str().unwrap_or_default()));
    }
    assert_eq!(
        info["skills"],
        json!({"installed": 0, "names": [], "enabled": [], "broken": 0})
    );
}

#[tokio::test]
async fn only_the_requested_sections() {
    let info = ok(
        "get_device_info",
        r#"{"fields": ["uptime", "version", "uptime"]}"#,
    )
    .await;
    assert_eq!(keys(&info), set(&["uptime", "version"]));
    let info = ok("get_device_info", r#"{"fields": null}"#).await;
    assert_eq!(keys(&info).len(), 6);
}

#[tokio::test]
async fn bad_fields_are_named() {
    let error = err("get_device_info", r#"{"fields": ["memory", "hostname"]}"#).await;
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(error.field.as_deref(), Some("fields[1]"));
    let error = err("get_device_info", r#"{"field": ["memory"]}"#).await;
    assert_eq!(error.field.as_deref(), Some("field"));
}

#[tokio::test]
async fn skills_lists_the_installed_and_enabled_skills_and_counts_broken_folders() {
    let dir = temp();
    let skills = dir.path().join("skills");
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills/tests/fixtures");
    for name in ["daily-report", "pico-weather"] {
        hearth_skills::install(&skills, &fixtures.join(name), None, None)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::create_dir_all(skills.join("empty").join("scripts")).unwrap_or_default();
    std::fs::write(skills.join("README.md"), "not a skill").unwrap_or_default();
    hearth_skills::set_enabled(dir.path(), "pico-weather", false).unwrap();
    let ctx = context(dir.path());
    let ceecore = registry(Dialect::Ceecore);
    let info = ceecore
        .dispatch("get_device_info", r#"{"fields": ["skills"]}"#, &ctx)
        .await;
    assert_eq!(
        info,
        Ok(json!({"skills": {
            "installed": 2,
            "names": ["daily-report", "pico-weather"],
            "enabled": ["daily-report"],
            "broken": 1
        }}))
    );
}

#[tokio::test]
async fn skills_dir_that_is_a_file_is_an_error_not_a_zero() {
    let dir = temp();
    std::fs::write(dir.path().join("skills"), "oops").unwrap_or_default();
    let info = registry(Dialect::Hearth)
        .dispatch(
            "get_device_info",
            r#"{"fields": ["skills"]}"#,
            &context(dir.path()),
        )
        .await;
    let error = info.err();
    assert_eq!(error.as_ref().map(|e| e.kind), Some(ErrorKind::Internal));
    assert!(error.is_some_and(|e| e.message.starts_with("cannot list skills")));
}

#[tokio::test]
async fn no_private_data() {
    let info = ok("get_device_info", "{}").await;
    let text = info.to_string();
    if let Some(host) = sysinfo::System::host_name().filter(|h| h.len() >= 4) {
        assert!(!text.contains(&host), "host name {host} leaked");
    }
    if let Ok(user) = std::env::var("USER") {
        let component = format!("/{user}/");
        assert!(!text.contains(&component), "user name {user} leaked");
    }
    for word in ["\"ip", "mac", "host", "serial", "\"name\""] {
        assert!(!text.to_lowercase().contains(word), "{word} in {text}");
    }
}

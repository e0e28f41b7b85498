//! `tools call`, `tools list` and `tools reference` through the registry.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn tools_call_runs_through_the_registry_and_reports_errors_as_json() {
    let cli = Cli::new();
    let out = cli
        .run(&[
            "tools",
            "call",
            "calculator",
            r#"{"action":"evaluate","expression":"2^10"}"#,
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["result"], json!(1024));

    for (args, kind) in [
        ("{not json", "invalid_arguments"),
        (r#"{"expression":"1+1"}"#, "invalid_arguments"),
        (
            r#"{"action":"evaluate","expression":"1/0"}"#,
            "invalid_arguments",
        ),
        (r#"{"action":"fly"}"#, "invalid_arguments"),
    ] {
        let out = cli.run(&["tools", "call", "calculator", args]).await;
        assert_eq!(out.status.code(), Some(1), "{args}");
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["error"]["kind"], kind, "{args}: {value}");
    }

    let out = cli.run(&["tools", "call", "no_such_tool", "{}"]).await;
    assert_eq!(out.status.code(), Some(1));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_found");

    let out = cli
        .run(&["tools", "call", "calculator", "{}", "--dialect", "klingon"])
        .await;
    assert_one_line_error(&out, "unknown dialect 'klingon'").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_list_shows_schemas_per_dialect() {
    let cli = Cli::new();
    let out = cli.run(&["tools", "list", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"calculator") && names.contains(&"get_device_info"),
        "{names:?}"
    );
    assert_eq!(tools[0]["parameters"]["type"], "object");

    let out = cli
        .run(&["tools", "list", "--dialect", "ceecore", "--json"])
        .await;
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"calculator"),
        "ceecore has no calculator: {names:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_reference_prints_the_generated_docs_tools_md() {
    let cli = Cli::new();
    let out = cli.run(&["tools", "reference"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let on_disk =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tools.md"))
            .unwrap();
    assert_eq!(printed, on_disk, "docs/tools.md is what the CLI prints");
    assert!(printed.contains("### picobot: `cron_list`"));
}

#[tokio::test(flavor = "multi_thread")]
async fn planning_tools_keep_their_state_across_invocations_and_clarify_needs_a_terminal() {
    let cli = Cli::new();
    let call = |tool: &'static str, args: &'static str| {
        let cli = &cli;
        async move {
            let out = cli.run(&["tools", "call", tool, args]).await;
            let value: Value = serde_json::from_slice(&out.stdout).unwrap();
            (out.status.code(), value)
        }
    };
    let (code, created) = call("todo", r#"{"action":"create","items":["Plan","Do"]}"#).await;
    assert_eq!(code, Some(0), "{created}");
    assert_eq!(created["revision"], 1);
    // A second process reads what the first stored.
    let (_, done) = call("todo", r#"{"action":"complete","task_id":"1"}"#).await;
    assert_eq!(
        (done["revision"].clone(), done["open"].clone()),
        (json!(2), json!(1))
    );
    let (_, task) = call("task", r#"{"action":"create","title":"Ship"}"#).await;
    let id = task["task"]["task_id"].as_str().unwrap().to_string();
    assert_eq!(id, "1");
    let (code, refused) = call("task", r#"{"action":"complete","task_id":"1"}"#).await;
    assert_eq!(code, Some(1));
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("from pending the allowed actions are start, cancel, update"),
        "{refused}"
    );
    // No terminal on stdin: nobody can answer.
    let (code, asked) = call(
        "clarify",
        r#"{"question":"Which one?","options":["a","b"]}"#,
    )
    .await;
    assert_eq!(code, Some(1));
    assert_eq!(asked["error"]["kind"], "unavailable", "{asked}");
}

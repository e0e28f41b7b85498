//! The artifact pipeline through `tools batch` in one session (create, append with a retry and
//! refusals, validate, finalize, deliver, append after finalize), then `artifacts list` and
//! `artifacts export`, and the same calls under `public_gateway`.

use super::*;

fn batch(cli: &Cli, name: &str, calls: &[Value]) -> std::path::PathBuf {
    let file = cli.home.path().join(name);
    let lines: Vec<String> = calls.iter().map(Value::to_string).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    file
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

fn results(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_whole_pipeline_runs_through_tools_batch_and_the_artifact_exports() {
    let cli = Cli::new();
    let create = batch(
        &cli,
        "create.jsonl",
        &[call(
            "artifact_create",
            json!({"filename": "report.md", "title": "季度报告"}),
        )],
    );
    let out = cli.run(&["tools", "batch", create.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let id = results(&out)[0]["result"]["artifact_id"]
        .as_str()
        .unwrap()
        .to_string();
    let a = |args: Value| {
        let mut args = args;
        args["artifact_id"] = id.clone().into();
        args
    };
    let first = "# 季度报告\n\n收入增长百分之十二。\n";
    let second = "\nRevenue grew by twelve percent.\n";
    let calls = [
        call(
            "artifact_append",
            a(json!({"sequence": 0, "content": first})),
        ),
        call(
            "artifact_append",
            a(json!({"sequence": 0, "content": first})),
        ),
        call(
            "artifact_append",
            a(json!({"sequence": 0, "content": "other"})),
        ),
        call(
            "artifact_append",
            a(json!({"sequence": 2, "content": second})),
        ),
        call(
            "artifact_append",
            a(json!({"sequence": 1, "content": second, "expected_bytes": 3})),
        ),
        call(
            "artifact_append",
            a(json!({"sequence": 1, "content": second, "expected_bytes": first.len()})),
        ),
        call("artifact_validate", a(json!({}))),
        call("artifact_finalize", a(json!({}))),
        call(
            "artifact_append",
            a(json!({"sequence": 2, "content": "late"})),
        ),
        call("artifact_deliver", a(json!({"caption": "报告在此"}))),
        call("artifact_create", json!({"filename": "tool.exe"})),
    ];
    let file = batch(&cli, "pipeline.jsonl", &calls);
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    let r = results(&out);
    assert_eq!(r.len(), calls.len(), "{}", text(&out.stderr));
    assert_eq!(r[0]["result"]["status"], "appended", "{}", r[0]);
    assert_eq!(r[1]["result"]["status"], "already_appended", "{}", r[1]);
    let error = |i: usize| {
        r[i]["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(error(2).contains("already holds other content"), "{}", r[2]);
    assert!(
        error(3).contains("gap") && error(3).contains("expected sequence 1"),
        "{}",
        r[3]
    );
    assert!(
        error(4).contains(&format!("has {} bytes", first.len())),
        "{}",
        r[4]
    );
    assert_eq!(r[5]["result"]["next_sequence"], 2, "{}", r[5]);
    assert_eq!(r[6]["result"]["valid"], true, "{}", r[6]);
    assert_eq!(r[6]["result"]["stats"]["headings"], 1);
    assert_eq!(r[6]["result"]["stats"]["english_words"], 5);
    assert_eq!(r[7]["result"]["state"], "final", "{}", r[7]);
    assert!(error(8).contains("finalized"), "{}", r[8]);
    assert_eq!(r[9]["result"]["mode"], "file", "{}", r[9]);
    assert_eq!(r[9]["result"]["session_id"], "cli:tools");
    assert!(error(10).contains("not allowed"), "{}", r[10]);

    // The delivered message is in the session as an artifact part, with no path.
    let session = cli.session_json("cli:tools").await;
    let delivered = session.to_string();
    let size = (first.len() + second.len()) as u64;
    let card = json!({"type": "artifact", "id": id, "name": "report.md", "size": size});
    assert_eq!(session["messages"][0]["content"][1], card, "{delivered}");
    assert!(
        !delivered.contains(cli.home.path().to_str().unwrap()),
        "{delivered}"
    );

    let listed = cli
        .run(&["artifacts", "list", "--session", "cli:tools", "--json"])
        .await;
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["state"], "final");
    assert_eq!(listed[0]["title"], "季度报告");
    let target = cli.home.path().join("exported.md");
    let out = cli
        .run(&["artifacts", "export", &id, target.to_str().unwrap()])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        format!("{first}{second}")
    );
    let missing = cli
        .run(&["artifacts", "export", "art_none", target.to_str().unwrap()])
        .await;
    assert_one_line_error(&missing, "no artifact art_none").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn artifacts_stay_available_under_public_gateway() {
    let cli = Cli::new();
    let file = batch(
        &cli,
        "gateway.jsonl",
        &[
            call("artifact_create", json!({"filename": "a.txt"})),
            call("write_file", json!({"path": "a.txt", "content": "x"})),
        ],
    );
    let out = cli
        .run(&[
            "tools",
            "batch",
            "--security",
            "public_gateway",
            file.to_str().unwrap(),
        ])
        .await;
    let r = results(&out);
    assert_eq!(r[0]["ok"], true, "{}", r[0]);
    assert_eq!(r[1]["error"]["kind"], "not_permitted", "{}", r[1]);
}

//! Jobs bound to a skill: a CeeCore skill's `schedule_task` (in a skill run) makes a job bound
//! to the skill, and the job's run — in this process, under `daemon` security — is a skill run:
//! the skill's instructions, the `ceecore` tool names, and only what its manifest declares (its
//! `http_request` refused naming the manifest, nothing reaching the local server, audited).
//! Switching the skill off fails its job's next run with the reason.

use super::skills::daily_report_with;
use super::*;

fn offered(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_job_a_ceecore_skill_schedules_runs_as_that_skill_under_daemon() {
    let cli = Cli::new();
    let work = tempfile::tempdir().unwrap();
    let source = daily_report_with(work.path(), &["cron", "file", "notification"]);
    let out = cli
        .run(&["skills", "install", source.to_str().unwrap(), "--yes"])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));

    let server = ScriptedServer::start().await;
    let base = server.openai_base();
    let model = [
        "--provider",
        "openai",
        "--base-url",
        base.as_str(),
        "--model",
        "test-model",
    ];
    server.push(Reply::tool_call(
        "schedule_task",
        json!({"name": "evening-report", "schedule": "0 18 * * *", "action": "write today's report"}),
    ));
    server.push(Reply::text("Scheduled the evening report."));
    let mut args = model.to_vec();
    args.extend(["skills", "run", "daily-report", "--approve", "schedule it"]);
    let out = cli.run(&args).await;
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out = cli.run(&["jobs", "list", "--json"]).await;
    let jobs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let job = jobs
        .as_array()
        .and_then(|jobs| jobs.iter().find(|j| j["name"] == "evening-report"))
        .or_else(|| {
            jobs["jobs"]
                .as_array()
                .and_then(|jobs| jobs.iter().find(|j| j["name"] == "evening-report"))
        })
        .unwrap_or_else(|| panic!("no job in {jobs}"));
    assert_eq!(job["skill"], "daily-report", "{job}");

    // The run: the model tries the status endpoint the manifest does not allow.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let status_url = format!("http://{}/status", listener.local_addr().unwrap());
    server.push(Reply::tool_call(
        "http_request",
        json!({"url": status_url, "method": "GET"}),
    ));
    server.push(Reply::text(
        "The report is written; the status was not reachable.",
    ));
    let mut args = model.to_vec();
    args.extend(["jobs", "run", "evening-report"]);
    let out = cli.run(&args).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("the status was not reachable"),
        "{}",
        text(&out.stdout)
    );

    let requests = server.model_requests();
    let run = &requests[2].body;
    let tools = offered(run);
    assert!(!tools.iter().any(|t| t == "http_request"), "{tools:?}");
    assert!(
        tools.iter().any(|t| t == "read_file") && tools.iter().any(|t| t == "send_notification"),
        "the ceecore names: {tools:?}"
    );
    assert!(
        run.to_string().contains("Search memory for today's notes"),
        "the skill's instructions start the run"
    );
    assert!(run.to_string().contains("write today's report"));
    let refused = requests[3].body.to_string();
    assert!(refused.contains("not_permitted"), "{refused}");
    assert!(
        refused.contains("manifest.json declares permissions [cron, file, notification]"),
        "{refused}"
    );
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a request reached the local server"
    );
    let db = rusqlite::Connection::open(cli.db()).unwrap();
    let actor: String = db
        .query_row(
            "SELECT actor FROM audit_log WHERE tool = 'http_request' AND decision = 'deny'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(actor, "skill daily-report");

    // Switched off, the skill's job fails with the reason instead of running without it.
    let out = cli.run(&["skills", "disable", "daily-report"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut args = model.to_vec();
    args.extend(["jobs", "run", "evening-report"]);
    let out = cli.run(&args).await;
    assert!(!out.status.success());
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(said.contains("switched off"), "{said}");
    assert_eq!(
        server.model_requests().len(),
        4,
        "no model call for the refused run"
    );
}
